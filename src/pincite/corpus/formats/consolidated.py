"""Parse EUR-Lex consolidated texts (CONVEX "norm" markup) into provisions.

Consolidated versions use another vocabulary than the Official Journal text
(shared/corpora/README.md): `title-article-norm`, paragraphs as `div.norm` with a
`span.no-parag` number, points as `div.grid-list` pairs of columns, and amendment markers
(`▼B`, `►M1 … ◄`, `p.modref`) that are not text of the law. The tree is rewritten into the
OJ vocabulary and handed to `eurlex.parse_eurlex`, so both renderings go through one parser
and one set of checks.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lxml import etree
from lxml import html as lxml_html

from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.formats.markup import classes, normalize, parse_html
from pincite.corpus.result import Act, ParseResult
from pincite.errors import ParseError

# ▼B, ▼M12, ►C1, ◄ — where a consolidated text marks what an amendment or corrigendum changed.
_MARKER = re.compile(r"[▼►]\s*[A-Z]{0,2}\d*|◄")
_BLOCKS = {"p", "div", "table", "ul", "ol", "li"}
_CLASS_MAP = {
    "title-article-norm": "oj-ti-art",
    "stitle-article-norm": "oj-sti-art",
    "title-division-1": "oj-ti-section-1",
    "title-annex-1": "oj-doc-ti",
    "title-annex-2": "oj-doc-ti",
    "title-gr-seq-level-1": "oj-ti-grseq-1",
    "footnote": "oj-note",
}


def is_consolidated(data: bytes) -> bool:
    """Whether `data` is a consolidated text (norm markup) rather than an OJ text."""
    return b"title-article-norm" in data


def parse_consolidated(data: bytes, act: Act) -> ParseResult:
    try:
        root = parse_html(data)
    except (ValueError, SyntaxError) as exc:
        raise ParseError(f"{act.instrument}/{act.lang}: source is not readable HTML ({exc}) — refetch it") from exc
    version = _version(root)
    to_oj_markup(root)
    result = parse_eurlex(lxml_html.tostring(root, encoding="utf-8"), act)
    result.provisions = [_with_article_anchor(p, version) for p in result.provisions]
    result.version = version
    return result


def to_oj_markup(root) -> None:
    """Rewrite a consolidated tree in place into the OJ markup eurlex.py reads."""
    _drop_markers(root)
    for el in root.iter("p", "div", "a"):
        _rename(el)
    for el in list(root.iter("div")):
        if {"grid-container", "grid-list"} <= classes(el):
            _grid_to_table(el)
    _unwrap_note_calls(root)
    for article in root.xpath("//div[starts-with(@id,'art_')]"):
        _number_paragraphs(article)
    for final in root.xpath("//div[@id='fnp_1']"):
        final.set("class", f"{final.get('class', '')} oj-final".strip())


def _drop_markers(root) -> None:
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        if el.tag == "p" and classes(el) & {"modref", "arrow"}:
            el.drop_tree()
            continue
        if el.text:
            el.text = _MARKER.sub("", el.text)
        if el.tail:
            el.tail = _MARKER.sub("", el.tail)


def _rename(el) -> None:
    cls = classes(el)
    for old, new in _CLASS_MAP.items():
        if old in cls:
            el.set("class", new)
            return
    if el.tag == "p" and "title-division-2" in cls:
        el.tag = "div"  # the chapter title sits in div.eli-title in OJ markup
        el.set("class", "eli-title")
    elif el.tag == "a" and (el.get("id") or "").startswith("src.E"):
        el.set("id", f"ntc.{el.get('id')}")  # a footnote call


def _grid_to_table(grid) -> None:
    """div.grid-list (label column, content column) → a one-row point table."""
    row = etree.SubElement(grid, "tr")
    for child in list(grid):
        if child is row:
            continue
        child.tag = "td"
        row.append(child)
    grid.tag = "table"
    grid.set("class", "")


def _number_paragraphs(article) -> None:
    """div.norm > span.no-parag "1." becomes div#NNN.PPP whose first line starts "1. ".

    A paragraph's further subparagraphs follow its div as siblings; they move into it.
    """
    digits = re.sub(r"\D", "", article.get("id", "")) or "0"
    current = None
    for child in list(article):
        number = _paragraph_number(child)
        if number:
            current = child
            child.set("id", f"{int(digits):03d}.{int(number):03d}")
            _prefix_first_text(child, f"{number}.\u00a0\u00a0\u00a0")
        elif current is not None and isinstance(child.tag, str) and not _is_heading(child):
            current.append(child)


def _paragraph_number(div) -> str:
    if div.tag != "div" or "norm" not in classes(div):
        return ""
    spans = [c for c in div if c.tag == "span" and "no-parag" in classes(c)]
    number = normalize(spans[0].text_content()).rstrip(".") if spans else ""
    if not number.isdigit():
        return ""
    spans[0].drop_tree()
    return number


def _is_heading(el) -> bool:
    return bool(classes(el) & {"oj-ti-art", "oj-sti-art", "eli-title"})


def _unwrap_note_calls(root) -> None:
    """'(<a id="src.E1">1</a>)': the brackets around a footnote call go with it."""
    for call in root.xpath("//a[starts-with(@id,'ntc.')]"):
        prev = call.getprevious()
        before = prev.tail if prev is not None else call.getparent().text
        if before and before.rstrip().endswith("(") and (call.tail or "").lstrip().startswith(")"):
            stripped = before.rstrip()[:-1]
            if prev is not None:
                prev.tail = stripped
            else:
                call.getparent().text = stripped
            call.tail = call.tail.lstrip()[1:]


def _prefix_first_text(el, prefix: str) -> None:
    """Put `prefix` before the first text of `el`, descending into its first block."""
    while True:
        first = next((c for c in el if isinstance(c.tag, str)), None)
        if (el.text or "").strip() or first is None or first.tag not in _BLOCKS:
            el.text = prefix + (el.text or "").lstrip()
            return
        el = first


def _version(root) -> str:
    """'Consolidated text 04.05.2016' from the reference line '02016R0679 — EN — 04.05.2016 — 000.002'."""
    refs = root.xpath("//p[contains(@class,'reference')]")
    if refs:
        m = re.search(r"\d{2}\.\d{2}\.\d{4}", refs[0].text_content())
        if m:
            return f"Consolidated text {m.group(0)}"
    return "Consolidated text"


def _with_article_anchor(provision, version: str):
    """Consolidated pages have article anchors (#art_6) but none for paragraphs."""
    base, _, anchor = provision.url.partition("#")
    if re.fullmatch(r"\d{3}\.\d{3}", anchor):
        article = provision.id.split("/")[-1].split(".")[0].removeprefix("art-")
        anchor = f"art_{article}"
    return replace(provision, url=f"{base}#{anchor}", version=version)
