"""The EUR-Lex parser on small synthetic markup written here."""

from __future__ import annotations

import pytest

from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.result import Act
from pincite.errors import ParseError
from tests.markup_builder import (
    NBSP,
    annex,
    article,
    chapter,
    document,
    p,
    paragraph,
    point,
    recital,
)

ACT = Act("test", "en", "32099R0001", "https://eur-lex.example/act", "0" * 64)


def parse(data: bytes, act: Act = ACT):
    return parse_eurlex(data, act)


def by_label(result, label: str):
    return next(p for p in result.provisions if p.label == label)


def test_numbered_paragraphs_become_provisions_with_points_inline():
    doc = document(enacting=article(
        33, "Notification",
        paragraph(33, 1, p(f"1.{NBSP}{NBSP}{NBSP}The controller shall notify within 72 hours.")),
        paragraph(33, 2, p(f"2.{NBSP}{NBSP}{NBSP}The notification shall at least:"),
                  point("(a)", p("describe the nature;")), point("(b)", p("communicate the name."))),
    ))
    result = parse(doc)
    assert [x.label for x in result.provisions] == ["Article 33(1)", "Article 33(2)"]
    assert by_label(result, "Article 33(2)").text == (
        "2. The notification shall at least:\n(a) describe the nature;\n(b) communicate the name."
    )


def test_nested_sub_points_keep_all_their_text_indented():
    doc = document(enacting=article(
        4, "Scope",
        paragraph(4, 1, p("1. This applies where:"),
                  point("(a)", p("the first limb holds:"),
                        point("(i)", p("inner one;")), point("(ii)", p("inner two; and"))),
                  point("(b)", p("the second limb, after the nested table, holds."))),
    ))
    text = by_label(parse(doc), "Article 4(1)").text
    assert text.splitlines() == [
        "1. This applies where:",
        "(a) the first limb holds:",
        "  (i) inner one;",
        "  (ii) inner two; and",
        "(b) the second limb, after the nested table, holds.",
    ]


def test_footnote_calls_do_not_leak_and_superscripts_keep_their_meaning():
    call = '<a id="ntc1-X-E0001" href="#ntr1-X-E0001">(<span class="oj-super oj-note-tag">1</span>)</a>'
    doc = document(enacting=article(
        51, "Thresholds",
        paragraph(51, 1, p(f'1. Greater than 10<span class="oj-super">25</span> operations{call}.')),
    ))
    assert by_label(parse(doc), "Article 51(1)").text == "1. Greater than 10^25 operations."


def test_article_without_numbered_paragraphs_is_one_provision():
    doc = document(enacting=article(16, "Right to rectification", p("The data subject shall have the right.")))
    (only,) = parse(doc).provisions
    assert (only.label, only.kind, only.text) == ("Article 16", "article", "The data subject shall have the right.")


def test_definitions_article_is_split_into_one_provision_per_definition():
    doc = document(enacting=article(
        4, "Definitions", p("For the purposes of this Regulation:"),
        point("(1)", p("‘personal data’ means any information;")),
        point("(2)", p("‘main establishment’ means:"), point("(a)", p("as regards a controller, A;")),
              point("(b)", p("as regards a processor, B;"))),
        point("(3)", p("‘consent’ means any indication."))),
    )
    result = parse(doc)
    assert [x.label for x in result.provisions] == ["Article 4(1)", "Article 4(2)", "Article 4(3)"]
    assert by_label(result, "Article 4(2)").text.endswith("(b) as regards a processor, B;")
    # The lead-in belongs to every definition.
    assert by_label(result, "Article 4(3)").text == "For the purposes of this Regulation:\n(3) ‘consent’ means any indication."
    assert {x.kind for x in result.provisions} == {"definition"}


def test_italian_definitions_written_as_paragraphs_are_split_too():
    act = Act("test", "it", "32099R0001", "https://eur-lex.example/act", "0" * 64)
    doc = document(enacting=article(
        4, "Definizioni", p("Ai fini del presente regolamento s'intende per:"),
        p("1) «dato personale»: qualsiasi informazione;"),
        p("2) «autorità interessata»: un'autorità in quanto:"), point("a)", p("il titolare è stabilito;")),
        p("3) «consenso»: qualsiasi manifestazione."), heading="Articolo"),
    )
    result = parse(doc, act)
    assert by_label(result, "Article 4(2)").text == (
        "Ai fini del presente regolamento s'intende per:\n"
        "2) «autorità interessata»: un'autorità in quanto:\na) il titolare è stabilito;")


def test_recitals_are_their_own_kind():
    result = parse(document(recitals=recital(47, "The legitimate interests of a controller."),
                            enacting=article(1, "Subject matter", p("This Regulation lays down rules."))))
    rec = by_label(result, "Recital 47")
    assert (rec.kind, rec.text) == ("recital", "(47) The legitimate interests of a controller.")


def test_chapter_and_section_path_and_title():
    doc = document(enacting=chapter("IV", "Controller and processor", article(
        33, "Notification of a personal data breach", paragraph(33, 1, p("1. Notify.")))))
    prov = parse(doc).provisions[0]
    assert (prov.path, prov.title) == (["Chapter IV"], "Notification of a personal data breach")


def test_deep_link_points_at_the_paragraph_anchor():
    doc = document(enacting=article(33, "N", paragraph(33, 1, p("1. Notify."))))
    assert parse(doc).provisions[0].url == "https://eur-lex.example/act#033.001"


def test_version_from_old_oj_header():
    doc = document(enacting=article(1, "S", p("Text.")))
    assert parse(doc).version == "OJ L 119, 4.5.2016"


def test_version_from_new_oj_header():
    header = ('<table><tbody><tr><td><p class="oj-hd-uniq">2024/1689</p></td>'
              '<td><p class="oj-hd-date">12.7.2024</p></td></tr></tbody></table>')
    doc = document(enacting=article(1, "S", p("Text.")), header=header)
    assert parse(doc).version == "OJ L, 2024/1689, 12.7.2024"


def test_annex_split_on_numbered_items_each_carrying_the_lead_in():
    doc = document(enacting=article(1, "S", p("Text.")), annexes=annex(
        "III", "High-risk AI systems", p("Systems listed in the following areas:"),
        point("1.", p("Biometrics:"), point("(a)", p("remote identification;"))),
        point("2.", p("Critical infrastructure."))))
    result = parse(doc)
    item = by_label(result, "Annex III, point 1")
    assert item.text == "Systems listed in the following areas:\n1. Biometrics:\n  (a) remote identification;"
    assert (item.kind, item.title) == ("annex", "High-risk AI systems")
    assert result.annex_count == 1


def test_annex_without_numbered_items_stays_whole():
    doc = document(enacting=article(1, "S", p("Text.")), annexes=annex(
        "II", "Criminal offences", p("Offences:"), point("—", p("terrorism,")), point("—", p("trafficking."))))
    (anx,) = [x for x in parse(doc).provisions if x.kind == "annex"]
    assert (anx.label, anx.text) == ("Annex II", "Offences:\n— terrorism,\n— trafficking.")


def test_page_that_is_not_an_act_is_a_parse_error():
    with pytest.raises(ParseError, match="no articles"):
        parse(b"<html><body><p>The requested document does not exist.</p></body></html>")


def test_signatures_scripts_and_footnotes_are_not_provision_text():
    result = parse(document(enacting=article(99, "Entry into force",
                                             paragraph(99, 1, p("1. It shall enter into force.")),
                                             paragraph(99, 2, p("2. It shall apply from 25 May 2018.")))))
    assert by_label(result, "Article 99(2)").text == "2. It shall apply from 25 May 2018."
    assert any("Done at Brussels" in t for t in result.foreign_texts)
    assert any("tracking code" in t for t in result.foreign_texts)
