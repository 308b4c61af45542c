"""The HTTP API and the web page (`pincite serve`): a thin adapter over the service layer.

    POST /ask              the answer, or server-sent events with Accept: text/event-stream
    GET  /search           hits for a query
    GET  /provisions/{id}  one provision, full text; GET /provisions?corpus=&label= by label
    GET  /provisions/{id}/references  what it cites and what cites it
    GET  /corpora          corpora, languages, which are built
    GET  /health           liveness
    GET  /                 the chat page (src/pincite/web/)

What lives here is HTTP's own business: API keys, a per-client rate limit, a per-session question
cap, a body size limit, typed JSON errors, and an access log in which a client is a salted hash
of its address (never the address), pruned after `access_log_days`.
"""

from __future__ import annotations

import logging
import socket
import sys
from contextlib import asynccontextmanager
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

from pincite.errors import PinciteError
from pincite.service import Pincite
from pincite.settings import Settings, load_settings
from pincite.surfaces import schemas
from pincite.surfaces.http.guard import (
    UPLOAD_PATH,
    AccessLog,
    AccessLogMiddleware,
    ApiError,
    BodyLimit,
    Guard,
    error_response,
)
from pincite.surfaces.http.prefork import run_workers
from pincite.surfaces.http.sse import answer_stream
from pincite.surfaces.redact import public_message

log = logging.getLogger("pincite.http")
WEB = Path(__file__).resolve().parents[1] / "web"
READ_THREADS = 2  # see Workers
ASK_THREADS = 4
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
}


def version() -> str:
    try:
        return metadata.version("pincite")
    except metadata.PackageNotFoundError:  # running from a source tree
        return "0"


# -- the app ----------------------------------------------------------------------------------

def create_app(settings: Settings | None = None, *, service: Pincite | None = None) -> FastAPI:
    """The ASGI app of `pincite serve`: API, page and static files over one service."""
    service = service or Pincite(settings or load_settings())
    settings = service.settings
    guard, access = Guard(settings), AccessLog(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        access.close()
        service.close()

    app = FastAPI(title="pincite", version=version(), description=_DESCRIPTION, lifespan=lifespan,
                  responses={400: {"model": schemas.Error}, 404: {"model": schemas.Error},
                             429: {"model": schemas.Error}})
    app.state.settings, app.state.guard, app.state.access, app.state.service = settings, guard, access, service
    _add_handlers(app)
    app.add_middleware(BodyLimit, limit=settings.max_request_bytes, uploads=settings.max_upload_bytes)
    app.add_middleware(AccessLogMiddleware, access=access, guard=guard)
    _add_api_routes(app, service, guard)
    _add_page_routes(app)
    return app


_DESCRIPTION = ("Answers about legislation where every sentence carries a pinpoint citation checked in code, "
                "or a plain refusal with its reason. Errors are JSON: `{\"error\": code, \"message\": text}`.")


def _add_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def apierror_response(request: Request, exc: ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(PinciteError)
    async def pinciteerror_response(request: Request, exc: PinciteError):
        return error_response(exc.http_status, exc.code, public_message(str(exc), app.state.settings))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _invalid_request(exc.errors())

    @app.exception_handler(StarletteHTTPException)
    async def httperror_response(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404:
            return error_response(404, "not_found", f"no such endpoint: {request.method} {request.url.path} — "
                          f"see /openapi.json")
        if exc.status_code == 405:
            return error_response(405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path} "
                          f"— see /openapi.json", exc.headers)
        return error_response(exc.status_code, "http_error", str(exc.detail), exc.headers)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception):
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", "the server failed unexpectedly — the error is in its log")


def _invalid_request(errors) -> JSONResponse:
    first = errors[0] if errors else {"type": "", "loc": (), "msg": "invalid request"}
    if first["type"] == "json_invalid":
        return error_response(400, "invalid_json", 'the request body is not valid JSON — send e.g. '
                      '{"question": "…", "corpus": "gdpr"} with Content-Type: application/json')
    where = ".".join(str(p) for p in first["loc"] if p not in ("body", "query", "path"))
    if first["type"] == "model_attributes_type":
        return error_response(400, "invalid_request", "the request body must be a JSON object, e.g. "
                      '{"question": "…", "corpus": "gdpr"}')
    return error_response(422, "invalid_request", f"{where or 'request'}: {first['msg']}"
                  + (f" (got {len(first['input'])} characters)" if first["type"] == "string_too_long" else ""))


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


def _add_api_routes(app: FastAPI, service: Pincite, guard: Guard) -> None:
    # Routes return JSONResponse: the service's document as it is, unfiltered and not validated
    # again; response_model documents it in the OpenAPI schema.
    checked = [Depends(guard.check)]
    workers = Workers(READ_THREADS, ASK_THREADS)
    settings = service.settings

    @app.get("/health", response_model=schemas.Health, tags=["service"])
    async def health():
        """Liveness: the server answers; how answers are written; whether keys are needed."""
        return {"status": "ok", "version": version(), "answers": settings.llm or "extractive",
                "auth": bool(guard.keys)}

    @app.get("/corpora", response_model=schemas.Corpora, dependencies=checked, tags=["corpora"])
    async def corpora():
        """Corpora pincite knows, their languages, and which are built here (others build on first use)."""
        return JSONResponse({"corpora": await workers.run("read", service.list_corpora)})

    @app.get("/search", response_model=schemas.SearchResults, dependencies=checked, tags=["corpora"])
    async def search(q: Annotated[str, Query(min_length=1, max_length=schemas.MAX_QUESTION, description="What to look for.")],
                     corpus: Annotated[list[str], Query(description="Corpus name; repeat to search several at once.")] = ["gdpr"],  # noqa: B006
                     lang: Annotated[str | None, Query(pattern=schemas.LANG_CODE)] = None,
                     k: Annotated[int, Query(ge=1, le=50)] = 5,
                     mode: Annotated[schemas.SearchMode | None, Query()] = None):
        """Provisions that best match a query; a provision the query names comes first."""
        names = schemas.corpus_names(corpus)
        return JSONResponse(await workers.run("read", service.search_document, q, corpus=names[0] if len(names) == 1 else names,
                                              lang=lang, k=k, mode=mode))

    @app.get("/provisions", response_model=schemas.Provisions, dependencies=checked, tags=["corpora"])
    async def provisions_by_label(corpus: Annotated[str, Query(pattern=schemas.CORPUS_NAME)],
                            label: Annotated[str, Query(min_length=1, max_length=schemas.MAX_LABEL,
                                                        description="e.g. 'Article 33(1)' or 'Article 5'.")],
                            lang: Annotated[str | None, Query(pattern=schemas.LANG_CODE)] = None):
        """The provisions a label denotes: one paragraph, or every part of an article or annex."""
        return JSONResponse(await workers.run("read", service.provisions_document, corpus, label, lang))

    # Before /provisions/{id}: an id is a path ("gdpr/en/art-37.par-1"), which would swallow "/references".
    @app.get("/provisions/{provision_id:path}/references", response_model=schemas.References, dependencies=checked,
             tags=["corpora"])
    async def references(provision_id: str):
        """What a provision cites and what cites it, with the referencing words (`pincite refs --json`)."""
        return JSONResponse(await workers.run("read", service.references_by_id, provision_id))

    @app.get("/provisions/{provision_id:path}", response_model=schemas.Provision, dependencies=checked,
             tags=["corpora"])
    async def provision(provision_id: str):
        """One provision by id (`gdpr/en/art-33.par-1`): label, title, full text, link, version."""
        return JSONResponse(await workers.run("read", service.get_provision, provision_id))

    @app.post(UPLOAD_PATH, status_code=201, dependencies=checked, tags=["corpora"])
    async def upload_pdf(request: Request,
                         filename: Annotated[str, Query(min_length=5, max_length=200, description="e.g. handbook.pdf")],
                         name: Annotated[str | None, Query(pattern=schemas.CORPUS_NAME)] = None,
                         lang: Annotated[str, Query(pattern=schemas.LANG_CODE)] = "en"):
        """Add a PDF (the request body, `application/pdf`) as a corpus, as `pincite corpus add-pdf` does:
        one provision per rule id for a rulebook, otherwise one per page, cited `file, p. N`."""
        data = await request.body()
        return JSONResponse(await workers.run("answer", service.upload_pdf, filename, data,
                                              name=name, lang=lang), status_code=201)

    @app.post("/ask", response_model=schemas.Answer, tags=["answers"],
              responses={200: {"content": {"text/event-stream": {}},
                               "description": "The answer; with `Accept: text/event-stream`, events `start`, "
                                              "`progress`… while an act is built on first use ({stage, done, "
                                              "total}), `sentence`…, `citation`…, or `refusal`, then `done` "
                                              "(the answer)."}})
    async def ask(body: schemas.AskRequest, request: Request, client: str = Depends(guard.check)):  # noqa: B008
        """Answer with a pinpoint citation on every sentence, or refuse with a reason."""
        service.corpus(body.corpus)  # an unknown corpus is a 404, not a counted question
        await guard.count_question(client)
        answer = partial(service.ask, body.question, corpus=body.corpus, lang=body.lang, thread=body.thread)
        if "text/event-stream" in request.headers.get("accept", ""):
            run = partial(workers.run, "answer", _reported, service, answer)  # run(progress): stages as events
            return StreamingResponse(answer_stream(run, body, partial(public_message, settings=settings)), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        return JSONResponse(await workers.run("answer", answer))


    @app.post("/verify", response_model=schemas.Verification, tags=["answers"])
    async def verify(body: schemas.VerifyRequest, client: str = Depends(guard.check)):  # noqa: B008
        """Check each sentence of a text against the provisions its bracketed citations name (no search)."""
        service.corpus(body.corpus)  # an unknown corpus is a 404
        return JSONResponse(await workers.run("answer", service.verify, body.text, corpus=body.corpus, lang=body.lang,
                                                second_opinion=body.second_opinion))


def _reported(service: Pincite, call, progress):
    """`call()`, in the worker thread that runs it, with `progress` hearing of any build it makes."""
    with service.reporting(progress):
        return call()


def _add_page_routes(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def page():
        return FileResponse(WEB / "index.html", headers={**PAGE_HEADERS, "Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")


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


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> int:
    """Serve until stopped; the exit code. With `workers` > 1, that many processes share the socket."""
    sock = bind(host, port)
    processes = f" by {workers} worker processes" if workers > 1 else ""
    print(f"pincite: serving the API and the page on {url_of(sock)}/ (OpenAPI at /openapi.json){processes} — "
          f"Ctrl-C stops", file=sys.stderr, flush=True)

    def run() -> None:  # in each worker: its own app, service, store and pool
        server(create_app(settings), sock, log_level="info").run(sockets=[sock])

    if workers <= 1:
        run()
        return 0
    return run_workers(run, workers)
