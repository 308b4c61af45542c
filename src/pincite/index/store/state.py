"""Where the small state lives beside the indexes: the ask log, threads, rate limits and question
caps (and, on PostgreSQL, the catalog of added instruments).

Unset `PINCITE_DATABASE_URL`: the SQLite file `<home>/asks.sqlite`, opened per use. Set: the same
PostgreSQL database as the indexes, through one small connection pool per process (a server
worker forked after start makes its own), so nothing of it is written under the data directory
and every worker process sees the same rows. SQL is written once with `?` placeholders (both
engines accept `ON CONFLICT … DO UPDATE` and `RETURNING`); the PostgreSQL state turns them into `%s`.
Each engine has its own append-only migrations, run once (on PostgreSQL under the store's
advisory lock, so concurrent first starts are safe).
"""

from __future__ import annotations

import atexit
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Protocol

from pincite.errors import StoreError
from pincite.index.store import store_url
from pincite.index.store.sqlite import disk_full
from pincite.index.store.sqlite import migrate as migrate_sqlite
from pincite.index.store.sqlite import transaction as sqlite_transaction
from pincite.sources.files import write_error


class Database(Protocol):
    def execute(self, sql: str, params: tuple = ()): ...


class State(Protocol):
    """The state database: `with state.transaction() as db: db.execute(sql, params)`."""

    engine: str  # "sqlite" or "postgresql"

    def transaction(self) -> AbstractContextManager[Database]: ...


class SqliteState:
    engine = "sqlite"

    def __init__(self, path: Path, migrations: list[tuple[str, str]]):
        self.path, self.migrations = Path(path), migrations

    def connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.execute("PRAGMA foreign_keys = ON")
            # Every request of every server worker checks its rate here: WAL lets readers run
            # beside the one writer, and a commit need not wait for the disk.
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            migrate_sqlite(db, self.migrations)
        except sqlite3.Error as exc:
            if disk_full(exc):  # opening writes the journal: a full disk, not a bad file
                raise write_error(self.path, exc) from exc
            raise StoreError(f"cannot open {self.path} ({exc}) — check PINCITE_HOME is writable") from exc
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: writers from other processes wait their turn)."""
        db = self.connect()
        try:
            with sqlite_transaction(db):
                yield db
        finally:
            db.close()


class _Placeholders:
    """A psycopg connection that takes `?` placeholders."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql: str, params: tuple = ()):
        return self.db.execute(sql.replace("?", "%s"), params)


class PostgresState:
    engine = "postgresql"

    def __init__(self, url: str, migrations: list[tuple[str, str]]):
        # psycopg loads only when a database is configured (SQLite users need none of it).
        from pincite.index.store import postgres  # lazy: psycopg is an optional extra

        self.postgres, self.url, self.where = postgres, url, postgres.describe(url)
        with self._errors("set up"), postgres.psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
            postgres.migrate(db, migrations)
        self.pool = postgres.ConnectionPool(url, min_size=1, max_size=4, kwargs={"autocommit": True},
                                            open=False, name="pincite-state")
        with self._errors("connect to"):
            self.pool.open(wait=True, timeout=30)

    @contextmanager
    def _errors(self, doing: str):
        try:
            yield
        except self.postgres.psycopg.Error as exc:
            text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            password = self.postgres.urlsplit(self.url).password
            text = text.replace(password, "***") if password else text
            raise StoreError(f"could not {doing} {self.where} ({text}) — check PINCITE_DATABASE_URL and that "
                             f"the server is running") from exc
        except TimeoutError as exc:
            raise StoreError(f"could not {doing} {self.where} (timed out) — check PINCITE_DATABASE_URL and "
                             f"that the server is running") from exc

    @contextmanager
    def transaction(self) -> Iterator[_Placeholders]:
        with self._errors("query"), self.pool.connection() as db, db.transaction():
            yield _Placeholders(db)

    def close(self) -> None:
        self.pool.close()


# The state tables on PostgreSQL, all in one list (one pool serves them all). Named apart from the
# store's migrations, with which they share the `migrations` table.
POSTGRES_MIGRATIONS = [
    ("state_001_history", """
        CREATE TABLE threads (id text PRIMARY KEY, corpus text NOT NULL, lang text NOT NULL,
            created_at text NOT NULL, updated_at text NOT NULL);
        CREATE TABLE turns (thread_id text NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
            n integer NOT NULL, question text NOT NULL, rewritten text, answer text, outcome text NOT NULL,
            created_at text NOT NULL, PRIMARY KEY (thread_id, n));
        CREATE TABLE asks (id bigserial PRIMARY KEY, at text NOT NULL, thread_id text,
            corpus text NOT NULL, lang text NOT NULL, question text NOT NULL, rewritten text,
            retrieved text NOT NULL, outcome text NOT NULL, reason text, mode text NOT NULL, model text,
            tokens_in integer, tokens_out integer, cost_usd double precision, latency_ms double precision);
        CREATE INDEX asks_at ON asks(at);
    """),
    ("state_002_catalog", """
        CREATE TABLE catalog (name text PRIMARY KEY, entry text NOT NULL);
    """),
    ("state_003_limits", """
        CREATE TABLE rate_buckets (client text PRIMARY KEY, tokens double precision NOT NULL,
            at double precision NOT NULL);
        CREATE TABLE question_sessions (client text PRIMARY KEY, started double precision NOT NULL,
            n integer NOT NULL);
    """),
]

_OPEN: dict[tuple[int, str], PostgresState] = {}
_OPEN_LOCK = threading.Lock()


def state_for(settings, sqlite_migrations: list[tuple[str, str]]) -> State:
    """The state database of these settings: PostgreSQL when PINCITE_DATABASE_URL is set, else
    `<home>/asks.sqlite` (migrated with `sqlite_migrations`). One PostgreSQL state per process and database, kept while the process
    lives: every ask, thread and rate-limit check would otherwise pay a new connection."""
    url = store_url(settings)
    if url.startswith("sqlite:"):
        return SqliteState(Path(settings.home) / "asks.sqlite", sqlite_migrations)
    key = (os.getpid(), url)
    with _OPEN_LOCK:
        if key not in _OPEN:
            _OPEN[key] = PostgresState(url, POSTGRES_MIGRATIONS)
        return _OPEN[key]


@atexit.register
def close_all() -> None:
    """Close this process's pools (tests call it between databases)."""
    with _OPEN_LOCK:
        mine = [k for k in _OPEN if k[0] == os.getpid()]
        for key in mine:
            _OPEN.pop(key).close()
