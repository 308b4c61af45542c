"""`pincite corpus add` and `add-pdf` as a user runs them: exact output, one-line errors, exit codes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.pdf_fixtures import rulebook_pdf, scanned_pdf


def run(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


@pytest.fixture
def env(mirrored_home):
    return {"PINCITE_HOME": str(mirrored_home), "PINCITE_MIRROR": os.environ["PINCITE_MIRROR"]}


def test_add_a_named_act_by_celex(env):
    line = "dma/en: 381 provisions (271 in the enacting terms, 1 annex items, 109 recitals) — OJ L 265, 12.10.2022\n"
    result = run("corpus", "add", "32022R1925", "--no-index", env=env)
    assert (result.returncode, result.stdout) == (0, f"dma (added): {line}")  # known by name, built now
    again = run("corpus", "add", "32022R1925", "--no-index", env=env)
    assert (again.returncode, again.stdout) == (0, f"dma (already added): {line}")


def test_add_with_a_bad_consolidated_date_is_one_line_and_exit_2(env):
    result = run("corpus", "add", "32016R0679", "--consolidated", "May 2016", env=env)
    assert (result.returncode, result.stderr) == (
        2, "error: consolidated date 'May 2016' is not a date — use YYYY-MM-DD, e.g. 2016-05-04\n")


def test_build_and_show_the_thai_pdpa(env):
    built = run("corpus", "build", "pdpa", "--lang", "th", env=env)
    assert built.stdout.splitlines()[0] == (
        "pdpa/th: 96 provisions (96 sections) — ราชกิจจานุเบกษา เล่ม 136 ตอนที่ 69 ก, 27 พฤษภาคม 2562")
    shown = run("corpus", "show", "pdpa", "มาตรา ๘๔", "--lang", "th", env=env)
    assert shown.stdout.splitlines()[0] == "มาตรา 84" and "ไม่เกินห้าล้านบาท" in shown.stdout


def test_the_pdpa_has_no_english_text(env):
    result = run("corpus", "build", "pdpa", "--lang", "en", env=env)
    assert (result.returncode, result.stderr) == (1, "error: pdpa has no language 'en' — it exists in: th\n")


def test_add_pdf_rulebook_then_show_a_rule(env, tmp_path):
    pdf = rulebook_pdf(tmp_path / "fc.pdf")
    added = run("corpus", "add-pdf", str(pdf), "--name", "fc", "--no-index", env=env)
    assert added.stdout == "fc (added): fc/en: 7 provisions (7 rules) — January 2024\n"
    shown = run("corpus", "show", "fc", "FC-2.1.1", env=env)
    assert shown.stdout.splitlines()[0] == "FC-2.1.1 — Reporting Requirements"


def test_add_pdf_of_a_scan_is_one_line_and_writes_nothing(env, tmp_path, mirrored_home):
    result = run("corpus", "add-pdf", str(scanned_pdf(tmp_path / "scan.pdf")), env=env)
    assert (result.returncode, result.stderr) == (1, (
        "error: scan.pdf has no text layer (scanned pages?) — run OCR on it first "
        "(e.g. ocrmypdf in.pdf out.pdf) and add the result\n"))
    assert not mirrored_home.exists() or not [p for p in mirrored_home.rglob("*") if p.is_file() and p.name != ".lock"]  # the lock is no data
