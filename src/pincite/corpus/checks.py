"""Sanity checks that refuse to write a bad corpus.

Each check guards against a failure seen in real systems that stayed invisible downstream:
a closing article swallowing the signatures, nested points cut short, definitions collapsed
into one provision, text that is mostly markup, counts far from the act's shape.
"""

from __future__ import annotations

import re
from collections import Counter

from pincite.corpus.result import ParseResult
from pincite.errors import CorpusCheckError
from pincite.provisions import Provision
from pincite.sources.catalog import Expected

_MARKUP = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^>]*)?>|\bclass=|&[a-z]+;|&#\d+;")
_DEFINITION_START = re.compile(r"^\s*\(?\d+\)\s*[‘'\"“«„]", re.M)
_RENDER_MARKS = re.compile(r"[\s^_]")
_DEFINITION_TITLES = ("definitions", "definizioni", "définitions", "definitioner",
                      "begriffsbestimmungen", "definities", "definicje", "definiciones")


def check_parse(result: ParseResult, expected: Expected | None = None) -> None:
    """Raise CorpusCheckError naming the first provision that fails; return None when sound."""
    check_provisions(result.provisions, result.foreign_texts)
    for provision in result.provisions:
        _check_coverage(provision, result.source_texts.get(provision.id, ""))
        _check_definitions(provision)
    _check_counts(result, expected)


def check_provisions(provisions: list[Provision], foreign_texts: list[str]) -> None:
    """The checks every kind of source shares (EUR-Lex, statute and rulebook PDFs, pages):
    labels present and unique, text present and free of markup, nothing from outside swallowed."""
    _check_labels(provisions)
    for provision in provisions:
        _check_text(provision)
        _check_foreign(provision, foreign_texts)


def _fail(provision: Provision | None, message: str) -> None:
    where = f"{provision.instrument}/{provision.lang} {provision.label}: " if provision else ""
    raise CorpusCheckError(f"{where}{message} — corpus not written; report the source file")


def _check_labels(provisions: list[Provision]) -> None:
    for provision in provisions:
        if not provision.label.strip() or not provision.id.strip():
            _fail(provision, "empty label or id")
    for field in ("id", "label"):
        seen = Counter(getattr(p, field) for p in provisions)
        dupes = [value for value, count in seen.items() if count > 1]
        if dupes:
            _fail(None, f"duplicate {field} {dupes[0]!r} ({len(dupes)} duplicated)")


def _check_text(provision: Provision) -> None:
    text = provision.text.strip()
    if not text:
        _fail(provision, "empty text")
    markup = sum(len(m.group(0)) for m in _MARKUP.finditer(text))
    if markup:
        _fail(provision, f"text contains markup ({markup} characters, e.g. {_MARKUP.search(text).group(0)!r})")
    last = text.splitlines()[-1].rstrip()
    # Forms in annexes legitimately end on "(signature):"; binding text never does.
    if last.endswith(":") and provision.kind in ("paragraph", "article", "definition"):
        _fail(provision, f"text ends on a lead-in ({last[-60:]!r}): its points were cut off")


def _without_render_marks(text: str) -> str:
    return _RENDER_MARKS.sub("", text)


def _check_coverage(provision: Provision, source_text: str) -> None:
    """Every character of the source element reaches the provision text, in order."""
    if not source_text:
        return
    rendered, source = _without_render_marks(provision.text), _without_render_marks(source_text)
    if rendered != source:
        at = next((i for i, (a, b) in enumerate(zip(rendered, source, strict=False)) if a != b),
                  min(len(rendered), len(source)))
        _fail(provision, f"text differs from its source at character {at} "
                         f"({len(rendered)} vs {len(source)} characters): nested points lost or truncated")


def _check_foreign(provision: Provision, foreign_texts: list[str]) -> None:
    text = " ".join(provision.text.split())
    for foreign in foreign_texts:
        if foreign in text:
            _fail(provision, f"text swallows material from outside the enacting terms "
                             f"(signature, footnote or script: {foreign[:60]!r})")


def _check_definitions(provision: Provision) -> None:
    if provision.kind not in ("paragraph", "article", "definition"):
        return  # an annex glossary or a rulebook's definitions page lists terms legitimately
    starts = len(_DEFINITION_START.findall(provision.text))
    if starts >= 3:
        _fail(provision, f"{starts} definitions collapsed into one provision")
    if provision.kind == "article" and provision.title.strip().lower() in _DEFINITION_TITLES:
        _fail(provision, "definitions article was not split into its definitions")


def _check_counts(result: ParseResult, expected: Expected | None) -> None:
    counts = corpus_counts(result.provisions)
    if counts["recitals"] != result.recital_count:
        _fail(None, f"{counts['recitals']} recitals parsed but the source has {result.recital_count}")
    if counts["articles"] != result.article_count:
        _fail(None, f"{counts['articles']} articles parsed but the source has {result.article_count}")
    if counts["annexes"] != result.annex_count:
        _fail(None, f"{counts['annexes']} annexes parsed but the source has {result.annex_count}")
    if expected is None:
        return
    for name in ("enacting", "articles", "annexes", "recitals"):
        want = getattr(expected, name)
        if want is not None and counts[name] != want:
            _fail(None, f"{counts[name]} {name} parsed, expected {want}")


def corpus_counts(provisions: list[Provision]) -> dict[str, int]:
    """Counts in the shape DESIGN.md §1 states them."""
    kinds = Counter(p.kind for p in provisions)
    articles = {p.label.split("(")[0] for p in provisions if p.kind in ("paragraph", "article", "definition")}
    annexes = {p.label.split(",")[0] for p in provisions if p.kind == "annex"}
    counts = {
        "provisions": len(provisions),
        "enacting": kinds["paragraph"] + kinds["article"] + kinds["definition"],
        "paragraphs": kinds["paragraph"],
        "unnumbered_articles": kinds["article"],
        "definitions": kinds["definition"],
        "articles": len(articles),
        "annexes": len(annexes),
        "annex_items": kinds["annex"],
        "recitals": kinds["recital"],
    }
    # Statutes numbered by section, rulebooks and uploaded documents: only when present.
    for kind, key in (("section", "sections"), ("rule", "rules"), ("page", "pages")):
        if kinds[kind]:
            counts[key] = kinds[kind]
    return counts
