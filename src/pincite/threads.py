"""Conversation threads: the turns of a conversation, kept so follow-ups work across invocations.

Stored in the ask-log database under the data directory (asklog.py). A thread is named by a
short id the CLI prints (`--thread ID` continues it); asking with an id that does not exist yet
starts a thread of that name. Threads idle for longer than `ask_log_days` are pruned.
"""

from __future__ import annotations

import re
import secrets

from .asklog import connect, now
from .errors import ConfigError

THREAD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
HISTORY_TURNS = 6  # turns handed to the rewrite step: enough context, bounded prompt


def check_id(thread: str) -> str:
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
                          "ORDER BY n DESC LIMIT ?", (check_id(thread), HISTORY_TURNS)).fetchall()
    finally:
        db.close()
    return [{"question": q, "rewritten": r, "answer": a, "outcome": o} for q, r, a, o in reversed(rows)]


def add_turn(settings, thread: str | None, *, corpus: str, lang: str, question: str,
             rewritten: str | None, answer: str, outcome: str) -> str:
    """Append a turn, starting the thread when needed; the thread's id."""
    # 128 random bits: a public deployment must not let one visitor guess another's thread.
    thread = check_id(thread) if thread else secrets.token_hex(16)
    stamp = now()
    db = connect(settings)
    try:
        with db:
            db.execute("INSERT INTO threads (id, corpus, lang, created_at, updated_at) VALUES (?,?,?,?,?) "
                       "ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at",
                       (thread, corpus, lang, stamp, stamp))
            (n,) = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM turns WHERE thread_id = ?", (thread,)).fetchone()
            db.execute("INSERT INTO turns VALUES (?,?,?,?,?,?,?)",
                       (thread, n, question, rewritten, answer, outcome, stamp))
    finally:
        db.close()
    return thread
