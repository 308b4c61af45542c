"""References in a provision's text, resolved against its corpus: the edges of the reference graph.

Statutes point rather than repeat: "pursuant to Articles 8, 11, 25 to 39 and 42 and 43",
"referred to in Annex III", "paragraph 5 of this Article", "Chapter II", "มาตรา ๒๖". Each
reference becomes an edge from the provision that makes it to the provision(s) it names, with
the referencing words; a reference to another act ("Article 4 of Directive 95/46/EC",
"Regulation (EU) 2019/1020", "Article 16 TFEU") is an external edge carrying that act's number,
never an edge into this corpus.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from pincite import languages
from pincite.citations.grammar import (
    RULE_PATTERN,
    TEXT_RULE_PATTERN,
    Citation,
    contains,
    find_citations,
    format_label,
    parse_label,
)
from pincite.errors import CitationError
from pincite.provisions import Provision

# The words of each language (its pack's REFERENCES; a chapter's name is the grammar's CITATION).
_REFS = "REFERENCES"


def _any(name: str, kind: str = _REFS) -> str:
    return f"(?:{languages.cue(name, kind).pattern})"


def _per_language(*names: str) -> str:
    """Each language's entries for names, joined within the language, then the languages joined: an act's
    kinds in one language stay together ('Regulation|Directive|Decision|Framework Decision')."""
    found = ["|".join(w[n] for n in names if n in w) for code in languages.CODES
             if any(n in (w := languages.words(code, _REFS)) for n in names)]
    return f"(?:{'|'.join(found)})" if found else "(?!)"


# What follows a citation when it names a provision of another act.
_OTHER_ACT = re.compile(
    rf"\s*,?\s*{_any('of_act')}\s+"
    rf"(?:{_any('issuer')}\s+)?"
    rf"(?P<act>{_per_language('act', 'act_cited')}\b[^;:.]{{0,60}}?"
    rf"(?P<number>(?:19|20)?\d{{2}}/\d{{1,4}}(?:/{_per_language('series', 'series_cited')})?)"
    rf"|(?:{_any('definite')}\s+)?{_any('treaty')}\b[^;:.]{{0,60}}|{_any('treaty_short')}"
    rf"|{_any('that_act')})",
    re.IGNORECASE)
_TREATY_AFTER = re.compile(rf"\s*{_any('treaty_short')}\b")
_THIS_ACT = re.compile(rf"\s*{_any('this_act')}", re.IGNORECASE)
# An act named on its own: "Regulation (EU) 2019/1020", "Directive 95/46/EC".
_ACT = re.compile(
    rf"\b{_any('act')}\s*"
    rf"(?:\({_any('union')}\)\s*)?(?:{_any('number_sign')}\s*)?"
    rf"(?P<number>(?:19|20)?\d{{2}}/\d{{1,4}}(?:/{_any('series')})?)", re.IGNORECASE)
_CHAPTER = re.compile(rf"\b(?:{_any('chapter_section')}\s+(?P<section>\d+)\s+{_any('chapter_section_of')}\s+)?"
                      rf"{_any('chapter', 'CITATION')}\s+(?P<chapter>[IVXLC]+)\b"
                      rf"(?!\s+{_any('chapter_of_act')})", re.IGNORECASE)
# "Chapters I and II", "capi I e II", "Chapters II to IV": each chapter of the list or range.
# The numerals are upper case (a word like 'in' is no chapter).
_LIST = rf"(?:,|{_any('list_and')}|{_any('list_to')})"
_CHAPTERS = re.compile(rf"\b{_any('chapters')}\s+(?P<numbers>(?-i:[IVXLC]+)(?:\s*{_LIST}"
                       rf"\s*(?-i:[IVXLC]+)\b)+)(?!\s+{_any('chapter_of_act')})", re.IGNORECASE)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
# "paragraph 5", "paragraphs 1 and 2" not followed by "of Article …": a paragraph of this article.
_RELATIVE = re.compile(rf"\b{_any('paragraph')}\s+(?P<numbers>\d{{1,3}}(?:\s*{_LIST}\s*\d{{1,3}})*)"
                       rf"(?!\s*{_any('of_article')}\s+{_any('article')})", re.IGNORECASE)
# A list's joiners, and those that make it a range ('II to IV', '1 à 4'), as the text writes them.
_JOINER = re.compile(rf"\s*(,|\b(?:{_any('list_and')}|{_any('list_to')})\b)\s*")
_RANGE_WORD = re.compile(_any("list_to"))
_NUMBER_OR_RANGE = re.compile(rf"\d{{1,3}}|\b{_any('list_to')}\b")


# A range opened by a word of its own ('articoli da 102 a 109'): the word is blanked.
_RANGE_FROM = re.compile(rf"\b({_any('range_heads')} )({_any('range_from')})(?= \d)", re.IGNORECASE)


def _act_number(number: str) -> str:
    """'95/46/EC' → '1995/46'; '2016/679' → '2016/679'."""
    year, num = number.split("/")[:2]
    year = year if len(year) == 4 else ("19" if int(year) > 50 else "20") + year
    return f"{year}/{int(num)}"


class Resolver:
    """Labels and chapter paths of one corpus, to turn a citation into the provisions it names."""

    def __init__(self, provisions: list[Provision], own_number: str = "", rule_pattern: str | None = None):
        self.provisions = provisions
        self.own_number = own_number
        self.rule_pattern = rule_pattern
        self.cited = []
        for p in provisions:
            try:
                self.cited.append((p, parse_label(p.label, rule_pattern or RULE_PATTERN)))
            except CitationError:
                continue
        # (chapter numeral, section number or None) → provisions; path parts in any language
        # ("Chapter III", "Capo III", "Section 2", "Sezione 2").
        self.chapters: dict[tuple[str, str | None], list[Provision]] = defaultdict(list)
        for p in provisions:
            numbers = [m.group(1).upper() for m in (re.search(r"\s([IVXLC]+|\d+)$", part) for part in p.path) if m]
            if p.kind != "recital" and numbers:
                self.chapters[(numbers[0], None)].append(p)
                if len(numbers) > 1:
                    self.chapters[(numbers[0], numbers[1])].append(p)

    def targets(self, citation: Citation) -> list[Provision]:
        """The provisions a citation names: the same one, its parts, or the one holding the point."""
        exact = [p for p, c in self.cited if c == citation]
        if exact:
            return exact
        inside = [p for p, c in self.cited if contains(citation, c)]
        return inside or [p for p, c in self.cited if contains(c, citation)]

    def chapter(self, chapter: str, section: str | None) -> list[Provision]:
        return self.chapters.get((chapter.upper(), section), [])


# An article that amends another act ("Amendments to Regulation (EU) No 648/2012", Danish
# "Ændringer af forordning …"): the articles it names are that act's.
_AMENDING = re.compile(rf"^\s*{_any('amending')}\b", re.IGNORECASE)


def references(p: Provision, resolver: Resolver) -> list[dict]:
    """The references `p` makes, each once: internal ones resolved, external ones with their act."""
    if _AMENDING.match(p.title or ""):
        return _amending(p, resolver)
    # "articoli da 102 a 109" → "articoli    102 a 109": the range the grammar reads (same length,
    # so spans still fit the text).
    text = _RANGE_FROM.sub(lambda m: m.group(1) + " " * len(m.group(2)), p.text)
    found: list[dict] = []
    taken: list[tuple[int, int]] = []
    for start, end, citation in find_citations(text, rule_pattern=resolver.rule_pattern or TEXT_RULE_PATTERN):
        if citation.kind == "section" and p.kind != "section":
            continue  # "Section 2 of Chapter IV": a part of an EU act, read below as a chapter
        other = _OTHER_ACT.match(text, end) or _TREATY_AFTER.match(text, end)
        if other and not _THIS_ACT.match(text, end):
            number = other.groupdict().get("number")
            act = _act_number(number) if number else other.group(0).strip(" ,")
            if number and _act_number(number) == resolver.own_number:
                other = None
            else:
                found.append(_edge(citation, None, text[start:other.end()], external=True, act=act))
                taken.append((start, other.end()))
                continue
        found += _internal(p, citation, resolver, text[start:end])
        taken.append((start, end))
    found += _chapters(p, text, resolver, taken)
    found += _relative(p, text, resolver, taken)
    found += _acts(text, resolver, taken)
    return _unique(found)


def _amending(p: Provision, resolver: Resolver) -> list[dict]:
    """Every citation in an amending article is external, to the act the article amends."""
    acts = [m for m in _ACT.finditer(p.title + " " + p.text) if _act_number(m["number"]) != resolver.own_number]
    act = _act_number(acts[0]["number"]) if acts else ""
    found = [_edge(c, None, p.text[s:e], external=True, act=act) for s, e, c in find_citations(p.text)]
    return _unique(found + _acts(p.text, resolver, []))


def _edge(citation: Citation | None, target: str | None, words: str, *, label: str = "",
          external: bool = False, act: str = "") -> dict:
    return {"label": label or (format_label(citation) if citation else ""), "target": target,
            "words": " ".join(words.split()), "external": external, "act": act}


def _internal(p: Provision, citation: Citation, resolver: Resolver, words: str) -> list[dict]:
    targets = [t for t in resolver.targets(citation) if t.id != p.id]
    if not targets:
        # Itself ("this Article"), or a provision this corpus does not have: the checks count these.
        own = [t for t in resolver.targets(citation) if t.id == p.id]
        return [] if own else [_edge(citation, None, words)]
    return [_edge(citation, targets[0].id, words)]


def _chapters(p: Provision, text: str, resolver: Resolver, taken: list[tuple[int, int]]) -> list[dict]:
    out = []
    for m in _CHAPTERS.finditer(text):
        if _inside(m.start(), taken) or _OTHER_ACT.match(text, m.end()):
            continue
        for chapter in _chapter_list(m["numbers"]):
            articles = _first_parts(resolver.chapter(chapter, None), p)
            out += [_edge(None, t.id, m.group(0), label=article) for article, t in articles.items()]
        taken.append((m.start(), m.end()))
    for m in _CHAPTER.finditer(text):
        if _inside(m.start(), taken) or _OTHER_ACT.match(text, m.end()):
            continue
        articles = _first_parts(resolver.chapter(m["chapter"], m["section"]), p)
        out += [_edge(None, t.id, m.group(0), label=article) for article, t in articles.items()]
        taken.append((m.start(), m.end()))
    return out


def _first_parts(provisions: list[Provision], p: Provision) -> dict[str, Provision]:
    """Each article of a chapter by its first part (it stands for the article), `p` left out."""
    out: dict[str, Provision] = {}
    for t in provisions:
        if t.id != p.id:
            out.setdefault(_article_of(t.label), t)
    return out


def _chapter_list(numbers: str) -> list[str]:
    """'I and II' → ['I', 'II']; 'II to IV' → ['II', 'III', 'IV']."""
    parts = _JOINER.split(numbers.strip())
    out = [parts[0]]
    for joiner, numeral in zip(parts[1::2], parts[2::2], strict=True):
        if _RANGE_WORD.fullmatch(joiner):
            out += [_to_roman(n) for n in range(_from_roman(out[-1]) + 1, _from_roman(numeral))]
        out.append(numeral)
    return out


def _from_roman(numeral: str) -> int:
    values = [_ROMAN[c] for c in numeral.upper()]
    return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True))


def _to_roman(n: int) -> str:
    out = ""
    for value, numeral in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + numeral, n - value
    return out


def _relative(p: Provision, text: str, resolver: Resolver, taken: list[tuple[int, int]]) -> list[dict]:
    """'paragraph 5' (of this Article): the paragraph of p's own article."""
    own = _own(p)
    if own is None or own.kind not in ("article", "section"):
        return []
    out = []
    for m in _RELATIVE.finditer(text):
        if _inside(m.start(), taken):
            continue
        for number in _numbers(m["numbers"]):
            citation = replace(own, paragraph=number, points=())
            targets = [t for t in resolver.targets(citation) if t.id != p.id]
            if targets:
                out.append(_edge(citation, targets[0].id, m.group(0)))
    return out


def _numbers(listed: str) -> list[str]:
    """'1, 2 and 4' → 1, 2, 4; '1 to 4' (Italian 'da 1 a 4', French '1 à 4') → 1, 2, 3, 4."""
    out: list[int] = []
    in_range = False
    for token in _NUMBER_OR_RANGE.findall(listed):
        if not token.isdigit():
            in_range = bool(out)
            continue
        n = int(token)
        out += list(range(out[-1] + 1, n + 1)) if in_range and n > out[-1] else [n]
        in_range = False
    return [str(n) for n in out]


def _acts(text: str, resolver: Resolver, taken: list[tuple[int, int]]) -> list[dict]:
    """Acts named on their own ('Regulation (EU) 2019/1020'): external edges."""
    out = []
    for m in _ACT.finditer(text):
        number = _act_number(m["number"])
        if _inside(m.start(), taken) or number == resolver.own_number:
            continue
        out.append(_edge(None, None, m.group(0), label=m.group(0), external=True, act=number))
    return out


def _own(p: Provision) -> Citation | None:
    try:
        c = parse_label(p.label)
    except CitationError:
        return None
    return replace(c, paragraph=None, points=())


def _article_of(label: str) -> str:
    return re.split(r"[(,]", label, maxsplit=1)[0].strip()


def _inside(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def _unique(edges: list[dict]) -> list[dict]:
    seen, out = set(), []
    for e in edges:
        key = (e["label"], e["target"], e["external"], e["act"])
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def with_references(provisions: list[Provision], own_number: str = "", *,
                    rule_pattern: str | None = None) -> tuple[list[Provision], list[tuple[str, str]]]:
    """The provisions with their references filled in (`Provision.refs`), and the references
    that name a provision the corpus does not have, as (provision id, label): left out of the
    graph, and counted by the checks."""
    resolver = Resolver(provisions, own_number, rule_pattern)
    out, unresolved = [], []
    for p in provisions:
        found = references(p, resolver)
        unresolved += [(p.id, r["label"]) for r in found if not r["external"] and r["target"] is None
                       and p.kind != "recital"]
        out.append(replace(p, refs=[r for r in found if r["external"] or r["target"] is not None]))
    return out, unresolved
