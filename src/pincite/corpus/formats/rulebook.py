"""Parse rulebook PDFs (the Central Bank of Bahrain Rulebook's shape) into one provision per rule.

A module is published as a PDF whose citable unit is a rule id (`FC-5.2.6`): the id sits in a
margin column, its text beside it. Around the rules: a cover, a table of contents that lists
the ids, a running header naming module and chapter, a footer with the edition date, headings
(`FC-1.1 General Requirements`, unnumbered sub-headings), deleted stubs ("[This Paragraph was
deleted …]") and module-history tables whose rows start with rule ids. Only the rules are kept,
each with its module/chapter/section path, the heading it falls under, the date printed on its
page and a link to the page. Sub-items (a), (b), (i) keep a line each, so the index can split a
long rule into its items, every piece still cited by the rule id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from pincite import languages
from pincite.citations import Citation, format_label
from pincite.corpus.formats.pdftext import Line, Page, has_text, read_pdf
from pincite.corpus.result import ParseResult
from pincite.errors import ConfigError, ParseError
from pincite.provisions import Provision
from pincite.sources.catalog import DEFAULT_RULE_PATTERN, CorpusSpec

# The rulebooks read are English (the CBB Rulebook's shape), and their edition dates are read back by
# strptime's English month names: the English pack's words.
_WORDS = languages.words("en", "RULEBOOK")
# The edition date in the footer ('January 2024'), read back with strptime's English month names.
_DATE = re.compile(rf"\b({languages.each('MONTHS')['en']})\s+(\d{{4}})\b")
_MODULE = re.compile(rf"^{_WORDS['module']}\s+([A-Z]{{2,4}})\s*[:.\-–]\s*(.+)$", re.IGNORECASE)
_CHAPTER = re.compile(rf"^{_WORDS['chapter']}\s+([A-Z]{{2,4}}-[A-Z0-9]+)\s*[:.\-–]?\s*(.*)$", re.IGNORECASE)
_CONTENTS = re.compile(rf"^{_WORDS['contents']}$", re.IGNORECASE)
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*\S+$|…{2,}")
_HISTORY = re.compile(_WORDS["history"], re.IGNORECASE)
_DELETED = re.compile(rf"^\[?\s*{_WORDS['deleted']}\b", re.IGNORECASE)
_ITEM = re.compile(r"^\((?:[a-z]{1,2}|[ivx]{1,5}|\d{1,2})\)\s")


@dataclass
class _Rule:
    id: str
    page: Page
    path: list[str]
    path_titles: list[str]
    title: str
    lines: list[Line] = field(default_factory=list)


def looks_like_rulebook(pages: list[Page], pattern: str = DEFAULT_RULE_PATTERN, minimum: int = 3) -> bool:
    """Whether at least `minimum` distinct rule ids open body lines (the `--as auto` test)."""
    start = _start_regex(pattern)
    ids = {m.group(1) for p in pages for ln in p.lines if (m := start.match(ln.text))}
    return len(ids) >= minimum


def _start_regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(rf"^((?:{pattern}))(?:\s+(.*))?$")
    except re.error as exc:
        raise ConfigError(f"rule pattern {pattern!r} is not a valid regular expression ({exc}) — "
                          rf"fix --rule-pattern, e.g. '[A-Z]{{2,3}}-\d+(?:\.\d+)+'") from exc


def parse_rulebook(data: bytes, spec: CorpusSpec, lang: str, sha256: str, url: str) -> ParseResult:
    pattern = spec.rule_pattern or DEFAULT_RULE_PATTERN
    pages = read_pdf(data, spec.document or spec.name)
    if not has_text(pages):
        raise ParseError(f"{spec.document or spec.name} has no text layer (scanned pages?) — "
                         f"run OCR on it first (e.g. ocrmypdf in.pdf out.pdf) and add the result")
    rules, deleted = _rules([p for p in pages if not _is_contents(p)], _start_regex(pattern))
    if not rules:
        raise ParseError(f"{spec.document or spec.name}: no rule ids matching {pattern!r} open a line — "
                         f"pass --rule-pattern, or add it with --as pages")
    provisions = [_provision(r, spec, lang, sha256, url) for r in rules]
    dates = [d for p in pages for d in _dates(p)]
    version = max(dates, key=_date_key) if dates else ""
    foreign = list(dict.fromkeys(ln.text for p in pages for ln in p.furniture if len(ln.text) >= 12))
    result = ParseResult(provisions, version, spec.title or spec.document, 0, 0, 0, foreign_texts=foreign)
    result.deleted = deleted  # type: ignore[attr-defined]  # stubs dropped, for the report
    return result


def _is_contents(page: Page) -> bool:
    """A table of contents page: titled so, or mostly dot-leader lines."""
    if any(_CONTENTS.match(ln.text) for ln in page.lines[:5]):
        return True
    leaders = sum(bool(_LEADERS.search(ln.text)) for ln in page.lines)
    return bool(page.lines) and leaders >= 0.5 * len(page.lines)


def _dates(page: Page) -> list[str]:
    return [f"{m.group(1)} {m.group(2)}" for ln in page.furniture for m in _DATE.finditer(ln.text)]


def _date_key(date: str) -> datetime:
    return datetime.strptime(date, "%B %Y")


def _id_key(rule_id: str) -> tuple:
    """FC-1.10.2 → ('FC', 1, 10, 2): document order of ids."""
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[-.]", rule_id))


def _rules(pages: list[Page], start: re.Pattern[str]) -> tuple[list[_Rule], list[str]]:
    rows = [(page, line) for page in pages for line in page.lines]
    starts = [(line, m) for _, line in rows if (m := start.match(line.text))]
    ids = {m.group(1) for _, m in starts}
    parents = {i for i in ids if any(o.startswith(i + ".") for o in ids)}
    column = _id_column([line for line, m in starts if m.group(1) not in parents])
    rules: list[_Rule] = []
    context = _Context()
    current: _Rule | None = None
    for page, line in rows:
        context.read_page(page)
        if _LEADERS.search(line.text):
            continue
        m = start.match(line.text)
        if _HISTORY.search(line.text) and (line.bold or len(line.text) < 60):
            context.history, current = True, None
        elif m and m.group(1) in parents:
            context.section(m.group(1), m.group(2) or "")
            current = None
        elif context.history:
            continue
        elif m and abs(line.x0 - column) < 10 and _after(rules, m.group(1)):
            current = context.rule(m.group(1), page)
            rules.append(current)
            if m.group(2):
                current.lines.append(_rest(line, m.group(2)))
        elif line.bold and not _ITEM.match(line.text):
            context.subheading, current = line.text, None
        elif current is not None:
            current.lines.append(line)
    kept = [r for r in rules if r.lines and not _DELETED.match(r.lines[0].text)]
    return kept, [r.id for r in rules if r not in kept]


def _id_column(lines: list[Line]) -> float:
    """The x where rule ids are printed: most lines that open with a rule id start there."""
    xs = [round(ln.x0) for ln in lines]
    return float(max(set(xs), key=xs.count)) if xs else 0.0


def _after(rules: list[_Rule], rule_id: str) -> bool:
    """Ids run in document order; one that does not is a reference or a table row."""
    return not rules or _id_key(rule_id) > _id_key(rules[-1].id)


def _rest(line: Line, text: str) -> Line:
    """The part of a rule's first line after its id."""
    return Line(text, line.x0, line.x1, line.bottom, line.size, line.space_after, line.bold)


class _Context:
    """Module, chapter, section and sub-heading in force at a point of the document."""

    def __init__(self) -> None:
        self.module = ("", "")
        self.chapter = ("", "")
        self.sections: dict[str, str] = {}
        self.current_section = ""
        self.subheading = ""
        self.history = False
        self._page: Page | None = None

    def read_page(self, page: Page) -> None:
        if page is self._page:
            return
        self._page = page
        for line in page.furniture + page.lines[:3]:
            if m := _MODULE.match(line.text):
                self.module = (f"Module {m.group(1)}", m.group(2).strip())
            elif m := _CHAPTER.match(line.text):
                self.chapter = (f"Chapter {m.group(1)}", m.group(2).strip())

    def section(self, section_id: str, title: str) -> None:
        self.sections[section_id] = title.strip()
        self.current_section, self.subheading, self.history = section_id, "", False

    def rule(self, rule_id: str, page: Page) -> _Rule:
        section_id = rule_id.rsplit(".", 1)[0]
        if section_id != self.current_section:
            self.current_section, self.subheading = section_id, ""
        heads = [self.module, self.chapter, (f"Section {section_id}", self.sections.get(section_id, ""))]
        heads = [h for h in heads if h[0]]
        title = self.subheading or self.sections.get(section_id, "")
        return _Rule(rule_id, page, [h[0] for h in heads], [h[1] for h in heads], title)


def _rule_text(rule: _Rule) -> str:
    """One line per paragraph and per sub-item; nested items indented two spaces per level."""
    column = min(ln.x0 for ln in rule.lines[1:]) if len(rule.lines) > 1 else rule.lines[0].x0
    blocks: list[str] = []
    previous = None
    for line in rule.lines:
        gap = previous is not None and previous.bottom - line.bottom > 1.7 * line.size
        if not blocks or _ITEM.match(line.text) or gap:
            depth = _depth(line, column, blocks)
            blocks.append("  " * depth + line.text)
        else:
            blocks[-1] += " " + line.text
        previous = line
    return "\n".join(blocks)


def _depth(line: Line, column: float, blocks: list[str]) -> int:
    if not blocks or not _ITEM.match(line.text):
        return 0
    return max(0, round((line.x0 - column) / 16))


def _provision(rule: _Rule, spec: CorpusSpec, lang: str, sha256: str, url: str) -> Provision:
    label = format_label(Citation("rule", rule.id))
    dates = _dates(rule.page)
    return Provision(
        id=f"{spec.name}/{lang}/rule-{rule.id}", label=label, label_local=label, kind="rule",
        instrument=spec.name, lang=lang, title=rule.title, path=rule.path, path_titles=rule.path_titles,
        text=_rule_text(rule), url=f"{url}#page={rule.page.number}", source_sha256=sha256,
        version=dates[0] if dates else "", celex="",
    )
