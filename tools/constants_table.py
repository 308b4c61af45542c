"""Every tuned numeric constant in src/pincite, with the comment that says why, as a Markdown table.

    python tools/constants_table.py > docs/constants.md    # regenerate
    python tools/constants_table.py --check                # exit 1 if docs/constants.md is stale

A constant is a module-level UPPER_CASE name bound to a number (arithmetic on numbers and on the
module's other numeric constants included), to a tuple or dict of them, or to a call made of them
(ModelTuning(MINILM, {...}, 0.73, 0.5)). Its why is the comment block right above it, else the
comment trailing it, else a comment above its run of assignments that names it. A development
tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SRC = ROOT / "src" / "pincite"
DOC = ROOT / "docs" / "constants.md"
COMMAND = "python tools/constants_table.py > docs/constants.md"
STAGES = ("corpus", "index", "retrieve", "answer", "verify", "service", "surfaces", "sources", "citations",
          "evaluate")
TOP_LEVEL = "top-level"
WHY_CHARS = 200
CONSTANT_NAME = re.compile(r"_?[A-Z][A-Z0-9_]*")
# "dev" alone is how the comments name the split ("on dev"); "test" alone is too common a word.
SPLITS = (("dev", re.compile(r"\bdev\b|\bdevelopment (?:split|set|questions)", re.I)),
          ("test", re.compile(r"\btest(?=[- ](?:split|set|question|figure))", re.I)),
          ("CV", re.compile(r"\bCV\b|\b[Cc]ross-validat")))
# A figure is a number its metric or its unit names ("hit@5 0.083", "p95 27 ms"): a bare decimal in
# these comments is as often a value that was tried ("0.9 → 0.75") as one that was measured.
FIGURE = re.compile(r"\b(?:hit@\d+|recall@\d+|nDCG@\d+|MRR|precision|recall|accuracy|F1|p\d\d|answered|refus\w*)\b"
                    r"[\sA-Za-z:=≥≤]{0,30}?\d*\.?\d+(?:\s?ms\b)?|(?:\d*\.?\d+[–-])?\d*\.?\d+\s?(?:ms|KB|MB|GB)\b")


@dataclass(frozen=True)
class Constant:
    stage: str
    module: str
    name: str
    value: str
    why: str
    chosen_on: str
    moved: str


def is_numeric(node: ast.expr, known: set[str]) -> bool:
    """A number, or arithmetic on numbers and on numeric constants defined above it."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        return is_numeric(node.operand, known)
    if isinstance(node, ast.BinOp):
        return all(is_numeric(side, known) or (isinstance(side, ast.Name) and side.id in known)
                   for side in (node.left, node.right))
    return False


def is_numbers(node: ast.expr, known: set[str]) -> bool:
    """A number, or a tuple or dict (keys aside) of them, nested as deep as it likes."""
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(is_numbers(e, known) for e in node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(is_numbers(v, known) for v in node.values)
    return is_numeric(node, known)


def is_tuned(node: ast.expr, known: set[str]) -> bool:
    """Numbers, or a record built of them (names such as a model's are allowed beside the numbers).
    A dict of whole numbers only is a lexicon ('twelve': 12, 'X': 10), not a tuning."""
    if isinstance(node, ast.Dict):
        leaves = [n.value for v in node.values for n in ast.walk(v) if isinstance(n, ast.Constant)]
        if all(isinstance(leaf, int | str) for leaf in leaves):  # strings here are inner keys
            return False
    if isinstance(node, ast.Call) and (node.args or node.keywords):
        args = node.args + [k.value for k in node.keywords]
        return (any(is_numbers(a, known) for a in args)
                and all(is_numbers(a, known) or isinstance(a, ast.Name) for a in args))
    return is_numbers(node, known)


def comments(source: str) -> tuple[dict[int, str], dict[int, str]]:
    """Full-line comments and trailing comments, by line. A trailing comment whose parenthesis is still
    open carries on in the comment lines below it, which are then its own, not the next constant's."""
    full, trailing = {}, {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            text = tok.string.lstrip("#").strip()
            (full if tok.line[:tok.start[1]].strip() == "" else trailing)[tok.start[0]] = text
    for line in sorted(trailing):
        depth, below = trailing[line].count("(") - trailing[line].count(")"), line + 1
        while depth > 0 and below in full:
            text = full.pop(below)
            trailing[line] += " " + text
            depth += text.count("(") - text.count(")")
            below += 1
    return full, trailing


def first_sentence(text: str) -> str:
    """Up to the first full stop outside parentheses that a capital follows, at most WHY_CHARS."""
    depth = 0
    for i, char in enumerate(text):
        depth += (char == "(") - (char == ")")
        if char in ".!?" and depth <= 0 and (i + 1 == len(text) or re.match(r"\s+[A-Z0-9'‘\"`]", text[i + 1:])):
            text = text[:i + 1]
            break
    if len(text) <= WHY_CHARS:
        return text
    return text[:WHY_CHARS].rsplit(" ", 1)[0].rstrip(",;:(— ") + " …"


def chosen_on(text: str) -> str:
    return ", ".join(split for split, pattern in SPLITS if pattern.search(text))


def moved(text: str) -> str:
    found = FIGURE.search(text)
    return " ".join(found.group().split()) if found else ""


def module_constants(path: Path, stage: str, module: str) -> list[Constant]:
    source = path.read_text(encoding="utf-8")
    full, trailing = comments(source)
    known: set[str] = set()
    found = []
    # A comment above a run of assignments (no blank line between) also speaks for a constant of the run
    # that it names ("... rescores exactly the RESCORED best units", then `RESCORED = 1000` below).
    run, run_end = [], -1
    for stmt in ast.parse(source).body:
        above, line = [], stmt.lineno - 1
        while line in full:
            above.insert(0, full[line])
            line -= 1
        after = [trailing[n] for n in dict.fromkeys((stmt.lineno, stmt.end_lineno)) if n in trailing]
        said = [" ".join(part) for part in (above, after) if part]
        if said:
            run = said
        elif stmt.lineno != run_end + 1:
            run = []
        run_end = stmt.end_lineno
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts, strict=True))
        else:
            pairs = [(target, value)]
        for name, node in pairs:
            if not (isinstance(name, ast.Name) and CONSTANT_NAME.fullmatch(name.id) and is_tuned(node, known)):
                continue
            known.add(name.id)
            told = said or [part for part in run if re.search(rf"\b{name.id}\b", part, re.I)][:1]
            text = " ".join(told)
            written = re.sub(r"\s*\n\s*", " ", ast.get_source_segment(source, node))
            found.append(Constant(stage, module, name.id, written, first_sentence(told[0] if told else ""),
                                  chosen_on(text), moved(text)))
    return found


def collect(src: Path) -> list[Constant]:
    found = []
    for path in sorted(src.rglob("*.py")):
        parts = path.relative_to(src).with_suffix("").parts
        stage = parts[0] if len(parts) > 1 else TOP_LEVEL
        module = ".".join((src.name, *(parts[:-1] if parts[-1] == "__init__" else parts)))
        found += module_constants(path, stage, module)
    return found


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(constants: list[Constant]) -> str:
    stages = list(STAGES) + sorted({c.stage for c in constants} - {*STAGES, TOP_LEVEL}) + [TOP_LEVEL]
    lines = [
        "# Tuned constants",
        "",
        "Every numeric constant in the source, one table per pipeline stage: each module-level UPPER_CASE",
        "name bound to a number, to a tuple or dict of numbers, or to a record of them (regexes, word lists,",
        "strings and paths are left out). *Why* is the first sentence of the comment right above the",
        "constant, else of the comment on its line (else of a comment above its group that names it);",
        "*chosen on* is the split that comment names (dev, test, CV) and *moved* the first figure it quotes",
        "with its metric or unit. Generated from the source by `" + COMMAND + "`;",
        "a test fails when this page is stale. A constant with no stated split or figure is a candidate for",
        "removal or for a measurement; one with no why, for a comment.",
        "",
        f"- constants: {len(constants)}",
        f"- with a why: {sum(bool(c.why) for c in constants)}",
        f"- with a split: {sum(bool(c.chosen_on) for c in constants)}",
        f"- with a figure: {sum(bool(c.moved) for c in constants)}",
    ]
    for stage in stages:
        rows = [c for c in constants if c.stage == stage]
        if not rows:
            continue
        lines += ["", f"## {stage}", "", "| module | name | value | why | chosen on | moved |",
                  "| --- | --- | --- | --- | --- | --- |"]
        lines += [f"| {c.module} | `{c.name}` | `{cell(c.value)}` | {cell(c.why)} | {c.chosen_on} | {cell(c.moved)} |"
                  for c in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=DEFAULT_SRC, help="package to read (src/pincite)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {DOC.relative_to(ROOT)} is stale")
    args = parser.parse_args(argv)
    table = render(collect(args.root))
    if not args.check:
        sys.stdout.write(table)
        return 0
    if not DOC.exists() or DOC.read_text(encoding="utf-8") != table:
        print(f"{DOC.relative_to(ROOT)} is out of date: run `{COMMAND}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
