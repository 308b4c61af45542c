"""The embedded store: every index in one SQLite file, searched in memory.

Each index's vectors are loaded once into a matrix (`MatrixIndex`) and searched in-process;
the file holds provisions, units, vectors (a cache by model and text hash, so unchanged texts
are never re-embedded) and each index's identity. Connections are one per thread.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from pincite.errors import StoreError
from pincite.index.store.base import (
    Edge,
    IndexIdentity,
    Scored,
    Unit,
    check_replacement,
    edges_of,
    register_store,
    text_hash,
)
from pincite.index.store.matrix import MatrixIndex
from pincite.provisions import Provision
from pincite.sources.files import write_error

log = logging.getLogger("pincite.store")
# Past this many units held in memory (every loaded index together) the embedded store is the
# wrong tool: vectors, postings, units and provisions grow the serving process by ~8.5 KB a unit
# at its peak (866 MB at 101 000 units: benchmarks/scale.py, docs/scale.md), and one search
# reads every vector (a 100 000 × 384 product per query, shared by every client of the process);
# PostgreSQL keeps the serving process flat (~65 MB).
HINT_UNITS = 60_000
_hinted = False  # the hint is given once per process


def hint_if_large(units: int, dim: int) -> None:
    """Say once, in one line, that PostgreSQL is the store for this size."""
    global _hinted
    if _hinted or units < HINT_UNITS:
        return
    _hinted = True
    log.warning("pincite: %s index units are held in memory by the embedded SQLite store (%.0f MB of vectors "
                "alone) — for corpora this large set PINCITE_DATABASE_URL=postgresql://… to search in "
                "PostgreSQL (README: On PostgreSQL)", f"{units:,}", units * dim * 4 / 2**20)


MIGRATIONS = [
    ("001_indexes", """
        CREATE TABLE indexes (key TEXT PRIMARY KEY, corpus_sha256 TEXT NOT NULL, model TEXT NOT NULL,
            settings_hash TEXT NOT NULL, dim INTEGER NOT NULL, built_at TEXT NOT NULL);
        CREATE TABLE provisions (key TEXT NOT NULL, ord INTEGER NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
            PRIMARY KEY (key, ord));
        CREATE TABLE units (key TEXT NOT NULL, ord INTEGER NOT NULL, provision_id TEXT NOT NULL,
            text TEXT NOT NULL, tokens TEXT NOT NULL, text_sha256 TEXT NOT NULL, PRIMARY KEY (key, ord));
        CREATE TABLE vectors (model TEXT NOT NULL, text_sha256 TEXT NOT NULL, vector BLOB NOT NULL,
            PRIMARY KEY (model, text_sha256));
    """),
    ("002_edges", """
        CREATE TABLE edges (key TEXT NOT NULL, ord INTEGER NOT NULL, source TEXT NOT NULL, target TEXT,
            label TEXT NOT NULL, words TEXT NOT NULL, external INTEGER NOT NULL, act TEXT NOT NULL,
            PRIMARY KEY (key, ord));
        CREATE INDEX edges_target ON edges(key, target);
    """),
]


def migrate(db: sqlite3.Connection, migrations: list[tuple[str, str]]) -> None:
    """Apply the named migrations not applied yet, each in its own transaction, in order.
    Append-only: a migration, once released, is never edited."""
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    for name, sql in migrations:
        if name in done:
            continue
        with transaction(db):
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", (name,)).fetchone():
                continue  # another process applied it while we waited for the lock
            for statement in filter(str.strip, sql.split(";")):
                db.execute(statement)
            db.execute("INSERT INTO migrations VALUES (?, ?)", (name, now()))


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any error (db opened with isolation_level=None)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException as exc:
        with suppress(sqlite3.Error):  # SQLite may have rolled back already (a full disk does)
            db.execute("ROLLBACK")
        if disk_full(exc):
            raise write_error(database_file(db), exc) from exc
        raise


def disk_full(exc: BaseException) -> bool:
    """SQLITE_FULL or SQLITE_IOERR: the disk (or its quota) is full, not a bug of ours."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and code is not None and code & 0xFF in (10, 13)


def database_file(db: sqlite3.Connection) -> str:
    return db.execute("PRAGMA database_list").fetchone()[2] or "the index database"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SQLiteStore:
    """All indexes in one SQLite file; each loaded index is searched in memory."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()
        self._loaded: dict[str, MatrixIndex] = {}
        self._lock = threading.Lock()
        self._connect()  # opens and migrates the file now, so a damaged file is reported at once

    @property
    def db(self) -> sqlite3.Connection:
        return self._connect()

    def _connect(self) -> sqlite3.Connection:
        """This thread's connection, opened (and the file migrated) on first use."""
        db = getattr(self._local, "db", None)
        if db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
                db.execute("PRAGMA journal_mode=WAL")
                migrate(db, MIGRATIONS)
            except sqlite3.DatabaseError as exc:
                if disk_full(exc):  # opening writes the journal: a full disk, not a bad file
                    raise write_error(self.path, exc) from exc
                raise StoreError(f"index file {self.path} is not a usable SQLite database ({exc}) — "
                                 f"delete it and run: pincite index NAME") from exc
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def identity(self, key: str) -> IndexIdentity | None:
        row = self._query("SELECT key, corpus_sha256, model, settings_hash FROM indexes WHERE key = ?", (key,))
        return IndexIdentity(*row[0]) if row else None

    def keys(self) -> list[str]:
        return [r[0] for r in self._query("SELECT key FROM indexes ORDER BY key", ())]

    def _query(self, sql: str, params: tuple) -> list[tuple]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"index file {self.path} is damaged ({exc}) — delete it and rebuild "
                             f"with: pincite index NAME") from exc

    def replace_index(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                      vectors: np.ndarray) -> None:
        check_replacement(identity, units, vectors)
        key = identity.key
        hashes = [text_hash(u.text) for u in units]
        with transaction(self.db) as db:
            for table in ("indexes", "provisions", "units", "edges"):
                db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
            db.executemany("INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(key, i, e.source, e.target, e.label, e.words, int(e.external), e.act)
                            for i, e in enumerate(edges_of(provisions))])
            db.executemany("INSERT INTO provisions VALUES (?, ?, ?, ?)",
                           [(key, i, p.id, p.to_json()) for i, p in enumerate(provisions)])
            db.executemany(
                "INSERT INTO units VALUES (?, ?, ?, ?, ?, ?)",
                [(key, i, u.provision_id, u.text, json.dumps(u.tokens, ensure_ascii=False), h)
                 for i, (u, h) in enumerate(zip(units, hashes, strict=True))])
            db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                [(identity.model, h, vectors[i].astype(np.float32).tobytes()) for i, h in enumerate(hashes)])
            db.execute("INSERT INTO indexes VALUES (?, ?, ?, ?, ?, ?)",
                       (key, identity.corpus_sha256, identity.model, identity.settings_hash,
                        int(vectors.shape[1]) if len(units) else 0, now()))
        with self._lock:
            self._loaded.pop(key, None)
        hint_if_large(len(units), int(vectors.shape[1]) if len(units) else 0)  # searching it will load it all

    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 500):
            chunk = hashes[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._query(f"SELECT text_sha256, vector FROM vectors WHERE model = ? AND text_sha256 IN ({marks})",
                               (model, *chunk))
            found.update({h: np.frombuffer(v, dtype=np.float32) for h, v in rows})
        return found

    def loaded(self, key: str) -> MatrixIndex:
        """The index in memory, loaded on first use and again when it has been replaced."""
        identity = self.identity(key)
        if identity is None:
            name, _, lang = key.partition("/")
            raise StoreError(f"no index for {key} — run: pincite index {name} --lang {lang}")
        with self._lock:
            cached = self._loaded.get(key)
            if cached is None or cached.identity != identity:
                cached = self._loaded[key] = self._load(identity)
                hint_if_large(sum(len(m.units) for m in self._loaded.values()), cached.vectors.shape[1])
            return cached

    def _load(self, identity: IndexIdentity) -> MatrixIndex:
        return MatrixIndex(identity, *self._contents(identity))

    def contents(self, key: str) -> tuple[IndexIdentity, list[Provision], list[Unit], np.ndarray]:
        """An index as it was written — what built it, its provisions, units and their vectors —
        read without loading it for search (no postings): what is copied into another store."""
        identity = self.identity(key)
        if identity is None:
            name, _, lang = key.partition("/")
            raise StoreError(f"no index for {key} in {self.path} — run: pincite index {name} --lang {lang}")
        provisions, units, vectors = self._contents(identity)
        ((written,),) = self._query("SELECT count(*) FROM units WHERE key = ?", (key,))
        if written != len(units):  # a unit whose vector is gone: the join drops it
            raise StoreError(f"index {key} in {self.path} lacks {written - len(units)} of its vectors — "
                             f"rebuild it with: pincite index {key.split('/')[0]} --rebuild")
        return identity, provisions, units, vectors

    def _contents(self, identity: IndexIdentity) -> tuple[list[Provision], list[Unit], np.ndarray]:
        provisions = [Provision.from_dict(json.loads(d)) for (d,) in
                      self._query("SELECT data FROM provisions WHERE key = ? ORDER BY ord", (identity.key,))]
        units, vectors = self._units(identity)
        return provisions, units, vectors

    def _units(self, identity: IndexIdentity) -> tuple[list[Unit], np.ndarray]:
        """The units and their vectors, read row by row into one matrix (at 100 000 units a
        fetched list of rows and a joined copy of the vectors doubled the peak), tokens interned
        (a few thousand distinct stems over millions of tokens)."""
        join = "FROM units u JOIN vectors v ON v.model = ? AND v.text_sha256 = u.text_sha256 WHERE u.key = ?"
        ((count, size),) = self._query(f"SELECT count(*), max(length(v.vector)) {join}", (identity.model, identity.key))
        if not count:
            raise StoreError(f"index {identity.key} in {self.path} is empty or damaged — rebuild with: "
                             f"pincite index {identity.key.split('/')[0]}")
        vectors = np.empty((count, size // 4), dtype=np.float32)
        units = []
        try:
            rows = self.db.execute(f"SELECT u.provision_id, u.text, u.tokens, v.vector {join} ORDER BY u.ord",
                                   (identity.model, identity.key))
            for i, (pid, text, tokens, vector) in enumerate(rows):
                vectors[i] = np.frombuffer(vector, dtype=np.float32)
                units.append(Unit(pid, text, [sys.intern(t) for t in json.loads(tokens)]))
        except (sqlite3.DatabaseError, ValueError, IndexError) as exc:
            raise StoreError(f"index file {self.path} is damaged ({exc}) — delete it and rebuild "
                             f"with: pincite index NAME") from exc
        return units, vectors[:len(units)]

    def provisions(self, key: str) -> list[Provision]:
        return self.loaded(key).provisions

    def units(self, key: str) -> list[Unit]:
        return self.loaded(key).units

    def edges(self, key: str) -> list[Edge]:
        rows = self._query("SELECT source, target, label, words, external, act FROM edges WHERE key = ? ORDER BY ord",
                           (key,))
        return [Edge(s, t, label, words, bool(x), act) for s, t, label, words, x, act in rows]

    def dense(self, key: str, vector: np.ndarray, k: int) -> Scored:
        return self.loaded(key).dense(vector, k)

    def keyword(self, key: str, terms: list[str], k: int) -> Scored:
        return self.loaded(key).keyword(terms, k)


def _open(url: str) -> SQLiteStore:
    return SQLiteStore(Path(url.removeprefix("sqlite:").removeprefix("//")))


register_store("sqlite", _open)
