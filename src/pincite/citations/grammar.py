"""The citation grammar: read, write and compare pinpoint labels.

    >>> parse_label("Art. 5(1), point (f)")
    Citation(kind='article', number='5', paragraph='1', points=('f',), document=None)
    >>> format_label(parse_label("Articolo 5, paragrafo 1, lettera f)"))
    'Article 5(1)(f)'
    >>> hits("Article 5(1)", gold="Article 5(1)(f)")
    True

A label names exactly one provision. Comparison is structural, so the language a label
is written in does not matter: "Articolo 5, paragrafo 1" is the same as "Article 5(1)".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache

from pincite import languages
from pincite.errors import CitationError

__all__ = [
    "CITATION_KINDS", "RULE_PATTERN", "TEXT_RULE_PATTERN", "Citation", "contains", "find_citations",
    "format_label", "hits", "parse_label", "same", "sort_key",
]

CITATION_KINDS = ("article", "annex", "recital", "section", "rule", "page")
RULE_PATTERN = r"[A-Z]{2,4}-\d+(?:\.\d+)*[A-Z]?"
# In running text a rule id needs at least one dot, so "COVID-19" or "ISO-27001" is no rule.
TEXT_RULE_PATTERN = r"[A-Z]{2,4}-\d+(?:\.\d+)+[A-Z]?"
MAX_LABEL = 200

_PARAGRAPHED = ("article", "section")
_POINTED = ("article", "section", "annex")
_EXAMPLES = ("'Article 33(1)', 'Article 5(1)(f)', 'Annex III, point 4', 'Recital 47', "
             "'Section 26', 'FC-5.2.6' or 'handbook.pdf, p. 12'")
# The words of each language, from its pack (pincite.languages): one pattern joining every pack's
# alternatives for a word, and each pack's own entries.
_CITATION = "CITATION"


def _any(name: str, kind: str = _CITATION) -> str:
    return f"(?:{languages.cue(name, kind).pattern})"


def _each(name: str, kind: str = _CITATION) -> dict[str, str]:
    return {code: w[name] for code in languages.CODES if name in (w := languages.words(code, kind))}


# Latin words for an inserted article ('5 bis' is 5a): word → letter, every language's; and each language's
# word for a letter (the first word that stands for it).
_SUFFIXES = languages.each("NUMBER_SUFFIXES")
_LATIN_LETTER = {word: letter for table in _SUFFIXES.values() for word, letter in table.items()}
_LATIN_WORD = {code: {letter: word for word, letter in reversed(table.items())} for code, table in _SUFFIXES.items()}
# One character for one character, so spans found in the translated text fit the original.
_DIGITS = languages.each("DIGITS")
_CHARS = str.maketrans("".join(_DIGITS.values()) + "\u00a0\u202f\u2009", "0123456789" * len(_DIGITS) + "   ")
_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_NOT_WORD = r"(?![^\W_])"


class _Bad(Exception):
    """Why a piece of text is not a citation; parse_label reports it, find_citations skips."""


@dataclass(frozen=True)
class Citation:
    """One provision, structurally. Compare with ==, same(), contains() or hits().

    number is a string so "Article 6" can never equal "Article 60": article "5" or "4a",
    annex "III" (upper-case Roman), recital "47", section "26", rule "FC-5.2.6", page "12".
    points are the levels below the paragraph ("a", "ii"); an annex has only points
    ("4", "a") for "Annex III, point 4(a)". document names the file of a page citation.
    """

    kind: str
    number: str
    paragraph: str | None = None
    points: tuple[str, ...] = ()
    document: str | None = None

    def __post_init__(self) -> None:
        problem = _structure_problem(self)
        if problem:
            raise CitationError(f"invalid citation {self!r}: {problem}")

    def __str__(self) -> str:
        return format_label(self)


def _structure_problem(c: Citation) -> str | None:
    if c.kind not in CITATION_KINDS:
        return f"kind must be one of {', '.join(CITATION_KINDS)}"
    if not isinstance(c.number, str) or not c.number.strip():
        return "number must be a non-empty string"
    if c.paragraph is not None and c.kind not in _PARAGRAPHED:
        return f"a {c.kind} has no paragraphs"
    if not isinstance(c.points, tuple) or not all(isinstance(p, str) and p for p in c.points):
        return "points must be a tuple of non-empty strings"
    if c.points and c.kind not in _POINTED:
        return f"a {c.kind} has no points"
    if c.document is not None and c.kind != "page":
        return "only a page citation names a document"
    return None


# -- reading ---------------------------------------------------------------------------

# The head words of every language, (kind, takes a list of numbers, languages, pattern), each once: a
# head word shared by languages ('art.') is read for each of them. A pack's head words read the text of
# the languages it names in CITATION_ALSO too.
def _head_words() -> tuple[tuple[str, bool, frozenset[str], str], ...]:
    also = languages.each("CITATION_ALSO")
    found: dict[tuple[str, bool, str], set[str]] = {}
    for code, heads in languages.each("CITATION_HEADS").items():
        for kind, plural, pattern in heads:
            found.setdefault((kind, plural, pattern), set()).update((code, *also.get(code, ())))
    return tuple((kind, plural, frozenset(langs), pattern) for (kind, plural, pattern), langs in found.items())


_WORDS = _head_words()
# A script written without spaces between words (Thai) has no word boundary around a head word.
_UNSPACED = {pattern for code, spaced in languages.each("SPACED").items() if not spaced
             for _, _, pattern in languages.each("CITATION_HEADS")[code]}


@lru_cache(maxsize=16)
def _heads(lang: str | None) -> re.Pattern[str]:
    wanted = None if lang is None else {"en", lang}
    parts = []
    for i, (_, _, langs, pattern) in enumerate(_WORDS):
        if wanted is not None and not wanted & langs:
            continue
        bounded = pattern if pattern in _UNSPACED else rf"(?<![^\W\d_])(?:{pattern}){_NOT_WORD}"
        parts.append(f"(?P<w{i}>{bounded})")
    return re.compile("|".join(parts), re.IGNORECASE)


def _head_kind(m: re.Match[str]) -> tuple[str, bool]:
    assert m.lastgroup is not None  # every alternative of _heads is a named group
    kind, plural, _, _ = _WORDS[int(m.lastgroup[1:])]
    return kind, plural


_ARTICLE_NUMBER = re.compile(
    rf"\s*(?:(?P<n>\d{{1,4}})(?:(?P<suf>[a-z])|\s+(?P<lat>{'|'.join(_LATIN_LETTER)}))?"
    rf"|(?P<first>{_any('first_number')})){_NOT_WORD}", re.IGNORECASE)
_NUMBERS = {
    "annex": re.compile(rf"\s*(?P<n>[IVXLC]{{1,8}}|[ivx]{{1,5}}){_NOT_WORD}"),
    "recital": re.compile(rf"\s*(?:\(\s*(?P<p>\d{{1,4}})\s*\)|(?P<n>\d{{1,4}}){_NOT_WORD})"),
    "section": re.compile(r"\s*(?P<n>\d{1,4}(?:/\d{1,3})?)(?![\d/])"),
}
_STRICT_ANNEX = re.compile(rf"\s*(?P<n>[IVXLCivxlc]{{1,8}}){_NOT_WORD}")
_NUMBER_HELP = {"article": "an article number such as 33 or 4a",
                "annex": "a Roman numeral such as III", "recital": "a recital number such as 47",
                "section": "a section number such as 26"}


def _read_number(kind: str, s: str, pos: int, strict: bool) -> tuple[str, int]:
    """The provision number after a head word; strict (labels) allows a lower-case annex."""
    rx = _STRICT_ANNEX if strict and kind == "annex" else _NUMBERS.get(kind, _ARTICLE_NUMBER)
    m = rx.match(s, pos)
    if not m:
        rest = s[pos:].strip()
        got = f"got {rest[:30]!r}" if rest else "but the label ends there"
        raise _Bad(f"expected {_NUMBER_HELP[kind]} after {s[:pos].strip()!r}, {got}")
    if kind == "annex":
        number = m["n"].upper()
        if not _ROMAN.fullmatch(number):
            raise _Bad(f"{m['n']!r} is not a Roman numeral (annexes are numbered I, II, III…)")
        return number, m.end()
    if kind == "article":
        return _article_number(m), m.end()
    return str(int(m["n"] or m["p"])) if kind == "recital" else m["n"], m.end()


def _article_number(m: re.Match[str]) -> str:
    if m["first"]:
        return "1"
    suffix = (m["suf"] or "").lower() or _LATIN_LETTER.get((m["lat"] or "").lower(), "")
    return f"{int(m['n'])}{suffix}"


_PT = r"(?-i:[ivx]{1,5}|[a-z]{1,2}|\d{1,3})"
# A subparagraph named by its ordinal, in each language's words ('second subparagraph', 'secondo comma').
_SUBPARAGRAPH = "|".join(f"(?:{ordinal})\\s+(?:{subparagraph})" for code, ordinal in _each("ordinal").items()
                         if (subparagraph := _each("subparagraph").get(code)))
_TAIL = (
    ("skip", re.compile(rf"\s*,?\s*(?:{_SUBPARAGRAPH}){_NOT_WORD}", re.IGNORECASE)),
    ("paren", re.compile(rf"\s*\(\s*({_PT})\s*\)")),
    ("paragraph", re.compile(  # '§' is a sign, no language's word
        rf"\s*,?\s*(?:{_any('paragraph')}|§)\s*"
        r"(?:\((\d{1,3})\)|(\d{1,3})(?!\d|\.\d))", re.IGNORECASE)),
    ("point", re.compile(
        rf"\s*,?\s*{_any('point')}\s*"
        rf"(?:\(\s*({_PT})\s*\)|({_PT})\)|(\d{{1,3}})(?!\d|\.\d))", re.IGNORECASE)),
    ("bare", re.compile(rf"\s+({_PT})\)")),  # French "point a) ii)", "point 4 a)"
)


def _clean(value: str) -> str:
    return str(int(value)) if value.isdigit() else value.lower()


def _read_tail(s: str, pos: int) -> tuple[list[tuple[str, str]], int]:
    """Paragraph and point tokens after the number, as far as they go."""
    tokens: list[tuple[str, str]] = []
    while True:
        after_point = bool(tokens) and tokens[-1][0] in ("point", "bare")
        for name, rx in _TAIL:
            m = None if name == "bare" and not after_point else rx.match(s, pos)
            if m:
                break
        else:
            return tokens, pos
        pos = m.end()
        if name != "skip":
            tokens.append((name, _clean(next(g for g in m.groups() if g))))


def _extend(c: Citation, tokens: list[tuple[str, str]]) -> Citation:
    paragraph, points = c.paragraph, list(c.points)
    for name, value in tokens:
        first = paragraph is None and not points
        # A numbered first level is the paragraph; so "Article 4, point (11)" (a definition)
        # is the same provision as "Article 4(11)", the label the corpus uses.
        if c.kind in _PARAGRAPHED and first and (name == "paragraph" or value.isdigit()):
            paragraph = value
        elif name == "paragraph":
            where = "an annex has points" if c.kind == "annex" else "points follow the paragraph"
            raise _Bad(f"unexpected paragraph {value}: {where}")
        else:
            points.append(value)
    if points and c.kind not in _POINTED:
        raise _Bad(f"a {c.kind} has no points")
    return replace(c, paragraph=paragraph, points=tuple(points))


def _read_item(kind: str, s: str, pos: int, strict: bool) -> tuple[Citation, int]:
    number, pos = _read_number(kind, s, pos, strict)
    c = Citation(kind, number)
    if kind == "recital":
        return c, pos
    tokens, pos = _read_tail(s, pos)
    return _extend(c, tokens), pos


_PAGE_LABEL = re.compile(
    rf"(?:(?P<doc>\S(?:.*\S)?)\s*,\s*)?{_any('page')}\s*(?P<n>\d{{1,5}}|[ivxlcdm]{{1,8}})",
    re.IGNORECASE)
_POINT_OF = re.compile(rf"{_any('prefix_point')}\s+(?P<pts>(?:\(\s*{_PT}\s*\))+)\s+{_any('prefix_of')}\s+(?P<rest>.+)",
                       re.IGNORECASE)
_PT_PAREN = re.compile(rf"\(\s*({_PT})\s*\)")


@lru_cache(maxsize=8)
def _rule_regex(pattern: str, in_text: bool) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])" if in_text else pattern)


def parse_label(text: str, rule_pattern: str = RULE_PATTERN) -> Citation:
    """Read one citation label in English, Italian, French or Thai style.

    Raises CitationError with a one-line reason. rule_pattern is the regex a rule id must
    match in full (default: RULE_PATTERN, e.g. "FC-5.2.6").
    """
    if not isinstance(text, str):
        raise CitationError(f"a citation label must be text, not {type(text).__name__}")
    s = " ".join(unicodedata.normalize("NFC", text).translate(_CHARS).split())
    try:
        if not s:
            raise _Bad("the label is empty")
        if len(s) > MAX_LABEL:
            raise _Bad(f"{len(s)} characters is too long for one label (at most {MAX_LABEL})")
        return _parse(s, rule_pattern)
    except _Bad as bad:
        shown = s if len(s) <= 60 else s[:57] + "..."
        raise CitationError(f"cannot read citation {shown!r}: {bad}. "
                            f"Labels look like {_EXAMPLES}") from None


def _parse(s: str, rule_pattern: str) -> Citation:
    if _rule_regex(rule_pattern, False).fullmatch(s):
        return Citation("rule", s)
    page = _PAGE_LABEL.fullmatch(s)
    if page:
        return Citation("page", page["n"].lower(), document=page["doc"])
    point_of = _POINT_OF.fullmatch(s)
    if point_of:  # "point (a) of Article 6(1)"
        outer = _parse(point_of["rest"], rule_pattern)
        return _extend(outer, [("point", _clean(v)) for v in _PT_PAREN.findall(point_of["pts"])])
    return _parse_headed(s)


def _parse_headed(s: str) -> Citation:
    head = _heads(None).match(s)
    if not head:
        raise _Bad("it does not start with Article, Annex, Recital, Section, มาตรา, "
                   "a rule id or a page")
    kind = _head_kind(head)[0]
    number, end = _read_number(kind, s, head.end(), strict=True)
    tail = s[end:].lower()  # "Article 5(1)(F)" is still point (f)
    tokens, used = ([], 0) if kind == "recital" else _read_tail(tail, 0)
    if used < len(tail):
        raise _Bad(f"unexpected {s[end + used:].strip()!r} after {s[:end + used].strip()!r} "
                   "(one label names one provision)")
    return _extend(Citation(kind, number), tokens)


# -- writing ---------------------------------------------------------------------------

# Each language's label words and style (its pack's LABELS); English writes whatever a language has no
# word for (rules, pages, Italian sections…).
_LABELS = languages.each("LABELS")
_EN = _LABELS["en"]


def _en(c: Citation) -> str:
    if c.kind == "rule":
        return c.number
    if c.kind == "page":
        return f"{c.document}, {_EN['page']} {c.number}" if c.document else f"{_EN['page']} {c.number}"
    return _numbered(c, _EN)


def _numbered(c: Citation, words: dict[str, str]) -> str:
    return f"{words[c.kind]} {c.number}{_en_path(c)}"


def _en_path(c: Citation) -> str:
    if c.paragraph is not None:
        return "".join(f"({v})" for v in (c.paragraph, *c.points))
    if not c.points:
        return ""
    # An annex's first level is its item number ("point 4"); a lettered one is written
    # "point (c)" so that the label reads back.
    first = c.points[0] if c.kind == "annex" and c.points[0].isdigit() else f"({c.points[0]})"
    return f", {_EN['point']} {first}" + "".join(f"({v})" for v in c.points[1:])


def _local_number(number: str, code: str) -> str:
    m = re.fullmatch(r"(\d+)([a-z])", number)
    word = _LATIN_WORD.get(code, {}).get(m[2]) if m else None
    return f"{m[1]} {word}" if m and word else number


def _listed_points(points: tuple[str, ...], words: dict[str, str]) -> list[str]:
    return [f"{words['letter'] if i == 0 and not v.isdigit() else words['point']} {v})"
            for i, v in enumerate(points)]


def _listed(c: Citation, code: str) -> str:
    """Every level named ('Articolo 5, paragrafo 1, lettera f)')."""
    words = _LABELS[code]
    if c.kind == "annex":
        head = [f"{words['annex']} {c.number}"] + [f"{words['point']} {p}" for p in c.points[:1]]
        return ", ".join(head + _listed_points(c.points[1:], words))
    if c.kind != "article":
        return _numbered(c, words)
    paragraph = [] if c.paragraph is None else [f"{words['paragraph']} {c.paragraph}"]
    return ", ".join([f"{words['article']} {_local_number(c.number, code)}", *paragraph,
                      *_listed_points(c.points, words)])


def _chained(c: Citation, code: str) -> str:
    """The first point named, the levels below it bare ('Article 5, paragraphe 1, point f) ii)')."""
    words = _LABELS[code]
    if c.kind == "annex":
        first = f", {words['point']} {c.points[0]}" if c.points else ""
        return f"{words['annex']} {c.number}{first}" + "".join(f" {v})" for v in c.points[1:])
    if c.kind != "article":
        return _numbered(c, words)
    label = f"{words['article']} {_local_number(c.number, code)}"
    if c.paragraph is not None:
        label += f", {words['paragraph']} {c.paragraph}"
    if c.points:
        label += f", {words['point']} {c.points[0]})" + "".join(f" {v})" for v in c.points[1:])
    return label


_STYLES = {"numbered": lambda c, code: _numbered(c, _LABELS[code]), "listed": _listed, "chained": _chained}
_HEADED = ("article", "annex", "recital", "section")


def _lang(lang: str | None) -> str | None:
    return None if lang is None else re.split(r"[-_]", lang.strip().lower())[0]


def format_label(c: Citation | str, lang: str = "en") -> str:
    """Write a citation in the style of lang.

    "en" (and any language without a style here, e.g. "de", "da", "nl") gives the English
    label, which is also what the corpus stores in `label`. "it" and "fr" write articles,
    annexes and recitals in EUR-Lex style ("Articolo 5, paragrafo 1, lettera f)"); "th"
    writes sections as "มาตรา 26" with Arabic digits. Kinds a language has no style for
    (rules, pages, Italian sections…) are written in English style. A definition is a
    paragraph here: "Article 4(11)" is written "Articolo 4, paragrafo 11", not "punto 11)".
    """
    c = _as_citation(c)
    code = _lang(lang) or "en"
    if c.kind in _HEADED and c.kind in _LABELS.get(code, {}):
        return _STYLES[_LABELS[code]["style"]](c, code)
    return _en(c)


# -- comparing -------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _cached_parse(text: str) -> Citation:
    return parse_label(text)


def _as_citation(value: Citation | str) -> Citation:
    if isinstance(value, Citation):
        return value
    return _cached_parse(value) if isinstance(value, str) else parse_label(value)


def _path(c: Citation) -> tuple[str, ...]:
    return (() if c.paragraph is None else (f"¶{c.paragraph}",)) + c.points


def same(a: Citation | str, b: Citation | str) -> bool:
    """Whether two labels, in any supported language, denote the same provision."""
    return _as_citation(a) == _as_citation(b)


def contains(outer: Citation | str, inner: Citation | str) -> bool:
    """Whether inner lies inside outer (or is outer).

    Article 5 ⊇ Article 5(1) ⊇ Article 5(1)(f); Annex III ⊇ Annex III, point 4 ⊇ point 4(a);
    rule FC-5.2 ⊇ FC-5.2.6 (dotted ids nest); a recital or a page contains only itself.
    """
    o, i = _as_citation(outer), _as_citation(inner)
    if (o.kind, o.document) != (i.kind, i.document):
        return False
    if o.kind == "rule":
        return i.number == o.number or i.number.startswith(o.number + ".")
    return o.number == i.number and _path(i)[: len(_path(o))] == _path(o)


def _unit(c: Citation) -> tuple[str, ...]:
    """The part of the path that names the citable unit holding c."""
    if c.kind == "annex":
        return c.points[:1]
    return () if c.paragraph is None else _path(c)[:1]


def hits(retrieved: Citation | str, gold: Citation | str) -> bool:
    """The evaluation rule: does a retrieved provision hit a gold label?

    Yes when they are the same, when retrieved lies inside gold (retrieved 5(1)(f), gold
    5(1)), or when gold is a point inlined in the retrieved unit (gold 5(1)(f), retrieved
    5(1); gold "Annex III, point 1(a)", retrieved "Annex III, point 1"). A whole article
    does not hit a gold paragraph (retrieved "Article 5", gold "Article 5(1)"), nor a whole
    annex a gold annex point: the grammar cannot know the article has no paragraphs, and
    the corpus labels such an article without a paragraph anyway.
    """
    r, g = _as_citation(retrieved), _as_citation(gold)
    if contains(g, r):
        return True
    return r.number == g.number and contains(r, g) and len(_path(r)) >= len(_unit(g))


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(x)) if x.isdigit() else (1, x) for x in re.findall(r"\d+|\D+", text))


def _roman_value(numeral: str) -> int:
    values = [{"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}[x]
              for x in numeral]
    return sum(-v if v < nxt else v for v, nxt in zip(values, values[1:] + [0], strict=True))


def sort_key(c: Citation | str) -> tuple:
    """Document order: Article 4 < 4a < 5(1) < 5(1)(a) < 6 < 60; Annex II < IX < X."""
    c = _as_citation(c)
    number = ((0, _roman_value(c.number)),) if c.kind == "annex" else _natural(c.number)
    return (CITATION_KINDS.index(c.kind), c.document or "", number,
            tuple(_natural(v) for v in _path(c)))


# -- finding in running text -----------------------------------------------------------

_CHAPTER_BEFORE = re.compile(
    rf"(?:{_any('chapter')}|{_any('title')})\s+[IVXLC\d]+\s*,?\s*$", re.IGNORECASE)
_AND = _any("and")
_SIBLING = re.compile(
    rf"\s*(?:,\s*(?:{_AND}\s+)?|{_AND}\s+)(?P<item>\(\s*(?P<a>{_PT})\s*\)|(?P<b>{_PT})\))",
    re.IGNORECASE)
_NEXT = re.compile(
    rf"\s*(?:(?P<range>{_any('range')}{_NOT_WORD}|[-–])|,\s*(?:{_AND}\s+)?|{_AND}\s+)",
    re.IGNORECASE)
_PREFIX = re.compile(
    rf"(?:{_any('prefix_point')}\s+(?P<pts>\(\s*{_PT}\s*\)(?:\s*(?:,|{_any('prefix_and')})?\s*\(\s*{_PT}\s*\))*)"
    rf"|{_any('prefix_paragraph')}\s+\(?(?P<par>\d{{1,3}})\)?)\s+{_any('prefix_of')}\s+$", re.IGNORECASE)
_PAGE_TEXT = re.compile(
    r"(?<![\w.-])(?P<doc>[\w.-]+\.(?:pdf|docx?|html?|md|txt|odt|rtf|epub)),\s*"
    rf"{_any('page_in_text')}\s*(?P<n>\d{{1,5}}|(?-i:[ivxlcdm]{{1,8}}))(?![^\W_])", re.IGNORECASE)
_MAX_RANGE = 50

Found = tuple[int, int, Citation]


def find_citations(text: str, lang: str | None = None, *,
                   rule_pattern: str | None = TEXT_RULE_PATTERN) -> list[Found]:
    """Citations written in running text, as (start, end, citation), in text order.

    lang limits the head words to English plus that language ("it": articolo, allegato,
    considerando); None accepts every supported language. Lists and ranges after a plural
    ("Articles 13 and 14", "Articles 15 to 17") and siblings ("Article 33(1) and (2)")
    each yield a citation; a later list item's span covers only its own number, and the
    articles inside a range, or points listed before "of Article", share one span. "point (a) of Article 6(1)" is
    read as Article 6(1)(a). Instruments are not resolved: "Article 4 of Directive
    95/46/EC" yields Article 4. Rule ids must match rule_pattern (None: find no rules).
    """
    s = text.translate(_CHARS)
    found = _find_headed(s, _lang(lang)) + _find_pages(s)
    if rule_pattern:
        found += [(m.start(), m.end(), Citation("rule", m.group()))
                  for m in _rule_regex(rule_pattern, True).finditer(s)]
    return sorted(found, key=lambda f: (f[0], f[1]))


def _find_headed(s: str, lang: str | None) -> list[Found]:
    found: list[Found] = []
    pos, heads = 0, _heads(lang)
    while m := heads.search(s, pos):
        kind, plural = _head_kind(m)
        try:
            c, end = _read_item(kind, s, m.end(), strict=False)
        except _Bad:
            pos = m.end()
            continue
        if kind == "section" and _CHAPTER_BEFORE.search(s, max(0, m.start() - 40), m.start()):
            pos = end  # "Chapter IV, Section 2" is a part of a regulation, not a statute section
            continue
        start, firsts = _with_prefix(s, m.start(), c)
        found += [(start, end, x) for x in firsts]
        more, pos = _read_more(kind, plural, s, (start, end, firsts[-1]))
        found += more
    return found


def _with_prefix(s: str, start: int, c: Citation) -> tuple[int, list[Citation]]:
    if c.kind != "article":
        return start, [c]
    m = _PREFIX.search(s, max(0, start - 120), start)
    if not m:
        return start, [c]
    if m["par"]:
        groups = [[("paragraph", _clean(m["par"]))]]
    else:
        groups = [[("point", _clean(v))] for v in _PT_PAREN.findall(m["pts"])]
        if not re.search(rf",|\b{_any('prefix_and')}\b", m["pts"], re.IGNORECASE):
            groups = [[g[0] for g in groups]]  # "point (a)(ii) of": one point, two levels
    try:
        return m.start(), [_extend(c, g) for g in groups]
    except _Bad:
        return start, [c]


def _read_more(kind: str, plural: bool, s: str, last: Found) -> tuple[list[Found], int]:
    """Siblings ("and (2)") and, after a plural head, further numbers and ranges."""
    more: list[Found] = []
    while True:
        step = _sibling_at(s, last) or (_next_number_at(kind, s, last) if plural else None)
        if not step:
            return more, last[1]
        more += step
        last = step[-1]


def _sibling_at(s: str, last: Found) -> list[Found] | None:
    m = _SIBLING.match(s, last[1])
    if not m:
        return None
    try:
        c = _sibling(last[2], _clean(m["a"] or m["b"]))
        tokens, end = _read_tail(s, m.end())
        return [(m.start("item"), end, _extend(c, tokens))]
    except _Bad:
        return None


def _compatible(a: str, b: str) -> bool:
    """Whether b can be a sibling of a: both numbers, both letters, or both Roman."""
    if a.isdigit() or b.isdigit():
        return a.isdigit() == b.isdigit()
    ambiguous = any(len(x) == 1 and x in "ivx" for x in (a, b))
    return ambiguous or bool(re.fullmatch("[ivx]+", a)) == bool(re.fullmatch("[ivx]+", b))


def _sibling(c: Citation, value: str) -> Citation:
    values = list(_path(c))
    bare = [v.lstrip("¶") for v in values]
    levels = [i for i, v in enumerate(bare) if _compatible(v, value)]
    if not levels:
        raise _Bad("no level to continue")
    kept = bare[: levels[-1]] + [value]
    if c.paragraph is not None:
        return replace(c, paragraph=kept[0], points=tuple(kept[1:]))
    return replace(c, points=tuple(kept))


def _next_number_at(kind: str, s: str, last: Found) -> list[Found] | None:
    m = _NEXT.match(s, last[1])
    if not m:
        return None
    start = m.end() + len(s[m.end():m.end() + 8]) - len(s[m.end():m.end() + 8].lstrip())
    try:
        c, end = _read_item(kind, s, m.end(), strict=False)
    except _Bad:
        return None
    between = _between(last[2], c) if m["range"] else []
    return [(last[0], end, x) for x in between] + [(start, end, c)]


def _between(a: Citation, b: Citation) -> list[Citation]:
    """The provisions strictly inside a range such as "Articles 15 to 17" (here: 16)."""
    plain = a.number.isdigit() and b.number.isdigit() and not (_path(a) or _path(b))
    if not plain or not 0 < int(b.number) - int(a.number) <= _MAX_RANGE:
        return []
    return [replace(a, number=str(n)) for n in range(int(a.number) + 1, int(b.number))]


def _find_pages(s: str) -> list[Found]:
    return [(m.start(), m.end(), Citation("page", m["n"].lower(), document=m["doc"]))
            for m in _PAGE_TEXT.finditer(s)]
