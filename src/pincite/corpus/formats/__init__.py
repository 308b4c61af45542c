"""Source formats: one module per format, behind one registry keyed by `CorpusSpec.format`.

Each format turns source bytes into a ParseResult and checks it; nothing is written until both
have passed. Built-in formats are registered the same way another one would be.

    eurlex        EUR-Lex / Cellar (X)HTML, Official Journal or consolidated markup
    thai-statute  a Thai statute as printed in the Royal Gazette (PDF), by section
    rulebook      a rulebook module (PDF), one provision per rule id
    pages         any PDF, one provision per printed page
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pincite.citations.references import with_references
from pincite.corpus.checks import check_graph, check_parse, check_penalties, check_provisions
from pincite.corpus.formats import consolidated, eurlex, pages, rulebook, thai_statute
from pincite.corpus.result import Act, ParseResult
from pincite.errors import CorpusCheckError, ParseError
from pincite.progress import Progress, report
from pincite.sources.catalog import CorpusSpec, act_number, eurlex_page
from pincite.sources.fetch import HTML, PDF


@dataclass(frozen=True)
class Format:
    media_type: str  # what the source must be
    parse: Callable[[bytes, CorpusSpec, str, str, str], ParseResult]  # (data, spec, lang, sha256, url)
    check: Callable[[ParseResult, CorpusSpec], None]  # raises CorpusCheckError
    check_references: Callable[[list], None] | None = None  # once the reference graph is read
    references: bool = True  # pages cite nothing by label: no reference graph


FORMATS: dict[str, Format] = {}


def register_format(name: str, fmt: Format) -> None:
    FORMATS[name] = fmt


def parse_bytes(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str, media_type: str,
                progress: Progress | None = None) -> ParseResult:
    """Parse and check source bytes in the corpus's format; raise before anything is written."""
    fmt = FORMATS.get(spec.format)
    if fmt is None:
        raise ParseError(f"{spec.name}: unknown source format {spec.format!r} — add the corpus again")
    if media_type != fmt.media_type:
        if fmt.media_type == HTML:
            need = "not EUR-Lex HTML — this corpus needs the HTML text"
        else:
            need = "not a PDF — this corpus is parsed from its PDF; put the PDF in the mirror or add it again"
        raise ParseError(f"{spec.name}/{lang}: source is {media_type}, {need}")
    report(progress, f"{spec.name}/{lang}", "parse")
    result = fmt.parse(data, spec, lang, sha256, url)
    report(progress, f"{spec.name}/{lang}", "check", 0, len(result.provisions))
    fmt.check(result, spec)
    if fmt.references:
        result.provisions, unresolved = with_references(result.provisions, act_number(spec.celex),
                                                        rule_pattern=spec.rule_pattern or None)
        check_graph(result.provisions, unresolved)
    if fmt.check_references is not None:
        fmt.check_references(result.provisions)
    return result


def _parse_eurlex(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str) -> ParseResult:
    act = Act(spec.name, lang, spec.celex, eurlex_page(spec.celex, lang), sha256)
    if consolidated.is_consolidated(data):
        return consolidated.parse_consolidated(data, act)
    return eurlex.parse_eurlex(data, act)


def _check_eurlex(result: ParseResult, spec: CorpusSpec) -> None:
    check_parse(result, spec.expected)


def _check_pdf(result: ParseResult, spec: CorpusSpec) -> None:
    """The checks of check_parse that apply to sections, rules and pages."""
    if not result.provisions:
        raise CorpusCheckError(f"{spec.name}: no provisions parsed — corpus not written; check the PDF")
    check_provisions(result.provisions, result.foreign_texts)


def _check_statute(result: ParseResult, spec: CorpusSpec) -> None:
    _check_pdf(result, spec)
    thai_statute.check_sections(result, spec.expected.sections if spec.expected else None)


register_format("eurlex", Format(HTML, _parse_eurlex, _check_eurlex))
register_format("thai-statute", Format(PDF, thai_statute.parse_thai_statute, _check_statute, check_penalties))
register_format("rulebook", Format(PDF, rulebook.parse_rulebook, _check_pdf))
register_format("pages", Format(PDF, pages.parse_pages, _check_pdf, references=False))
