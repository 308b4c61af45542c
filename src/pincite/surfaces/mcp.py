"""The MCP server (`pincite mcp`): read-only tools over the service layer, for AI assistants.

Tools: search, get_provision (by id or label), article_outline, get_references, list_corpora, ask, verify_citations. Each has an
input and an output schema (pincite.schemas) and returns structured content plus the same JSON
as text. A failure the caller can fix is a tool error with structured content
`{"error": "unknown_corpus" | "unknown_language" | "unknown_provision" | "bad_label" | …,
"message": "what went wrong — how to fix it"}`.

Transports: stdio (default; stdout carries nothing but the protocol, logs go to stderr) and
streamable HTTP on /mcp, which accepts only the Host headers in `mcp_allowed_hosts` and, when
`PINCITE_API_KEYS` is set, only requests that carry one of the keys (as the HTTP API does); each
client gets the API's rate limit (`PINCITE_RATE_LIMIT_PER_MINUTE`), counted in the same rows.
Written for the `mcp` SDK 2.x (`MCPServer`; 1.x called it FastMCP).
"""

from __future__ import annotations

import itertools
import json
import logging
import sys
from collections.abc import Callable
from typing import Annotated

import anyio.from_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from pincite.errors import ConfigError, PinciteError
from pincite.progress import Progress, describe, throttled
from pincite.service import Pincite
from pincite.settings import Settings, load_settings
from pincite.surfaces import schemas
from pincite.surfaces.http.app import bind, url_of, version
from pincite.surfaces.http.guard import Guard, RateLimit
from pincite.surfaces.http.keys import RequireKey, configured_keys
from pincite.surfaces.redact import public_message

log = logging.getLogger("pincite.mcp")

INSTRUCTIONS = (
    "pincite answers questions about legislation (the GDPR, the EU AI Act, other EUR-Lex acts) from the "
    "text of the law. Use `ask` for a verified answer whose every sentence cites a provision, or a refusal "
    "with its reason (do not answer a refused question from memory: say the text does not answer it). Use "
    "`search` to find provisions, `get_provision` to read one in full, `article_outline` to see the parts "
    "of a long article, `get_references` for what a provision cites and what cites it (its fine, its "
    "exceptions), `list_corpora` for the corpora and languages. Quote labels as given (Article 33(1))."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)

Corpus = Annotated[str, Field(pattern=schemas.CORPUS_NAME, description="Corpus name (gdpr, ai-act, …) or CELEX number.")]
Lang = Annotated[str | None, Field(pattern=schemas.LANG_CODE,
                                   description="Language code (en, it, fr, …); default: the corpus's first (en).")]
Label = Annotated[str, Field(min_length=1, max_length=schemas.MAX_LABEL,
                             description="A pinpoint label: 'Article 33(1)', 'Article 5', 'Annex III, point 4', "
                                         "'Recital 47', or the corpus language's own ('Articolo 5, paragrafo 1').")]


def _result(produce: Callable[[], dict], settings: Settings | None = None) -> CallToolResult:
    """Run a service call: its document as structured content, or a typed tool error (whose
    message names no server path when `settings` are given)."""
    try:
        document = produce()
    except PinciteError as exc:
        code = exc.code
        log.info("tool error %s: %s", code, exc)
        message = public_message(str(exc), settings) if settings is not None else str(exc)
        return CallToolResult(content=[TextContent(type="text", text=f"{code}: {message}")],
                              structured_content={"error": code, "message": message}, is_error=True)
    text = json.dumps(document, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=document)


def _notifier(ctx: Context) -> Progress:
    """Progress notifications to the client of a tool call that asked for them (sent a
    progressToken; otherwise none is sent), from the worker thread a sync tool runs in: each stage
    as the message (`gdpr/en: embed 256/849`), `progress` counting them (it must only grow)."""
    sent = itertools.count(1)

    def notify(stage: str, done: int, total: int | None) -> None:
        try:
            anyio.from_thread.run(ctx.report_progress, next(sent), None, describe(stage, done, total))
        except Exception as exc:  # a client gone away must not stop the build it started
            log.debug("progress notification not sent: %s", exc)

    return throttled(notify)


def create_server(settings: Settings | None = None, *, service: Pincite | None = None) -> MCPServer:
    service = service or Pincite(settings or load_settings())
    server = MCPServer("pincite", title="pincite", version=version(), instructions=INSTRUCTIONS)

    def result(produce: Callable[[], dict], ctx: Context) -> CallToolResult:
        """`_result`, any build the call makes reported to the client as it goes."""
        with service.reporting(_notifier(ctx)):
            return _result(produce, service.settings)

    @server.tool(annotations=READ_ONLY)
    def search(
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=schemas.MAX_QUESTION, description="What to look for: a question, words, or a citation.")],
        corpus: Corpus = "gdpr", lang: Lang = None,
        k: Annotated[int, Field(ge=1, le=50, description="How many hits.")] = 5,
        mode: Annotated[schemas.SearchMode | None, Field(description="hybrid, dense or bm25 (default: the server's "
                                                                   "PINCITE_SEARCH_MODE).")] = None,
    ) -> Annotated[CallToolResult, schemas.SearchResults]:
        """Search a corpus for the provisions that best match a query; a provision the query names
        ('Article 17') comes first. Each hit has its label, title, a snippet, its id and a EUR-Lex link."""
        return result(lambda: service.search_document(query, corpus=corpus, lang=lang, k=k, mode=mode), ctx)

    @server.tool(annotations=READ_ONLY)
    def get_provision(
        ctx: Context,
        id: Annotated[str | None, Field(max_length=300, description="A provision id from a hit or citation, e.g. 'gdpr/en/art-33.par-1'.")] = None,
        corpus: Corpus | None = None, label: Label | None = None, lang: Lang = None,
    ) -> Annotated[CallToolResult, schemas.Provisions]:
        """The full text of a provision, by `id`, or by `corpus` and `label`. A label naming a whole
        article or annex ('Article 5') returns each of its parts."""
        def produce() -> dict:
            if id:
                return {"provisions": [service.get_provision(id)]}
            if corpus and label:
                return service.provisions_document(corpus, label, lang)
            raise ConfigError("give a provision `id`, or a `corpus` and a `label` — e.g. corpus 'gdpr', "
                              "label 'Article 33(1)'")
        return result(produce, ctx)

    @server.tool(annotations=READ_ONLY)
    def article_outline(ctx: Context, corpus: Corpus, label: Label,
                        lang: Lang = None) -> Annotated[CallToolResult, schemas.Outline]:
        """The parts of an article, annex or section (its paragraphs, each with its lead-in and points),
        so a long article can be read part by part with get_provision."""
        return result(lambda: service.article_outline(corpus, label, lang), ctx)

    @server.tool(annotations=READ_ONLY)
    def get_references(ctx: Context, corpus: Corpus, label: Label,
                       lang: Lang = None) -> Annotated[CallToolResult, schemas.References]:
        """What a provision cites (`cites`) and which provisions refer to it (`cited_by`), each with
        the referencing words and an id for get_provision; a reference to another act is `external`
        and carries that act's number. A whole article or annex gathers the references of its parts:
        a duty's fine or exception is often only in a provision that cites it."""
        return result(lambda: service.references(corpus, label, lang), ctx)

    @server.tool(annotations=READ_ONLY)
    def list_corpora(ctx: Context) -> Annotated[CallToolResult, schemas.Corpora]:
        """The corpora pincite knows, the languages each exists in, and which are already built here
        (any other is fetched and indexed on first use, which takes minutes)."""
        return result(lambda: {"corpora": service.list_corpora()}, ctx)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=False,
                                             open_world_hint=False))
    def ask(
        ctx: Context,
        question: Annotated[str, Field(min_length=1, max_length=schemas.MAX_QUESTION, description="The question, in the corpus's language or English.")],
        corpus: Corpus = "gdpr", lang: Lang = None,
        thread: Annotated[str | None, Field(pattern=schemas.THREAD_ID, description="Continue a conversation: the `thread` of an earlier answer.")] = None,
    ) -> Annotated[CallToolResult, schemas.Answer]:
        """Answer from the text of the law: every sentence cites the provision it rests on, checked in
        code; or a refusal (`outcome` 'refused') with its `reason` and no sources. A refusal is a
        correct answer: the text does not support one."""
        return result(lambda: service.ask(question, corpus=corpus, lang=lang, thread=thread), ctx)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                             open_world_hint=False))
    def verify_citations(
        ctx: Context,
        text: Annotated[str, Field(max_length=schemas.MAX_VERIFY, description="Sentences carrying bracketed citations, e.g. '… within 72 hours [Article 33(1)].'")],
        corpus: Corpus = "gdpr", lang: Lang = None,
        second_opinion: Annotated[bool | None, Field(description="Also ask the server's model whether each cited "
                                                                 "text entails its sentence; default: when the "
                                                                 "server has a model.")] = None,
    ) -> Annotated[CallToolResult, schemas.Verification]:
        """Check which sentences of a text are backed by the provisions they cite: each sentence with
        `supported` and, when not, a `reason` (polarity, modality, role, number_mismatch, comparator, scope,
        condition_dropped, not_in_text, wrong_provision, recital_as_obligation, misquote, unknown_provision,
        no_citation, empty; model_disagrees when the server's model, asked for a second opinion, rejects a
        sentence the rules pass)."""
        return result(lambda: service.verify(text, corpus=corpus, lang=lang, second_opinion=second_opinion), ctx)

    return server


def allowed_hosts(settings: Settings) -> TransportSecuritySettings:
    hosts = [h.strip() for h in settings.mcp_allowed_hosts.split(",") if h.strip()]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=[f"http://{h}" for h in hosts] + [f"https://{h}" for h in hosts])


def run_stdio(settings: Settings) -> None:
    create_server(settings).run("stdio")


def run_http(settings: Settings, host: str = "127.0.0.1", port: int = 8001) -> None:
    """Streamable HTTP on /mcp; prints where it listens (stderr), so port 0 is usable."""
    import uvicorn

    mcp_app = create_server(settings).streamable_http_app(streamable_http_path="/mcp",
                                                          transport_security=allowed_hosts(settings), host=host)
    limited = RateLimit(mcp_app, Guard(settings))  # the API's per-client rate, in the same database rows
    app = RequireKey(limited, configured_keys(settings))  # the same keys as the HTTP API
    sock = bind(host, port)
    print(f"pincite mcp: streamable HTTP on {url_of(sock)}/mcp — Ctrl-C stops", file=sys.stderr, flush=True)
    bound_host, bound_port = sock.getsockname()[:2]
    config = uvicorn.Config(app, host=bound_host, port=bound_port, access_log=False, log_level="warning", ws="none")
    uvicorn.Server(config).run(sockets=[sock])
