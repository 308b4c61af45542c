"""Thai text: numerals, the split sara am, word segmentation for BM25."""

from __future__ import annotations

from pincite.corpus.formats.thai_text import repair_sara_am, to_arabic
from pincite.index.analysis import segment, tokenize, tokenize_thai


def test_thai_numerals_become_arabic():
    assert to_arabic("มาตรา ๒๖ วรรค ๓") == "มาตรา 26 วรรค 3"


def test_split_sara_am_with_a_space_is_repaired():
    assert repair_sara_am("จ านวน") == "จำนวน"


def test_split_sara_am_after_a_tone_mark_keeps_the_tone_mark_first():
    assert repair_sara_am("ซ้ ากับ") == "ซ้ำกับ"


def test_sara_am_drawn_as_nikhahit_plus_sara_aa_is_repaired():
    assert repair_sara_am("อ\u0e4dานาจ") == "อำนาจ"


def test_a_space_before_sara_aa_that_follows_no_thai_consonant_stays():
    assert repair_sara_am("A า") == "A า"


def test_segmentation_splits_words_written_without_spaces():
    assert segment("ข้อมูลส่วนบุคคล") == ["ข้อมูล", "ส่วนบุคคล"]


def test_thai_tokens_drop_function_words_but_keep_legal_ones():
    tokens = tokenize_thai("ผู้ควบคุมต้องแจ้งเหตุการละเมิดและไม่ชักช้า")
    assert "ต้อง" in tokens and "ไม่" in tokens and "และ" not in tokens


def test_thai_tokens_read_thai_digits_and_keep_english_and_amounts():
    tokens = tokenize("ปรับไม่เกิน ๕,๐๐๐,๐๐๐ บาท ตามมาตรา ๒๖ consent", "th")
    assert {"5000000", "26", "consent", "ปรับ"} <= set(tokens)


def test_split_sara_am_in_a_query_finds_the_repaired_word():
    assert "จำนวน" in tokenize("จ านวนเงิน", "th")


def test_other_languages_are_not_segmented():
    assert tokenize("Personal data breach", "en") == ["person", "data", "breach"]


def test_a_point_numbered_in_thai_digits_is_the_point_a_citation_names():
    from pincite.citations.layout import point_text, top_points
    from pincite.verify.claims import lookup_label
    from tests.test_support import prov

    text = "ให้บังคับตามบทบัญญัติแห่งกฎหมายว่าด้วยการนั้น เว้นแต่\n(๑) บทบัญญัติเกี่ยวกับการเก็บรวบรวม\n(๒) บทบัญญัติเกี่ยวกับสิทธิของเจ้าของข้อมูล"
    assert top_points(text) == [("1",), ("2",)]
    assert point_text(text, ("2",)).endswith("(๒) บทบัญญัติเกี่ยวกับสิทธิของเจ้าของข้อมูล")
    cited = lookup_label("Section 3, point (2)", [prov("Section 3", text)])
    assert cited is not None and "สิทธิของเจ้าของข้อมูล" in cited.text and "การเก็บรวบรวม" not in cited.text
