"""Sanity checks that refuse to write a bad corpus.

Each check guards against a failure seen in real systems that stayed invisible downstream:
a closing article swallowing the signatures, nested points cut short, definitions collapsed
into one provision, text that is mostly markup, counts far from the act's shape.
"""

from __future__ import annotations

import re
from collections import Counter

from pincite import languages
from pincite.corpus.result import ParseResult
from pincite.errors import CorpusCheckError
from pincite.provisions import Provision
from pincite.sources.catalog import Expected

_MARKUP = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(?:\s[^>]*)?>|\bclass=|&[a-z]+;|&#\d+;")
_DEFINITION_START = re.compile(r"^\s*\(?\d+\)\s*[‘'\"“«„]", re.M)
_RENDER_MARKS = re.compile(r"[\s^_]")
# The words of each language the checks read (its pack's CHECKS).
_CHECKS = {code: languages.words(code, "CHECKS") for code in languages.CODES}
# The title of a definitions article, lower-cased, in every pack that names it.
_DEFINITION_TITLES = tuple(w["definitions_title"] for w in _CHECKS.values() if "definitions_title" in w)


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
    first = _MARKUP.search(text)
    if first:
        markup = sum(len(m.group(0)) for m in _MARKUP.finditer(text))
        _fail(provision, f"text contains markup ({markup} characters, e.g. {first.group(0)!r})")
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


# A reference to a provision the corpus does not have is a source typo at most this often
# (the AI Act's Italian text prints "agli articoli 53 e 55, 4e monitorano"); more is a misread.
MAX_UNRESOLVED = 0.01
MIN_EDGES_PER_MENTION = 0.5
# A script written without spaces (Thai) counts the word alone; the others, the word before a number.
_SPACED = {code: languages.each("SPACED").get(code, True) for code in languages.CODES}
_MENTION_WORDS = [(w["mention"], _SPACED[code]) for code, w in _CHECKS.items() if "mention" in w]
_MENTION = re.compile("|".join([rf"\b(?:{'|'.join(m for m, spaced in _MENTION_WORDS if spaced)})\s+(?:\d|[IVX])",
                                *(m for m, spaced in _MENTION_WORDS if not spaced)]), re.IGNORECASE)


def check_graph(provisions: list[Provision], unresolved: list[tuple[str, str]]) -> None:
    """Refuse a reference graph that was misread: a provision citing itself, references to
    provisions the corpus does not have beyond a few typos, or far fewer references than the
    text's mentions of articles, annexes and sections."""
    internal = [(p, r) for p in provisions for r in p.refs if not r["external"]]
    loop = next((p for p, r in internal if r["target"] == p.id), None)
    if loop is not None:
        _fail(loop, "cites itself (a relative reference misread) — reference graph not written")
    if len(unresolved) > max(3, MAX_UNRESOLVED * len(internal)):
        source, label = unresolved[0]
        raise CorpusCheckError(f"{len(unresolved)} references name provisions this corpus does not have "
                               f"(first: {label} in {source}) — corpus not written; report the source file")
    enacting = [p for p in provisions if p.kind != "recital"]
    mentions = sum(len(_MENTION.findall(p.text)) for p in enacting)
    edges = sum(1 for p in enacting for r in p.refs if not r["external"])
    if mentions >= 20 and edges < MIN_EDGES_PER_MENTION * mentions:
        raise CorpusCheckError(f"only {edges} references found for {mentions} mentions of articles, annexes or "
                               f"sections — corpus not written; the reference reader missed them")


PENALTY_TITLE = languages.cue("penalty_title", "CHECKS")
MIN_PENALTIES_REACHING_A_DUTY = 0.8


def penalty_sections(provisions: list[Provision]) -> list[Provision]:
    """The sections of a statute's penalty chapter (PDPA หมวด 7 บทกำหนดโทษ)."""
    return [p for p in provisions if p.kind == "section" and p.path_titles and PENALTY_TITLE.search(p.path_titles[0])]


def check_penalties(provisions: list[Provision]) -> None:
    """A statute's penalty sections must reach the duties they punish ("whoever violates
    Section 26 …"): nearly every one has an edge to a section outside the penalty chapter (a
    few punish conduct they describe themselves, such as disclosing what one learned on duty)."""
    penalties = penalty_sections(provisions)
    if not penalties:
        return
    inside = {p.id for p in penalties}
    reaching = [p for p in penalties if any(r["target"] and r["target"] not in inside for r in p.refs)]
    if len(reaching) < MIN_PENALTIES_REACHING_A_DUTY * len(penalties):
        missing = [p.label for p in penalties if p not in reaching]
        raise CorpusCheckError(f"only {len(reaching)} of {len(penalties)} penalty sections reach the duty they "
                               f"punish (not: {', '.join(missing[:5])}) — corpus not written; report the source file")


def corpus_counts(provisions: list[Provision]) -> dict[str, int]:
    """Counts by kind of provision, as `pincite corpus stats` prints them."""
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
        "references": sum(1 for p in provisions for r in p.refs if not r["external"]),
        "external_references": sum(1 for p in provisions for r in p.refs if r["external"]),
    }
    # Statutes numbered by section, rulebooks and uploaded documents: only when present.
    for kind, key in (("section", "sections"), ("rule", "rules"), ("page", "pages")):
        if kinds[kind]:
            counts[key] = kinds[kind]
    return counts
