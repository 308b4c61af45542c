"""Parse current EUR-Lex (X)HTML ("ELI" OJ markup, CONVEX 9.x) into provisions.

The markup is described in shared/corpora/README.md: articles `art_N`, numbered paragraphs
`NNN.PPP`, point tables, recitals `rct_N`, annexes `anx_N`, footnote calls `ntcN`.
"""

from __future__ import annotations

import re
from typing import TypedDict

from pincite import languages
from pincite.citations import format_label, parse_label
from pincite.corpus.formats.markup import (
    classes,
    lines_of,
    normalize,
    parse_html,
    point_marker,
    raw_text,
    text_of,
)
from pincite.corpus.result import Act, ParseResult
from pincite.errors import ParseError
from pincite.provisions import Provision

_PARAGRAPH_ID = re.compile(r"^\d{3}\.\d{3}$")
_ARTICLE_ID = re.compile(r"^art_(\d+[a-z]*)$")
_ANNEX_ID = re.compile(r"^anx_([IVXLC]+|\d+)$")
_RECITAL_ID = re.compile(r"^rct_(\d+)$")
_DIVISION_ID = re.compile(r"(?:^|\.)(?:prt|tis|cpt|sct|sub)_[^.]+$")
_NUMBERED_ITEM = re.compile(r"^(\d+)\.$")
_NUMBERED_HEADING = re.compile(r"^(\d+)\.\s+\S")
# The title of a definitions article and the word an annex's section heading opens with, in every pack.
_DEFINITION_WORDS = tuple(w["definitions_title"] for w in languages.each("EURLEX").values())
_SECTION_HEADING = re.compile(rf"^({languages.cue('annex_section', 'EURLEX').pattern})\b", re.IGNORECASE)
_QUOTED_TERM = re.compile(r"^\(?\w{1,4}\)?\s*[‘'\"“«„]")


def parse_eurlex(data: bytes, act: Act) -> ParseResult:
    try:
        root = parse_html(data)
    except (ValueError, SyntaxError) as exc:
        raise ParseError(f"{act.instrument}/{act.lang}: source is not readable HTML ({exc}) — refetch it") from exc
    articles = root.xpath("//div[starts-with(@id,'art_')]")
    articles = [a for a in articles if _ARTICLE_ID.match(a.get("id", ""))]
    if not articles:
        raise ParseError(
            f"{act.instrument}/{act.lang}: no articles (art_N) found — the source is not an act in EUR-Lex XHTML"
        )
    version = _version(root)
    result = ParseResult([], version, _title(root), len(articles), 0, 0)
    pairs = []
    for el in root.xpath("//div[starts-with(@id,'rct_')]"):
        if _RECITAL_ID.match(el.get("id", "")):
            result.recital_count += 1
            pairs.append((_recital(el, act, version), raw_text(el)))
    for el in articles:
        pairs.extend(_article(el, act, version))
    for el in root.xpath("//div[starts-with(@id,'anx_')]"):
        if _ANNEX_ID.match(el.get("id", "")):
            result.annex_count += 1
            pairs.extend(_annex(el, act, version))
    for provision, source_text in pairs:
        result.provisions.append(provision)
        result.source_texts[provision.id] = source_text
    result.foreign_texts = _foreign_texts(root)
    return result


def _provision(act: Act, version: str, *, pid: str, label: str, kind: str, title: str,
               path: list[str], lines: list[str], anchor: str, path_titles: list[str] | None = None) -> Provision:
    return Provision(
        id=f"{act.instrument}/{act.lang}/{pid}",
        label=label,
        label_local=format_label(parse_label(label), act.lang),
        kind=kind,
        instrument=act.instrument,
        lang=act.lang,
        title=title,
        path=path,
        path_titles=path_titles or [],
        text="\n".join(lines),
        url=f"{act.url}#{anchor}",
        source_sha256=act.source_sha256,
        version=version,
        celex=act.celex,
    )


# --- header ------------------------------------------------------------------------------


def _version(root) -> str:
    """'OJ L 119, 4.5.2016' (old OJ format) or 'OJ L, 2024/1689, 12.7.2024' (since Oct 2023)."""
    date = _first_text(root, "//p[contains(@class,'oj-hd-date')]")
    number = _first_text(root, "//p[contains(@class,'oj-hd-oj')]")
    unique = _first_text(root, "//p[contains(@class,'oj-hd-uniq')]")
    if number:
        series = number.split("/")[0]
        return f"OJ {series}, {date}".strip(", ")
    if unique:
        return f"OJ L, {unique}, {date}".strip(", ")
    return date


def _title(root) -> str:
    parts = [text_of(p) for p in root.xpath("//div[contains(@class,'eli-main-title')]/p")]
    return " ".join(p for p in parts if p)


def _first_text(root, xpath: str) -> str:
    found = root.xpath(xpath)
    return text_of(found[0]) if found else ""


def _foreign_texts(root) -> list[str]:
    texts = [text_of(el) for el in root.xpath("//p[contains(@class,'oj-note')]")]
    texts += [text_of(el) for el in root.xpath("//div[contains(@class,'oj-signatory')]")]
    texts += [text_of(el) for el in root.xpath("//div[contains(@class,'oj-final')]/p")]
    texts += [normalize(el.text_content()) for el in root.xpath("//script")]
    return [t for t in texts if len(t) >= 12]


# --- recitals ----------------------------------------------------------------------------


def _id_number(pattern: re.Pattern[str], el) -> str:
    """The number in the id of an element that parse_eurlex took because its id matches `pattern`."""
    m = pattern.match(el.get("id"))
    assert m is not None
    return m.group(1)


def _recital(el, act: Act, version: str) -> Provision:
    number = _id_number(_RECITAL_ID, el)
    return _provision(
        act, version, pid=f"rct-{number}", label=f"Recital {number}", kind="recital",
        title="", path=["Preamble"], lines=lines_of(el), anchor=el.get("id"),
    )


# --- articles ----------------------------------------------------------------------------


class _Placing(TypedDict):
    """What every provision of one article shares."""

    title: str
    path: list[str]
    path_titles: list[str]


def _article(el, act: Act, version: str):
    number = _id_number(_ARTICLE_ID, el)
    title = _article_title(el)
    path, path_titles = _division_path(el)
    common = _Placing(title=title, path=path, path_titles=path_titles)
    paragraphs = [c for c in el if c.tag == "div" and _PARAGRAPH_ID.match(c.get("id", ""))]
    if paragraphs:
        for div in paragraphs:
            par = str(int(div.get("id").split(".")[1]))
            yield _provision(
                act, version, pid=f"art-{number}.par-{par}", label=f"Article {number}({par})",
                kind="paragraph", lines=lines_of(div), anchor=div.get("id"), **common,
            ), raw_text(div)
        return
    body = [c for c in el if not _is_article_heading(c)]
    for label, els in _definition_items(body, title):
        yield _provision(
            act, version, pid=f"art-{number}.def-{label}", label=f"Article {number}({label})",
            kind="definition", lines=[ln for e in els for ln in lines_of(e)], anchor=el.get("id"),
            **common,
        ), normalize(" ".join(raw_text(e) for e in els))
    if _definition_items(body, title):
        return
    lines = [line for child in body for line in _child_lines(child)]
    yield _provision(
        act, version, pid=f"art-{number}", label=f"Article {number}", kind="article",
        lines=lines, anchor=el.get("id"), **common,
    ), normalize(" ".join(raw_text(c) for c in body))


def _child_lines(child) -> list[str]:
    return lines_of(child)


def _is_article_heading(el) -> bool:
    cls = classes(el)
    return bool(cls & {"oj-ti-art", "eli-title", "oj-sti-art", "ti-art", "sti-art"})


def _article_title(el) -> str:
    found = el.xpath("./div[contains(@class,'eli-title')] | ./p[contains(@class,'oj-sti-art')]")
    return text_of(found[0]) if found else ""


def _definition_items(body, title: str) -> list[tuple[str, list]]:
    """A definitions article split into its numbered definitions, each with its sub-points.

    Definitions are point tables labelled "(1)" / "1)" (English, French) or paragraphs that
    start "1) «…»" (Italian), each followed by the tables of its own sub-points.
    """
    items: list[tuple[str, list]] = []
    lead: list = []
    numbered = None  # "(1)" or "(a)" style, fixed by the first definition; the other style is sub-points
    for child in body:
        number = _definition_number(child)
        if number and numbered is None:
            numbered = number.isdigit()
        if number and number.isdigit() == numbered:
            items.append((number, [child]))
        elif items:
            items[-1][1].append(child)
        else:
            lead.append(child)
    if len(items) < 2 or len({n for n, _ in items}) != len(items):
        return []
    titled = title.strip().lower() in _DEFINITION_WORDS
    quoted = sum(bool(_QUOTED_TERM.match(text_of(els[0]))) for _, els in items)
    if not titled and quoted < 0.8 * len(items):
        return []
    # The lead-in ("For the purposes of this Regulation:") belongs to every definition.
    return [(n, lead + els) for n, els in items]


def _definition_number(child) -> str:
    if child.tag == "table":
        m = re.fullmatch(r"\(?(\d+|[a-z]{1,2})\)", point_marker(child))
    elif child.tag == "p":
        m = re.match(r"(\d+|[a-z]{1,2})\)\s", text_of(child))
    else:
        m = None
    return m.group(1) if m else ""


def _division_path(el) -> tuple[list[str], list[str]]:
    """Headings ('Chapter IV') and titles ('Controller and processor') of the chapters and
    sections that enclose `el`, outermost first."""
    path: list[str] = []
    titles: list[str] = []
    for anc in reversed(list(el.iterancestors("div"))):
        if not _DIVISION_ID.search(anc.get("id", "")):
            continue
        heads = anc.xpath("./p[starts-with(@class,'oj-ti-section')][1]")
        if heads:
            path.append(_heading_case(text_of(heads[0])))
            names = anc.xpath("./div[contains(@class,'eli-title')]")
            titles.append(text_of(names[0]) if names else "")
    return path, titles


def _heading_case(text: str) -> str:
    """'CHAPTER IV' → 'Chapter IV'; 'CAPO IV' → 'Capo IV'; mixed case stays as printed."""
    first, _, rest = text.partition(" ")
    if first.isupper() and len(first) > 1:
        first = first.capitalize()
    return f"{first} {rest}".strip()


# --- annexes -----------------------------------------------------------------------------


def _annex(el, act: Act, version: str):
    """Split an annex on its top-level numbered items; an annex without them stays whole."""
    number = _roman(_id_number(_ANNEX_ID, el))
    heads = el.xpath("./p[contains(@class,'oj-doc-ti')]")
    title = text_of(heads[1]) if len(heads) > 1 else ""
    label = f"Annex {number}"
    base = ["Annex " + number]
    items = _annex_items(el)
    if not items:
        body = [c for c in el if "oj-doc-ti" not in classes(c)]
        items = [("", "", body)]
    for item_number, section, els in items:
        pid, item_label = f"anx-{number}", label
        if item_number:
            pid, item_label = f"{pid}.pt-{item_number}", f"{label}, point {item_number}"
        yield _provision(
            act, version, pid=pid, label=item_label, kind="annex", title=title,
            path=base + ([section] if section else []),
            lines=[ln for e in els for ln in lines_of(e)], anchor=el.get("id"),
        ), normalize(" ".join(raw_text(e) for e in els))


def _roman(number: str) -> str:
    """A sole annex printed "ANNEX" has the ELI id anx_1; it is labelled Annex I."""
    if not number.isdigit():
        return number
    value, out = int(number), ""
    for n, r in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                 (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, value = divmod(value, n)
        out += r * count
    return out


def _annex_items(el) -> list[tuple[str, str, list]]:
    """(number, section heading, elements) for each top-level numbered item, in order.

    Items are numbered point tables ("1." in the label cell), numbered headings
    (`oj-ti-grseq-1` "1.   Introduction") with the blocks that follow them, or inline
    enumerations (`oj-enumeration-spacing`). Unnumbered headings name sections. The lead-in
    before the first item ("High-risk AI systems … are the AI systems listed in …") is
    repeated in every item, since each item is cited on its own.
    """
    items: list[tuple[str, str, list]] = []
    section = ""
    lead: list = []
    for child in el:
        cls = classes(child)
        if "oj-doc-ti" in cls:
            continue
        number = _annex_item_number(child)
        if number:
            items.append((number, section, [child]))
        elif "oj-ti-grseq-1" in cls and (not items or _is_section_heading(child)):
            section = text_of(child)
        elif items:
            items[-1][2].append(child)
        else:
            lead.append(child)
    if len(items) < 2 or len({n for n, _, _ in items}) != len(items):
        return []
    return [(n, s, lead + els) for n, s, els in items]


def _annex_item_number(child) -> str:
    if child.tag == "table":
        m = _NUMBERED_ITEM.match(point_marker(child))
        return m.group(1) if m else ""
    cls = classes(child)
    if "oj-ti-grseq-1" in cls or "oj-enumeration-spacing" in cls:
        m = _NUMBERED_HEADING.match(text_of(child))
        return m.group(1) if m else ""
    return ""


def _is_section_heading(child) -> bool:
    return bool(_SECTION_HEADING.match(text_of(child)))
