"""Consolidated EUR-Lex texts (norm markup) read through the OJ parser."""

from __future__ import annotations

import re

import pytest

from pincite.corpus.checks import check_parse, corpus_counts
from pincite.corpus.formats.consolidated import is_consolidated, parse_consolidated
from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.result import Act
from tests.conftest import CORPORA, need_shared


def _parse(relative: str, lang: str = "en"):
    data = need_shared(CORPORA / relative).read_bytes()
    return parse_consolidated(data, Act("x", lang, "02016R0679-20160504", "https://eur-lex/x", "sha"))


@pytest.fixture(scope="module")
def gdpr_2016():
    return _parse("gdpr/en.consolidated-20160504.xhtml")


@pytest.fixture(scope="module")
def by_label(gdpr_2016):
    return {p.label: p for p in gdpr_2016.provisions}


def test_consolidated_markup_is_recognised():
    assert is_consolidated(need_shared(CORPORA / "gdpr/en.consolidated-20160504.xhtml").read_bytes())
    assert not is_consolidated(need_shared(CORPORA / "gdpr/en.html").read_bytes())


def test_the_consolidated_gdpr_has_the_shape_of_the_act(gdpr_2016):
    counts = corpus_counts(gdpr_2016.provisions)
    assert (counts["enacting"], counts["articles"], counts["definitions"], counts["recitals"]) == (414, 99, 26, 0)
    check_parse(gdpr_2016)


def test_amendment_markers_stay_out_of_the_text():
    for relative, lang in [("gdpr/en.consolidated-20160504.xhtml", "en"), ("gdpr/it.consolidated-20160504.html", "it"),
                           ("eurlex-extra/02002L0058-20091219.eprivacy.en.consolidated.html", "en")]:
        result = _parse(relative, lang)
        assert not [p.label for p in result.provisions if re.search("[►▼◄]", p.text + p.title)]


def test_the_corrigendum_is_applied(by_label):
    assert "pursuant to Article 9 or personal data relating to criminal convictions" in by_label["Article 37(1)"].text


def test_subparagraphs_after_the_points_stay_in_their_paragraph(by_label):
    assert by_label["Article 6(1)"].text.splitlines()[-1] == (
        "Point (f) of the first subparagraph shall not apply to processing carried out by public authorities "
        "in the performance of their tasks.")


def test_footnote_calls_leave_no_brackets(by_label):
    assert by_label["Article 4(25)"].text.endswith("of the European Parliament and of the Council;")


def test_paragraph_text_matches_the_official_journal(gdpr_2016):
    oj = parse_eurlex(need_shared(CORPORA / "gdpr/en.html").read_bytes(), Act("x", "en", "c", "u", "s"))
    same = {p.label for p in oj.provisions} & {p.label for p in gdpr_2016.provisions}
    texts = {p.label: p.text for p in oj.provisions}
    identical = sum(texts[p.label] == p.text for p in gdpr_2016.provisions if p.label in same)
    assert len(same) == 414 and identical >= 395  # the rest differ by the corrigenda


def test_version_and_anchors_point_at_the_consolidated_text(by_label):
    p = by_label["Article 33(1)"]
    assert (p.version, p.url) == ("Consolidated text 04.05.2016", "https://eur-lex/x#art_33")


def test_consolidated_annexes_are_read():
    result = _parse("ai-act/nl.consolidated-20240712.html", "nl")
    assert corpus_counts(result.provisions)["annexes"] == 13
