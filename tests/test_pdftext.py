"""Lines, page furniture and printed page labels out of real PDFs (drawn with reportlab)."""

from __future__ import annotations

import pytest

from pincite.corpus.formats.pdftext import has_text, read_pdf
from pincite.errors import ParseError
from tests.pdf_fixtures import paged_pdf, rulebook_pdf, scanned_pdf


@pytest.fixture(scope="module")
def rulebook_pages(tmp_path_factory):
    path = rulebook_pdf(tmp_path_factory.mktemp("pdf") / "fc.pdf")
    return read_pdf(path.read_bytes(), "fc.pdf")


def test_an_id_in_the_margin_and_its_text_in_a_column_are_one_line(rulebook_pages):
    texts = [ln.text for ln in rulebook_pages[2].lines]
    assert any(t.startswith("FC-1.1.1 Conventional bank licensees must") for t in texts)


def test_an_apostrophe_stays_on_its_line(rulebook_pages):
    texts = [ln.text for ln in rulebook_pages[2].lines]
    assert any("the customer's permanent residential address" in t for t in texts)


def test_running_header_and_footer_are_furniture_not_body(rulebook_pages):
    page = rulebook_pages[2]
    assert "MODULE FC: Financial Crime" in [ln.text for ln in page.furniture]
    assert not any("Page 1 of 2" in ln.text or ln.text.startswith("MODULE") for ln in page.lines)


def test_chapter_header_that_changes_per_chapter_is_still_furniture(rulebook_pages):
    chapters = {ln.text for p in rulebook_pages for ln in p.furniture if ln.text.startswith("CHAPTER")}
    assert chapters == {"CHAPTER FC-1: Customer Due Diligence Requirements",
                        "CHAPTER FC-2: Suspicious Transaction Reporting"}


def test_bold_headings_are_marked(rulebook_pages):
    heading = next(ln for ln in rulebook_pages[2].lines if ln.text == "FC-1.1 General Requirements")
    assert heading.bold and not next(ln for ln in rulebook_pages[2].lines if ln.text.startswith("FC-1.1.1")).bold


def test_printed_page_numbers_label_pages_and_front_matter_gets_roman_numerals(tmp_path):
    pages = read_pdf(paged_pdf(tmp_path / "h.pdf").read_bytes(), "h.pdf")
    assert [p.label for p in pages] == ["i", "ii", "1", "2", "3", "4"]


def test_numbering_that_starts_later_is_followed(tmp_path):
    pages = read_pdf(paged_pdf(tmp_path / "h.pdf", front=0, first_number=17).read_bytes(), "h.pdf")
    assert [p.label for p in pages] == ["17", "18", "19", "20", "21", "22"]


def test_pdf_page_labels_win_over_the_physical_index(tmp_path):
    pages = read_pdf(paged_pdf(tmp_path / "h.pdf", pdf_labels=True).read_bytes(), "h.pdf")
    assert [p.label for p in pages] == ["i", "ii", "1", "2", "3", "4"]


def test_a_body_line_at_the_same_place_on_every_page_is_not_furniture(tmp_path):
    pages = read_pdf(paged_pdf(tmp_path / "h.pdf").read_bytes(), "h.pdf")
    assert all(p.lines[0].text.startswith(f"Body of physical page {p.number}.") for p in pages)


def test_a_scan_has_no_text(tmp_path):
    assert not has_text(read_pdf(scanned_pdf(tmp_path / "s.pdf").read_bytes(), "s.pdf"))


def test_bytes_that_are_no_pdf_are_a_parse_error():
    with pytest.raises(ParseError, match="cannot be opened as a PDF"):
        read_pdf(b"%PDF-1.4 this is not really a PDF %%EOF", "x.pdf")
