"""The production store: every index in PostgreSQL + pgvector, searched in the database.

Several server processes share one database. Dense search is `ORDER BY embedding <=> q LIMIT n`
on an HNSW index (cosine); BM25 runs in SQL over postings (term, unit, tf, unit length) with the
idf computed from each index's document frequencies, so scores equal `keyword.bm25_weights`.
Replacing an index is one transaction: readers see the old index until it commits, and a killed
build leaves it in place. Credentials come from the URL or libpq's PG* variables; neither the URL
nor a password is ever put in a message.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from pincite.errors import ConfigError, StoreError
from pincite.index.keyword import K1, B
from pincite.index.store.base import (
    Edge,
    IndexIdentity,
    Scored,
    SearchRequest,
    Unit,
    check_replacement,
    edges_of,
    search_each,
    text_hash,
)
from pincite.provisions import Provision

try:
    import psycopg
    from pgvector.psycopg import register_vector
    from psycopg_pool import ConnectionPool
except ImportError as exc:  # an optional extra: SQLite needs none of it
    raise ConfigError(f"the PostgreSQL store needs psycopg, psycopg-pool and pgvector ({exc.name} is missing) — "
                      f"run: pip install 'pincite[postgres]'") from exc

MIGRATIONS = [
    ("001_indexes", """
        CREATE EXTENSION IF NOT EXISTS vector;
        CREATE TABLE indexes (key text PRIMARY KEY, corpus_sha256 text NOT NULL, model text NOT NULL,
            settings_hash text NOT NULL, dim integer NOT NULL, provisions integer NOT NULL, units integer NOT NULL,
            keyword_units integer NOT NULL, keyword_length double precision NOT NULL,
            built_at timestamptz NOT NULL DEFAULT now());
        CREATE TABLE provisions (key text NOT NULL, ord integer NOT NULL, id text NOT NULL, data text NOT NULL,
            PRIMARY KEY (key, ord));
        -- embedding has no fixed dimension (each model has its own); an HNSW index per dimension
        -- is made on first use, over (embedding::vector(dim)) WHERE dim = that dimension.
        CREATE TABLE units (key text NOT NULL, ord integer NOT NULL, provision_ord integer NOT NULL,
            provision_id text NOT NULL, text text NOT NULL, tokens text[] NOT NULL, text_sha256 text NOT NULL,
            dim integer NOT NULL, embedding vector NOT NULL, PRIMARY KEY (key, ord));
        CREATE INDEX units_text ON units (text_sha256);
        CREATE TABLE postings (key text NOT NULL, term text NOT NULL, unit_ord integer NOT NULL,
            provision_ord integer NOT NULL, tf integer NOT NULL, length integer NOT NULL,
            PRIMARY KEY (key, term, unit_ord));
        CREATE TABLE terms (key text NOT NULL, term text NOT NULL, df integer NOT NULL, PRIMARY KEY (key, term));
        CREATE TABLE edges (key text NOT NULL, ord integer NOT NULL, source text NOT NULL, target text,
            label text NOT NULL, words text NOT NULL, external boolean NOT NULL, act text NOT NULL,
            PRIMARY KEY (key, ord));
        CREATE INDEX edges_target ON edges (key, target);
    """),
    # Each posting's BM25 weight, stored (an index is written whole, so its idf is known then),
    # in a covering index: keyword search is an index-only scan summing weights (no per-posting
    # arithmetic, no heap visits).
    ("002_posting_weights", f"""
        ALTER TABLE postings ADD COLUMN weight real;
        UPDATE postings p SET weight = (ln(1 + (i.keyword_units - t.df + 0.5) / (t.df + 0.5)) * p.tf * ({K1} + 1)
            / (p.tf + {K1} * (1 - {B} + {B} * p.length / i.keyword_length)))::real
            FROM terms t, indexes i WHERE t.key = p.key AND t.term = p.term AND i.key = p.key;
        DELETE FROM postings WHERE weight IS NULL;
        ALTER TABLE postings ALTER COLUMN weight SET NOT NULL;
        CREATE INDEX postings_weights ON postings (key, term) INCLUDE (unit_ord, provision_ord, weight);
    """),
    # Impact-ordered postings: each term's list in the index by weight, best first, so a search
    # reads the first POSTINGS_PER_TERM of each list and stops (bounded, whatever the corpus).
    # It replaces both earlier indexes on postings: one B-tree to maintain while loading.
    ("003_impact_ordered_postings", """
        DROP INDEX postings_weights;
        ALTER TABLE postings DROP CONSTRAINT postings_pkey;
        CREATE INDEX postings_impact ON postings (key, term, weight DESC, unit_ord) INCLUDE (provision_ord);
    """),
]
SCHEMA_LOCK = 0x70696E63  # advisory lock id ("pinc") held while the schema changes
# The HNSW graph and its search, chosen at 1 000 000 synthetic provisions (docs/scale.md): with
# m 16 / ef_construction 64, recall@10 against exact search was 0.90 at ef_search 400 and 0.94 at
# 1000; with m 32 / ef_construction 128 (a build twice as long), 0.945–0.973 at 400 and 0.990 at
# 600 (dense p95 27 ms) on dev questions; 0.960 at 600 on test questions (third run).
HNSW_M, HNSW_EF_CONSTRUCTION = 32, 128
EF_SEARCH = 600
SEARCH_DEPTH = 200  # candidates each of dense and BM25 hand to fusion (the embedded store hands all)
# An index of at most SEARCHED_WHOLE provisions (every real act: the largest, the AI Act, has ~1 100)
# is searched whole, as the embedded store searches: every unit's distance computed (no HNSW),
# every provision a candidate, so fusion gets the same input and ranks the same — handing it only
# the best 200 shifted the dense floor (docs/postgres.md: Italian hit@5 0.083 apart on the test split).
SEARCHED_WHOLE = 5000
# BM25 reads each query term's POSTINGS_PER_TERM highest-weight postings (all of a shorter list:
# exact on real acts, where no term is in more units) and rescores exactly the RESCORED best units
# by those partial sums. Past that an approximation: a unit outside every term's first postings,
# or outside the rescored, is missed. Tuned on dev-split questions at 100 000 provisions (BM25
# top 100: 0.97 of exact; hybrid top 10: 0.97; rescoring 500: 0.93 / 0.91): docs/scale.md.
POSTINGS_PER_TERM = 2000
RESCORED = 1000
POOL_SIZE = 10
# maintenance_work_mem for the first HNSW build: room for the whole graph, so pgvector builds it in
# memory (past that it inserts the rest on disk, several times slower). A parallel build reserves
# all of it as shared memory, so it is sized from the rows, never below the server's own setting,
# and capped (past the cap the build goes on on disk).
BUILD_MEMORY_PER_VECTOR = 256 + 40 * HNSW_M  # bytes beside the vector: the element and ~2m neighbour slots
BUILD_MEMORY_MB = (64, 8192)
SETUP_FIX = ("the database needs the pgvector extension (as a superuser: CREATE EXTENSION vector) and a user "
             "that may create tables")
TABLES = ("indexes", "provisions", "units", "postings", "terms", "edges")


class PostgresStore:
    """All indexes in one PostgreSQL database, searched there; connections come from a pool."""

    search_depth = SEARCH_DEPTH
    searched_whole = SEARCHED_WHOLE
    postings_per_term: int | None = POSTINGS_PER_TERM  # None: every posting (exact BM25; for measuring)
    rescored = RESCORED

    def __init__(self, url: str):
        self.url = url
        self.where = describe(url)
        with self._errors("connect to"), psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
            with self._errors("set up", SETUP_FIX):
                migrate(db, MIGRATIONS)
        self.pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, kwargs={"autocommit": True},
                                   configure=self._configure, open=False, name="pincite")
        with self._errors("connect to"):
            self.pool.open(wait=True, timeout=30)

    def _configure(self, db: psycopg.Connection) -> None:
        register_vector(db)
        # Iterative scans (pgvector 0.8) keep an HNSW scan going until the LIMIT is met, so a
        # search filtered to one index still gets k rows.
        db.execute("SET hnsw.iterative_scan = relaxed_order")
        db.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
        # Every search planned for its own parameters: psycopg prepares a statement run five
        # times, and the server may then keep one generic plan for every key — planned for the
        # million-unit index, it walks the whole HNSW graph for a 1 000-provision act among them
        # (186 against 8 ms at a million, docs/scale.md); planning costs a millisecond or two.
        db.execute("SET plan_cache_mode = force_custom_plan")

    @contextmanager
    def _errors(self, doing: str = "query", fix: str = "check PINCITE_DATABASE_URL and that the server is running"):
        try:
            yield
        except psycopg.Error as exc:
            raise StoreError(f"could not {doing} {self.where} ({self.redact(exc)}) — {fix}") from exc
        except TimeoutError as exc:  # the pool found no working connection in time
            raise StoreError(f"could not {doing} {self.where} (timed out) — {fix}") from exc

    def redact(self, exc: Exception) -> str:
        """The first line of a driver error, with the URL's password (if any) blanked out."""
        text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        password = urlsplit(self.url).password
        return text.replace(password, "***") if password else text

    @contextmanager
    def _db(self) -> Iterator[psycopg.Connection]:
        with self._errors(), self.pool.connection() as db:
            yield db

    def _query(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        with self._db() as db:
            return db.execute(sql, params).fetchall()

    def close(self) -> None:
        self.pool.close()

    def identity(self, key: str) -> IndexIdentity | None:
        rows = self._query("SELECT key, corpus_sha256, model, settings_hash FROM indexes WHERE key = %s", (key,))
        return IndexIdentity(*rows[0]) if rows else None

    def keys(self) -> list[str]:
        return [r[0] for r in self._query("SELECT key FROM indexes ORDER BY key")]

    def replace_index(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                      vectors: np.ndarray) -> None:
        check_replacement(identity, units, vectors)
        position = {p.id: i for i, p in enumerate(provisions)}
        strays = [u.provision_id for u in units if u.provision_id not in position]
        if strays:
            raise StoreError(f"index {identity.key}: unit of unknown provision {strays[0]!r} — nothing was "
                             f"replaced; rebuild with: pincite index {identity.key.split('/')[0]}")
        dim = int(vectors.shape[1]) if len(units) else 0
        with self._db() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"pincite index {identity.key}",))
            first = bool(dim) and not has_vector_index(db, dim)
            if first:  # before any row: a concurrent first build waits here, not on our index build
                db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            for table in TABLES:
                db.execute(f"DELETE FROM {table} WHERE key = %s", (identity.key,))
            write_index(db, identity, provisions, units, np.asarray(vectors, dtype=np.float32), position, dim)
            if first:  # after the rows: building an HNSW index over loaded rows beats inserting into one
                build_vector_index(db, dim)

    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 10_000):
            rows = self._query(
                "SELECT DISTINCT ON (u.text_sha256) u.text_sha256, u.embedding FROM units u "
                "JOIN indexes i ON i.key = u.key WHERE i.model = %s AND u.text_sha256 = ANY(%s)",
                (model, hashes[start:start + 10_000]))
            found.update({h: v.to_numpy() for h, v in rows})
        return found

    def _known(self, key: str) -> None:
        if self.identity(key) is None:
            name, _, lang = key.partition("/")
            raise StoreError(f"no index for {key} — run: pincite index {name} --lang {lang}")

    def provisions(self, key: str) -> list[Provision]:
        self._known(key)
        rows = self._query("SELECT data FROM provisions WHERE key = %s ORDER BY ord", (key,))
        return [Provision.from_dict(json.loads(data)) for (data,) in rows]

    def units(self, key: str) -> list[Unit]:
        self._known(key)
        rows = self._query("SELECT provision_id, text, tokens FROM units WHERE key = %s ORDER BY ord", (key,))
        return [Unit(pid, text, list(tokens)) for pid, text, tokens in rows]

    def edges(self, key: str) -> list[Edge]:
        rows = self._query("SELECT source, target, label, words, external, act FROM edges WHERE key = %s "
                           "ORDER BY ord", (key,))
        return [Edge(*row) for row in rows]

    def dense(self, key: str, vector: np.ndarray, k: int) -> Scored:
        """Nearest units by HNSW, then each provision's best; fetches more units until k
        provisions are found or the index has no more."""
        if k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        wanted = 2 * k
        while True:
            rows = self._query(dense_sql(len(query)), {"key": key, "q": query, "n": wanted, "k": k})
            if len(rows) >= k or not rows or rows[0][2] < wanted:
                return [(pid, float(score)) for pid, score, _ in rows]
            wanted *= 4

    def search_many(self, requests: list[SearchRequest]) -> list[tuple[Scored | None, Scored | None]]:
        """Dense and keyword candidates of several indexes in one statement (one round trip):
        the dense part a LATERAL HNSW scan per index, the keyword part BM25 over every index's
        (key, term) pairs. Requests must share one query vector (one embedder, one question)."""
        dense = [(i, r) for i, r in enumerate(requests) if r.vector is not None and r.depth > 0]
        words = [(i, r.key, t) for i, r in enumerate(requests) if r.terms and r.depth > 0 for t in sorted(set(r.terms))]
        vectors = {np.asarray(r.vector, dtype=np.float32).tobytes() for _, r in dense}
        if len(vectors) > 1 or len({r.depth for r in requests}) > 1:
            return search_each(self, requests)  # not one query's shape: each on its own
        depth = requests[0].depth if requests else 0
        parts = []
        params: dict[str, Any] = {"k": depth, "per_term": self._per_term(depth), "rescored": max(self.rescored, depth)}
        if dense:
            query = np.asarray(dense[0][1].vector, dtype=np.float32)
            parts.append(many_dense_sql(len(query), [i for i, _ in dense]))
            params.update({f"key_{i}": r.key for i, r in dense}, q=query, n=2 * depth)
        if words:
            parts.append(MANY_KEYWORD_SQL)
            params.update(word_ids=[i for i, _, _ in words], word_keys=[key for _, key, _ in words],
                          words=[t for _, _, t in words])
        rows = self._query(" UNION ALL ".join(f"({p})" for p in parts), params) if parts else []
        found: dict[tuple[str, int], list] = {}
        for part, rid, pid, ord_, score, fetched in rows:
            found.setdefault((part, rid), []).append((-score, ord_, pid, fetched))
        return [self._found(i, r, found, depth) for i, r in enumerate(requests)]

    def _found(self, i: int, request: SearchRequest, found: dict, depth: int) -> tuple[Scored | None, Scored | None]:
        def scored(part: str) -> Scored:
            return [(pid, -negative) for negative, _, pid, _ in sorted(found.get((part, i), []))]

        dense = None
        if request.vector is not None:
            dense = scored("dense")
            rows = found.get(("dense", i), [])
            if len(dense) < depth and rows and rows[0][3] >= 2 * depth:  # units of few provisions: fetch more
                dense = self.dense(request.key, request.vector, depth)
        keyword = scored("bm25") if request.terms is not None else None
        return dense, keyword

    def _per_term(self, k: int) -> int | None:
        """How many postings of each term a search of depth k reads (None: all; LIMIT NULL)."""
        return None if self.postings_per_term is None else max(self.postings_per_term, k)

    def keyword(self, key: str, terms: list[str], k: int) -> Scored:
        if k <= 0 or not terms:
            return []
        rows = self._query(KEYWORD_SQL, {"key": key, "terms": sorted(set(terms)), "k": k,
                                         "per_term": self._per_term(k), "rescored": max(self.rescored, k)})
        return [(pid, float(score)) for pid, score in rows]


def dense_sql(dim: int) -> str:
    """The dense query for vectors of `dim`: the cast and the `dim =` test are literals so the
    planner matches the partial HNSW index of that dimension. The third column counts the units
    fetched, so the caller knows whether the index had more."""
    return f"""
        WITH nearest AS MATERIALIZED ({nearest_sql(dim, "key", "provision_ord, provision_id")})
        SELECT provision_id, 1 - min(distance) AS score, (SELECT count(*) FROM nearest) AS fetched
        FROM nearest GROUP BY provision_ord, provision_id ORDER BY score DESC, provision_ord LIMIT %(k)s"""


def many_dense_sql(dim: int, rids: list[int]) -> str:
    """dense_sql over several indexes: one nearest-units scan per index, each provision its best
    unit, the first k per index. Rows: ('dense', request, id, ord, score, units fetched). Each scan
    names its key as its own parameter (`key_<request>`), so each is planned for that index — a key
    read from an array in a LATERAL join gets one generic plan, a filtered walk of the whole HNSW
    graph even for a small index among a million units (~400 ms against ~8 ms, docs/scale.md)."""
    scans = " UNION ALL ".join(
        nearest_sql(dim, f"key_{int(rid)}", f"{int(rid)} AS rid, provision_ord, provision_id") for rid in rids)
    return f"""
        WITH nearest AS MATERIALIZED ({scans}),
        best AS (
            SELECT rid, provision_ord, provision_id, 1 - min(distance) AS score,
                   row_number() OVER (PARTITION BY rid ORDER BY 1 - min(distance) DESC, provision_ord) AS r
            FROM nearest GROUP BY rid, provision_ord, provision_id),
        fetched AS (SELECT rid, count(*) AS units FROM nearest GROUP BY rid)  -- once per index, not per row
        SELECT 'dense', b.rid, b.provision_id, b.provision_ord, b.score, f.units
        FROM best b JOIN fetched f ON f.rid = b.rid WHERE b.r <= %(k)s"""


def nearest_sql(dim: int, key: str, columns: str) -> str:
    """The units of index %(<key>)s nearest the query: when the caller asks for at least as many
    provisions (%(k)s) as the index has, every unit (exact, no HNSW: SEARCHED_WHOLE); else the
    first %(n)s by HNSW. The tests on k are constant in the query, so only one branch runs."""
    vec, whole = f"vector({int(dim)})", f"(SELECT provisions FROM indexes WHERE key = %({key})s)"
    distance = f"embedding::{vec} <=> %(q)s::{vec}"
    where = f"key = %({key})s AND dim = {int(dim)}"
    return f"""(SELECT {columns}, {distance} AS distance FROM units WHERE {where} AND %(k)s >= {whole})
        UNION ALL (SELECT {columns}, {distance} AS distance FROM units WHERE {where} AND %(k)s < {whole}
                   ORDER BY {distance} LIMIT %(n)s)"""


def bm25_sql(tf: str, length: str, df: str, n: str, avg: str) -> str:
    """One posting's BM25 weight in SQL, as `keyword.bm25_weights` computes it: Robertson idf,
    float8 arithmetic, stored as real. The one formula loading and rescoring share."""
    return (f"(ln(1 + ({n}::float8 - {df} + 0.5) / ({df}::float8 + 0.5)) * {tf} * ({K1} + 1)"
            f" / ({tf} + {K1} * (1 - {B} + {B} * {length} / {avg}::float8)))::real")


# BM25 in two steps, bounded at any corpus size. (1) Candidates: each distinct query term's first
# POSTINGS_PER_TERM postings by impact — the index (key, term, weight DESC, unit_ord) serves
# `ORDER BY weight DESC, unit_ord LIMIT n` as a scan that stops after n rows (LIMIT NULL: the
# whole list) — summed per unit; the best RESCORED units by that partial sum go on. (2) Each
# candidate's exact score, from its own tokens (units.tokens) and the terms' document
# frequencies, so a unit in the tail of a common term's list is not ranked on a partial sum.
# Step 2 runs only when some list was cut (had n postings): else the sums are exact already
# (real acts, where no term is in 2000 units). A provision scores its best unit.
# (A threshold algorithm with a stopping bound was measured and dropped: at depth 100 its bound
# met the 100th score only after reading nearly whole lists — docs/scale.md.)
KEYWORD_SQL = f"""
    WITH top AS MATERIALIZED (
        SELECT q.term, p.* FROM unnest(%(terms)s::text[]) AS q(term) CROSS JOIN LATERAL (
            SELECT unit_ord, provision_ord, weight FROM postings WHERE key = %(key)s AND term = q.term
            ORDER BY weight DESC, unit_ord LIMIT %(per_term)s) p),
    partial AS MATERIALIZED (SELECT unit_ord, provision_ord, sum(weight) AS score FROM top
                             GROUP BY unit_ord, provision_ord),
    cut AS MATERIALIZED (SELECT term FROM top GROUP BY term HAVING count(*) >= %(per_term)s),
    candidates AS MATERIALIZED (SELECT unit_ord FROM partial WHERE EXISTS (SELECT FROM cut)
                                ORDER BY score DESC, unit_ord LIMIT %(rescored)s),
    q AS MATERIALIZED (SELECT t.term, t.df, i.keyword_units AS n, i.keyword_length AS avg
                       FROM terms t JOIN indexes i ON i.key = t.key WHERE t.key = %(key)s AND t.term = ANY(%(terms)s)),
    rescored AS (
        SELECT u.provision_ord, sum({bm25_sql("x.tf", "cardinality(u.tokens)", "q.df", "q.n", "q.avg")}) AS score
        FROM candidates c JOIN units u ON u.key = %(key)s AND u.ord = c.unit_ord
        CROSS JOIN LATERAL (SELECT term, count(*) AS tf FROM unnest(u.tokens) AS term
                            WHERE term = ANY(%(terms)s) GROUP BY term) x
        JOIN q ON q.term = x.term GROUP BY u.provision_ord, u.ord),
    per_unit AS (SELECT provision_ord, score FROM partial WHERE NOT EXISTS (SELECT FROM cut)
                 UNION ALL SELECT provision_ord, score FROM rescored),
    best AS MATERIALIZED (SELECT provision_ord, max(score) AS score FROM per_unit GROUP BY provision_ord
                          ORDER BY score DESC, provision_ord LIMIT %(k)s)
    SELECT pr.id, b.score FROM best b CROSS JOIN LATERAL (
        SELECT id FROM provisions WHERE key = %(key)s AND ord = b.provision_ord) pr
    ORDER BY b.score DESC, b.provision_ord"""

# KEYWORD_SQL over several indexes at once: the query's terms come as (request, key, term), since
# each index analyses the question in its own language; each request is rescored only if one of
# its lists was cut. Rows: ('bm25', request, id, ord, score, 0).
MANY_KEYWORD_SQL = f"""
    WITH words AS MATERIALIZED (SELECT * FROM unnest(%(word_ids)s::int[], %(word_keys)s::text[], %(words)s::text[])
                                AS x(rid, key, term)),
    requests AS MATERIALIZED (SELECT DISTINCT rid, key FROM words),
    top AS MATERIALIZED (
        SELECT w.rid, w.term, p.* FROM words w CROSS JOIN LATERAL (
            SELECT unit_ord, provision_ord, weight FROM postings WHERE key = w.key AND term = w.term
            ORDER BY weight DESC, unit_ord LIMIT %(per_term)s) p),
    partial AS MATERIALIZED (SELECT rid, unit_ord, provision_ord, sum(weight) AS score FROM top
                             GROUP BY rid, unit_ord, provision_ord),
    cut AS MATERIALIZED (SELECT DISTINCT rid FROM top GROUP BY rid, term HAVING count(*) >= %(per_term)s),
    q AS MATERIALIZED (SELECT w.rid, w.term, t.df, i.keyword_units AS n, i.keyword_length AS avg FROM words w
                       JOIN terms t ON t.key = w.key AND t.term = w.term JOIN indexes i ON i.key = w.key),
    -- each cut request's best RESCORED units by partial sum: a top-N per request, not a sort of all
    candidates AS MATERIALIZED (
        SELECT c.rid, r.key, p.unit_ord FROM cut c JOIN requests r ON r.rid = c.rid CROSS JOIN LATERAL (
            SELECT unit_ord FROM partial WHERE partial.rid = c.rid ORDER BY score DESC, unit_ord
            LIMIT %(rescored)s) p),
    counted AS MATERIALIZED (  -- each candidate's tokens counted once (not once per query term)
        SELECT c.rid, u.provision_ord, u.ord, x.term, x.tf, cardinality(u.tokens) AS length
        FROM candidates c JOIN units u ON u.key = c.key AND u.ord = c.unit_ord
        CROSS JOIN LATERAL (SELECT term, count(*) AS tf FROM unnest(u.tokens) AS term
                            WHERE term = ANY(%(words)s) GROUP BY term) x),
    rescored AS (
        SELECT c.rid, c.provision_ord, sum({bm25_sql("c.tf", "c.length", "q.df", "q.n", "q.avg")}) AS score
        FROM counted c JOIN q ON q.rid = c.rid AND q.term = c.term
        GROUP BY c.rid, c.provision_ord, c.ord),
    per_unit AS (SELECT rid, provision_ord, score FROM partial WHERE rid NOT IN (SELECT rid FROM cut)
                 UNION ALL SELECT rid, provision_ord, score FROM rescored),
    best AS (
        SELECT rid, provision_ord, max(score) AS score,
               row_number() OVER (PARTITION BY rid ORDER BY max(score) DESC, provision_ord) AS r
        FROM per_unit GROUP BY rid, provision_ord)
    SELECT 'bm25', b.rid, pr.id, b.provision_ord, b.score, 0 FROM best b JOIN requests r ON r.rid = b.rid
    JOIN provisions pr ON pr.key = r.key AND pr.ord = b.provision_ord WHERE b.r <= %(k)s"""


def write_index(db: psycopg.Connection, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                vectors: np.ndarray, position: dict[str, int], dim: int) -> None:
    """Every row of one index, by COPY (inside the caller's transaction)."""
    key = identity.key
    copy_rows(db, "provisions (key, ord, id, data)", ["text", "int4", "text", "text"],
              ((key, i, p.id, p.to_json()) for i, p in enumerate(provisions)))
    copy_rows(db, "units (key, ord, provision_ord, provision_id, text, tokens, text_sha256, dim, embedding)",
              ["text", "int4", "int4", "text", "text", "text[]", "text", "int4", "vector"],
              ((key, i, position[u.provision_id], u.provision_id, u.text, u.tokens, text_hash(u.text), dim,
                vectors[i]) for i, u in enumerate(units)))
    df = Counter(term for unit in units for term in set(unit.tokens))
    copy_rows(db, "terms (key, term, df)", ["text", "text", "int4"], ((key, t, n) for t, n in df.items()))
    copy_rows(db, "edges (key, ord, source, target, label, words, external, act)",
              ["text", "int4", "text", "text", "text", "text", "bool", "text"],
              ((key, i, e.source, e.target, e.label, e.words, e.external, e.act)
               for i, e in enumerate(edges_of(provisions))))
    lengths = [len(u.tokens) for u in units if u.tokens]
    average = sum(lengths) / len(lengths) if lengths else 1.0
    db.execute("INSERT INTO indexes (key, corpus_sha256, model, settings_hash, dim, provisions, units, "
               "keyword_units, keyword_length) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
               (key, identity.corpus_sha256, identity.model, identity.settings_hash, dim, len(provisions),
                len(units), len(lengths), average))
    db.execute("SET LOCAL work_mem = '256MB'")  # the sort below in memory, not in temporary files
    db.execute(POSTINGS_SQL, {"key": key, "n": float(len(lengths)), "avg": float(average)})


# The postings of one index, made in the server from the units' tokens just written (no row per
# posting through Python: a million units make ~50 million) and inserted in the order of
# postings_impact, so the B-tree fills page by page instead of at random. Weights as
# bm25_sql computes them; a term's document frequency is counted over the same rows (as `terms`
# holds it), not joined from `terms`: the planner knows nothing yet of the rows this transaction
# wrote, and guessing one row per table it joined every term with every unit (the AI Act 40 s,
# a corpus of a database holding others; now under a second).
POSTINGS_SQL = f"""
    INSERT INTO postings (key, term, unit_ord, provision_ord, tf, length, weight)
    SELECT key, term, ord, provision_ord, tf, length,
           {bm25_sql("tf", "length", "df", "%(n)s", "%(avg)s")} AS weight
    FROM (SELECT u.key, t.term, u.ord, u.provision_ord, t.tf, cardinality(u.tokens) AS length,
                 count(*) OVER (PARTITION BY t.term) AS df
          FROM units u
          CROSS JOIN LATERAL (SELECT term, count(*)::int AS tf FROM unnest(u.tokens) AS term GROUP BY term) t
          WHERE u.key = %(key)s) counted
    ORDER BY term, weight DESC, ord"""


def copy_rows(db: psycopg.Connection, target: str, types: list[str], rows) -> None:
    with db.cursor().copy(f"COPY {target} FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def _value(db: psycopg.Connection, query: str, params: tuple | None = None) -> Any:
    """The first column of a query that always returns one row (a count, a setting, a lookup)."""
    row = db.execute(query, params).fetchone()
    assert row is not None
    return row[0]


def has_vector_index(db: psycopg.Connection, dim: int) -> bool:
    return _value(db, "SELECT to_regclass(%s)", (f"units_embedding_{int(dim)}",)) is not None


def build_vector_index(db: psycopg.Connection, dim: int) -> None:
    """The HNSW index (cosine) for vectors of this dimension, made once (the caller holds the
    schema lock, so two first builds do not race to create it)."""
    name = f"units_embedding_{int(dim)}"
    rows = _value(db, f"SELECT count(*) FROM units WHERE dim = {int(dim)}")
    low, high = BUILD_MEMORY_MB
    wanted = min(high, max(low, int(1.2 * rows * (4 * dim + BUILD_MEMORY_PER_VECTOR) / 2**20) + 1))  # 20 % headroom
    if _value(db, "SELECT pg_size_bytes(current_setting('maintenance_work_mem')) < %s", (wanted * 2**20,)):
        db.execute(f"SET LOCAL maintenance_work_mem = '{wanted}MB'")
    db.execute(f"CREATE INDEX IF NOT EXISTS {name} ON units USING hnsw ((embedding::vector({int(dim)})) "
               f"vector_cosine_ops) WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) "
               f"WHERE dim = {int(dim)}")


def migrate(db: psycopg.Connection, migrations: list[tuple[str, str]]) -> None:
    """Apply the named migrations not applied yet, in order, in one transaction under an advisory
    lock: concurrent first starts wait for each other, and the second finds them applied.
    Append-only: a migration, once released, is never edited."""
    with db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS migrations (name text PRIMARY KEY, applied_at timestamptz "
                   "NOT NULL DEFAULT now())")
        done = {row[0] for row in db.execute("SELECT name FROM migrations")}
        for name, sql in migrations:
            if name not in done:
                db.execute(sql)
                db.execute("INSERT INTO migrations (name) VALUES (%s)", (name,))


def describe(url: str) -> str:
    """The database named without credentials: 'PostgreSQL database "pincite"'."""
    try:
        dbname = psycopg.conninfo.conninfo_to_dict(url).get("dbname")
    except psycopg.ProgrammingError as exc:
        raise ConfigError("PINCITE_DATABASE_URL is not a valid PostgreSQL URL — use "
                          "postgresql://USER:PASSWORD@HOST:PORT/DATABASE") from exc
    return f"PostgreSQL database {dbname!r}" if dbname else "the PostgreSQL database"
