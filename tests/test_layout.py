"""The package's shape: one package per pipeline stage, no import cycles, a small public API,
every setting documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pincite

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "pincite"
STAGES = {"citations", "sources", "corpus", "index", "retrieve", "answer", "verify", "service", "evaluate",
          "surfaces", "testing"}
TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "settings.py", "provisions.py", "progress.py"}
# Not a stage: what the stages know of each language, one pack per language (docs/languages.md).
SHARED = {"languages"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imported(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for every import of a pincite module, the
    ones inside functions included. `from pkg import x` counts as pkg.x when x is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    inner = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            if target.startswith("pincite") and target in MODULES and target != name:
                found.append((target, node.lineno, id(node) in inner))
    return found


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def find_cycle() -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target, _, _ in GRAPH.get(node, []):
            if state.get(target) == 1:
                return stack[stack.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(GRAPH):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_no_import_cycles_counting_imports_inside_functions():
    assert find_cycle() is None


def test_function_local_imports_of_pincite_modules_say_why():
    """A pincite import inside a function is allowed only to keep a heavy part off light commands,
    and then a comment on the line before or the line itself says so."""
    unexplained = []
    for name, edges in GRAPH.items():
        lines = MODULES[name].read_text(encoding="utf-8").splitlines()
        for target, line, inside in edges:
            context = " ".join(lines[max(0, line - 2):line])
            if inside and "#" not in context:
                unexplained.append(f"{name}:{line} imports {target}")
    assert unexplained == []


def test_top_level_holds_only_the_shared_modules_and_stage_packages():
    files = {p.name for p in PACKAGE.iterdir() if p.suffix == ".py"}
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert (files, folders) == (TOP_LEVEL, STAGES | SHARED)


def test_the_public_api_is_listed_and_every_name_resolves():
    assert sorted(pincite.__all__) == [
        "Citation", "CitationError", "ConfigError", "NotFoundError", "Pincite", "PinciteError", "Provision",
        "Settings", "ask", "format_label", "get_provision", "load_settings", "parse_label", "search", "verify",
    ]
    assert all(getattr(pincite, name) is not None for name in pincite.__all__)


def test_every_setting_is_documented_in_the_readme():
    from pincite.settings import Settings

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`PINCITE_([A-Z0-9_]+)`", readme))
    missing = [f"PINCITE_{name.upper()}" for name in Settings.model_fields if name.upper() not in documented]
    assert missing == []
