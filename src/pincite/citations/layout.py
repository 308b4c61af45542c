"""How a provision's text is laid out, read in one place.

The parsers write one block per line: the paragraph's own sentences first ("1. In the case…"
or a lead-in ending in ':'), then each point on its own line ("(a) …", Italian "a) …", annex
items "4. …"), nested points indented two spaces per level. The index (splitting long
paragraphs), the answer stage (quoting one point with its lead-in), verification (a citation
to a point resolves only when the point is there) and the outline all read it through here.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from pincite.citations.grammar import format_label, parse_label
from pincite.errors import CitationError

# A point line: "(a) ", "a) ", "(12) ", "4. ", "12a. "; with dashes=True also "— ", "– ", "- ", "• "
# (indented items without a letter, which the index may split on but nobody cites); with
# quoted=True after the opening quote of amending text ("‘(c) ", "»12. ").
_QUOTES = "‘’“”»«„\"'"
_MARKER = re.compile(
    rf"^(?P<indent>\s*)(?P<q>[{_QUOTES}])?(?:\((?P<a>[a-z]{{1,5}}|\d{{1,3}}[a-z]?)\)|(?P<b>[a-z]{{1,5}}|\d{{1,3}}[a-z]?)\)"
    r"|(?P<c>\d{1,3}[a-z]?)\.|(?P<d>[—–\-•]))\s+",
    re.IGNORECASE)
_LEADING_NUMBER = re.compile(r"^\s*(?:\d{1,3}\.|\(\d{1,3}\)|\d{1,3}\))\s+")

Line = tuple[int, str | None, str]  # (indent, marker or None, the line)


def line_marker(line: str, *, dashes: bool = False, quoted: bool = False) -> tuple[str, int] | None:
    """The point marker opening a line ('a', 'ii', '4'; '—' for any dash or bullet) and where
    the point's words start, or None."""
    m = _MARKER.match(line)
    if m is None or (m["d"] and not dashes) or (m["q"] and not quoted):
        return None
    return ("—" if m["d"] else ascii_digits((m["a"] or m["b"] or m["c"]).lower())), m.end()


def ascii_digits(marker: str) -> str:
    """'๒' → '2': a Thai (or any Unicode) point number is the number a citation writes, so
    'Section 3, point (2)' finds the line '(๒) …'."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in marker)


def point_lines(text: str, *, dashes: bool = False, quoted: bool = False) -> list[Line]:
    """(indent, marker or None, line) for each line of a provision text. The first line is
    the paragraph's own sentence ('1. …') or a lead-in, never a point."""
    out = []
    for number, line in enumerate(text.splitlines()):
        found = line_marker(line, dashes=dashes, quoted=quoted) if number else None
        out.append((len(line) - len(line.lstrip()), found[0] if found else None, line))
    return out


def point_text(text: str, points: tuple[str, ...]) -> str | None:
    """The lead-in and the block of a point path inside a provision text, or None when the
    text holds no such point. The lead-in is the text before the first point (the chapeau)
    and the lines of the parent points, so a quoted point reads as the law reads."""
    if not points:
        return text
    lines = point_lines(text)
    lo, hi = 0, len(lines)
    chain: list[int] = []
    for point in points:
        found = _find_point(lines, lo, hi, point, chain)
        if found is None:
            return None
        chain.append(found)
        lo, hi = found + 1, _block_end(lines, found, hi)
    first_marked = next(i for i, (_, marker, _) in enumerate(lines) if marker)
    if lines[0][2].lstrip()[:1].isdigit():  # '1. Personal data shall be:' keeps its words, not its number
        lines[0] = (0, None, re.sub(r"^\s*\d{1,3}\.\s+", "", lines[0][2]))
    lead = [ln for _, _, ln in lines[:first_marked]] + [lines[i][2] for i in chain[:-1]]
    return "\n".join([*lead, *(ln for _, _, ln in lines[chain[-1]:hi])])


def _find_point(lines: list[Line], lo: int, hi: int, point: str, chain: list[int]) -> int | None:
    """The line of `point` among the shallowest point lines in [lo, hi)."""
    marked = [i for i in range(lo, hi) if lines[i][1] is not None]
    if not marked:
        return None
    depth = min(lines[i][0] for i in marked)
    level = [i for i in marked if lines[i][0] == depth]
    for i in level:
        if lines[i][1] == point:
            return i
    if len(level) == 1:  # one item heads the text (an annex item '4. …'): its points are inside it
        chain.append(level[0])
        return _find_point(lines, level[0] + 1, _block_end(lines, level[0], hi), point, chain)
    return None


def _block_end(lines: list[Line], i: int, hi: int) -> int:
    """The end of the block opened by line i: the next line at its depth or shallower."""
    return next((j for j in range(i + 1, hi) if lines[j][0] <= lines[i][0]), hi)


def top_points(text: str) -> list[tuple[str, ...]]:
    """Paths of the top-level points of a provision; for an annex item ('4. …') its points."""
    marked = [(indent, marker) for indent, marker, _ in point_lines(text) if marker]
    if not marked:
        return []
    depth = min(indent for indent, _ in marked)
    level = [marker for indent, marker in marked if indent == depth]
    if len(level) == 1:  # one item heading the text ('4. …' of an annex): its points, if any
        inner = [(indent, marker) for indent, marker in marked if indent > depth]
        sub = min((indent for indent, _ in inner), default=None)
        return [(m,) for indent, m in inner if indent == sub]
    return [(m,) for m in level]


def top_point_lines(text: str) -> dict[str, str]:
    """The first line of each top-level point (top_points), by its marker."""
    wanted = {path[0] for path in top_points(text)}
    marked = [(indent, marker, line) for indent, marker, line in point_lines(text) if marker in wanted]
    depth = min((indent for indent, _, _ in marked), default=0)
    return {marker: line.strip() for indent, marker, line in reversed(marked) if indent == depth}


def split_points(text: str) -> tuple[str, list[str]]:
    """(lead-in, [point with its nested lines, joined]) of a provision text: points are the
    least-indented point lines after the first line (dashes and bullets count here)."""
    lines = point_lines(text, dashes=True)
    candidates = [indent for indent, marker, _ in lines if marker]
    if not candidates:
        return " ".join(ln.strip() for _, _, ln in lines), []
    top = min(candidates)
    lead: list[str] = []
    points: list[list[str]] = []
    for indent, marker, line in lines:
        if marker and indent == top:
            points.append([line.strip()])
        elif points:
            points[-1].append(line.strip())
        else:
            lead.append(line.strip())
    return " ".join(lead), [" ".join(p) for p in points]


def strip_number(text: str) -> str:
    """'1. In the case…' → 'In the case…'; '(47) The legitimate…' → 'The legitimate…'."""
    return _LEADING_NUMBER.sub("", text.strip())


def joined(block: str) -> str:
    """A block of lines as one sentence: lines joined by a space (they are contiguous in the law)."""
    return " ".join(ln.strip() for ln in block.splitlines() if ln.strip())


def squash(text: str) -> str:
    """Text compared as words: NFC, whitespace runs as one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def point_label(label: str, path: tuple[str, ...]) -> str:
    """'Article 5(1)' + ('f',) → 'Article 5(1)(f)'; 'Annex III, point 4' + ('a',) → 'Annex III, point 4(a)'."""
    outer = parse_label(label)
    return format_label(replace(outer, points=(*outer.points, *path)))


def local_label(label: str, lang: str) -> str:
    """'Article 5(1)(f)' in the instrument's language style ('Articolo 5, paragrafo 1, lettera f)');
    a label that does not parse is shown as written."""
    try:
        return format_label(parse_label(label), lang)
    except CitationError:
        return label
