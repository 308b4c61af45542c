"""Retrieval benchmark: build time, warm/cold search latency, peak RSS, and a naive baseline.

    python benchmarks/retrieval.py [--home DIR] [--json] [--warm-only]

`--warm-only` times warm search alone over the indexes DIR holds (built there once before): to
compare two versions of the code in the same minutes, e.g. an older commit checked out with
`git worktree add ../old COMMIT` and run with `PYTHONPATH=../old/src`, alternated with this one.

Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH (or network access). Uses a fresh data
directory unless --home is given, so the index build is timed from nothing. Prints figures;
asserts nothing (speed is measured here, behaviour in the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
QUESTION_FILES = [ROOT / "evals" / name for name in ("gdpr-en.jsonl", "ai-act-en.jsonl", "ai-act-it.jsonl")]
CORPORA = [("gdpr", "en"), ("ai-act", "en"), ("gdpr", "it"), ("ai-act", "it")]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed_command(args: list[str], env: dict) -> tuple[float, float | None]:
    """Wall seconds and peak RSS (MB) of one pincite command in its own process.

    /usr/bin/time measures the child alone; getrusage(RUSAGE_CHILDREN) would also count the
    memory of this process, which the child inherits at fork before it execs.
    """
    timer = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []
    started = time.perf_counter()
    done = subprocess.run([*timer, sys.executable, "-m", "pincite", *args], env=env, check=True,
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    rss = int(done.stderr.strip().splitlines()[-1]) / 1024 if timer else None
    return wall, rss


def time_builds(home: Path) -> dict:
    env = {**os.environ, "PINCITE_HOME": str(home)}
    report = {}
    for name, lang in CORPORA:
        timed_command(["corpus", "build", name, "--lang", lang], env)
        wall, rss = timed_command(["index", name, "--lang", lang], env)
        report[f"{name}/{lang}"] = {"index_seconds": round(wall, 2), "peak_rss_mb": rss and round(rss, 1)}
    return report


def warm_latency(service, questions: list[dict]) -> dict:
    """Search p50/p95, each question embedded for the first time; and, in the same run as the
    baseline the machine's speed sets, embedding each question alone (the model, no cache) and
    searching each again with its vectors known (everything but the model)."""
    for q in questions[:3]:  # load every index and the model first
        service.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=10)
    model = getattr(service.embedder, "embedder", service.embedder)  # under the service's query cache
    embedded = _timed([lambda q=q: model.embed_query(q["question"]) for q in questions])
    searches = [lambda q=q: service.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=10)
                for q in questions]
    searched = _timed(searches)
    known = _timed(searches)  # the query cache holds every vector now
    return {"n": len(searched), "p50_ms": round(statistics.median(searched), 2),
            "p95_ms": round(percentile(searched, 0.95), 2),
            "embed_alone_p50_ms": round(statistics.median(embedded), 2),
            "embed_alone_p95_ms": round(percentile(embedded, 0.95), 2),
            "vectors_known_p50_ms": round(statistics.median(known), 2),
            "vectors_known_p95_ms": round(percentile(known, 0.95), 2)}


def _timed(calls: list) -> list[float]:
    times = []
    for call in calls:
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def cold_search(home: Path, runs: int = 5) -> dict:
    env = {**os.environ, "PINCITE_HOME": str(home)}
    measured = [timed_command(["search", "personal data breach notification deadline", "--json"], env)
                for _ in range(runs)]
    walls = [w for w, _ in measured]
    rss = [r for _, r in measured if r is not None]
    return {"runs": runs, "median_s": round(statistics.median(walls), 3), "max_s": round(max(walls), 3),
            "peak_rss_mb": round(max(rss), 1) if rss else None}


def chunks(text: str, size: int = 1500, overlap: int = 200) -> list[tuple[int, int]]:
    spans, start = [], 0
    while start < len(text):
        spans.append((start, min(len(text), start + size)))
        if start + size >= len(text):
            break
        start += size - overlap
    return spans


def naive_baseline(settings, questions: list[dict]) -> dict:
    """Fixed 1500-character chunks with 200 overlap over each act's text, dense search with the
    same embedder; a chunk hits when any provision it overlaps hits the gold label (generous)."""
    from pincite.corpus.build import load_provisions
    from pincite.evaluate.retrieval import metrics, rank_of
    from pincite.index.embed import embedder_from_settings

    embedder = embedder_from_settings(settings)
    indexes = {}
    for name, lang in CORPORA:
        provisions = load_provisions(name, lang, settings)
        text, owners, offset = [], [], 0
        for p in provisions:
            text.append(p.text)
            owners.append((offset, offset + len(p.text), p.label))
            offset += len(p.text) + 2
        full = "\n\n".join(text)
        spans = chunks(full)
        vectors = embedder.embed([full[a:b] for a, b in spans])
        labels = [[lab for (s, e, lab) in owners if s < b and e > a] for a, b in spans]
        indexes[(name, lang)] = (vectors, labels)
    rows = []
    for q in questions:
        vectors, labels = indexes[(q["corpus"], q.get("lang") or "en")]
        order = np.argsort(-(vectors @ embedder.embed_query(q["question"])))[:10]
        # Rank of the first chunk that hits, counted in chunks.
        rank = next((r for r, i in enumerate(order, start=1) if rank_of(labels[i], q["gold"])), None)
        rows.append({"rank": rank})
    return metrics(rows)


def system_quality(service, questions: list[dict]) -> dict:
    from pincite.evaluate.retrieval import evaluate_retrieval

    report = evaluate_retrieval(questions, service)
    return {key: report[key] for key in ("n", "hit@1", "hit@5", "mrr")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="data directory (default: a fresh temporary one)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--warm-only", action="store_true", help="time warm search alone (needs --home with the indexes built)")
    args = parser.parse_args()
    if args.warm_only and not args.home:
        parser.error("--warm-only needs --home DIR, a data directory with the four indexes built")
    home = args.home or Path(tempfile.mkdtemp(prefix="pincite-bench-"))
    os.environ["PINCITE_HOME"] = str(home)
    from pincite.evaluate.retrieval import load_questions
    from pincite.service import Pincite
    from pincite.settings import load_settings

    settings = load_settings()
    service = Pincite(settings)
    questions = [q for f in QUESTION_FILES for q in load_questions(f) if q["answerable"]]
    if args.warm_only:
        import pincite

        report = {"code": str(Path(pincite.__file__).parents[1]), "warm_search": warm_latency(service, questions)}
    else:
        report = {"index_build": time_builds(home)}
        report["cold_search"] = cold_search(home)
        report["warm_search"] = warm_latency(service, questions)
        # One process searching all four indexes (GDPR + AI Act, en + it), model loaded.
        report["warm_search"]["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        report["ours"] = system_quality(service, questions)
        report["naive_1500_200"] = naive_baseline(settings, questions)
        report["ratio"] = {key: round(report["ours"][key] / max(report["naive_1500_200"][key], 1e-9), 2)
                           for key in ("hit@1", "mrr")}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for key, value in report.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
