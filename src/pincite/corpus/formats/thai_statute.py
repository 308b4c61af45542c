"""Parse a Thai statute as printed in the Royal Gazette (PDF) into its sections.

Built on Thailand's Personal Data Protection Act B.E. 2562 (ราชกิจจานุเบกษา เล่ม ๑๓๖ ตอนที่ ๖๙ ก):
a section opens a paragraph with `มาตรา ๒๖`; chapters (`หมวด ๒`) and parts (`ส่วนที่ ๑`) are
centred headings followed by their title; `บทเฉพาะกาล` opens the transitional provisions; the
countersignature (`ผู้รับสนองพระบรมราชโองการ`) and the explanatory note (`หมายเหตุ`) close the act.
Paragraphs (วรรค) and points start on an indented line; lines of one paragraph are joined
without a space, since Thai breaks lines between words.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pincite import languages
from pincite.citations import Citation, format_label
from pincite.corpus.formats.pdftext import Line, Page, read_pdf
from pincite.corpus.formats.thai_text import THAI_DIGITS, repair_sara_am, thai_number
from pincite.corpus.result import ParseResult
from pincite.errors import CorpusCheckError, ParseError
from pincite.provisions import Provision
from pincite.sources.catalog import CorpusSpec

_WORDS = languages.words("th", "STATUTE")
_DIGIT = f"[{THAI_DIGITS[0]}-{THAI_DIGITS[-1]}0-9]"  # a Thai or an Arabic digit
_NUMBER = rf"{_DIGIT}+(?:/{_DIGIT}+)?"
_SECTION = re.compile(rf"^{_WORDS['section']}\s*({_NUMBER})(?:\s+(.*))?$")
_CHAPTER = re.compile(rf"^{_WORDS['chapter']}\s*({_DIGIT}+)$")
_PART = re.compile(rf"^{_WORDS['part']}\s*({_DIGIT}+)$")
_TRANSITIONAL = _WORDS["transitional"]
_CLOSING = (_WORDS["countersignature"], _WORDS["note"])
_GAZETTE = re.compile(rf"{_WORDS['volume']}\s*({_DIGIT}+)\s*{_WORDS['issue']}\s*({_DIGIT}+)\s*(\S+)\s*"
                      rf"{_WORDS['gazette']}\s*(.+)$")
_YEAR = re.compile(rf"{_WORDS['year']}\s*{_DIGIT}{{4}}")
_THAI_END = re.compile(r"[\u0e00-\u0e7f]$")
_THAI_START = re.compile(r"^[\u0e00-\u0e7f]")


@dataclass
class _Section:
    number: str
    page: int
    path: list[str]
    path_titles: list[str]
    blocks: list[list[Line]] = field(default_factory=list)


def parse_thai_statute(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str) -> ParseResult:
    """Sections with their chapter/part path; raises ParseError when none are found."""
    pages = read_pdf(data, f"{spec.name}/{lang}")
    lines = [(page.number, line) for page in pages for line in page.lines]
    if not lines:
        raise ParseError(f"{spec.name}/{lang}: the PDF has no text layer (a scan?) — "
                         f"use the Royal Gazette's text PDF, or OCR it first")
    indent = _paragraph_indent(lines)
    sections, closing = _sections(lines, indent)
    if not sections:
        raise ParseError(f"{spec.name}/{lang}: no sections (มาตรา ๑, มาตรา ๒ …) found — "
                         f"is this a Thai statute from the Royal Gazette?")
    version = _version(pages)
    base = spec.eli or url
    provisions = [_provision(s, spec, lang, sha256, base, version, indent) for s in sections]
    # The countersignature as one block (its lines alone, e.g. นายกรัฐมนตรี, occur in the act),
    # the explanatory note line by line, the running headers.
    signature = [ln.text for _, ln in closing if not ln.text.startswith(_CLOSING[1])]
    foreign = [" ".join(signature[:3])] + [ln.text for _, ln in closing if len(ln.text) >= 40]
    foreign += [ln.text for p in pages for ln in p.furniture if len(ln.text) >= 12]
    return ParseResult(provisions, version, _title(pages) or spec.title, 0, 0, 0,
                       foreign_texts=[t for t in foreign if t])


def _paragraph_indent(lines: list[tuple[int, Line]]) -> float:
    """Where section headings start: the paragraph indent of the page."""
    starts = [round(ln.x0) for _, ln in lines if _SECTION.match(ln.text)]
    if not starts:
        return 0.0
    return float(max(set(starts), key=starts.count))


def _sections(lines: list[tuple[int, Line]], indent: float) -> tuple[list[_Section], list]:
    sections: list[_Section] = []
    path: list[str] = []
    titles: list[str] = []
    pending = None  # a chapter or part heading whose title is the next line
    for i, (page, line) in enumerate(lines):
        text = line.text
        if text.startswith(_CLOSING) and sections:
            return sections, lines[i:]
        if pending is not None:
            titles.append(text)
            pending = None
            continue
        heading = _heading(text)
        if heading is not None:
            kind, label = heading
            keep = 0 if kind != "part" else min(len(path), 1)
            del path[keep:], titles[keep:]
            path.append(label)
            if kind == "transitional":
                titles.append("")
            else:
                pending = kind
            continue
        m = _SECTION.match(text)
        if m and abs(line.x0 - indent) < 8 and _is_next(sections, thai_number(m.group(1))):
            sections.append(_Section(thai_number(m.group(1)), page, list(path), list(titles)))
            rest = m.group(2) or ""
            line = Line(rest, line.x0, line.x1, line.bottom, line.size, line.space_after)
            sections[-1].blocks.append([line])
        elif sections:
            _add_line(sections[-1], line, indent)
    return sections, []


def _heading(text: str) -> tuple[str, str] | None:
    if m := _CHAPTER.match(text):
        return "chapter", f"{_WORDS['chapter']} {thai_number(m.group(1))}"
    if m := _PART.match(text):
        return "part", f"{_WORDS['part']} {thai_number(m.group(1))}"
    if text == _TRANSITIONAL:
        return "transitional", _TRANSITIONAL
    return None


def _is_next(sections: list[_Section], number: str) -> bool:
    """Section numbers run 1, 2, 3 … (with inserted 26/1 after 26): a reference to another
    section that happens to open a line is not a new section."""
    if not sections:
        return number == "1"
    last = sections[-1].number
    whole, last_whole = number.split("/")[0], last.split("/")[0]
    return int(whole) == int(last_whole) + 1 or (whole == last_whole and "/" in number)


def _add_line(section: _Section, line: Line, indent: float) -> None:
    if line.x0 > indent - 8 or not section.blocks:
        section.blocks.append([line])  # an indented line opens a paragraph or a point
    else:
        section.blocks[-1].append(line)


def _block_text(block: list[Line], indent: float) -> str:
    out, previous_space = "", False
    for line in block:
        if out:
            out += _joiner(out, line, previous_space)
        out += line.text
        previous_space = line.space_after
    depth = 1 if block[0].x0 > indent + 12 else 0  # (ก) under (๑)
    return "  " * depth + repair_sara_am(unicodedata.normalize("NFC", out)).strip()


def _joiner(before: str, line: Line, space_after: bool) -> str:
    """Thai lines break between words: no space, unless the printed line ended on one."""
    if space_after or not (_THAI_END.search(before) and _THAI_START.search(line.text)):
        return " "
    return ""


def _provision(s: _Section, spec: CorpusSpec, lang: str, sha256: str, base: str, version: str,
               indent: float) -> Provision:
    citation = Citation("section", s.number)
    slug = s.number.replace("/", "-")
    blocks = [_block_text(b, indent) for b in s.blocks]
    return Provision(
        id=f"{spec.name}/{lang}/sec-{slug}", label=format_label(citation), label_local=format_label(citation, lang),
        kind="section", instrument=spec.name, lang=lang, title="", path=s.path, path_titles=s.path_titles,
        text="\n".join(b for b in blocks if b.strip()), url=f"{base}#page={s.page}", source_sha256=sha256,
        version=version, celex=spec.celex,
    )


def _version(pages: list[Page]) -> str:
    """'ราชกิจจานุเบกษา เล่ม 136 ตอนที่ 69 ก, 27 พฤษภาคม 2562' from the running header."""
    for page in pages:
        for line in page.furniture:
            if m := _GAZETTE.search(line.text):
                volume, part, series, date = (thai_number(g) for g in m.groups())
                return f"{_WORDS['gazette']} {_WORDS['volume']} {volume} {_WORDS['issue']} {part} {series}, {date}"
    return ""


def _title(pages: list[Page]) -> str:
    """The act's title: the first lines of the first page, up to its year (พ.ศ. ๒๕๖๒)."""
    words: list[str] = []
    for line in pages[0].lines[:6] if pages else []:
        if _YEAR.fullmatch(line.text):
            return f"{''.join(words)} {line.text}"
        words.append(line.text)
    return ""


def check_sections(result: ParseResult, expected: int | None) -> None:
    numbers = [p.label.removeprefix("Section ") for p in result.provisions]
    whole = [n for n in numbers if "/" not in n]
    if whole != [str(i) for i in range(1, len(whole) + 1)]:
        raise CorpusCheckError(f"sections are not numbered 1 to {len(whole)} in order — corpus not written; "
                               f"report the source file")
    if expected is not None and len(whole) != expected:
        raise CorpusCheckError(f"{len(whole)} sections parsed, expected {expected} — corpus not written; "
                               f"report the source file")
