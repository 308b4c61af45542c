"""The HTTP API and the web page (`pincite serve`): a thin adapter over the service layer.

    POST /ask              the answer (DESIGN.md §5), or server-sent events with Accept: text/event-stream
    GET  /search           hits for a query
    GET  /provisions/{id}  one provision, full text; GET /provisions?corpus=&label= by label
    GET  /corpora          corpora, languages, which are built
    GET  /health           liveness
    GET  /                 the chat page (src/pincite/web/)

What lives here is HTTP's own business: API keys, a per-client rate limit, a per-session question
cap, a body size limit, typed JSON errors, and an access log in which a client is a salted hash
of its address (never the address), pruned after `access_log_days`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Annotated

import anyio
import anyio.to_thread
from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import schemas, service
from .errors import PinciteError
from .settings import Settings, load_settings

log = logging.getLogger("pincite.http")
WEB = Path(__file__).with_name("web")
STATUS = {"unknown_corpus": 404, "unknown_language": 404, "unknown_provision": 404, "not_found": 404,
          "bad_label": 400, "bad_request": 400, "source_unavailable": 502, "store_unavailable": 503}
READ_THREADS = 2  # see Workers
ASK_THREADS = 4
KEEPALIVE_SECONDS = 10.0  # an SSE comment while the answer is being built (a first use builds an index)
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
}


class ApiError(Exception):
    """An HTTP error with a typed code and a message that says how to fix it."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def version() -> str:
    try:
        return metadata.version("pincite")
    except metadata.PackageNotFoundError:  # running from a source tree
        return "0"


# -- who is asking: keys, rate limit, question cap ----------------------------------------

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
        tmp.replace(path)
    return path.read_text(encoding="utf-8").strip()


class Guard:
    """Authentication, the per-client rate limit (a token bucket) and the per-session question cap.

    A client is its API key when it sends one, else its address. A session is the same client
    over `session_hours`: what the cap counts. State is in memory, for one server process.
    """

    def __init__(self, settings: Settings):
        self.salt = server_salt(settings).encode()
        self.keys = [k.strip() for k in settings.api_keys.split(",") if k.strip()]
        self.per_minute = settings.rate_limit_per_minute
        self.cap = settings.session_question_cap
        self.session_seconds = settings.session_hours * 3600
        self.buckets: dict[str, tuple[float, float]] = {}
        self.sessions: dict[str, tuple[float, int]] = {}

    def hashed(self, value: str) -> str:
        return hmac.new(self.salt, value.encode(), hashlib.sha256).hexdigest()[:16]

    def client(self, request: Request) -> str:
        key = _presented_key(request)
        if key is not None:
            return "key:" + self.hashed(key)
        return "ip:" + self.hashed(request.client.host if request.client else "unknown")

    async def check(self, request: Request) -> str:
        """Dependency of every API route: the client, once authenticated and within its rate."""
        if self.keys:
            key = _presented_key(request)
            if key is None or not any(hmac.compare_digest(key, k) for k in self.keys):
                raise ApiError(401, "unauthorized", "this server needs an API key — send it as "
                               "'Authorization: Bearer KEY' or 'X-API-Key: KEY'", {"WWW-Authenticate": "Bearer"})
        client = self.client(request)
        request.state.client = client
        wait = self._take(client, time.monotonic())
        if wait is not None:
            raise ApiError(429, "rate_limited", f"too many requests: at most {self.per_minute} a minute — "
                           f"retry in {wait:.0f} s", {"Retry-After": str(max(1, round(wait)))})
        return client

    def _take(self, client: str, now: float) -> float | None:
        if not self.per_minute:
            return None
        if len(self.buckets) > 100_000:
            self.buckets.clear()
        tokens, last = self.buckets.get(client, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - last) * self.per_minute / 60)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return (1 - tokens) * 60 / self.per_minute
        self.buckets[client] = (tokens - 1, now)
        return None

    def count_question(self, client: str) -> None:
        if not self.cap:
            return
        now = time.monotonic()
        started, n = self.sessions.get(client, (now, 0))
        if now - started > self.session_seconds:
            started, n = now, 0
        if n >= self.cap:
            hours = (self.session_seconds - (now - started)) / 3600
            raise ApiError(429, "question_cap", f"this session has asked {n} questions, the most one session "
                           f"may ask — try again in {hours:.1f} h", {"Retry-After": str(round(hours * 3600))})
        if len(self.sessions) > 100_000:
            self.sessions = {c: v for c, v in self.sessions.items() if now - v[0] <= self.session_seconds}
        self.sessions[client] = (started, n + 1)


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
        self.file = None

    def write(self, entry: dict) -> None:
        if not self.enabled:
            return
        with self.lock:
            today = datetime.now(UTC).strftime("%Y-%m-%d")
            if today != self.day:
                self._rotate(today)
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
        response = _error(413, "too_large", f"the request body is larger than {self.limit} bytes — "
                          f"send a shorter question")
        await response(scope, receive, send)


def _error(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


# -- the app ----------------------------------------------------------------------------------

UPLOAD_PATH = "/corpora/pdf"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app of `pincite serve`: API, page and static files over one Settings."""
    settings = settings or load_settings()
    guard, access = Guard(settings), AccessLog(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        access.close()

    app = FastAPI(title="pincite", version=version(), description=_DESCRIPTION, lifespan=lifespan,
                  responses={400: {"model": schemas.Error}, 404: {"model": schemas.Error},
                             429: {"model": schemas.Error}})
    app.state.settings, app.state.guard, app.state.access = settings, guard, access
    _add_handlers(app)
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes, uploads=settings.max_upload_bytes)
    app.add_middleware(AccessLogMiddleware, access=access, guard=guard)
    _add_api_routes(app, settings, guard)
    _add_page_routes(app)
    return app


_DESCRIPTION = ("Answers about legislation where every sentence carries a pinpoint citation checked in code, "
                "or a plain refusal with its reason. Errors are JSON: `{\"error\": code, \"message\": text}`.")


def _add_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return _error(exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(PinciteError)
    async def pincite_error(request: Request, exc: PinciteError):
        code = service.error_code(exc)
        return _error(STATUS.get(code, 500), code, str(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _invalid_request(exc.errors())

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            return _error(404, "not_found", f"no such endpoint: {request.method} {request.url.path} — "
                          f"see /openapi.json")
        if exc.status_code == 405:
            return _error(405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path} "
                          f"— see /openapi.json", exc.headers)
        return _error(exc.status_code, "http_error", str(exc.detail), exc.headers)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return _error(500, "internal_error", "the server failed unexpectedly — the error is in its log")


def _invalid_request(errors) -> JSONResponse:
    first = errors[0] if errors else {"type": "", "loc": (), "msg": "invalid request"}
    if first["type"] == "json_invalid":
        return _error(400, "invalid_json", 'the request body is not valid JSON — send e.g. '
                      '{"question": "…", "corpus": "gdpr"} with Content-Type: application/json')
    where = ".".join(str(p) for p in first["loc"] if p not in ("body", "query", "path"))
    if first["type"] == "model_attributes_type":
        return _error(400, "invalid_request", "the request body must be a JSON object, e.g. "
                      '{"question": "…", "corpus": "gdpr"}')
    return _error(422, "invalid_request", f"{where or 'request'}: {first['msg']}"
                  + (f" (got {len(first['input'])} characters)" if first["type"] == "string_too_long" else ""))


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


class Workers:
    """Worker threads for service calls, in two pools. Reads (search, provisions, corpora) are
    CPU-bound and hold the GIL: measured on two cores, one thread serves 368 cached searches a
    second, two 324, forty 233 — the rest is lost to threads waiting on each other and the event
    loop waiting on them. Two, so that one slow read (a corpus built on first use) does not stop
    the others. Answers also wait on SQLite (the ask log), so a few run at once."""

    def __init__(self, reads: int, answers: int):
        self.sizes = {"read": reads, "answer": answers}
        self.limiters: dict[str, anyio.CapacityLimiter] = {}

    async def run(self, pool: str, function, *args, **kwargs):
        if pool not in self.limiters:  # made inside the server's event loop, on first use
            self.limiters[pool] = anyio.CapacityLimiter(self.sizes[pool])
        return await anyio.to_thread.run_sync(partial(function, *args, **kwargs), limiter=self.limiters[pool])


def _add_api_routes(app: FastAPI, settings: Settings, guard: Guard) -> None:
    # Routes return JSONResponse: the service's document as it is, unfiltered and not validated
    # again; response_model documents it in the OpenAPI schema.
    checked = [Depends(guard.check)]
    workers = Workers(READ_THREADS, ASK_THREADS)

    @app.get("/health", response_model=schemas.Health, tags=["service"])
    async def health():
        """Liveness: the server answers; how answers are written; whether keys are needed."""
        return {"status": "ok", "version": version(), "answers": settings.llm or "extractive",
                "auth": bool(guard.keys)}

    @app.get("/corpora", response_model=schemas.Corpora, dependencies=checked, tags=["corpora"])
    async def corpora():
        """Corpora pincite knows, their languages, and which are built here (others build on first use)."""
        return JSONResponse({"corpora": await workers.run("read", service.list_corpora, settings)})

    @app.get("/search", response_model=schemas.SearchResults, dependencies=checked, tags=["corpora"])
    async def search(q: Annotated[str, Query(min_length=1, max_length=schemas.MAX_QUESTION, description="What to look for.")],
               corpus: Annotated[str, Query(pattern=schemas.CORPUS_NAME)] = "gdpr",
               lang: Annotated[str | None, Query(pattern=schemas.LANG_CODE)] = None,
               k: Annotated[int, Query(ge=1, le=50)] = 5,
               mode: Annotated[str | None, Query(pattern="^(hybrid|dense|bm25)$")] = None):
        """Provisions that best match a query; a provision the query names comes first."""
        return JSONResponse(await workers.run("read", service.search_document, q, settings, corpus=corpus, lang=lang, k=k, mode=mode))

    @app.get("/provisions", response_model=schemas.Provisions, dependencies=checked, tags=["corpora"])
    async def provisions_by_label(corpus: Annotated[str, Query(pattern=schemas.CORPUS_NAME)],
                            label: Annotated[str, Query(min_length=1, max_length=schemas.MAX_LABEL,
                                                        description="e.g. 'Article 33(1)' or 'Article 5'.")],
                            lang: Annotated[str | None, Query(pattern=schemas.LANG_CODE)] = None):
        """The provisions a label denotes: one paragraph, or every part of an article or annex."""
        return JSONResponse({"provisions": await workers.run("read", service.find_provision, corpus, label, settings, lang)})

    @app.get("/provisions/{provision_id:path}", response_model=schemas.Provision, dependencies=checked,
             tags=["corpora"])
    async def provision(provision_id: str):
        """One provision by id (`gdpr/en/art-33.par-1`): label, title, full text, link, version."""
        return JSONResponse(await workers.run("read", service.get_provision, provision_id, settings))

    @app.post(UPLOAD_PATH, status_code=201, dependencies=checked, tags=["corpora"])
    async def upload_pdf(request: Request,
                         filename: Annotated[str, Query(min_length=5, max_length=200, description="e.g. handbook.pdf")],
                         name: Annotated[str | None, Query(pattern=schemas.CORPUS_NAME)] = None,
                         lang: Annotated[str, Query(pattern=schemas.LANG_CODE)] = "en"):
        """Add a PDF (the request body, `application/pdf`) as a corpus, as `pincite corpus add-pdf` does:
        one provision per rule id for a rulebook, otherwise one per page, cited `file, p. N`."""
        data = await request.body()
        return JSONResponse(await workers.run("answer", service.upload_pdf, filename, data, settings,
                                              name=name, lang=lang), status_code=201)

    @app.post("/ask", response_model=schemas.Answer, tags=["answers"],
              responses={200: {"content": {"text/event-stream": {}},
                               "description": "The answer; with `Accept: text/event-stream`, events `start`, "
                                              "`sentence`…, `citation`…, or `refusal`, then `done` (the answer)."}})
    async def ask(body: schemas.AskRequest, request: Request, client: str = Depends(guard.check)):  # noqa: B008
        """Answer with a pinpoint citation on every sentence, or refuse with a reason (DESIGN.md §5)."""
        service.corpus_entry(body.corpus, settings)  # an unknown corpus is a 404, not a counted question
        guard.count_question(client)
        run = partial(workers.run, "answer", service.ask, body.question, settings, corpus=body.corpus,
                      lang=body.lang, thread=body.thread)
        if "text/event-stream" in request.headers.get("accept", ""):
            return StreamingResponse(_answer_stream(run, body), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        return JSONResponse(await run())


def _add_page_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(WEB / "index.html", headers={**PAGE_HEADERS, "Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")


# -- server-sent events ----------------------------------------------------------------------

def answer_events(document: dict) -> list[tuple[str, dict]]:
    """The answer as a sequence of events: it is verified whole before any of it is sent, so a
    stream never shows a sentence that a check would then withdraw."""
    if document["outcome"] == "answered":
        events = [("sentence", {"index": i, **s}) for i, s in enumerate(document["sentences"])]
        events += [("citation", c) for c in document["citations"]]
    else:
        events = [("refusal", {"reason": document["reason"], "answer": document["answer"],
                               "covers": document.get("covers")})]
    return [*events, ("done", document)]


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _answer_stream(run, body: schemas.AskRequest) -> AsyncIterator[str]:
    yield sse("start", {"question": body.question, "corpus": body.corpus, "lang": body.lang, "thread": body.thread})
    job = asyncio.ensure_future(run())
    while True:
        try:
            document = await asyncio.wait_for(asyncio.shield(job), KEEPALIVE_SECONDS)
            break
        except TimeoutError:
            yield ": still working\n\n"
        except PinciteError as exc:
            yield sse("error", {"error": service.error_code(exc), "message": str(exc)})
            return
        except Exception:
            log.exception("answer failed")
            yield sse("error", {"error": "internal_error", "message": "the server failed unexpectedly"})
            return
    for event, data in answer_events(document):
        yield sse(event, data)


# -- running it ------------------------------------------------------------------------------

def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port), so the caller knows the port before serving."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def server(app, sock: socket.socket, log_level: str = "warning"):
    """A uvicorn server for `app`; its own access log is off (it would print client addresses)."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    config = uvicorn.Config(app, host=host, port=port, access_log=False, log_level=log_level, ws="none",
                            timeout_graceful_shutdown=5, limit_concurrency=1000)
    return uvicorn.Server(config)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000) -> None:
    sock = bind(host, port)
    print(f"pincite: serving the API and the page on {url_of(sock)}/ (OpenAPI at /openapi.json) — "
          f"Ctrl-C stops", file=sys.stderr, flush=True)
    server(create_app(settings), sock, log_level="info").run(sockets=[sock])
