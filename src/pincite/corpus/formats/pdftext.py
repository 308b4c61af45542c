"""Text lines out of a PDF (pypdfium2), with running headers and footers set apart.

PDF text comes as positioned glyphs, not lines. Lines are rebuilt from the glyph boxes:
glyphs that share a baseline form a line, read left to right, so a line drawn in two pieces
(a rule id in the margin, its text in a column) is still one line, and combining marks
emitted out of order (Thai tone marks in the Royal Gazette's header) land on their base.
Lines that recur near the top or bottom of most pages are page furniture (headers, footers,
page numbers); they are kept apart from the body and read for the printed page labels.
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from pincite import languages
from pincite.errors import ParseError

NIKHAHIT = languages.words("th", "SCRIPT")["nikhahit"]
BAND = 0.13  # share of the page height at the top and at the bottom where furniture lives
# Digits of other scripts, read as 0 to 9 (a Thai statute numbers its pages ๑, ๒ …).
_DIGITS = languages.each("DIGITS")
_TO_ARABIC = str.maketrans("".join(_DIGITS.values()), "0123456789" * len(_DIGITS))


@dataclass(frozen=True)
class Line:
    text: str
    x0: float
    x1: float
    bottom: float  # baseline, in PDF points from the bottom of the page
    size: float  # font size
    space_after: bool = False  # the line ends on a space glyph (a word or phrase break)
    bold: bool = False  # most of its glyphs are set in a bold font (headings)

    def shape(self) -> str:
        """The text with digits masked: 'Page 3 of 12' and 'Page 4 of 12' have one shape."""
        return re.sub(r"\d", "#", self.text.translate(_TO_ARABIC))


@dataclass
class Page:
    number: int  # physical page, 1-based
    width: float
    height: float
    lines: list[Line]  # body, top to bottom
    furniture: list[Line] = field(default_factory=list)  # running headers, footers, page numbers
    label: str = ""  # the printed page label ("52", "iv"), or the physical number

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass
class _Cluster:
    """A base glyph with the combining marks drawn on it."""

    text: str
    x0: float
    x1: float
    bottom: float
    top: float
    size: float
    bold: bool = False


def read_pdf(data: bytes, where: str) -> list[Page]:
    """Every page's lines, furniture set apart and page labels read; raises ParseError when the
    bytes are no readable PDF."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        reason = "it is encrypted" if "password" in str(exc).lower() else str(exc)
        raise ParseError(f"{where} cannot be opened as a PDF ({reason}) — "
                         f"save it again as an unprotected PDF") from exc
    try:
        pages = []
        for index in range(len(pdf)):
            page = pdf[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            pages.append(Page(index + 1, width, height, page_lines(textpage)))
            textpage.close()
            page.close()
        printed = [pdf.get_page_label(i) for i in range(len(pdf))]
    except pdfium.PdfiumError as exc:  # the document opens but a page does not: a damaged file
        raise ParseError(f"{where} is damaged: page {len(pages) + 1} cannot be read ({exc}) — "
                         f"save it again from the program that made it, or repair it (e.g. qpdf in.pdf out.pdf)") from exc
    finally:
        pdf.close()
    split_furniture(pages)
    assign_labels(pages, printed)
    return pages


def has_text(pages: list[Page]) -> bool:
    return any(p.lines or p.furniture for p in pages)


# --- lines from glyphs ------------------------------------------------------------------------


def _is_mark(ch: str) -> bool:
    return unicodedata.combining(ch) != 0 or "\u0e31" == ch or "\u0e34" <= ch <= "\u0e3a" \
        or "\u0e47" <= ch <= "\u0e4e"


def _glyphs(textpage):
    """(char, left, right, bottom, top, size, bold) of every glyph the PDF draws, in content order."""
    import pypdfium2.raw as raw

    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    name, flags = ctypes.create_string_buffer(128), ctypes.c_int()
    loose = raw.FS_RECTF()
    last_obj, bold = None, False
    for i in range(textpage.count_chars()):
        if raw.FPDFText_IsGenerated(textpage, i):  # pdfium's guessed spaces and line breaks
            continue
        ch = chr(raw.FPDFText_GetUnicode(textpage, i))
        if ch in "\r\n\x00\ufffe\uffff" or not raw.FPDFText_GetCharBox(textpage, i, left, right, bottom, top):
            continue
        size = raw.FPDFText_GetFontSize(textpage, i) or (top.value - bottom.value) or 10.0
        if ch == " " and top.value - bottom.value > 0.5:
            ch = NIKHAHIT  # a drawn glyph mapped to space: the Royal Gazette fonts' nikhahit
        if not _is_mark(ch) and raw.FPDFText_GetLooseCharBox(textpage, i, ctypes.byref(loose)):
            # The font's box, not the ink's: ink boxes leave gaps inside words ("FC-1 .1") and put
            # an apostrophe or a quote above the baseline its line shares.
            left.value, right.value = loose.left, loose.right
            bottom.value, top.value = min(loose.bottom, loose.top), max(loose.bottom, loose.top)
        obj = ctypes.cast(raw.FPDFText_GetTextObject(textpage, i), ctypes.c_void_p).value
        if obj is None or obj != last_obj:  # glyphs of one text object share its font
            raw.FPDFText_GetFontInfo(textpage, i, name, len(name), ctypes.byref(flags))
            bold = raw.FPDFText_GetFontWeight(textpage, i) >= 600 or any(
                w in name.value.lower() for w in (b"bold", b"black", b"heavy", b"semibold"))
            last_obj = obj
        yield ch, left.value, right.value, bottom.value, top.value, size, bold


def _clusters(textpage) -> list[_Cluster]:
    clusters: list[_Cluster] = []
    orphans = []
    for ch, left, right, bottom, top, size, bold in _glyphs(textpage):
        if _is_mark(ch):
            last = clusters[-1] if clusters else None
            if last is not None and last.x0 - size / 2 <= (left + right) / 2 <= last.x1 + size / 2 \
                    and abs(bottom - last.bottom) < 1.5 * size:
                last.text += ch
            else:
                orphans.append((ch, left, right, bottom))
            continue
        clusters.append(_Cluster(ch, left, right, bottom, top, size, bold))
    for ch, left, right, bottom in orphans:
        home = _home_of(clusters, (left + right) / 2, bottom)
        if home is not None:
            home.text += ch
    return clusters


def _home_of(clusters: list[_Cluster], x: float, y: float) -> _Cluster | None:
    """The base glyph a stray mark was drawn on: under or over it, nearest first."""
    near = [c for c in clusters if c.text.strip() and c.x0 - 1 <= x <= c.x1 + 1 and abs(y - c.bottom) < 1.2 * c.size]
    return min(near, key=lambda c: abs(y - c.bottom), default=None)


def page_lines(textpage) -> list[Line]:
    """Glyphs grouped by baseline, each line read left to right, lines top to bottom."""
    rows: list[tuple[Counter, list[_Cluster]]] = []
    row = None
    for cluster in _clusters(textpage):
        if row is None or not _continues(row[1][-1], cluster):
            # A row's baseline is where most of its glyphs sit: quotes float high, descenders hang low.
            row = next((r for r in rows if abs(r[0].most_common(1)[0][0] - cluster.bottom) < 0.45 * cluster.size),
                       None)
        if row is None:
            row = (Counter(), [])
            rows.append(row)
        row[0][round(cluster.bottom)] += 1
        row[1].append(cluster)
    lines = [_line(sorted(r, key=lambda c: c.x0)) for _, r in rows]
    return sorted((ln for ln in lines if ln.text), key=lambda ln: -ln.bottom)


def _continues(prev: _Cluster, cluster: _Cluster) -> bool:
    """The next glyph in content order, just right of the previous one on about the same baseline."""
    return (abs(cluster.bottom - prev.bottom) < 0.45 * cluster.size
            and prev.x0 - 1 <= cluster.x0 <= prev.x1 + 3 * cluster.size)


def _line(clusters: list[_Cluster]) -> Line:
    parts: list[str] = []
    prev = None
    for c in clusters:
        if prev is not None and c.x0 - prev.x1 > 0.25 * c.size and c.text != " " and prev.text != " ":
            parts.append(" ")
        parts.append(c.text)
        prev = c
    joined = re.sub(r"\s+", " ", "".join(parts))
    solid = [c for c in clusters if c.text.strip()] or clusters
    baseline = Counter(round(c.bottom, 1) for c in solid).most_common(1)[0][0]
    size = Counter(round(c.size, 1) for c in solid).most_common(1)[0][0]
    bold = sum(c.bold for c in solid) > len(solid) / 2
    return Line(joined.strip(), min(c.x0 for c in solid), max(c.x1 for c in solid), baseline, size,
                space_after=joined.endswith(" "), bold=bold)


# --- furniture and page labels ----------------------------------------------------------------


def _in_band(line: Line, page: Page) -> bool:
    return line.bottom > page.height * (1 - BAND) or line.bottom < page.height * BAND


def split_furniture(pages: list[Page]) -> None:
    """Move lines that recur in the top or bottom band of most pages (same place, same text with
    digits masked) from `lines` to `furniture`."""
    texted = [p for p in pages if p.lines]
    if len(texted) < 2:
        return
    need = max(2, int(0.4 * len(texted) + 0.999))
    candidates = [(p, ln, _furniture_key(ln)) for p in texted for ln in p.lines if _in_band(ln, p)]
    for page, line, key in candidates:
        seen = {q.number for q, other, other_key in candidates
                if other_key == key and abs(other.bottom - line.bottom) < 2.5}
        if len(seen) >= need:
            page.furniture.append(line)
    for page in texted:
        page.lines = [ln for ln in page.lines if ln not in page.furniture]


def _furniture_key(line: Line) -> str:
    """What must repeat: the whole line with digits masked ('Page # of #'), or, for a labelled
    header such as 'CHAPTER FC-1: Customer Due Diligence', its label up to the colon."""
    shape = line.shape()
    colon = shape.find(":")
    return shape[: colon + 1] if 2 <= colon < 24 else shape


_INTEGER = re.compile(r"(?<![\d/.,-])\d{1,5}(?![\d/.,])")
_PAGE = languages.cue("page", "PAGE_LABEL").pattern  # 'Page iv'
_ROMAN = re.compile(rf"^(?:{_PAGE}\s+)?([ivxlc]{{1,7}})$", re.IGNORECASE)


def assign_labels(pages: list[Page], printed: list[str] | None = None) -> None:
    """Label each page as the document numbers it: the PDF's own page labels when it has them,
    else the page numbers printed in its headers or footers (a number that grows with the page),
    else the physical page number. Pages before printed page 1 get their printed Roman numeral,
    or i, ii, iii… in order."""
    if printed and all(printed) and len(set(printed)) == len(printed):
        for page, label in zip(pages, printed, strict=True):
            page.label = label
        return
    offset = _printed_offset(pages)
    if offset is None:
        for page in pages:
            page.label = str(page.number)
        return
    front = 0
    for page in pages:
        n = page.number + offset
        if n >= 1:
            page.label = str(n)
            continue
        front += 1
        roman = next((m.group(1).lower() for ln in page.furniture for m in [_ROMAN.match(ln.text)] if m), None)
        page.label = roman or to_roman(front).lower()


def _printed_offset(pages: list[Page]) -> int | None:
    """printed number - physical number, when one offset explains most pages' furniture."""
    votes: Counter[int] = Counter()
    texted = [p for p in pages if p.lines or p.furniture]
    for page in texted:
        numbers = {int(m.group(0)) for ln in page.furniture for m in _INTEGER.finditer(ln.text.translate(_TO_ARABIC))}
        votes.update({n - page.number for n in numbers})
    if not votes:
        return None
    offset, count = votes.most_common(1)[0]
    return offset if count >= max(2, 0.5 * len(texted)) else None


def to_roman(n: int) -> str:
    out = ""
    for value, numeral in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, n = divmod(n, value)
        out += numeral * count
    return out
