"""Robustness: bad input, faults and hostile clients, as one table.

    python benchmarks/robustness.py [--n 1000] [--kills 20] [--only parsers,faults,api] [--seed-home DIR]

Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH (the shared corpora and model); works in a
temporary data directory of its own. Rows:

- parsers under fuzzing: generated (Hypothesis) and mutated inputs per format, each parsed and then
  built through the real build path; a *crash* is an exception that is not a PinciteError, a *hang*
  an input that takes longer than the stated limit, *written* a corpus left on disk by an input that
  was refused;
- faults: `kill -9` of `pincite index` and `pincite corpus add` at random moments, after which the
  previous index and corpus must still load and answer and the next run must complete;
- API under attack: Schemathesis against /openapi.json of a live `pincite serve`, and oversized
  bodies, slow partial requests, 200 concurrent connections, malformed JSON, SSE clients that
  disconnect mid-stream, after each of which the server must answer /health.

The fast subset of each row runs in tests/test_robustness.py.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/ holds the markup and PDF builders the fuzzers start from

from benchmarks.robustness_api import attack_rows  # noqa: E402
from benchmarks.robustness_faults import copy_home, fault_rows  # noqa: E402
from benchmarks.robustness_inputs import (  # noqa: E402
    consolidated_inputs,
    eurlex_inputs,
    pdf_inputs,
    question_inputs,
    rulebook_inputs,
)

PARSE_LIMIT = 20.0  # seconds one input may take before it counts as a hang
BIG_PARSE_LIMIT = 120.0  # …for the inputs that are big on purpose (5,000 pages, 50 MB)


@dataclass
class Row:
    what: str
    inputs: int = 0
    crashes: int = 0
    hangs: int = 0
    written: int = 0
    refused: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.hangs or self.written)


def _outcome(call, limit: float) -> tuple[str, float, str]:
    """('ok' | 'refused' | 'crash', seconds, detail) of one call."""
    from pincite.errors import PinciteError

    started = time.perf_counter()
    try:
        call()
        outcome, detail = "ok", ""
    except PinciteError as exc:
        outcome, detail = "refused", str(exc)
    except Exception as exc:  # what the benchmark is looking for
        outcome, detail = "crash", f"{type(exc).__name__}: {str(exc)[:160]}"
    return outcome, time.perf_counter() - started, detail


def _record(row: Row, name: str, outcome: str, seconds: float, detail: str, limit: float) -> None:
    row.inputs += 1
    row.seconds += seconds
    if outcome == "crash":
        row.crashes += 1
        row.notes.append(f"crash on {name}: {detail}")
    elif outcome == "refused":
        row.refused += 1
    if seconds > limit:
        row.hangs += 1
        row.notes.append(f"hang on {name}: {seconds:.1f} s")


# -- parsers ---------------------------------------------------------------------------------

def fuzz_html(what: str, inputs, home: Path, mirror: Path) -> Row:
    """Each input parsed, then built as an act added by CELEX through the mirror (refresh: the
    mirror file is what is read); a refused build must leave no corpus."""
    from pincite.corpus.build import build_spec, corpus_path
    from pincite.corpus.formats import parse_bytes
    from pincite.settings import load_settings
    from pincite.sources.catalog import added_act

    spec = added_act("32099R0001", "fuzz")
    settings = load_settings(home=home, mirror=mirror)
    folder = mirror / spec.name
    folder.mkdir(parents=True, exist_ok=True)
    row = Row(what)
    for name, data in inputs:
        limit = BIG_PARSE_LIMIT if len(data) > 5_000_000 else PARSE_LIMIT
        digest = hashlib.sha256(data).hexdigest()
        outcome, seconds, detail = _outcome(
            lambda d=data, h=digest: parse_bytes(d, spec, "en", h, "file:///fuzz", "text/html"), limit)
        _record(row, name, outcome, seconds, detail, limit)
        (folder / "en.html").write_bytes(data)
        corpus = corpus_path(settings, spec.name, "en")
        corpus.unlink(missing_ok=True)
        built, _, detail = _outcome(lambda: build_spec(spec, "en", settings, refresh=True), limit)
        if built == "crash":
            row.crashes += 1
            row.notes.append(f"crash building {name}: {detail}")
        if built != "ok" and corpus.exists():
            row.written += 1
            row.notes.append(f"corpus written from refused {name}")
    return row


def fuzz_pdf(what: str, inputs, home: Path) -> Row:
    """Each input added as `pincite corpus add-pdf` adds it (no index); a refused one must leave
    neither a corpus nor a catalog entry."""
    from pincite.corpus.acts import add_pdf
    from pincite.settings import load_settings
    from pincite.sources.catalog import registered

    settings = load_settings(home=home)
    row = Row(what)
    folder = home.parent / f"{home.name}-in"
    folder.mkdir(parents=True, exist_ok=True)
    for n, (name, data) in enumerate(inputs):
        limit = BIG_PARSE_LIMIT if len(data) > 5_000_000 or "pages" in name else PARSE_LIMIT
        path = folder / f"input-{n}.pdf"
        path.write_bytes(data)
        corpus_name = f"fuzz-{n}"
        outcome, seconds, detail = _outcome(lambda p=path, c=corpus_name: add_pdf(p, settings, name=c), limit)
        _record(row, name, outcome, seconds, detail, limit)
        if outcome != "ok" and (corpus_name in registered(home) or (settings.corpora_dir / corpus_name).exists()):
            row.written += 1
            row.notes.append(f"corpus written from refused {name}")
        path.unlink()
    return row


def fuzz_questions(inputs, settings) -> Row:
    """Each question searched and answered (extractive) by the service, as every surface calls it."""
    from pincite.service import Pincite

    row = Row("question text")
    with Pincite(settings.model_copy(update={"ask_log": False}), llm=None) as service:
        service.ask("warm-up", corpus="gdpr")
        for name, question in inputs:
            outcome, seconds, detail = _outcome(
                lambda q=question: (service.search_document(q, corpus="gdpr", k=5), service.ask(q, corpus="gdpr")),
                PARSE_LIMIT)
            _record(row, name, outcome, seconds, detail, PARSE_LIMIT)
    return row


def parser_rows(n: int, work: Path, settings, seed: int = 15) -> list[Row]:
    rng = random.Random(seed)
    mirror = work / "mirror"
    return [
        fuzz_html("EUR-Lex XHTML", eurlex_inputs(n, rng), work / "h-eurlex", mirror),
        fuzz_html("consolidated markup", consolidated_inputs(n, rng), work / "h-consolidated", mirror),
        fuzz_pdf("PDF (pages)", pdf_inputs(n, rng, work / "pdf-fixtures"), work / "h-pdf"),
        fuzz_pdf("rulebook PDF", rulebook_inputs(n, rng, work / "pdf-fixtures"), work / "h-rulebook"),
        fuzz_questions(question_inputs(n, rng), settings),
    ]


# -- the table -------------------------------------------------------------------------------

def table(rows: list[Row]) -> str:
    lines = ["| check | inputs / runs | crashes | hangs | written from rejected | refused | seconds |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r.what} | {r.inputs} | {r.crashes} | {r.hangs} | {r.written} | {r.refused} | "
                     f"{r.seconds:.0f} |")
    return "\n".join(lines)


def indexed_settings(work: Path, seed_home: Path | None):
    """Settings over a data directory with the GDPR indexed (the questions and faults need one);
    `seed_home`, a data directory that has it already, is copied to save the indexing."""
    from pincite.index.build import ensure_index
    from pincite.settings import load_settings

    if seed_home is not None:
        copy_home(seed_home, work / "home")
    settings = load_settings(home=work / "home", rate_limit_per_minute=0, session_question_cap=0)
    if settings.mirror is None or settings.embed_model_path is None:
        sys.exit("error: PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH are not set — point them at the shared "
                 "corpora and model (see docs/robustness.md)")
    ensure_index("gdpr", "en", settings)
    return settings


def progress(rows: list[Row]) -> list[Row]:
    for r in rows:  # stderr: stdout holds the table alone
        print(f"{r.what}: {r.inputs} inputs, {r.crashes} crashes, {r.hangs} hangs, {r.written} written "
              f"({r.seconds:.0f} s)", file=sys.stderr, flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="inputs per parser format (default 1000)")
    parser.add_argument("--kills", type=int, default=20, help="kill -9 runs per command (default 20)")
    parser.add_argument("--examples", type=int, default=300, help="Schemathesis examples per operation")
    parser.add_argument("--only", default="parsers,faults,api", help="comma-separated sections to run")
    parser.add_argument("--load-seconds", type=float, default=60.0, help="seconds of each load row (default 60)")
    parser.add_argument("--seed-home", type=Path, help="a data directory with the GDPR indexed, copied to start from")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pincite-robustness-") as tmp:
        work = Path(tmp)
        settings = indexed_settings(work, args.seed_home)
        rows: list[Row] = []
        if "parsers" in sections:
            rows += progress(parser_rows(args.n, work, settings))
        if "faults" in sections:
            rows += progress(fault_rows(args.kills, work, settings, Row))
        if "api" in sections:
            rows += progress(attack_rows(work, settings, Row, examples=args.examples,
                                                load_seconds=args.load_seconds))
    print(table(rows))
    for r in rows:
        for note in r.notes[:20]:
            print(f"- {r.what}: {note}")
    print(f"\nlimits: {PARSE_LIMIT:g} s per input, {BIG_PARSE_LIMIT:g} s for the big ones (5,000 pages, "
          f"50 MB); total {time.perf_counter() - started:.0f} s; {os.cpu_count()} cores")
    failed = [r.what for r in rows if not r.ok]
    if failed:
        print(f"error: {', '.join(failed)} failed — see the notes above", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
