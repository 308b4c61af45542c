"""Where indexes live. One small interface; the embedded default is a single SQLite file.

An index is identified by a key ("gdpr/en") and records what built it (corpus sha256, model,
settings hash). Replacing an index is one transaction, so a crash leaves the old one intact.
A PostgreSQL + pgvector store implements the same `Store` protocol.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

import numpy as np

from .errors import StoreError
from .provisions import Provision


@dataclass(frozen=True)
class IndexIdentity:
    key: str  # "gdpr/en"
    corpus_sha256: str  # sha256 of the corpus JSONL the index was built from
    model: str
    settings_hash: str


@dataclass(frozen=True)
class Unit:
    """One entry of the index: a provision, or a part of a long one, as embedded and searched."""

    provision_id: str
    text: str  # what is embedded
    tokens: list[str]  # what BM25 sees


@dataclass
class LoadedIndex:
    identity: IndexIdentity
    provisions: list[Provision]
    units: list[Unit]
    vectors: np.ndarray  # (len(units), dim), L2-normalised


class Store(Protocol):
    def identity(self, key: str) -> IndexIdentity | None: ...
    def replace_index(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                      vectors: np.ndarray) -> None: ...
    def load_index(self, key: str) -> LoadedIndex: ...
    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]: ...
    def keys(self) -> list[str]: ...


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
]


class SQLiteStore:
    """All indexes in one SQLite file; vectors are searched in-process after loading."""

    def __init__(self, path: Path):
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"index file {path} is not a usable SQLite database ({exc}) — "
                             f"delete it and run: pincite index NAME") from exc

    def _migrate(self) -> None:
        self.db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
        done = {row[0] for row in self.db.execute("SELECT name FROM migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            with self._transaction():
                for statement in filter(str.strip, sql.split(";")):
                    self.db.execute(statement)
                self.db.execute("INSERT INTO migrations VALUES (?, ?)", (name, _now()))

    def _transaction(self):
        return _Transaction(self.db)

    def close(self) -> None:
        self.db.close()

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
        key = identity.key
        hashes = [text_hash(u.text) for u in units]
        with self._transaction():
            for table in ("indexes", "provisions", "units"):
                self.db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
            self.db.executemany("INSERT INTO provisions VALUES (?, ?, ?, ?)",
                                [(key, i, p.id, p.to_json()) for i, p in enumerate(provisions)])
            self.db.executemany(
                "INSERT INTO units VALUES (?, ?, ?, ?, ?, ?)",
                [(key, i, u.provision_id, u.text, json.dumps(u.tokens, ensure_ascii=False), h)
                 for i, (u, h) in enumerate(zip(units, hashes, strict=True))])
            self.db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                [(identity.model, h, vectors[i].astype(np.float32).tobytes()) for i, h in enumerate(hashes)])
            self.db.execute("INSERT INTO indexes VALUES (?, ?, ?, ?, ?, ?)",
                            (key, identity.corpus_sha256, identity.model, identity.settings_hash,
                             int(vectors.shape[1]) if len(units) else 0, _now()))

    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 500):
            chunk = hashes[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._query(f"SELECT text_sha256, vector FROM vectors WHERE model = ? AND text_sha256 IN ({marks})",
                               (model, *chunk))
            found.update({h: np.frombuffer(v, dtype=np.float32) for h, v in rows})
        return found

    def load_index(self, key: str) -> LoadedIndex:
        identity = self.identity(key)
        if identity is None:
            raise StoreError(f"no index for {key} — run: pincite index {key.split('/')[0]} --lang {key.split('/')[-1]}")
        provisions = [Provision.from_dict(json.loads(d)) for (d,) in
                      self._query("SELECT data FROM provisions WHERE key = ? ORDER BY ord", (key,))]
        rows = self._query(
            "SELECT u.provision_id, u.text, u.tokens, v.vector FROM units u JOIN vectors v "
            "ON v.model = ? AND v.text_sha256 = u.text_sha256 WHERE u.key = ? ORDER BY u.ord",
            (identity.model, key))
        units = [Unit(pid, text, json.loads(tokens)) for pid, text, tokens, _ in rows]
        if not rows:
            raise StoreError(f"index {key} in {self.path} is empty or damaged — rebuild with: pincite index {key.split('/')[0]}")
        vectors = np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        return LoadedIndex(identity, provisions, units, vectors)


class _Transaction:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("ROLLBACK" if exc_type else "COMMIT")
        return False


def text_hash(text: str) -> str:
    """What identifies an embedded text in the vector cache."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
