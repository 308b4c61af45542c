"""`pincite corpus add --from FILE`: many acts from one file, through a mirror directory (never
the network); a bad line or a failed act does not stop the others, and a second run resumes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pincite.corpus.build import corpus_path
from pincite.service.batch import Item, parse_batch
from pincite.settings import load_settings

DMA, DGA, CRA = "32022R1925", "32022R0868", "32024R2847"


def run(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


@pytest.fixture
def mirror(tmp_path, corpora):
    """A mirror holding the DMA and the DGA only (the CRA is missing until a test adds it)."""
    folder = tmp_path / "mirror"
    folder.mkdir()
    for celex in (DMA, DGA):
        (folder / celex).symlink_to(corpora / celex, target_is_directory=True)
    return folder


@pytest.fixture
def env(home, mirror):
    return {"PINCITE_HOME": str(home), "PINCITE_MIRROR": str(mirror)}


def test_lines_comments_and_languages_are_read():
    items = parse_batch(f"# acts we follow\n\n{DMA}\n{DGA} en,fr   # two languages\ngdpr it it\n")
    assert items == [Item(3, DMA, ""), Item(4, DGA, "en"), Item(4, DGA, "fr"), Item(5, "gdpr", "it")]


def test_a_malformed_line_is_an_item_with_its_reason():
    bad_act, bad_lang = parse_batch("not/a celex\n32022R1925 english\n")
    assert (bad_act.line, bad_act.error) == (1, "'not/a' is not a CELEX number or a corpus name — write one act "
                                                "per line, e.g. 32022R2065 en,fr")
    assert (bad_lang.line, bad_lang.error) == (2, "'english' is not a language code — use two-letter codes after "
                                                  "the act, e.g. 32022R1925 en,fr")


def test_a_batch_adds_what_it_can_reports_failures_and_resumes(env, tmp_path, mirror, corpora, home):
    batch = tmp_path / "acts.txt"
    batch.write_text(f"# the acts\n{DMA}\n2022/1925 en\n{DGA} en\n{CRA}\n", encoding="utf-8")
    first = run("corpus", "add", "--from", str(batch), "--no-index", env=env)
    assert first.returncode == 1 and first.stderr == ""
    lines = first.stdout.splitlines()
    assert lines[0] == ("2022/1925: failed (line 3) — '2022/1925' is not a CELEX number or a corpus name — write "
                        "one act per line, e.g. 32022R2065 en,fr")  # reported at once: nothing to fetch
    assert lines[1].startswith("dma/en: added in ") and lines[1].endswith(" s — 381 provisions")
    assert lines[2].startswith("dga/en: added in ")
    assert lines[3].startswith(f"{CRA}: failed (line 5) — ") and "is not in the mirror" in lines[3]
    assert lines[4].startswith("4 acts in ") and lines[4].endswith(": 2 added, 0 already added, 2 failed")
    assert "why it failed" in first.stdout
    settings = load_settings(home=home)
    assert corpus_path(settings, "dma", "en").is_file() and not corpus_path(settings, "cra", "en").exists()

    (mirror / CRA).symlink_to(corpora / CRA, target_is_directory=True)
    batch.write_text(f"{DMA}\n{DGA} en\n{CRA}\n", encoding="utf-8")
    second = run("corpus", "add", "--from", str(batch), "--no-index", env=env)
    assert second.returncode == 0, second.stderr
    lines = second.stdout.splitlines()
    assert lines[:2] == ["dma/en: already added — 381 provisions", lines[1]] and lines[1].startswith(
        "dga/en: already added — ")
    assert lines[2].startswith("cra/en: added in ")
    assert lines[3].endswith(": 1 added, 2 already added, 0 failed")


def test_a_batch_file_that_cannot_be_read_is_one_line(env, tmp_path):
    result = run("corpus", "add", "--from", str(tmp_path / "missing.txt"), env=env)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("error: cannot read the batch file missing.txt (No such file or directory) — give a "
                             "UTF-8 text file with one CELEX number per line\n")


def test_an_act_and_a_file_at_once_is_refused(env, tmp_path):
    result = run("corpus", "add", DMA, "--from", str(tmp_path / "acts.txt"), env=env)
    assert (result.returncode, result.stderr) == (2, "error: name one act or a file of them — run: pincite corpus "
                                                     "add CELEX, or pincite corpus add --from FILE\n")
