"""Render EUR-Lex (X)HTML elements to plain text lines.

A provision's text keeps one block per line: the paragraph's own sentences first, then each
point on its own line with its label ("(a) …"), nested points indented two spaces per level.
Index-time splitting of long paragraphs into points relies on that layout.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml import html as lxml_html

_SPACES = re.compile(r"\s+")
_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_BLOCK_TAGS = frozenset({"p", "div", "table", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6"})


def parse_html(data: bytes):
    """Parse bytes with the forgiving HTML parser: EUR-Lex pages declare XHTML but are not well-formed."""
    parser = lxml_html.HTMLParser(encoding="utf-8", remove_comments=True)
    # C0 control characters (never in the text of a law) parse, but lxml refuses them when a
    # parser later sets an element's text: drop them first. No UTF-8 sequence contains these bytes.
    data = _CONTROLS.sub(b"", data)
    try:
        return lxml_html.document_fromstring(data, parser=parser)
    except etree.LxmlError as exc:  # an empty or whitespace-only document: lxml's own error class
        raise ValueError(str(exc) or type(exc).__name__) from exc


def normalize(text: str) -> str:
    """No-break spaces become spaces, soft hyphens go, whitespace runs collapse."""
    return _SPACES.sub(" ", text.replace("\u00ad", "").replace("\u00a0", " ")).strip()


def classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def is_footnote_call(el) -> bool:
    """`<a id="ntc1-…">(<span class="oj-note-tag">1</span>)</a>` — a call, not text of the law."""
    if el.tag != "a":
        return False
    return (el.get("id") or "").startswith("ntc") or bool(el.xpath(".//*[contains(@class,'oj-note-tag')]"))


def _is_note(el) -> bool:
    """Footnote text (`p.oj-note`), which in amending articles sits inside the quoted text."""
    return "oj-note" in classes(el) or "note" in classes(el)


def _is_inline_block(el) -> bool:
    return "display: inline" in (el.get("style") or "").replace("display:inline", "display: inline")


def inline_text(el) -> str:
    """Text of an inline element; superscripts keep their meaning as ^ (10^25, never 10 25)."""
    if is_footnote_call(el):
        return ""
    if el.tag in ("script", "style"):
        return ""
    parts = [el.text or ""]
    for child in el:
        parts.append(inline_text(child))
        parts.append(child.tail or "")
    text = "".join(parts)
    if "oj-super" in classes(el) or el.tag == "sup":
        return "^" + text.strip()
    if "oj-sub" in classes(el) or el.tag == "sub":
        return "_" + text.strip()
    return text


def _drop_space_before_punctuation(buf: list[str], tail: str | None) -> None:
    """'806/2014 (37), and' loses its call; the space before it must not stay as '806/2014 , and'."""
    if tail and tail.lstrip()[:1] in (",", ".", ";", ":", ")") and buf:
        buf[-1] = buf[-1].rstrip()


def lines_of(el, depth: int = 0) -> list[str]:
    """Block-level rendering of `el` into indented lines."""
    if _is_note(el):
        return []
    if el.tag == "table":
        return table_lines(el, depth)
    out: list[str] = []
    buf: list[str] = [el.text or ""]

    def flush() -> None:
        text = normalize("".join(buf))
        if text:
            out.append("  " * depth + text)
        buf.clear()

    for child in el:
        if not isinstance(child.tag, str) or child.tag in ("script", "style") or _is_note(child):
            pass
        elif child.tag == "table":
            flush()
            out.extend(table_lines(child, depth))
        elif child.tag in _BLOCK_TAGS and not _is_inline_block(child):
            flush()
            out.extend(lines_of(child, depth))
        elif child.tag == "br":
            buf.append(" ")
        elif is_footnote_call(child):
            _drop_space_before_punctuation(buf, child.tail)
        else:
            buf.append(inline_text(child))
        buf.append(child.tail or "")
    flush()
    return out


def _rows(table) -> list:
    return table.xpath("./tr | ./tbody/tr | ./thead/tr")


def table_lines(table, depth: int) -> list[str]:
    """A point table: label cell(s) then a content cell, one row per point."""
    out: list[str] = []
    for row in _rows(table):
        cells = row.xpath("./td | ./th")
        if not cells:
            continue
        label = normalize(" ".join(normalize(" ".join(lines_of(c))) for c in cells[:-1]))
        content = lines_of(cells[-1], depth + 1) if label else lines_of(cells[-1], depth)
        if not label:
            out.extend(content)
            continue
        indent = "  " * depth
        if content:
            out.append(f"{indent}{label} {content[0].strip()}")
            out.extend(content[1:])
        else:
            out.append(f"{indent}{label}")
    return out


def text_of(el) -> str:
    """All text of an element as one normalized string (for headings and coverage checks)."""
    return normalize(" ".join(lines_of(el)))


def point_marker(table) -> str:
    """The label of a point table's first row, e.g. '(a)', '1.', '—'; '' when there is none."""
    rows = _rows(table)
    if not rows:
        return ""
    cells = rows[0].xpath("./td | ./th")
    return normalize(" ".join(text_of(c) for c in cells[:-1]))


def raw_text(el) -> str:
    """The element's text straight from the tree, minus footnote calls: an independent witness
    against which the rendered text is checked (nothing the renderer drops goes unnoticed)."""
    if _is_note(el):
        return ""
    parts = el.xpath(
        ".//text()[not(ancestor::a[starts-with(@id,'ntc')])]"
        "[not(ancestor::script)][not(ancestor::style)]"
        "[not(ancestor::p[contains(concat(' ', @class, ' '), ' oj-note ')])]"
    )
    return normalize(" ".join(parts))
