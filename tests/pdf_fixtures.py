"""PDF fixtures drawn with reportlab: a rulebook module in the CBB Rulebook's shape, a plain
document with printed page numbers, and a scan without a text layer.

No real CBB module is available offline, so `rulebook_pdf` reproduces what makes those PDFs
hard: a cover, a table of contents listing the ids, a running header naming module and
chapter, a footer with the edition date and "Section …: Page N of M", rule ids in a margin
column with their text beside them, sub-items (a), (b) with nested (i), (ii), a rule running
across a page break, a line that opens with a reference to another rule, a deleted stub and
a module-history table whose rows start with rule ids.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

MODULE = ("FC", "Financial Crime")
RULE_X, TEXT_X, WIDTH = 72, 140, 70  # margin column, text column, characters per text line

# (chapter id, chapter title, footer date, [(section id, title, [(subheading or None, [(rule id, [blocks])])])])
CHAPTERS = [
    ("FC-1", "Customer Due Diligence Requirements", "January 2024", [
        ("FC-1.1", "General Requirements", [
            ("Verification of identity", [
                ("FC-1.1.1", ["Conventional bank licensees must implement the customer due diligence measures "
                              "set out in this Chapter when establishing a business relationship with a customer "
                              "and when carrying out an occasional transaction above BD 6,000."]),
                ("FC-1.1.2", ["Licensees must verify the identity of each customer using original documents "
                              "from a reliable and independent source, including:",
                              "(a) a valid passport or national identity card;",
                              "(b) confirmation of the customer's permanent residential address; and",
                              "(c) for a legal person, its commercial registration and the identity of:",
                              "  (i) each authorised signatory; and",
                              "  (ii) each ultimate beneficial owner holding 10% or more of the capital."]),
            ]),
            ("Timing of verification", [
                ("FC-1.1.3", ["Verification must be completed before the account is opened. Where verification "
                              "cannot be completed, the licensee must not open the account and must consider "
                              "filing a suspicious transaction report in accordance with Paragraph",
                              "@FC-2.1.1 and inform the Money Laundering Reporting Officer."]),
            ]),
        ]),
        ("FC-1.2", "Enhanced Due Diligence", [
            (None, [
                ("FC-1.2.1", ["Licensees must apply enhanced due diligence to politically exposed persons, to "
                              "customers from high-risk jurisdictions identified by the FATF, and to any "
                              "relationship that presents a higher risk of money laundering. Enhanced measures "
                              "include senior management approval before the relationship is established, "
                              "establishing the source of wealth and the source of funds, and enhanced ongoing "
                              "monitoring of the relationship, in particular:",
                              "(a) obtaining the approval of a member of senior management, who must record "
                              "the reasons for accepting the relationship and the risk mitigation measures "
                              "applied, before a business relationship with a politically exposed person is "
                              "established or, for an existing customer, continued;",
                              "(b) taking reasonable measures to establish the source of wealth and the source "
                              "of funds of customers and beneficial owners identified as politically exposed "
                              "persons, and keeping the evidence obtained on the customer file;",
                              "!page",
                              "(c) conducting enhanced ongoing monitoring of the relationship, including more "
                              "frequent review of transactions against the customer's profile and the "
                              "documentation of every unusual transaction and the action taken on it; and",
                              "(d) reviewing the relationship at least annually and recording the outcome of "
                              "that review in writing, signed by the compliance officer."]),
                ("FC-1.2.2", ["[This Paragraph was deleted in October 2023.]"]),
                ("FC-1.2.3", ["Licensees must keep records of the enhanced due diligence measures applied for "
                              "at least five years after the end of the relationship."]),
            ]),
        ]),
    ]),
    ("FC-2", "Suspicious Transaction Reporting", "October 2023", [
        ("FC-2.1", "Reporting Requirements", [
            (None, [
                ("FC-2.1.1", ["Licensees must report to the Financial Intelligence Directorate and to the "
                              "Central Bank of Bahrain any transaction that they suspect involves the proceeds "
                              "of crime, without delay and in any event within 2 business days of forming the "
                              "suspicion."]),
                ("FC-2.1.2", ["The Money Laundering Reporting Officer must keep a register of all reports made "
                              "under Paragraph FC-2.1.1 and of the decisions taken not to report."]),
            ]),
        ]),
    ]),
]
HISTORY = [("Document Ref.", "Date", "Module Ref.", "Change Description"),
           ("OG/226/2023", "10/2023", "FC-1.2.2", "Deleted paragraph on simplified due diligence."),
           ("FC-2.1.1", "01/2024", "OG/12/2024", "Amended the reporting deadline."),
           ("OG/12/2024", "01/2024", "FC-1.1.1", "Threshold for occasional transactions updated.")]

# Every rule a parse must return (the deleted stub excluded), in order.
RULE_IDS = ["FC-1.1.1", "FC-1.1.2", "FC-1.1.3", "FC-1.2.1", "FC-1.2.3", "FC-2.1.1", "FC-2.1.2"]


class _Writer:
    """Draws lines top-down, turning pages with the module's running header and footer."""

    def __init__(self, path: Path):
        from reportlab.lib.pagesizes import A4
        from reportlab.pdfgen import canvas

        self.c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
        self.width, self.height = A4
        self.y = 0.0
        self.page_in_section = 0
        self.chapter = self.date = self.section = ""

    def furniture(self) -> None:
        c, top = self.c, self.height - 40
        c.setFont("Helvetica", 8)
        c.drawString(72, top, "Central Bank of Bahrain Rulebook")
        c.drawRightString(self.width - 72, top, "Volume 1: Conventional Banks")
        c.setFont("Helvetica-Bold", 9)
        c.drawString(72, top - 12, f"MODULE {MODULE[0]}: {MODULE[1]}")
        c.drawString(72, top - 24, f"CHAPTER {self.chapter}")
        c.setFont("Helvetica", 8)
        self.page_in_section += 1
        c.drawString(72, 40, f"{MODULE[0]}: {MODULE[1]}")
        c.drawCentredString(self.width / 2, 40, self.date)
        c.drawRightString(self.width - 72, 40, f"Section {self.section}: Page {self.page_in_section} of 2")
        self.y = self.height - 100

    def new_page(self) -> None:
        self.c.showPage()
        self.furniture()

    def line(self, text: str, x: float = TEXT_X, font: str = "Helvetica", size: float = 10, gap: float = 13) -> None:
        if self.y < 80:
            self.new_page()
        self.c.setFont(font, size)
        self.c.drawString(x, self.y, text)
        self.y -= gap


def _cover_and_contents(w: _Writer) -> None:
    c = w.c
    c.setFont("Helvetica-Bold", 22)
    c.drawCentredString(w.width / 2, 560, "Central Bank of Bahrain")
    c.drawCentredString(w.width / 2, 530, "Volume 1: Conventional Banks")
    c.setFont("Helvetica", 16)
    c.drawCentredString(w.width / 2, 480, "Financial Crime Module (FC)")
    c.showPage()
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 760, "Table of Contents")
    y = 730
    for chapter, title, date, sections in CHAPTERS:
        c.setFont("Helvetica-Bold", 10)
        c.drawString(72, y, f"{chapter} {title}")
        y -= 16
        for section, stitle, _ in sections:
            c.setFont("Helvetica", 10)
            c.drawString(90, y, section)
            c.drawString(140, y, stitle)
            c.drawRightString(w.width - 72, y, date[:3] + " " + date[-4:])
            y -= 14
    c.drawString(72, y - 10, "Module History ........................................ 5")
    c.showPage()


def _rule(w: _Writer, rule_id: str, blocks: list[str]) -> None:
    first = True
    for block in blocks:
        depth = (len(block) - len(block.lstrip())) // 2
        text = block.strip()
        if text == "!page":  # the rule runs on over a page break
            w.new_page()
            continue
        if text.startswith("@"):  # a reference that opens a line: keep it at the text column
            w.line(text[1:])
            continue
        for i, piece in enumerate(textwrap.wrap(text, WIDTH - 4 * depth)):
            if first:
                w.c.setFont("Helvetica-Bold", 10)
                w.c.drawString(RULE_X, w.y, rule_id)
                first = False
            w.line(piece, x=TEXT_X + 18 * depth + (12 if i and depth else 0))
    w.y -= 6


def rulebook_pdf(path: Path, rename: Callable[[str], str] | None = None) -> Path:
    """The module; `rename` rewrites every string drawn (a rulebook with its own id grammar)."""
    w = _Writer(path)
    if rename is not None:
        _renaming(w.c, rename)
    _cover_and_contents(w)
    started = False
    for chapter, ctitle, date, sections in CHAPTERS:
        w.chapter, w.date = f"{chapter}: {ctitle}", date
        for section, stitle, groups in sections:
            w.section, w.page_in_section = section, 0
            if started:
                w.c.showPage()
            w.furniture()
            started = True
            w.line(f"{section} {stitle}", x=RULE_X, font="Helvetica-Bold", size=12, gap=20)
            for subheading, rules in groups:
                if subheading:
                    w.line(subheading, x=RULE_X, font="Helvetica-BoldOblique", gap=16)
                for rule_id, blocks in rules:
                    _rule(w, rule_id, blocks)
    w.section = "FC-2.1"
    w.c.showPage()
    w.furniture()
    w.line("Module History", x=RULE_X, font="Helvetica-Bold", size=12, gap=20)
    for row in HISTORY:
        for x, cell in zip((RULE_X, 170, 230, 310), row, strict=True):
            w.c.setFont("Helvetica", 9)
            w.c.drawString(x, w.y, cell)
        w.y -= 14
    w.c.showPage()
    w.c.save()
    return path


def _renaming(c, rename: Callable[[str], str]) -> None:
    for name in ("drawString", "drawRightString", "drawCentredString"):
        draw = getattr(c, name)
        setattr(c, name, lambda x, y, text, *rest, _draw=draw, **options: _draw(x, y, rename(text), *rest, **options))


def paged_pdf(path: Path, pages: int = 6, front: int = 2, first_number: int = 1, *,
              pdf_labels: bool = False) -> Path:
    """A report with `front` unnumbered front-matter pages, then pages numbered from
    `first_number` in the footer ("- 1 -"), a running title at the top. With `pdf_labels`
    nothing is printed: the numbering lives only in the PDF's page labels (i, ii, 1, 2 …)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    width, height = A4
    if pdf_labels:
        c.addPageLabel(0, style="ROMAN_LOWER")
        c.addPageLabel(front, style="ARABIC", start=first_number)
    for index in range(pages):
        if index >= front and not pdf_labels:
            c.setFont("Helvetica", 8)
            c.drawString(72, height - 40, "Staff handbook on data retention")
            c.drawCentredString(width / 2, 40, f"- {index - front + first_number} -")
        c.setFont("Helvetica", 11)
        y = height - 100
        body = f"Body of physical page {index + 1}. " + _PAGE_TEXT[index % len(_PAGE_TEXT)]
        for piece in textwrap.wrap(body, 80):
            c.drawString(72, y, piece)
            y -= 15
        c.showPage()
    c.save()
    return path


_PAGE_TEXT = [
    "Personnel files are kept for six years after an employee leaves, then destroyed securely.",
    "Payroll records are kept for ten years to meet tax obligations.",
    "Applications from unsuccessful candidates are deleted after six months unless the candidate agrees otherwise.",
    "CCTV footage is overwritten after thirty days unless it is needed for an investigation.",
    "Access badges are deactivated on the last working day and logs are kept for one year.",
    "Training records are kept for the length of employment plus two years.",
]


def scanned_pdf(path: Path) -> Path:
    """Pages that are only pictures: no text layer at all."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for _ in range(2):
        c.setFillGray(0.2)
        c.rect(72, 400, 300, 200, fill=1)
        c.showPage()
    c.save()
    return path


def text_pdf(paragraphs: list[str]) -> bytes:
    """One page of plain paragraphs, a blank line between them (each its own line of the page's text):
    a policy a user uploads."""
    import io
    import textwrap

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4, invariant=1)
    y = A4[1] - 100
    for paragraph in paragraphs:
        for line in textwrap.wrap(paragraph, 80):
            c.setFont("Helvetica", 11)
            c.drawString(72, y, line)
            y -= 15
        y -= 15
    c.showPage()
    c.save()
    return out.getvalue()
