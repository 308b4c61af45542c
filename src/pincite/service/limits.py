"""Rate limits and question caps kept in the state database (index.store.state), not in one
process's memory: every worker of `pincite serve --workers N`, and the MCP server's HTTP
transport, draw on the same rows. PostgreSQL when `PINCITE_DATABASE_URL` is set, otherwise the
SQLite history file.

A client (an API key or an address, already hashed by the caller) has a token bucket of
`per_minute` tokens refilled continuously, and a session of `session_seconds` in which it may
ask `cap` questions. Times are wall-clock seconds: processes share no monotonic clock.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from pincite.index.store.state import state_for
from pincite.service.history import MIGRATIONS

PRUNE_EVERY = 500  # checks between deletions of idle rows (a full bucket is the same as no row)


@dataclass(frozen=True)
class Capped:
    asked: int
    retry_seconds: float


class Limits:
    def __init__(self, settings):
        self.settings = settings
        self.per_minute = settings.rate_limit_per_minute
        self.cap = settings.session_question_cap
        self.session_seconds = settings.session_hours * 3600
        self._checks = itertools.count(1)

    def _lock(self, state) -> str:
        # BEGIN IMMEDIATE already serialises SQLite writers; PostgreSQL locks the one row.
        return " FOR UPDATE" if state.engine == "postgresql" else ""

    def take(self, client: str, now: float | None = None) -> float | None:
        """Take one token for `client`: None when allowed, else the seconds until one is free."""
        if not self.per_minute:
            return None
        now, rate = time.time() if now is None else now, self.per_minute / 60
        state = state_for(self.settings, MIGRATIONS)
        with state.transaction() as db:
            if next(self._checks) % PRUNE_EVERY == 0:
                db.execute("DELETE FROM rate_buckets WHERE at < ?", (now - 120,))
            db.execute("INSERT INTO rate_buckets (client, tokens, at) VALUES (?, ?, ?) ON CONFLICT(client) "
                       "DO NOTHING", (client, float(self.per_minute), now))
            tokens, last = db.execute(f"SELECT tokens, at FROM rate_buckets WHERE client = ?{self._lock(state)}",
                                      (client,)).fetchone()
            tokens = min(float(self.per_minute), tokens + max(0.0, now - last) * rate)
            wait = None if tokens >= 1 else (1 - tokens) / rate
            db.execute("UPDATE rate_buckets SET tokens = ?, at = ? WHERE client = ?",
                       (tokens if wait is not None else tokens - 1, now, client))
        return wait

    def count_question(self, client: str, now: float | None = None) -> Capped | None:
        """Count one question for `client`'s session: None when allowed, else how many it asked."""
        if not self.cap:
            return None
        now = time.time() if now is None else now
        state = state_for(self.settings, MIGRATIONS)
        with state.transaction() as db:
            if next(self._checks) % PRUNE_EVERY == 0:
                db.execute("DELETE FROM question_sessions WHERE started < ?", (now - self.session_seconds,))
            db.execute("INSERT INTO question_sessions (client, started, n) VALUES (?, ?, 0) ON CONFLICT(client) "
                       "DO NOTHING", (client, now))
            started, asked = db.execute(f"SELECT started, n FROM question_sessions WHERE client = ?"
                                        f"{self._lock(state)}", (client,)).fetchone()
            if now - started > self.session_seconds:
                started, asked = now, 0
            if asked >= self.cap:
                return Capped(asked, self.session_seconds - (now - started))
            db.execute("UPDATE question_sessions SET started = ?, n = ? WHERE client = ?", (started, asked + 1, client))
        return None
