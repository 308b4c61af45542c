"""PDF sources → provisions: a Thai statute by section, a rulebook by rule id, any PDF by page.

`corpus.parse_source` hands every non-EUR-Lex corpus here; the result is checked like an
EUR-Lex parse (labels, empty text, markup, material from outside the provisions) before
anything is written.
"""

from __future__ import annotations

from .catalog import CorpusSpec
from .checks import check_provisions
from .errors import CorpusCheckError, ParseError
from .eurlex import ParseResult
from .sources import PDF, Source


def parse_pdf_source(spec: CorpusSpec, lang: str, source: Source, data: bytes) -> ParseResult:
    """Parse and check; raise before anything is written."""
    if source.media_type != PDF:
        raise ParseError(f"{spec.name}/{lang}: source is {source.media_type}, not a PDF — "
                         f"this corpus is parsed from its PDF; put the PDF in the mirror or add it again")
    result = parse_pdf(data, spec, lang, source.sha256, source.url)
    check_pdf_parse(result, spec)
    return result


def parse_pdf(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str) -> ParseResult:
    if spec.format == "thai-statute":
        from .pdpa import parse_thai_statute

        return parse_thai_statute(data, spec, lang, sha256, url)
    if spec.format == "rulebook":
        from .rulebook import parse_rulebook

        return parse_rulebook(data, spec, lang, sha256, url)
    if spec.format == "pages":
        from .pages import parse_pages

        return parse_pages(data, spec, lang, sha256, url)
    raise ParseError(f"{spec.name}: unknown source format {spec.format!r} — add the corpus again")


def check_pdf_parse(result: ParseResult, spec: CorpusSpec) -> None:
    """The checks of checks.check_parse that apply to sections, rules and pages."""
    if not result.provisions:
        raise CorpusCheckError(f"{spec.name}: no provisions parsed — corpus not written; check the PDF")
    check_provisions(result.provisions, result.foreign_texts)
    if spec.format == "thai-statute":
        from .pdpa import check_sections

        check_sections(result, spec.expected.sections if spec.expected else None)
