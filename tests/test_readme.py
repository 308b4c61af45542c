"""The README is a guide that cannot drift from the code: every command it shows parses with the real
CLI, its settings table is the Settings object, its links resolve, its figures table counts the
questions the files hold, and its quick start answers as it says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import typer.main

from pincite.settings import Settings
from pincite.surfaces.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
CLI = typer.main.get_command(app)
QUICK_QUESTION = "How quickly must a personal data breach be notified to the supervisory authority?"


def fenced_blocks(text: str, languages: tuple[str, ...]) -> list[str]:
    return [body for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.M | re.S) if lang in languages]


def section(text: str, heading: str) -> str:
    """The text under a `## heading` up to the next `## `."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, f"README has no '## {heading}' section"
    return match.group(1)


def shell_commands(block: str) -> list[list[str]]:
    """Each `pincite …` invocation in a shell block, as words: lines joined at a trailing backslash,
    comments dropped, split at `&&`, `||`, `|`, `;` and `&`; leading VAR=value assignments skipped."""
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split, lexer.commenters = True, "#"
        words: list[str] = []
        for word in [*lexer, ";"]:
            if word in {"&&", "||", "|", ";", "&"}:
                while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
                    words.pop(0)
                if words and words[0] == "pincite":
                    commands.append(words[1:])
                words = []
            else:
                words.append(word)
    return commands


def resolve(words: list[str]):
    """The click command the words name and the words left for it (options and arguments)."""
    command, path = CLI, ["pincite"]
    while hasattr(command, "commands") and words and not words[0].startswith("-"):
        assert words[0] in command.commands, f"'{' '.join(path)}' has no command {words[0]!r}"
        command, path, words = command.commands[words[0]], [*path, words[0]], words[1:]
    return command, path, words


README_COMMANDS = [words for block in fenced_blocks(README, ("bash", "sh")) for words in shell_commands(block)]


def test_the_readme_is_a_guide_of_at_most_450_lines():
    assert len(README.splitlines()) <= 450


def test_the_readme_shows_commands_to_check():
    assert len(README_COMMANDS) >= 15


@pytest.mark.parametrize("words", README_COMMANDS, ids=lambda words: " ".join(words)[:60])
def test_every_command_in_the_readme_code_blocks_parses_with_the_real_cli(words):
    """Options, their values and the required arguments, as `pincite` itself would parse them."""
    if words == ["--version"]:
        return
    command, path, rest = resolve(words)
    assert not hasattr(command, "commands"), f"'{' '.join(path)}' needs a subcommand"
    command.make_context(" ".join(path), list(rest))  # raises a UsageError on an unknown option or a missing argument


def inline_commands(text: str) -> list[str]:
    return re.findall(r"`(pincite [^`]+)`", text)


def test_every_command_quoted_in_the_readme_text_names_a_real_command_and_options():
    """`pincite corpus add CELEX [--lang L]` in running text or a table: the command exists and
    takes every option written."""
    wrong = []
    for span in inline_commands(README):
        words = span.replace("\\|", "|").split()[1:]
        try:
            command, path, rest = resolve([w for w in words if not w.startswith("[")] or words)
        except AssertionError as exc:
            wrong.append(f"{span}: {exc}")
            continue
        accepted = {opt for param in command.params for opt in [*param.opts, *param.secondary_opts]}
        options = {m for m in re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", " ".join(rest))}
        unknown = sorted(options - accepted - {"--help"})
        if unknown:
            wrong.append(f"{span}: '{' '.join(path)}' takes no {', '.join(unknown)}")
    assert wrong == []


def test_every_command_and_subcommand_is_in_the_readme():
    commands = set()
    for name, command in CLI.commands.items():
        for sub in getattr(command, "commands", {None: None}):
            commands.add(f"pincite {name}" + (f" {sub}" if sub else ""))
    assert sorted(c for c in commands if c not in README) == []


def variables(text: str) -> set[str]:
    return set(re.findall(r"`(PINCITE_[A-Z0-9_]+)`", text))


FIELDS = {f"PINCITE_{name.upper()}" for name in Settings.model_fields}
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src" / "pincite").rglob("*.py"))


def read_by_the_code(variable: str) -> bool:
    """A variable outside Settings the code reads by name (PINCITE_CONFIG, PINCITE_DEBUG …)."""
    return f'"{variable}"' in SOURCE


def test_the_settings_table_lists_exactly_the_settings_the_code_reads():
    table = "\n".join(line for line in section(README, "Settings").splitlines() if line.startswith("| `PINCITE_"))
    documented = variables(table)
    assert sorted(FIELDS - documented) == []
    assert sorted(v for v in documented - FIELDS if not read_by_the_code(v)) == []


def test_the_settings_page_documents_every_setting():
    assert sorted(FIELDS - variables((DOCS / "settings.md").read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_variable_named_is_one_the_code_reads(page):
    named = variables(page.read_text(encoding="utf-8"))
    assert sorted(v for v in named if v not in FIELDS and not read_by_the_code(v)) == []


def links(path: Path) -> list[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", text)
            if not re.match(r"^[a-z]+:", target) and not target.startswith("#")]


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_points_at_a_file_in_the_repository(page):
    missing = [target for target in links(page) if not (page.parent / target.split("#")[0]).exists()]
    assert missing == []


def test_the_docs_index_lists_every_page_and_the_readme_links_the_index():
    listed = {(DOCS / target).resolve() for target in links(DOCS / "README.md")}
    assert sorted(p.name for p in PAGES if p.name != "README.md" and p.resolve() not in listed) == []
    assert "docs/README.md" in links(ROOT / "README.md")


def test_no_page_refers_to_a_design_document_outside_the_repository():
    assert [p.name for p in [ROOT / "README.md", *PAGES] if "DESIGN.md" in p.read_text(encoding="utf-8")] == []


def figure_rows() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in section(README, "Figures").splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 4 and cells[3].startswith("`pincite eval"):
            rows.append((cells[0], cells[1], shlex.split(cells[3].strip("`"))[1:]))
    return rows


def test_the_figures_table_gives_a_command_for_every_row():
    assert len(figure_rows()) >= 8


@pytest.mark.parametrize(("n", "words"), [pytest.param(n, words, id=figure) for figure, n, words in figure_rows()])
def test_each_figure_counts_the_questions_its_command_reads(n, words):
    """The n column is what the question file holds for the split the command names: answerable
    questions, plus unanswerable ones for abstention."""
    command, _, rest = resolve(words)
    params = command.make_context("eval", list(rest)).params
    questions = [json.loads(line) for path in params["questions"]
                 for line in (ROOT / path).read_text(encoding="utf-8").splitlines() if line.strip()]
    split = [q for q in questions if q["split"] == params["split"]]
    answerable = sum(1 for q in split if q["answerable"])
    expected = f"{answerable} + {len(split) - answerable}" if command.name == "abstention" else str(answerable)
    assert n == expected


def test_the_quick_start_is_the_two_commands_and_ci_runs_the_second():
    block = fenced_blocks(section(README, "Quick start"), ("bash",))[0]
    assert block.splitlines() == [f'pip install . && pincite ask "{QUICK_QUESTION}"', "bash scripts/test"]
    assert "bash scripts/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_quick_start_answer_cites_what_the_readme_shows(indexed):
    from tests.conftest import service_for

    shown = fenced_blocks(section(README, "Quick start"), ("",))[0]
    cited = re.findall(r"\[(Article [^\]]+)\]$", shown, flags=re.M)
    answer = service_for(indexed("gdpr", "en")).ask(QUICK_QUESTION, corpus="gdpr")
    # the processor's duty to tell the controller (33(2)) answers nothing the question asks: not quoted
    assert [c["label"] for c in answer["citations"]] == cited == ["Article 33(1)"]
