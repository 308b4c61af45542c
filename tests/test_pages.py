"""Any PDF without citable structure → one provision per page, cited by its printed page number."""

from __future__ import annotations

import pytest

from pincite.citations import find_citations, parse_label
from pincite.corpus.formats.pages import document_name, parse_pages
from pincite.errors import ParseError
from pincite.sources.catalog import CorpusSpec
from tests.pdf_fixtures import paged_pdf, scanned_pdf

SPEC = CorpusSpec("handbook", "", "", "", langs=frozenset({"en"}), format="pages", document="handbook.pdf")


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    data = paged_pdf(tmp_path_factory.mktemp("pages") / "handbook.pdf").read_bytes()
    return parse_pages(data, SPEC, "en", "ab" * 32, "file:///handbook.pdf")


def test_pages_are_cited_by_their_printed_number(parsed):
    assert [p.label for p in parsed.provisions] == [
        "handbook.pdf, p. i", "handbook.pdf, p. ii", "handbook.pdf, p. 1", "handbook.pdf, p. 2",
        "handbook.pdf, p. 3", "handbook.pdf, p. 4"]


def test_page_provisions_link_to_the_physical_page(parsed):
    p = parsed.provisions[2]
    assert (p.id, p.kind, p.url) == ("handbook/en/p-1", "page", "file:///handbook.pdf#page=3")


def test_page_text_leaves_out_the_running_title_and_page_number(parsed):
    text = parsed.provisions[3].text
    assert text.startswith("Body of physical page 4. CCTV footage") and "Staff handbook" not in text and "- 2 -" not in text


def test_labels_read_back_as_page_citations(parsed):
    assert parse_label(parsed.provisions[2].label).document == "handbook.pdf"
    assert [str(c) for _, _, c in find_citations("See handbook.pdf, p. 3 for CCTV.")] == ["handbook.pdf, p. 3"]


def test_file_names_become_citable_document_names():
    assert document_name("Staff Handbook (2024).PDF") == "Staff-Handbook-2024.pdf"


def test_a_scan_without_text_is_refused_with_a_fix():
    with pytest.raises(ParseError, match=r"has no text layer \(scanned pages\?\) — run OCR on it first"):
        parse_pages(scanned_pdf_bytes(), SPEC, "en", "sha", "u")


def scanned_pdf_bytes() -> bytes:
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        return scanned_pdf(Path(folder) / "scan.pdf").read_bytes()
