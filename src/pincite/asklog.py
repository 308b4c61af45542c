"""The ask log: every answer and refusal, kept locally for a retention period, then pruned.

One SQLite file under the data directory (`asks.sqlite`) holds the log and the conversation
threads (threads.py). Schema changes are append-only named migrations, recorded in a table.
A row holds what is needed to audit an answer: the question, the question as searched, the
retrieved provision ids with scores, outcome, reason, model, tokens, cost and latency.
Rows older than `ask_log_days` are pruned on every write; `ask_log = false` writes none.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .errors import StoreError

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


def log_path(settings) -> Path:
    return Path(settings.home) / "asks.sqlite"


def connect(settings) -> sqlite3.Connection:
    """The log database, created and migrated on first use."""
    path = log_path(settings)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path, timeout=10)
        db.execute("PRAGMA foreign_keys = ON")
        _migrate(db)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the ask log {path} ({exc}) — check PINCITE_HOME is writable") from exc
    return db


def _migrate(db: sqlite3.Connection) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    for name, sql in MIGRATIONS:
        if name not in done:
            with db:
                db.executescript(f"BEGIN; {sql} INSERT INTO migrations VALUES ('{name}', '{now()}'); COMMIT;")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def prune(db: sqlite3.Connection, days: int) -> int:
    """Delete log rows and idle threads older than `days`; the number of log rows deleted."""
    cutoff = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="seconds")
    with db:
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
        prune(db, settings.ask_log_days)
        with db:
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
