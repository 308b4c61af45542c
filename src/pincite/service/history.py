"""History: the ask log and conversation threads, in one SQLite file under the data directory.

`asks.sqlite` holds every answer and refusal (question, the question as searched, retrieved
provision ids with scores, outcome, reason, model, tokens, cost, latency), kept for a
retention period and pruned on every write (`ask_log = false` writes none), and the turns of
conversation threads, so follow-ups work across invocations. Schema changes are append-only
named migrations, run by the same runner as the index store's.
"""

from __future__ import annotations

import json
import re
import secrets
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pincite.errors import ConfigError, StoreError
from pincite.index.store.sqlite import migrate, now, transaction

MIGRATIONS = [
    ("001_threads", """
        CREATE TABLE threads (id TEXT PRIMARY KEY, corpus TEXT NOT NULL, lang TEXT NOT NULL,
            created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
        CREATE TABLE turns (thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
            n INTEGER NOT NULL, question TEXT NOT NULL, rewritten TEXT, answer TEXT, outcome TEXT NOT NULL,
            created_at TEXT NOT NULL, PRIMARY KEY (thread_id, n));
    """),
    ("002_asks", """
        CREATE TABLE asks (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, thread_id TEXT,
            corpus TEXT NOT NULL, lang TEXT NOT NULL, question TEXT NOT NULL, rewritten TEXT,
            retrieved TEXT NOT NULL, outcome TEXT NOT NULL, reason TEXT, mode TEXT NOT NULL, model TEXT,
            tokens_in INTEGER, tokens_out INTEGER, cost_usd REAL, latency_ms REAL);
        CREATE INDEX asks_at ON asks(at);
    """),
]
THREAD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
HISTORY_TURNS = 6  # turns handed to the rewrite step: enough context, bounded prompt


def log_path(settings) -> Path:
    return Path(settings.home) / "asks.sqlite"


def connect(settings) -> sqlite3.Connection:
    """The history database, created and migrated on first use."""
    path = log_path(settings)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=10, isolation_level=None)
        db.execute("PRAGMA foreign_keys = ON")
        migrate(db, MIGRATIONS)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the ask log {path} ({exc}) — check PINCITE_HOME is writable") from exc
    return db


def prune(db: sqlite3.Connection, days: int) -> int:
    """Delete log rows and idle threads older than `days`; the number of log rows deleted."""
    cutoff = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    deleted = db.execute("DELETE FROM asks WHERE at < ?", (cutoff,)).rowcount
    db.execute("DELETE FROM threads WHERE updated_at < ?", (cutoff,))
    return deleted


def record(settings, answer, *, corpus: str, lang: str, thread: str | None) -> None:
    """Log one answer or refusal (and prune), unless logging is turned off."""
    if not settings.ask_log:
        return
    usage = answer.usage
    retrieved = [{"id": h.provision.id, "score": _number(h.score)} for h in answer.hits[:10]]
    db = connect(settings)
    try:
        with transaction(db):
            prune(db, settings.ask_log_days)
            db.execute(
                "INSERT INTO asks (at, thread_id, corpus, lang, question, rewritten, retrieved, outcome, reason,"
                " mode, model, tokens_in, tokens_out, cost_usd, latency_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (now(), thread, corpus, lang, answer.question, answer.rewritten, json.dumps(retrieved),
                 answer.outcome, answer.reason, answer.mode, usage.model if usage else None,
                 usage.tokens_in if usage else None, usage.tokens_out if usage else None,
                 usage.cost_usd if usage else None, answer.latency_ms))
    finally:
        db.close()


def _number(score: float):
    """Exact-lookup hits score infinity, which JSON cannot hold."""
    return "exact" if score == float("inf") else round(float(score), 4)


def recent(settings, limit: int = 20) -> list[dict]:
    """The latest log rows, newest first."""
    db = connect(settings)
    try:
        db.row_factory = sqlite3.Row
        rows = db.execute("SELECT * FROM asks ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [{**dict(r), "retrieved": json.loads(r["retrieved"])} for r in rows]
    finally:
        db.close()


# -- conversation threads ------------------------------------------------------------------

def check_thread_id(thread: str) -> str:
    if not THREAD_ID.match(thread):
        raise ConfigError(f"thread id {thread!r} is not valid — use letters, digits, '-', '_' or '.', "
                          f"as printed by pincite ask")
    return thread


def history(settings, thread: str | None) -> list[dict]:
    """The thread's earlier turns, oldest first: question, rewritten question, answer, outcome."""
    if not thread:
        return []
    db = connect(settings)
    try:
        rows = db.execute("SELECT question, rewritten, answer, outcome FROM turns WHERE thread_id = ? "
                          "ORDER BY n DESC LIMIT ?", (check_thread_id(thread), HISTORY_TURNS)).fetchall()
    finally:
        db.close()
    return [{"question": q, "rewritten": r, "answer": a, "outcome": o} for q, r, a, o in reversed(rows)]


def add_turn(settings, thread: str | None, *, corpus: str, lang: str, question: str,
             rewritten: str | None, answer: str, outcome: str) -> str:
    """Append a turn, starting the thread when needed (asking with an id that does not exist
    yet starts a thread of that name); the thread's id."""
    # 128 random bits: a public deployment must not let one visitor guess another's thread.
    thread = check_thread_id(thread) if thread else secrets.token_hex(16)
    stamp = now()
    db = connect(settings)
    try:
        with transaction(db):
            db.execute("INSERT INTO threads (id, corpus, lang, created_at, updated_at) VALUES (?,?,?,?,?) "
                       "ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at",
                       (thread, corpus, lang, stamp, stamp))
            (n,) = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM turns WHERE thread_id = ?",
                              (thread,)).fetchone()
            db.execute("INSERT INTO turns VALUES (?,?,?,?,?,?,?)",
                       (thread, n, question, rewritten, answer, outcome, stamp))
    finally:
        db.close()
    return thread
