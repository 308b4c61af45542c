import doctest
import re
import time

import pytest

import pincite.citations
from pincite.citations import (
    Citation,
    contains,
    find_citations,
    format_label,
    hits,
    parse_label,
    same,
    sort_key,
)
from pincite.errors import CitationError


def art(number, paragraph=None, *points):
    return Citation("article", number, paragraph, tuple(points))


def annex(number, *points):
    return Citation("annex", number, points=tuple(points))


# -- parsing ---------------------------------------------------------------------------

ENGLISH = [
    ("Article 33(1)", art("33", "1")),
    ("Art. 33(1)", art("33", "1")),
    ("Art 33 (1)", art("33", "1")),
    ("Article 5(1)(f)", art("5", "1", "f")),
    ("Article 5(1), point (f)", art("5", "1", "f")),
    ("Article 5(1)(a)(ii)", art("5", "1", "a", "ii")),
    ("Article 16", art("16")),
    ("Article 4(11)", art("4", "11")),
    ("Article 4, point (11)", art("4", "11")),
    ("Article 4a", art("4a")),
    ("Article 10, point (a)", art("10", None, "a")),
    ("Article 5(1), first subparagraph, point (g)", art("5", "1", "g")),
    ("point (a) of Article 6(1)", art("6", "1", "a")),
    ("Article 5(1)(F)", art("5", "1", "f")),
    ("  article   33 ( 1 ) ", art("33", "1")),
    ("Article 033(01)", art("33", "1")),
    ("Annex III", annex("III")),
    ("annex iii", annex("III")),
    ("Annex III, point 4", annex("III", "4")),
    ("Annex III point 4(a)", annex("III", "4", "a")),
    ("Annex IV, point 2(b)", annex("IV", "2", "b")),
    ("Recital 47", Citation("recital", "47")),
    ("recital (47)", Citation("recital", "47")),
    ("Section 26", Citation("section", "26")),
    ("FC-5.2.6", Citation("rule", "FC-5.2.6")),
    ("HC-3.4.1", Citation("rule", "HC-3.4.1")),
    ("handbook.pdf, p. 12", Citation("page", "12", document="handbook.pdf")),
    ("handbook.pdf, p. iv", Citation("page", "iv", document="handbook.pdf")),
    ("p. 3", Citation("page", "3")),
]

LOCAL = [
    ("Articolo 5, paragrafo 1, lettera f)", art("5", "1", "f")),
    ("articolo 33", art("33")),
    ("Art. 33, par. 1", art("33", "1")),
    ("articolo 5, paragrafo 1, primo comma, lettera h), punto iii)", art("5", "1", "h", "iii")),
    ("articolo 4 bis", art("4a")),
    ("Allegato III, punto 4", annex("III", "4")),
    ("Allegato III, punto 1, lettera a)", annex("III", "1", "a")),
    ("Considerando 47", Citation("recital", "47")),
    ("Article 5, paragraphe 1, point f)", art("5", "1", "f")),
    ("Article 5, paragraphe 1, point h) iii)", art("5", "1", "h", "iii")),
    ("Article premier", art("1")),
    ("article 4 ter", art("4b")),
    ("Annexe III, point 4", annex("III", "4")),
    ("Annexe III, point 1 a)", annex("III", "1", "a")),
    ("Considérant 47", Citation("recital", "47")),
    ("Conside\u0301rant 47", Citation("recital", "47")),
    ("มาตรา 26", Citation("section", "26")),
    ("มาตรา ๒๖", Citation("section", "26")),
    ("มาตรา๒๖", Citation("section", "26")),
]


@pytest.mark.parametrize(("label", "expected"), ENGLISH + LOCAL)
def test_parse_label(label, expected):
    assert parse_label(label) == expected


def test_rule_pattern_can_be_overridden():
    assert parse_label("R.12.3", rule_pattern=r"R\.\d+(?:\.\d+)*") == Citation("rule", "R.12.3")


def test_default_rule_pattern_rejects_other_ids():
    with pytest.raises(CitationError):
        parse_label("R.12.3")


def test_article_6_and_60_differ():
    assert parse_label("Article 6") != parse_label("Article 60")


def test_letter_suffix_is_not_the_bare_article():
    assert parse_label("Article 4a") != parse_label("Article 4")


def test_recital_and_article_with_same_number_differ():
    assert parse_label("Recital 47") != parse_label("Article 47")


def test_citations_are_hashable():
    assert len({parse_label("Article 5(1)(f)"), parse_label("Art. 5(1), point (f)")}) == 1


# -- bad input -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("Article", "article number"),
        ("Article X(1)", "'X(1)'"),
        ("Annex 3.5.x", "Roman numeral"),
        ("Annex IIII", "not a Roman numeral"),
        ("Recital", "recital number"),
        ("Article 5(1) GDPR", "unexpected 'GDPR'"),
        ("Articles 13 and 14", "one provision"),
        ("Annex III, paragraph 2", "an annex has points"),
        ("Article 5, point (a), paragraph 2", "points follow the paragraph"),
        ("hello world", "does not start with Article"),
        ("x" * 10_000, "too long"),
    ],
)
def test_bad_label_says_what_is_wrong(label, reason):
    with pytest.raises(CitationError, match=re.escape(reason)):
        parse_label(label)


@pytest.mark.parametrize("label", ["", "Article X(1)", "Annex 3.5.x"])
def test_bad_label_message_shows_expected_forms(label):
    with pytest.raises(CitationError, match=r"Labels look like 'Article 33\(1\)'"):
        parse_label(label)


def test_bad_label_message_is_one_line():
    with pytest.raises(CitationError) as caught:
        parse_label("Article X(1)\nsecond line")
    assert "\n" not in str(caught.value)


def test_long_label_message_is_shortened():
    with pytest.raises(CitationError) as caught:
        parse_label("Article 5 " * 1000)
    assert len(str(caught.value)) < 400


def test_long_label_fails_quickly():
    started = time.perf_counter()
    with pytest.raises(CitationError):
        parse_label("Article 5(" * 1000)
    assert time.perf_counter() - started < 0.05


def test_non_text_label_raises_citation_error():
    with pytest.raises(CitationError):
        parse_label(None)


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "chapter", "number": "1"},
        {"kind": "article", "number": ""},
        {"kind": "recital", "number": "47", "paragraph": "1"},
        {"kind": "rule", "number": "FC-5.2.6", "points": ("a",)},
        {"kind": "article", "number": "5", "points": ["a"]},
        {"kind": "article", "number": "5", "document": "x.pdf"},
    ],
)
def test_citation_rejects_impossible_structure(fields):
    with pytest.raises(CitationError):
        Citation(**fields)


# -- formatting ------------------------------------------------------------------------

CANONICAL = [
    "Article 5(1)(f)", "Article 33(1)", "Article 5(1)(a)(ii)", "Article 16", "Article 4(11)",
    "Article 4a", "Article 10, point (a)", "Annex III", "Annex III, point 4",
    "Annex III, point 4(a)", "Recital 47", "Section 26", "FC-5.2.6", "handbook.pdf, p. 12",
    "handbook.pdf, p. iv",
]


@pytest.mark.parametrize("label", CANONICAL)
def test_english_labels_round_trip(label):
    assert format_label(parse_label(label)) == label


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("Art. 33, par. 1", "Article 33(1)"),
        ("Article 5(1), point (f)", "Article 5(1)(f)"),
        ("Allegato III, punto 4, lettera a)", "Annex III, point 4(a)"),
        ("recital (47)", "Recital 47"),
        ("มาตรา ๒๖", "Section 26"),
        ("Article 4, point (11)", "Article 4(11)"),
    ],
)
def test_english_format_is_canonical(label, expected):
    assert format_label(parse_label(label), "en") == expected


@pytest.mark.parametrize(
    ("label", "lang", "expected"),
    [
        ("Article 5(1)(f)", "it", "Articolo 5, paragrafo 1, lettera f)"),
        ("Article 5(1)(a)(ii)", "it", "Articolo 5, paragrafo 1, lettera a), punto ii)"),
        ("Article 33", "it", "Articolo 33"),
        ("Article 4a", "it", "Articolo 4 bis"),
        ("Annex III, point 4", "it", "Allegato III, punto 4"),
        ("Annex III, point 4(a)", "it", "Allegato III, punto 4, lettera a)"),
        ("Recital 47", "it", "Considerando 47"),
        ("Article 5(1)(f)", "fr", "Article 5, paragraphe 1, point f)"),
        ("Article 5(1)(a)(ii)", "fr", "Article 5, paragraphe 1, point a) ii)"),
        ("Article 4a", "fr", "Article 4 bis"),
        ("Annex III, point 4", "fr", "Annexe III, point 4"),
        ("Annex III, point 4(a)", "fr", "Annexe III, point 4 a)"),
        ("Recital 47", "fr", "Considérant 47"),
        ("Section 26", "th", "มาตรา 26"),
        ("Article 5(1)(f)", "de", "Article 5(1)(f)"),
        ("Article 5(1)(f)", "it-IT", "Articolo 5, paragrafo 1, lettera f)"),
        ("FC-5.2.6", "it", "FC-5.2.6"),
        ("handbook.pdf, p. 12", "fr", "handbook.pdf, p. 12"),
    ],
)
def test_local_format(label, lang, expected):
    assert format_label(parse_label(label), lang) == expected


@pytest.mark.parametrize(
    ("label", "lang"),
    [
        ("Articolo 5, paragrafo 1, lettera a), punto ii)", "it"),
        ("Allegato III, punto 1, lettera a)", "it"),
        ("Article 5, paragraphe 1, point h) iii)", "fr"),
        ("Annexe III, point 1 a)", "fr"),
        ("Considérant 47", "fr"),
        ("มาตรา 26", "th"),
    ],
)
def test_local_labels_round_trip(label, lang):
    assert format_label(parse_label(label), lang) == label


def test_format_accepts_a_label_string():
    assert format_label("Art. 33(1)", "it") == "Articolo 33, paragrafo 1"


def test_str_is_the_english_label():
    assert str(art("5", "1", "f")) == "Article 5(1)(f)"


# -- comparing -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Articolo 5, paragrafo 1", "Article 5(1)"),
        ("Article 5, paragraphe 1, point f)", "Art. 5(1)(f)"),
        ("Allegato III, punto 4", "Annex III, point 4"),
        ("Considerando 47", "recital (47)"),
        ("มาตรา ๒๖", "Section 26"),
        ("Article 4, point (11)", "Article 4(11)"),
    ],
)
def test_same_across_languages(a, b):
    assert same(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Article 6", "Article 60"),
        ("Article 5(1)", "Article 5(1)(a)"),
        ("Recital 47", "Article 47"),
        ("Section 26", "Article 26"),
        ("Annex III, point 4", "Annex III, point 4(a)"),
        ("a.pdf, p. 1", "b.pdf, p. 1"),
    ],
)
def test_not_same(a, b):
    assert not same(a, b)


@pytest.mark.parametrize(
    ("outer", "inner"),
    [
        ("Article 5(1)", "Article 5(1)(f)"),
        ("Article 5", "Article 5(1)(f)"),
        ("Article 5", "Article 5"),
        ("Article 5(1)(a)", "Article 5(1)(a)(ii)"),
        ("Annex III, point 4", "Annex III, point 4(a)"),
        ("Annex III", "Annex III, point 4(a)"),
        ("Recital 47", "Recital 47"),
        ("FC-5.2", "FC-5.2.6"),
        ("Articolo 5", "Article 5(1)"),
    ],
)
def test_contains(outer, inner):
    assert contains(outer, inner)


@pytest.mark.parametrize(
    ("outer", "inner"),
    [
        ("Article 6", "Article 60(1)"),
        ("Article 60", "Article 6(1)"),
        ("Article 5(1)(a)", "Article 5(1)"),
        ("Article 5(1)", "Article 5(2)(a)"),
        ("Article 5(1)", "Article 5"),
        ("Article 4", "Article 4a"),
        ("Annex III, point 4", "Annex III, point 40"),
        ("Annex III", "Annex II, point 1"),
        ("Annex III, point 4(a)", "Annex III, point 4"),
        ("Recital 47", "Article 47"),
        ("Article 47", "Recital 47"),
        ("Recital 4", "Recital 47"),
        ("FC-5.2", "FC-5.20"),
        ("FC-5.2.6", "FC-5.2.6A"),
        ("Section 2", "Article 2(1)"),
        ("Article 10, point (a)", "Article 10(1)(a)"),
    ],
)
def test_does_not_contain(outer, inner):
    assert not contains(outer, inner)


@pytest.mark.parametrize(
    ("retrieved", "gold"),
    [
        ("Article 33(1)", "Article 33(1)"),
        ("Article 5(1)(f)", "Article 5(1)"),
        ("Article 5(1)", "Article 5(1)(f)"),
        ("Article 5(1)", "Article 5(1)(a)(ii)"),
        ("Article 5(1)(f)", "Article 5"),
        ("Annex III, point 1", "Annex III, point 1(a)"),
        ("Annex III, point 1", "Annex III"),
        ("Article 4(11)", "Article 4(11)"),
        ("Articolo 5, paragrafo 1", "Article 5(1)"),
        ("Article 5(1)", "Articolo 5, paragrafo 1, lettera f)"),
        ("Article 10", "Article 10, point (a)"),
        ("FC-5.2.6", "FC-5.2"),
        (art("33", "1"), "Article 33(1)"),
    ],
)
def test_hits(retrieved, gold):
    assert hits(retrieved, gold)


@pytest.mark.parametrize(
    ("retrieved", "gold"),
    [
        ("Article 5", "Article 5(1)"),
        ("Article 4", "Article 4(11)"),
        ("Annex III", "Annex III, point 1"),
        ("Article 6", "Article 60(1)"),
        ("Article 60(1)", "Article 6"),
        ("Article 4(1)", "Article 4(11)"),
        ("Article 5(2)", "Article 5(1)(f)"),
        ("Article 5(1)(a)", "Article 5(1)(f)"),
        ("Recital 47", "Article 47"),
        ("Annex II, point 1", "Annex III, point 1"),
        ("FC-5.2", "FC-5.2.6"),
        ("a.pdf, p. 3", "b.pdf, p. 3"),
    ],
)
def test_misses(retrieved, gold):
    assert not hits(retrieved, gold)


def test_hits_rejects_a_bad_label():
    with pytest.raises(CitationError):
        hits("Article 5(1)", "Article X")


def test_sort_key_is_document_order():
    labels = ["Article 60", "Article 5(1)(a)", "Article 6", "Article 4a", "Article 5(1)",
              "Article 4", "Annex X", "Annex II", "Annex IX", "Recital 2"]
    assert sorted(labels, key=sort_key) == [
        "Article 4", "Article 4a", "Article 5(1)", "Article 5(1)(a)", "Article 6",
        "Article 60", "Annex II", "Annex IX", "Annex X", "Recital 2"]


# -- finding in running text -----------------------------------------------------------

def labels_in(text, lang=None, **kwargs):
    return [format_label(c) for _, _, c in find_citations(text, lang, **kwargs)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What does Art. 83(5) say?", ["Article 83(5)"]),
        ("Is consent valid under Article 6(1)(a) GDPR?", ["Article 6(1)(a)"]),
        ("Which systems are in Annex III?", ["Annex III"]),
        ("Cosa prevede l'articolo 5?", ["Article 5"]),
        ("See recital 47 on legitimate interests.", ["Recital 47"]),
        ("Articles 13 and 14 set out information duties.", ["Article 13", "Article 14"]),
        ("Article 33(1) and (2)", ["Article 33(1)", "Article 33(2)"]),
        ("Article 6(1)(a) and (b)", ["Article 6(1)(a)", "Article 6(1)(b)"]),
        ("Article 6(1)(a) and (2)", ["Article 6(1)(a)", "Article 6(2)"]),
        ("Articles 13, 14 and 15", ["Article 13", "Article 14", "Article 15"]),
        ("Articles 15 to 17", ["Article 15", "Article 16", "Article 17"]),
        ("Articles 6(1) and 9(2)", ["Article 6(1)", "Article 9(2)"]),
        ("Annexes I and II", ["Annex I", "Annex II"]),
        ("Article 4 of Directive 95/46/EC", ["Article 4"]),
        ("Article 8 of Regulation (EU) 2016/679", ["Article 8"]),
        ("point (a) of Article 6(1)", ["Article 6(1)(a)"]),
        ("points (b) and (c) of Article 9(2)", ["Article 9(2)(b)", "Article 9(2)(c)"]),
        ("point (11) of Article 4", ["Article 4(11)"]),
        ("paragraph 2 of Article 33", ["Article 33(2)"]),
        ("Article 5(1), first subparagraph, point (g)", ["Article 5(1)(g)"]),
        ("ai sensi dell'articolo 6, paragrafo 1, lettere a) e b), e dell'articolo 9",
         ["Article 6(1)(a)", "Article 6(1)(b)", "Article 9"]),
        ("l’article 6, paragraphe 1, points a) et b)", ["Article 6(1)(a)", "Article 6(1)(b)"]),
        ("annexe III, point 1 a), les fonctionnalités", ["Annex III, point 1(a)"]),
        ("articoli 13 e 14", ["Article 13", "Article 14"]),
        ("considerando 47 e 48", ["Recital 47", "Recital 48"]),
        ("ตามมาตรา ๒๖ วรรคหนึ่ง", ["Section 26"]),
        ("see FC-5.2.6.", ["FC-5.2.6"]),
        ("the handbook.pdf, p. 12 says", ["handbook.pdf, p. 12"]),
        ("Recital 47 and Article 6(1)(f)", ["Recital 47", "Article 6(1)(f)"]),
        ("Article 5(1) (see below)", ["Article 5(1)"]),
        ("Article 5, paragraph 1 of this Article", ["Article 5(1)"]),
    ],
)
def test_find_citations(text, expected):
    assert labels_in(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "within 72 hours",
        "a fine of up to EUR 20 000 000",
        "paragraph 1 of this Article",
        "as referred to in this Article",
        "Chapter IV, Section 2 of the Regulation",
        "during COVID-19 and under ISO-27001",
        "the state of the art, 5 times",
        "Article X applies",
        "annex mix",
        "Annex IIII",
        "",
    ],
)
def test_find_citations_invents_nothing(text):
    assert find_citations(text) == []


def test_singular_article_does_not_take_a_list():
    assert labels_in("Article 33 and 72 hours") == ["Article 33"]


def test_plural_list_stops_at_plain_words():
    assert labels_in("Articles 33 and 34 within 72 hours") == ["Article 33", "Article 34"]


def test_spans_point_at_the_citation():
    text = "What does Art. 83(5) say?"
    [(start, end, _)] = find_citations(text)
    assert text[start:end] == "Art. 83(5)"


def test_spans_of_list_items():
    text = "Articles 13 and 14"
    assert [text[s:e] for s, e, _ in find_citations(text)] == ["Articles 13", "14"]


def test_sibling_span_covers_its_parenthesis():
    text = "Article 33(1) and (2)"
    assert [text[s:e] for s, e, _ in find_citations(text)] == ["Article 33(1)", "(2)"]


def test_spans_survive_thai_digits():
    text = "ตามมาตรา ๒๖ วรรคหนึ่ง"
    [(start, end, _)] = find_citations(text)
    assert text[start:end] == "มาตรา ๒๖"


def test_prefix_span_covers_the_point():
    text = "under point (a) of Article 6(1), consent"
    [(start, end, _)] = find_citations(text)
    assert text[start:end] == "point (a) of Article 6(1)"


def test_lang_limits_head_words():
    assert labels_in("considerando 47", lang="en") == []


def test_lang_keeps_english_head_words():
    assert labels_in("Article 5 e considerando 47", lang="it") == ["Article 5", "Recital 47"]


def test_rules_can_be_switched_off():
    assert labels_in("see FC-5.2.6", rule_pattern=None) == []


def test_rule_pattern_in_text_can_be_overridden():
    assert labels_in("see R.12.3 here", rule_pattern=r"R\.\d+(?:\.\d+)+") == ["R.12.3"]


def test_wide_ranges_are_not_expanded():
    assert labels_in("Articles 1 to 99") == ["Article 1", "Article 99"]


def test_find_citations_is_fast_on_long_text():
    text = ("Article " * 2000) + ("x" * 10_000) + ("Article 5(1) and (2), " * 500)
    started = time.perf_counter()
    find_citations(text)
    assert time.perf_counter() - started < 1.0


def test_module_examples():
    assert doctest.testmod(pincite.citations).failed == 0
