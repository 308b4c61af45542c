"""Any PDF without citable structure: one provision per page, cited `handbook.pdf, p. 12`.

The page number is the one the document prints (its PDF page labels, or the numbers in its
running headers and footers), not the position in the file, so a citation matches what the
reader sees. Running headers and footers are left out of the page text; blank pages give no
provision; a PDF with no text layer at all (a scan) is refused with a message, never turned
into an empty corpus.
"""

from __future__ import annotations

import re
from pathlib import Path

from pincite.citations import Citation, format_label
from pincite.corpus.formats.pdftext import Line, Page, has_text, read_pdf
from pincite.corpus.result import ParseResult
from pincite.errors import ParseError
from pincite.provisions import Provision
from pincite.sources.catalog import CorpusSpec

_CITABLE_LABEL = re.compile(r"^(?:\d{1,5}|[ivxlcdm]{1,8})$", re.IGNORECASE)


def document_name(filename: str) -> str:
    """The file name page citations carry: 'Staff Handbook (2024).PDF' → 'Staff-Handbook-2024.pdf'.
    Citations are found in running text by `name.pdf, p. N`, so the name has no spaces."""
    path = Path(filename)
    stem = re.sub(r"[^\w.-]+", "-", path.stem).strip("-.") or "document"
    return f"{stem}.pdf"


def parse_pages(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str) -> ParseResult:
    document = spec.document or document_name(spec.name)
    pages = read_pdf(data, document)
    if not has_text(pages):
        raise ParseError(f"{document} has no text layer (scanned pages?) — run OCR on it first "
                         f"(e.g. ocrmypdf in.pdf out.pdf) and add the result")
    labels = _labels(pages)
    version = f"{document}, {len(pages)} pages, sha256 {sha256[:12]}"
    provisions = [_provision(page, label, document, spec, lang, sha256, url, version)
                  for page, label in zip(pages, labels, strict=True) if page.lines]
    if not provisions:
        raise ParseError(f"{document}: every page is blank once running headers and footers are left out — "
                         f"check the file")
    foreign = list(dict.fromkeys(ln.text for p in pages for ln in p.furniture if len(ln.text) >= 12))
    return ParseResult(provisions, version, spec.title or document, 0, 0, 0,
                       foreign_texts=foreign)


def _labels(pages: list[Page]) -> list[str]:
    """Printed labels when every one can be cited (a number or a Roman numeral) and none repeats;
    physical page numbers otherwise."""
    labels = [p.label.strip().lower() for p in pages]
    if all(_CITABLE_LABEL.match(x) for x in labels) and len(set(labels)) == len(labels):
        return labels
    return [str(p.number) for p in pages]


def page_text(lines: list[Line]) -> str:
    """One line per paragraph: a new paragraph where the vertical gap is larger than a line's."""
    blocks: list[str] = []
    previous = None
    for line in lines:
        if previous is None or previous.bottom - line.bottom > 1.6 * max(line.size, previous.size):
            blocks.append(line.text)
        else:
            blocks[-1] = f"{blocks[-1]} {line.text}"
        previous = line
    return "\n".join(blocks)


def _provision(page: Page, label: str, document: str, spec: CorpusSpec, lang: str, sha256: str,
               url: str, version: str) -> Provision:
    citation = Citation("page", label, document=document)
    return Provision(
        id=f"{spec.name}/{lang}/p-{label}", label=format_label(citation), label_local=format_label(citation),
        kind="page", instrument=spec.name, lang=lang, title="", path=[], text=page_text(page.lines),
        url=f"{url}#page={page.number}", source_sha256=sha256, version=version, celex="",
    )
