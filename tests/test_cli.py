"""The `pincite` command as a user runs it: a real subprocess, exact output and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import MODEL, need_shared


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True,
                          env=full_env, timeout=120)


@pytest.fixture
def env(mirrored_home):
    return {"PINCITE_HOME": str(mirrored_home), "PINCITE_MIRROR": os.environ["PINCITE_MIRROR"]}


def test_show_builds_on_first_use_and_prints_the_provision(env):
    result = run("corpus", "show", "gdpr", "Article 33(2)", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [
        "Article 33(2) — Notification of a personal data breach to the supervisory authority",
        "2. The processor shall notify the controller without undue delay after becoming aware of a personal data breach.",
    ]


def test_show_json_is_one_document(env):
    result = run("corpus", "show", "gdpr", "Art. 4(11)", "--json", env=env)
    (provision,) = json.loads(result.stdout)["provisions"]
    assert (provision["id"], provision["kind"]) == ("gdpr/en/art-4.def-11", "definition")


def test_build_writes_out_file_and_stats_reads_it(env, tmp_path):
    out = tmp_path / "gdpr-it.jsonl"
    built = run("corpus", "build", "gdpr", "--lang", "it", "--out", str(out), env=env)
    assert built.returncode == 0, built.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 587
    stats = json.loads(run("corpus", "stats", "gdpr", "--json", env=env).stdout)
    assert [(s["lang"], s["enacting"], s["recitals"]) for s in stats] == [("it", 414, 173)]


def test_check_after_build_reports_identical(env):
    run("corpus", "build", "gdpr", env=env)
    result = run("corpus", "check", "gdpr", env=env)
    assert result.returncode == 0 and "identical to a fresh parse" in result.stdout


def test_unknown_corpus_is_one_line_and_exit_1(env):
    result = run("corpus", "show", "gpdr", "Article 1", env=env)
    assert (result.returncode, result.stderr) == (1, "error: unknown corpus 'gpdr' — use one of: ai-act, cra, data-act, "
                                                  "dga, dma, dsa, gdpr, pdpa, a CELEX number, or add one with: "
                                                  "pincite corpus add CELEX --name SHORT\n")


def test_unknown_provision_is_one_line(env):
    result = run("corpus", "show", "gdpr", "Article 100", env=env)
    assert result.returncode == 1 and result.stderr.startswith("error: gdpr/en has no provision 'Article 100'")


def test_bad_label_is_one_line(env):
    result = run("corpus", "show", "gdpr", "Paragraph seven", env=env)
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "cannot read citation" in result.stderr


def test_check_before_build_says_how_to_build(env):
    result = run("corpus", "check", "ai-act", "--lang", "it", env=env)
    assert result.returncode == 1 and "run: pincite corpus build ai-act --lang it" in result.stderr


def test_empty_mirror_file_is_an_error_and_nothing_is_written(home, tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "gdpr").mkdir(parents=True)
    (mirror / "gdpr" / "en.html").write_bytes(b"")
    result = run("corpus", "build", "gdpr", env={"PINCITE_HOME": str(home), "PINCITE_MIRROR": str(mirror)})
    assert result.returncode == 1 and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert not list(home.rglob("*.jsonl")) and not list(home.rglob("*.html"))


def test_broken_config_file_is_a_clear_error(home, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("home = [unclosed", encoding="utf-8")
    result = run("corpus", "stats", "gdpr", env={"PINCITE_HOME": str(home), "PINCITE_CONFIG": str(config)})
    assert result.returncode == 2 and "is not valid TOML" in result.stderr


def test_every_command_is_documented_in_the_readme():
    from pathlib import Path

    import typer.main

    from pincite.surfaces.cli import app

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    group = typer.main.get_command(app)
    missing = []
    for name, command in group.commands.items():
        for sub in getattr(command, "commands", {None: None}):
            words = f"pincite {name}" + (f" {sub}" if sub else "")
            if words not in readme:
                missing.append(words)
    assert missing == []


@pytest.mark.parametrize(("args", "says"), [
    (("index", "gdpr", "--json"), "No such option: --json"),
    (("search",), "Missing argument 'query'"),
    (("nosuch",), "No such command 'nosuch'"),
])
def test_usage_errors_print_the_usage_and_exit_2_without_a_traceback(args, says):
    result = run(*args)
    assert (result.returncode, result.stdout) == (2, "")
    assert says in result.stderr and "Usage: pincite" in result.stderr and "Traceback" not in result.stderr


DGA_BUILD = [  # the Data Governance Act, the mirror's smallest act, indexed with the small MiniLM model
    "pincite: dga/en: fetch", "pincite: dga/en: parse", "pincite: dga/en: check 0/226",
    "pincite: dga/en: write 0/226", "pincite: dga/en: embed 0/307", "pincite: dga/en: embed 128/307",
    "pincite: dga/en: embed 256/307", "pincite: dga/en: embed 307/307", "pincite: dga/en: write 0/307",
]


def test_a_first_build_prints_its_stages_with_counts_when_stderr_is_not_a_terminal(env):

    model = {"PINCITE_EMBED_MODEL_PATH": str(need_shared(MODEL))}
    first = run("index", "dga", env={**env, **model})
    assert (first.returncode, first.stderr.splitlines()) == (0, DGA_BUILD)
    again = run("search", "data intermediation service", "--corpus", "dga", env={**env, **model})
    assert (again.returncode, again.stderr) == (0, "")  # nothing to build: no line
