"""Check our parse of DORA against an independent parser's units (docs/dora-oracle.md).

The oracle is the output of Kymylyy/eurlex-unit-parser for the English DORA
(shared/corpora/eurlex-unit-parser-oracle). We parse the Danish text: ELI structure is the
same in every language, so units are compared by structural key — (article, paragraph or
None, point labels…) — and their text only by what survives translation, the digits.

    python tools/dora_oracle.py [--json]
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pincite.citations import parse_label
from pincite.citations.layout import line_marker
from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.result import Act
from pincite.provisions import Provision

SHARED = Path(__file__).resolve().parents[2] / "shared"
ORACLE_JSON = SHARED / "corpora" / "eurlex-unit-parser-oracle" / "examples" / "DORA.json"
SOURCE_HTML = SHARED / "corpora" / "eurlex-extra" / "da" / "32022R2554.dora.da.html"
DORA_URL = "https://eur-lex.europa.eu/legal-content/DA/TXT/HTML/?uri=CELEX:32022R2554"
TYPES = ("article", "paragraph", "subparagraph", "definition", "point", "recital")
EXAMPLES = 12

_QUOTES = "‘’“”»«„\"'"
_PARAGRAPH_NUMBER = re.compile(r"^\d+[a-z]?\.\s+")
_DIGITS = re.compile(r"\d+")
# Oracle id segments that carry a citable label; subpar-N, div-N and cont-N do not.
_LABELLED = ("pt", "sub", "subsub", "n3")


@dataclass(frozen=True)
class Unit:
    kind: str
    key: tuple  # (article, paragraph or None, *point labels)
    text: str  # the unit with everything below it


def compare_with_oracle(oracle_json: Path, source_html: Path, lang: str) -> dict:
    data = source_html.read_bytes()
    act = Act("dora", lang, "32022R2554", DORA_URL, hashlib.sha256(data).hexdigest())
    ours = our_units(parse_eurlex(data, act).provisions)
    oracle_data = json.loads(oracle_json.read_text(encoding="utf-8"))
    theirs = oracle_units(oracle_data)
    report = {kind: compare(kind, theirs, ours) for kind in TYPES}
    report["not_compared"] = not_compared(oracle_data)
    report["sources"] = {"oracle": str(oracle_json), "source": str(source_html), "lang": lang}
    return report


# --- the oracle's side -------------------------------------------------------------------


def oracle_units(data: dict) -> list[Unit]:
    units = data["units"]
    by_id = {u["id"]: u for u in units}
    children: dict[str, list[dict]] = {}
    for u in units:
        children.setdefault(u["parent_id"], []).append(u)
    out = []
    for u in units:
        kind, key = _oracle_key(u, by_id)
        if kind:
            out.append(Unit(kind, key, _subtree_text(u, children)))
    return _disambiguate(out)


def _oracle_key(u: dict, by_id: dict) -> tuple[str, tuple]:
    if u["type"] == "recital":
        return "recital", (u["recital_number"],)
    if not u["id"].startswith("art-"):
        return "", ()
    segments = [s.split("-", 1) for s in u["id"].split(".")]
    article = segments[0][1]
    if len(segments) == 1:
        return "article", (article,)
    paragraph = by_id[".".join(u["id"].split(".")[:2])]["paragraph_number"]
    if u["type"] == "paragraph":
        return "paragraph", (article, paragraph)
    if u["type"] == "subparagraph":
        # The oracle's subpar-1 is what a lawyer calls the second subparagraph: the first is
        # the paragraph's own opening text.
        return "subparagraph", (article, paragraph, str(u["subparagraph_index"] + 1))
    if segments[-1][0] not in _LABELLED:
        return "", ()  # unlabelled blocks: see not_compared()
    labels = [_clean_label(value) for name, value in segments[2:] if name in _LABELLED]
    definitions = (u.get("article_heading") or "").lower() == "definitions"
    kind = "definition" if definitions and len(labels) == 1 else "point"
    return kind, (article, paragraph, *labels)


def _subtree_text(u: dict, children: dict[str, list[dict]]) -> str:
    """The unit's text and its descendants', as our provision text holds them together."""
    return "\n".join([u["text"]] + [_subtree_text(c, children) for c in children.get(u["id"], [])])


def not_compared(data: dict) -> dict:
    """Oracle units with no citable counterpart, by reason."""
    reasons: Counter = Counter()
    for u in data["units"]:
        last = u["id"].split(".")[-1].split("-", 1)[0]
        if u["type"] in ("document_title", "intro"):
            reasons[u["type"]] += 1
        elif last in ("div", "cont"):
            reasons[f"unlabelled block ({last}-N)"] += 1
    return dict(reasons)


# --- our side ----------------------------------------------------------------------------


def our_units(provisions: list[Provision]) -> list[Unit]:
    out: list[Unit] = []
    articles: dict[str, list[str]] = {}
    for p in provisions:
        c = parse_label(p.label)
        if p.kind == "recital":
            out.append(Unit("recital", (c.number,), p.text))
            continue
        articles.setdefault(c.number, []).append(p.text)
        out.extend(_provision_units(p, c.number, c.paragraph))
    out.extend(Unit("article", (number,), "\n".join(texts)) for number, texts in articles.items())
    return _disambiguate(out)


def _provision_units(p: Provision, article: str, paragraph: str | None) -> list[Unit]:
    lines = p.text.split("\n")
    if p.kind == "definition":
        # A definition is point N of the unnumbered body, as the oracle has it; the shared
        # lead-in ("For the purposes of this Regulation:") that precedes it is not part of it.
        base = (article, None, paragraph)
        start = next((i for i, line in enumerate(lines) if _marker(line.strip())), 0)
        return [Unit("definition", base, "\n".join(lines[start:]))] + _points(lines[start + 1:], base)
    base = (article, paragraph if p.kind == "paragraph" else None)
    head = _PARAGRAPH_NUMBER.sub("", lines[0], count=1) if p.kind == "paragraph" else lines[0]
    paragraph_unit = Unit("paragraph", base, "\n".join([head] + lines[1:]))
    return [paragraph_unit] + _subparagraphs(lines, base) + _points(lines[1:], base)


def _subparagraphs(lines: list[str], base: tuple) -> list[Unit]:
    """Every unindented line that is not a point opens a further subparagraph; it runs,
    with the points below it, up to the next one (the oracle's subparagraph text)."""
    starts = [i for i, line in enumerate(lines) if i and not line.startswith(" ") and not _marker(line)]
    ends = starts[1:] + [len(lines)] if starts else []
    return [Unit("subparagraph", base + (str(n),), "\n".join(lines[i:end]))
            for n, (i, end) in enumerate(zip(starts, ends, strict=True), start=2)]


def _points(lines: list[str], base: tuple) -> list[Unit]:
    """Points from the text layout: one line per point, two spaces of indent per level."""
    found = [(i, _depth(line), _marker(line.strip())) for i, line in enumerate(lines)]
    found = [(i, d, m) for i, d, m in found if m]
    if not found:
        return []
    top = min(d for _, d, _ in found)  # a definition's own sub-points may sit one level in
    path: list[str] = []
    out = []
    for i, depth, m in found:
        level = depth - top
        path = path[:level] + [m[0]]
        out.append(Unit("point", base + tuple(path), _block(lines, i)))
    return out


def _marker(line: str) -> tuple[str, int] | None:
    """The point label opening a line, as the shared layout reader sees it, with dashes and
    the opening quote of amending text ("»12.", "‘(c)")."""
    return line_marker(line, dashes=True, quoted=True)


def _without_marker(line: str) -> str:
    found = _marker(line)
    return line[found[1]:] if found else line


def _depth(line: str) -> int:
    return (len(line) - len(line.lstrip(" "))) // 2


def _block(lines: list[str], i: int) -> str:
    """Line i and the lines indented below it: the point with its sub-points."""
    end = i + 1
    while end < len(lines) and _depth(lines[end]) > _depth(lines[i]):
        end += 1
    return "\n".join(lines[i:end])


# --- comparing ---------------------------------------------------------------------------


def _clean_label(label: str) -> str:
    """'(a)', 'a)', '‘(c)', '12.' → 'a', 'c', '12'; every dash is '—'; the oracle's '—_1' is '—'."""
    label = label.strip(_QUOTES + "().").split("_")[0]
    return "—" if label in ("—", "–", "-", "•") else label


def _disambiguate(units: list[Unit]) -> list[Unit]:
    """Repeated keys (three '—' indents, points (a) of two subparagraphs) get '#2', '#3' in order."""
    seen: Counter = Counter()
    out = []
    for u in units:
        seen[(u.kind, u.key)] += 1
        n = seen[(u.kind, u.key)]
        out.append(u if n == 1 else Unit(u.kind, u.key[:-1] + (f"{u.key[-1]}#{n}",), u.text))
    return out


def numbers(text: str) -> Counter:
    """Digit runs, the part of a unit's text that translation leaves alone (dates, article
    numbers, act numbers). Labels at line starts are dropped: the oracle keeps them out of text."""
    body = " ".join(_without_marker(line.strip()) for line in text.split("\n"))
    return Counter(_DIGITS.findall(body))


def compare(kind: str, oracle: list[Unit], ours: list[Unit]) -> dict:
    theirs = {u.key: u for u in oracle if u.kind == kind}
    mine = {u.key: u for u in ours if u.kind == kind}
    matched = [k for k in theirs if k in mine]
    differ = [k for k in matched if numbers(theirs[k].text) != numbers(mine[k].text)]
    return {
        "oracle": len(theirs),
        "ours": len(mine),
        "matched": len(matched),
        "recall": _ratio(len(matched), len(theirs)),
        "precision": _ratio(len(matched), len(mine)),
        "only_oracle": [label(kind, k) for k in theirs if k not in mine],
        "only_ours": [label(kind, k) for k in mine if k not in theirs],
        "numbers_agree": len(matched) - len(differ),
        "numbers_differ": [_number_diff(kind, k, theirs[k], mine[k]) for k in differ],
    }


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 1.0


def _number_diff(kind: str, key: tuple, theirs: Unit, mine: Unit) -> dict:
    a, b = numbers(theirs.text), numbers(mine.text)
    return {"unit": label(kind, key), "only_oracle": sorted((a - b).elements()),
            "only_ours": sorted((b - a).elements())}


def label(kind: str, key: tuple) -> str:
    """English-style label of a key: 'Article 5(2)(a)', 'Article 7, point (a)', 'Article 3(7)',
    'Article 5(2), subparagraph 2'."""
    if kind == "recital":
        return f"Recital {key[0]}"
    if kind == "article":
        return f"Article {key[0]}"
    article, paragraph, *points = key
    if kind == "definition":
        return f"Article {article}({points[0]})"
    if kind == "subparagraph":
        return f"Article {article}" + (f"({paragraph})" if paragraph else "") + f", subparagraph {points[0]}"
    text = f"Article {article}" + (f"({paragraph})" if paragraph else "")
    points_text = "".join(f"({p})" for p in points)
    return text + (points_text if paragraph or not points else f", point {points_text}")


# --- report ------------------------------------------------------------------------------


def render(report: dict) -> str:
    rows = ["| unit | oracle | ours | matched | only oracle | only ours | digits agree |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind in TYPES:
        r = report[kind]
        rows.append(f"| {kind} | {r['oracle']} | {r['ours']} | {r['matched']} | {len(r['only_oracle'])} "
                    f"| {len(r['only_ours'])} | {r['numbers_agree']}/{r['matched']} |")
    lines = rows + ["", "Oracle units not compared (no citable label): " + ", ".join(
        f"{reason} {n}" for reason, n in report["not_compared"].items())]
    for kind in TYPES:
        lines += _examples(kind, report[kind])
    return "\n".join(lines)


def _examples(kind: str, r: dict) -> list[str]:
    out = []
    for name in ("only_oracle", "only_ours"):
        if r[name]:
            out.append(f"\n{kind}, {name.replace('_', ' ')}: " + ", ".join(r[name][:EXAMPLES])
                       + (" …" if len(r[name]) > EXAMPLES else ""))
    if r["numbers_differ"]:
        out.append(f"\n{kind}, digits differ:")
        out += [f"  {d['unit']}: oracle only {d['only_oracle']}, ours only {d['only_ours']}"
                for d in r["numbers_differ"][:EXAMPLES]]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    missing = [p for p in (ORACLE_JSON, SOURCE_HTML) if not p.exists()]
    if missing:
        print(f"error: {missing[0]} not found — this needs the shared corpora at {SHARED}", file=sys.stderr)
        return 1
    report = compare_with_oracle(ORACLE_JSON, SOURCE_HTML, "da")
    print(json.dumps(report, ensure_ascii=False, indent=2) if "--json" in args else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
