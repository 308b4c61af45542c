"""What HTTP adds in front of the service: API keys, a per-client rate limit, a per-session
question cap, a body size limit, and an access log in which a client is a salted hash of its
address (never the address), pruned after `access_log_days`."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

import anyio
import anyio.to_thread
from fastapi import Request
from fastapi.responses import JSONResponse

from pincite.service.limits import Limits
from pincite.settings import Settings
from pincite.surfaces.http.keys import UNAUTHORIZED, key_accepted

UPLOAD_PATH = "/corpora/pdf"


class ApiError(Exception):
    """An HTTP error with a typed code and a message that says how to fix it."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


def server_salt(settings: Settings) -> str:
    """The salt of client hashes: the setting, or a random one kept under the data directory."""
    if settings.log_salt:
        return settings.log_salt
    path = Path(settings.home) / "server-salt"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".server-salt.{secrets.token_hex(4)}")
        tmp.write_text(secrets.token_hex(16), encoding="utf-8")
        tmp.chmod(0o600)
        try:
            # A link, not a rename: of workers starting together, the first salt stays and every
            # worker reads that one (one client, one hash, one rate limit across them).
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    return path.read_text(encoding="utf-8").strip()


class Guard:
    """Authentication, the per-client rate limit (a token bucket) and the per-session question cap.

    A client is its API key when it sends one, else its address. A session is the same client
    over `session_hours`: what the cap counts. The counts are kept in the state database
    (service.limits), so they hold across the workers of `serve --workers N`.
    """

    def __init__(self, settings: Settings):
        self.salt = server_salt(settings).encode()
        self.keys = [k.strip() for k in settings.api_keys.split(",") if k.strip()]
        self.per_minute = settings.rate_limit_per_minute
        self.limits = Limits(settings)

    def hashed(self, value: str) -> str:
        return hmac.new(self.salt, value.encode(), hashlib.sha256).hexdigest()[:16]

    def client(self, request: Request) -> str:
        return self.client_of(_presented_key(request), request.client.host if request.client else None)

    def client_of(self, key: str | None, host: str | None) -> str:
        if key is not None:
            return "key:" + self.hashed(key)
        return "ip:" + self.hashed(host or "unknown")

    async def check(self, request: Request) -> str:
        """Dependency of every API route: the client, once authenticated and within its rate."""
        if self.keys:
            key = _presented_key(request)
            if not key_accepted(key, self.keys):  # bytes: a non-ASCII key is refused, not a crash
                raise ApiError(401, "unauthorized", UNAUTHORIZED, {"WWW-Authenticate": "Bearer"})
        client = self.client(request)
        request.state.client = client
        wait = await self.wait(client)
        if wait is not None:
            raise ApiError(429, "rate_limited", *rate_limited(self.per_minute, wait))
        return client

    async def wait(self, client: str) -> float | None:
        """None when `client` may make a request now, else the seconds to wait (the database
        call runs off the event loop)."""
        if not self.per_minute:
            return None
        return await anyio.to_thread.run_sync(self.limits.take, client)

    async def count_question(self, client: str) -> None:
        capped = await anyio.to_thread.run_sync(self.limits.count_question, client)
        if capped is not None:
            hours = capped.retry_seconds / 3600
            raise ApiError(429, "question_cap", f"this session has asked {capped.asked} questions, the most one "
                           f"session may ask — try again in {hours:.1f} h",
                           {"Retry-After": str(round(capped.retry_seconds))})


def rate_limited(per_minute: int, wait: float) -> tuple[str, dict]:
    """The message and headers of a 429 for a rate limit."""
    return (f"too many requests: at most {per_minute} a minute — retry in {wait:.0f} s",
            {"Retry-After": str(max(1, round(wait)))})


class RateLimit:
    """The same per-client rate limit in front of any ASGI app (the MCP server's HTTP transport),
    clients counted as the API counts them (pure ASGI)."""

    def __init__(self, app, guard: Guard):
        self.app, self.guard = app, guard

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        wait = await self.guard.wait(self.guard.client(Request(scope)))
        if wait is None:
            return await self.app(scope, receive, send)
        message, headers = rate_limited(self.guard.per_minute, wait)
        await error_response(429, "rate_limited", message, headers)(scope, receive, send)


def _presented_key(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip()
    return request.headers.get("x-api-key") or None


# -- the access log: one JSON line per request, a file per day, pruned ----------------------

class AccessLog:
    def __init__(self, settings: Settings):
        self.enabled = settings.access_log
        self.folder = Path(settings.home) / "logs"
        self.days = settings.access_log_days
        self.lock = threading.Lock()
        self.day = ""
        self.file: TextIO | None = None

    def write(self, entry: dict) -> None:
        if not self.enabled:
            return
        with self.lock:
            today = datetime.now(UTC).strftime("%Y-%m-%d")
            if today != self.day:
                self._rotate(today)
            assert self.file is not None  # the first write of a day opened its file
            self.file.write(json.dumps(entry, ensure_ascii=False) + "\n")
            self.file.flush()

    def _rotate(self, today: str) -> None:
        if self.file is not None:
            self.file.close()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.prune()
        self.day = today
        self.file = (self.folder / f"access-{today}.jsonl").open("a", encoding="utf-8")

    def prune(self) -> list[Path]:
        """Delete the day files older than the retention period; the files deleted."""
        cutoff = (datetime.now(UTC) - timedelta(days=self.days)).strftime("%Y-%m-%d")
        old = [p for p in self.folder.glob("access-*.jsonl") if p.stem.removeprefix("access-") < cutoff]
        for path in old:
            path.unlink(missing_ok=True)
        return old

    def close(self) -> None:
        with self.lock:
            if self.file is not None:
                self.file.close()
                self.file, self.day = None, ""


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, declared or streamed (pure ASGI)."""

    def __init__(self, app, limit: int, uploads: int | None = None):
        self.app, self.limit, self.uploads = app, limit, uploads or limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            return await self.app(scope, receive, send)
        # A PDF upload is larger than any question; it has its own limit.
        limit = self.uploads if scope.get("path") == UPLOAD_PATH else self.limit
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            return await self._too_large(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                return await self._too_large(scope, receive, send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _too_large(self, scope, receive, send):
        response = error_response(413, "too_large", f"the request body is larger than {self.limit} bytes — "
                          f"send a shorter question")
        await response(scope, receive, send)


def _error(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


class AccessLogMiddleware:
    """One access-log line per request, the client as its hash (pure ASGI: no per-request task)."""

    def __init__(self, app, access: AccessLog, guard: Guard):
        self.app, self.access, self.guard = app, access, guard

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.access.enabled:
            return await self.app(scope, receive, send)
        started, status = time.perf_counter(), 500

        async def sending(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            # The path only: a query string can hold what a user typed.
            self.access.write({"at": datetime.now(UTC).isoformat(timespec="seconds"),
                               "client": self.guard.client(Request(scope)), "method": scope["method"],
                               "path": scope["path"], "status": status,
                               "ms": round((time.perf_counter() - started) * 1000, 1)})
