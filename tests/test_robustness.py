"""The fast subset of `python benchmarks/robustness.py`: the same fuzzers, faults and attacks with
fewer inputs. Each row must show no crash, no hang and nothing written from a rejected input."""

from __future__ import annotations

import os
import random

import pytest

from benchmarks import robustness as bench
from benchmarks import robustness_api as api
from benchmarks import robustness_faults as faults
from benchmarks import robustness_inputs as inputs
from tests.conftest import CORPORA, need_shared

pytest.importorskip("hypothesis")


def clean(row) -> None:
    assert (row.crashes, row.hangs, row.written) == (0, 0, 0), row.notes
    assert row.inputs > 0


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr", "en")


@pytest.fixture
def own_home(gdpr, tmp_path):
    """A copy of the indexed data directory: the fault runs rebuild and kill in it."""
    home = tmp_path / "home"
    faults.copy_home(gdpr.home, home)
    return gdpr.model_copy(update={"home": home})


def test_eurlex_parser_under_fuzzing(tmp_path):
    need_shared(CORPORA)
    clean(bench.fuzz_html("EUR-Lex XHTML", inputs.eurlex_inputs(40, random.Random(1)), tmp_path / "h", tmp_path / "m"))


def test_consolidated_parser_under_fuzzing(tmp_path):
    need_shared(CORPORA)
    rows = inputs.consolidated_inputs(15, random.Random(2))
    clean(bench.fuzz_html("consolidated", rows, tmp_path / "h", tmp_path / "m"))


def test_pdf_parsers_under_fuzzing(tmp_path):
    clean(bench.fuzz_pdf("PDF", inputs.pdf_inputs(20, random.Random(3), tmp_path / "f"), tmp_path / "h"))
    clean(bench.fuzz_pdf("rulebook", inputs.rulebook_inputs(8, random.Random(4), tmp_path / "f"), tmp_path / "h2"))


def test_questions_under_fuzzing(gdpr):
    clean(bench.fuzz_questions(inputs.question_inputs(30, random.Random(5)), gdpr))


def test_the_named_nasties_are_refused_or_parsed_never_a_crash(tmp_path):
    nasties = inputs.named_html_nasties(inputs._base_act(), big=False)
    row = bench.fuzz_html("nasties", nasties, tmp_path / "h", tmp_path / "m")
    clean(row)
    assert row.refused >= 6  # empty, whitespace, not HTML, not an act, JSON, UTF-16 at least


@pytest.mark.parametrize("what, command", [
    ("index", ["index", "gdpr", "--rebuild"]),
    ("corpus add", ["corpus", "add", faults.DORA, "--lang", "da", "--refresh", "--no-index"]),
])
def test_kill_9_leaves_the_previous_index_and_corpus_answering(own_home, what, command):
    settings = faults.with_dora(own_home)
    code, _, err = faults.finish(faults.pincite(settings, "corpus", "add", faults.DORA, "--lang", "da",
                                                "--name", "dora", "--no-index"))
    assert code == 0, err
    clean(faults.kill_runs(what, command, 2, settings, random.Random(6), bench.Row))


def test_a_full_disk_ends_in_one_line_naming_the_file_and_loses_nothing(own_home, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    settings = faults.with_dora(own_home)
    code, _, err = faults.finish(faults.pincite(settings, "corpus", "add", faults.DORA, "--lang", "da",
                                                "--name", "dora", "--no-index"))
    assert code == 0, err
    row = faults.full_disk_runs(settings, bench.Row, tmp_path, fills=(0,))
    clean(row)
    # With no byte free, writing the index and the corpus cannot succeed: they must refuse.
    assert row.refused >= 2, row.notes


def test_the_api_under_attack_stays_up(gdpr, tmp_path):
    pytest.importorskip("schemathesis")
    settings = gdpr.model_copy(update={"home": tmp_path / "home"})
    faults.copy_home(gdpr.home, settings.home)
    with api.live_server(settings) as url:
        rows = [api.schemathesis_row(url, bench.Row, 3), api.oversized_row(url, bench.Row),
                api.slow_clients_row(url, bench.Row, clients=20, seconds=2), api.concurrent_row(url, bench.Row, 40),
                api.malformed_row(url, bench.Row, n=30), api.sse_disconnect_row(url, bench.Row, clients=3),
                api.load_row(url, bench.Row, "search", clients=5, seconds=2),
                api.load_row(url, bench.Row, "ask", clients=5, seconds=2)]
    for row in rows:
        clean(row)
