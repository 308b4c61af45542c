"""Each sanity check fires on deliberately broken input, names the provision, and lets sound input through."""

from __future__ import annotations

import dataclasses

import pytest

from pincite.corpus.checks import check_parse, corpus_counts
from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.result import Act
from pincite.errors import CorpusCheckError
from pincite.sources.catalog import Expected
from tests.markup_builder import FINAL, article, document, p, paragraph, point, recital

ACT = Act("test", "en", "32099R0001", "https://eur-lex.example/act", "0" * 64)


def sound_document(final: str = FINAL) -> bytes:
    return document(
        recitals=recital(1, "A recital."),
        enacting=article(4, "Definitions", p("For the purposes of this Regulation:"),
                         point("(1)", p("‘personal data’ means any information;")),
                         point("(2)", p("‘processing’ means any operation;")))
        + article(99, "Entry into force", paragraph(99, 1, p("1. It shall enter into force.")),
                  paragraph(99, 2, p("2. It shall apply from 25 May 2018."),
                            point("(a)", p("first,"), point("(i)", p("inner text that must survive"))))),
        final=final,
    )


def replace(result, label: str, **changes):
    result.provisions = [dataclasses.replace(x, **changes) if x.label == label else x for x in result.provisions]
    return result


def test_sound_corpus_passes():
    result = parse_eurlex(sound_document(), ACT)
    assert check_parse(result, Expected(enacting=4, articles=2, recitals=1)) is None


def test_closing_article_swallowing_the_signatures_is_refused():
    # The signature block nested inside the last article, as a greedy parser would take it.
    broken = sound_document(final="").replace(
        b"2. It shall apply from 25 May 2018.</p>", b"2. It shall apply from 25 May 2018.</p>" + FINAL.encode())
    result = parse_eurlex(broken + FINAL.encode(), ACT)
    with pytest.raises(CorpusCheckError, match=r"Article 99\(2\): text swallows"):
        check_parse(result)


def test_nested_sub_point_cut_short_is_refused():
    result = parse_eurlex(sound_document(), ACT)
    good = next(x for x in result.provisions if x.label == "Article 99(2)").text
    # What a non-greedy match stopping at the inner table cell produces.
    replace(result, "Article 99(2)", text=good.split("inner text")[0].rstrip())
    with pytest.raises(CorpusCheckError, match=r"Article 99\(2\): text differs from its source"):
        check_parse(result)


def test_paragraph_ending_on_a_lead_in_is_refused():
    result = parse_eurlex(sound_document(), ACT)
    replace(result, "Article 99(2)", text="2. It shall apply where:")
    result.source_texts.pop(f"{ACT.instrument}/en/art-99.par-2")
    with pytest.raises(CorpusCheckError, match="points were cut off"):
        check_parse(result)


def test_definitions_collapsed_into_one_provision_are_refused():
    # Definitions printed as plain paragraphs without numbers the parser can split on.
    doc = document(enacting=article(4, "Definitions", p("For the purposes of this Regulation:"),
                                    p("‘personal data’ means any information;"),
                                    p("‘processing’ means any operation;")))
    with pytest.raises(CorpusCheckError, match=r"Article 4: definitions article was not split"):
        check_parse(parse_eurlex(doc, ACT))


def test_several_definitions_inside_one_provision_are_refused():
    result = parse_eurlex(sound_document(), ACT)
    replace(result, "Article 99(1)", text="(1) ‘a’ means x;\n(2) ‘b’ means y;\n(3) ‘c’ means z;")
    result.source_texts.clear()
    with pytest.raises(CorpusCheckError, match="3 definitions collapsed"):
        check_parse(result)


def test_text_that_is_markup_is_refused():
    result = parse_eurlex(sound_document(), ACT)
    replace(result, "Article 99(1)", text='1. <p class="oj-normal">It shall enter into force.</p>')
    result.source_texts.clear()
    with pytest.raises(CorpusCheckError, match="text contains markup"):
        check_parse(result)


def test_empty_text_is_refused():
    result = parse_eurlex(sound_document(), ACT)
    replace(result, "Article 99(1)", text="  ")
    with pytest.raises(CorpusCheckError, match=r"Article 99\(1\): empty text"):
        check_parse(result)


def test_duplicate_labels_are_refused():
    doc = document(enacting=article(5, "A", p("One.")) + article(5, "A", p("Two.")))
    with pytest.raises(CorpusCheckError, match="duplicate id"):
        check_parse(parse_eurlex(doc, ACT))


def test_counts_far_from_the_expected_shape_are_refused():
    with pytest.raises(CorpusCheckError, match="4 enacting parsed, expected 414"):
        check_parse(parse_eurlex(sound_document(), ACT), Expected(enacting=414))


def test_counts_follow_the_design_shape():
    counts = corpus_counts(parse_eurlex(sound_document(), ACT).provisions)
    assert (counts["enacting"], counts["definitions"], counts["articles"], counts["recitals"]) == (4, 2, 2, 1)
