"""Searching every indexed corpus at once (`--corpus all`), warm, in one process.

    python benchmarks/across.py [--questions 15] [--rounds 2]

Uses PINCITE_HOME's indexes as they are, on the store PINCITE_DATABASE_URL selects (SQLite when
unset): dev-split questions of the GDPR, AI Act and DSA sets, each searched in every corpus
indexed in English (k = 10, the service's own path), first once to warm, then timed. On a
database store it also times the same questions with every index searched to the bounded depth
(`searched_whole` = 0) instead of whole, in alternating rounds. Prints p50 / p95; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pincite.service import Pincite

ROOT = Path(__file__).resolve().parents[1]


def questions(per_set: int) -> list[str]:
    out = []
    for name in ("gdpr", "ai-act", "dsa"):
        rows = [json.loads(line) for line in (ROOT / "evals" / f"{name}-en.jsonl").read_text().splitlines() if line.strip()]
        out += [r["question"] for r in rows if r.get("split") == "dev"][:per_set]
    return out


def timed(pincite: Pincite, asked: list[str]) -> tuple[float, float]:
    for q in asked:  # warm: every index loaded, every page the queries touch read once
        pincite.search_document(q, corpus="all", k=10)
    took = []
    for q in asked:
        started = time.perf_counter()
        pincite.search_document(q, corpus="all", k=10)
        took.append((time.perf_counter() - started) * 1000)
    took.sort()
    return statistics.median(took), took[min(len(took) - 1, int(0.95 * len(took)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=15, help="dev questions per set")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asked = questions(args.questions)
    with Pincite() as pincite:
        corpora = [key for key in pincite.store.keys() if key.endswith("/en")]
        store = type(pincite.store).__name__
        whole = getattr(pincite.store, "searched_whole", None)
        settings = [("whole", whole), ("bounded", 0)] if whole else [("default", None)]
        print(f"{len(asked)} questions, {len(corpora)} corpora ({', '.join(corpora)}), {store}")
        for _ in range(args.rounds):
            for name, value in settings:
                if value is not None:
                    pincite.store.searched_whole = value
                p50, p95 = timed(pincite, asked)
                print(f"{name:8} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms", flush=True)


if __name__ == "__main__":
    main()
