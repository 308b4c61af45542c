"""HNSW recall of the PostgreSQL store against exact search, on real question vectors.

    python benchmarks/hnsw_recall.py [--corpus gdpr] [--lang en] [--questions evals/gdpr-en.jsonl]
                                     [--split dev] [-k 10] [--json]

Needs PINCITE_DATABASE_URL (and, offline, PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH); builds the
index if the database lacks it. Each question of the file (the corpus's own, of the split given)
is embedded and searched twice: by the store's dense query with scans and sorts turned off, so
the planner must walk the HNSW index even on a table small enough to scan (what `Store.dense`
runs at scale), and exactly, every unit's cosine in numpy over the vectors read back from the
store (a provision scores its best unit). Prints recall@k (the share of the exact top k that the
HNSW top k holds, averaged over questions), how often the top hit agrees, and the latency of
`Store.dense` as the planner chooses. Asserts nothing (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from pincite.index.store import text_hash
from pincite.index.store.matrix import MatrixIndex
from pincite.index.store.postgres import dense_sql
from pincite.service import Pincite
from pincite.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]


def questions(path: Path, corpus: str, split: str | None) -> list[str]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r["question"] for r in rows if r.get("corpus") == corpus and (split is None or r.get("split") == split)]


def exact_index(pincite: Pincite, key: str) -> MatrixIndex:
    store = pincite.store
    identity, units = store.identity(key), store.units(key)
    cached = store.cached_vectors(identity.model, [text_hash(u.text) for u in units])
    vectors = np.vstack([cached[text_hash(u.text)] for u in units])
    return MatrixIndex(identity, store.provisions(key), units, vectors)


def hnsw_dense(store, key: str, vector: np.ndarray, k: int) -> list[str]:
    """The store's dense query, the HNSW index forced (no sequential scan to fall back on)."""
    with store.pool.connection() as db, db.transaction():
        for plan_kind in ("seqscan", "bitmapscan", "sort"):  # leave the planner the HNSW walk only
            db.execute(f"SET LOCAL enable_{plan_kind} = off")
        rows = db.execute(dense_sql(len(vector)), {"key": key, "q": vector, "n": 2 * k, "k": k}).fetchall()
        plan = " ".join(r[0] for r in db.execute("EXPLAIN " + dense_sql(len(vector)),
                                                 {"key": key, "q": vector, "n": 2 * k, "k": k}))
    if "units_embedding_" not in plan:
        sys.exit("error: the dense query does not use the HNSW index — see EXPLAIN of dense_sql")
    return [pid for pid, _, _ in rows]


def measure(pincite: Pincite, key: str, texts: list[str], k: int) -> dict:
    exact = exact_index(pincite, key)
    recalls, top1, latencies = [], 0, []
    for text in texts:
        vector = pincite.embedder.embed_query(text)
        started = time.perf_counter()
        pincite.store.dense(key, vector, k)
        latencies.append((time.perf_counter() - started) * 1000)
        approximate = hnsw_dense(pincite.store, key, vector, k)
        truth = [pid for pid, _ in exact.dense(vector, k)]
        recalls.append(len(set(approximate) & set(truth)) / len(truth))
        top1 += bool(approximate) and approximate[0] == truth[0]
    latencies.sort()
    return {"key": key, "n": len(texts), "k": k, f"recall@{k}": round(statistics.fmean(recalls), 4),
            "top1_agreement": round(top1 / len(texts), 4), "units": len(exact.units),
            "dense_ms": {"p50": round(latencies[len(latencies) // 2], 2),
                         "p95": round(latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))], 2)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="gdpr")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--questions", type=Path, default=ROOT / "evals" / "gdpr-en.jsonl")
    parser.add_argument("--split", default="dev")
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    settings = load_settings()
    if settings.database_url is None:
        sys.exit("error: set PINCITE_DATABASE_URL — this measures the PostgreSQL store's HNSW index")
    with Pincite(settings) as pincite:
        pincite.index(args.corpus, args.lang)
        result = measure(pincite, f"{args.corpus}/{args.lang}", questions(args.questions, args.corpus, args.split),
                         args.k)
    result["split"] = args.split
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['key']}: {result['n']} questions ({args.split}), {result['units']} units — "
              f"recall@{args.k} {result[f'recall@{args.k}']:.4f}, top-1 agreement {result['top1_agreement']:.4f}, "
              f"dense p50 {result['dense_ms']['p50']} ms, p95 {result['dense_ms']['p95']} ms")


if __name__ == "__main__":
    main()
