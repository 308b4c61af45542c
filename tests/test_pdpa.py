"""Thailand's PDPA from the Royal Gazette PDF: 96 sections, checked against SiData+'s transcription."""

from __future__ import annotations

import hashlib
import re

import pytest
from pdpa_agreement import agreement

from pincite.corpus.formats.thai_statute import parse_thai_statute
from pincite.retrieve.search import Searcher
from pincite.settings import load_settings
from pincite.sources.catalog import NAMED
from pincite.testing import keyword_searcher
from tests.conftest import CORPORA, need_shared

PDF = CORPORA / "pdpa" / "th.pdf"


@pytest.fixture(scope="module")
def pdpa():
    data = need_shared(PDF).read_bytes()
    return parse_thai_statute(data, NAMED["pdpa"], "th", hashlib.sha256(data).hexdigest(), "file:///th.pdf")


@pytest.fixture(scope="module")
def sections(pdpa):
    return {p.label: p for p in pdpa.provisions}


def test_the_act_has_96_sections_numbered_in_order(pdpa):
    assert [p.label for p in pdpa.provisions] == [f"Section {n}" for n in range(1, 97)]


def test_thai_numerals_become_arabic_in_ids_and_labels(sections):
    s = sections["Section 26"]
    assert (s.id, s.label, s.label_local, s.kind) == ("pdpa/th/sec-26", "Section 26", "มาตรา 26", "section")


def test_sections_carry_their_chapter_and_part(sections):
    s = sections["Section 26"]
    assert (s.path, s.path_titles) == (["หมวด 2", "ส่วนที่ 2"], ["การคุ้มครองข้อมูลส่วนบุคคล", "การเก็บรวบรวมข้อมูลส่วนบุคคล"])


def test_sections_before_the_first_chapter_have_no_path(sections):
    assert sections["Section 7"].path == []


def test_transitional_provisions_are_their_own_heading(sections):
    assert sections["Section 91"].path == ["บทเฉพาะกาล"]


def test_penalty_sections_sit_in_chapter_7_parts_1_and_2(sections):
    assert (sections["Section 79"].path, sections["Section 90"].path) == (["หมวด 7", "ส่วนที่ 1"], ["หมวด 7", "ส่วนที่ 2"])


def test_no_split_sara_am_is_left(pdpa):
    text = "\n".join(p.text for p in pdpa.provisions)
    assert not re.search(r"[\u0e01-\u0e2e][\u0e48-\u0e4b]?(?: |\u0e4d)\u0e32", text)


def test_section_text_is_the_body_without_the_heading(sections):
    assert sections["Section 1"].text == "พระราชบัญญัตินี้เรียกว่า “พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒”"


def test_paragraphs_and_points_keep_a_line_each(sections):
    lines = sections["Section 26"].text.splitlines()
    assert lines[1].startswith("(๑) เพื่อป้องกันหรือระงับอันตราย") and any(ln.startswith("  (ก) ") for ln in lines)


def test_the_breach_deadline_is_in_section_37(sections):
    assert "ภายในเจ็ดสิบสองชั่วโมงนับแต่ทราบเหตุ" in sections["Section 37"].text


def test_the_last_section_does_not_swallow_the_countersignature_or_the_note(sections):
    text = sections["Section 96"].text
    assert "ผู้รับสนองพระบรมราชโองการ" not in text and "หมายเหตุ" not in text and "นายกรัฐมนตรี" not in text


def test_running_headers_never_enter_the_text(pdpa):
    assert not any("ราชกิจจานุเบกษา ๒๗ พฤษภาคม" in p.text for p in pdpa.provisions)


def test_version_and_links_come_from_the_gazette(sections):
    s = sections["Section 79"]
    assert s.version == "ราชกิจจานุเบกษา เล่ม 136 ตอนที่ 69 ก, 27 พฤษภาคม 2562"
    assert s.url == "http://www.ratchakitcha.soc.go.th/DATA/PDF/2562/A/069/T_0052.PDF#page=38"


def test_character_agreement_with_the_independent_transcription(pdpa):
    need_shared(CORPORA / "pdpa" / "sidataplus-md")
    scores = agreement(pdpa.provisions)
    assert len(scores) == 96
    assert sum(scores.values()) / 96 >= 0.998
    assert sum(v >= 0.99 for v in scores.values()) >= 94 and min(scores.values()) >= 0.92


def _bm25_searcher(provisions) -> Searcher:
    return keyword_searcher(provisions, load_settings(), "th")


def test_a_thai_question_finds_the_breach_section_by_keywords(pdpa):
    hits = _bm25_searcher(pdpa.provisions).search("ต้องแจ้งเหตุการละเมิดข้อมูลส่วนบุคคลภายในกี่ชั่วโมง", k=3, mode="bm25")
    assert "Section 37" in [h.provision.label for h in hits]


def test_a_section_named_in_thai_numerals_is_found_first(pdpa):
    hits = _bm25_searcher(pdpa.provisions).search("มาตรา ๒๖ ว่าอย่างไร", k=3, mode="bm25")
    assert (hits[0].provision.label, hits[0].exact) == ("Section 26", True)
