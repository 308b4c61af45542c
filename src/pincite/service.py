"""The service layer: what the CLI, HTTP API, MCP server and web page call. No surface has logic of its own."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from .catalog import check_lang, corpus_spec
from .embed import embedder_from_settings
from .errors import NotFoundError
from .index import index_key, load_index, open_store
from .retrieve import MODES, Fusion, Hit, Searcher, default_fusion
from .settings import Settings

_searchers: dict[tuple, Searcher] = {}
_load_lock = threading.RLock()


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]


_stores = threading.local()


def _thread_store(settings: Settings):
    """One store connection per thread and index file: every search checks the index identity,
    and opening SQLite (and its migrations) on each one cost more than the check itself."""
    stores = getattr(_stores, "by_path", None)
    if stores is None:
        stores = _stores.by_path = {}
    path = str(settings.index_path)
    if path not in stores:
        stores[path] = open_store(settings)
    return stores[path]


def searcher(name: str, lang: str, settings: Settings) -> Searcher:
    """A loaded index, kept for the life of the process; reloaded when its identity changes."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    embedder = embedder_from_settings(settings)
    cache_key = (str(settings.index_path), index_key(spec.name, lang), embedder.identity)
    cached = _searchers.get(cache_key)
    store = _thread_store(settings)
    if cached is not None and store.identity(cached.index.identity.key) == cached.index.identity:
        return cached
    with _load_lock:  # concurrent first requests (HTTP, MCP) build and load an index once
        cached = _searchers.get(cache_key)
        if cached is not None and store.identity(cached.index.identity.key) == cached.index.identity:
            return cached
        index = load_index(spec.name, lang, settings, store, embedder)
        _searchers[cache_key] = Searcher(index, QueryCache(embedder), lang, rule_pattern=spec.rule_pattern or None)
    return _searchers[cache_key]


class QueryCache:
    """An embedder whose query vectors are remembered (LRU): a server sees the same questions
    again and again, and embedding one is most of a search's time (~18 ms of ~20 on two cores)."""

    def __init__(self, embedder, size: int = 4096):
        self.embedder, self.size = embedder, size
        self.vectors: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def __getattr__(self, name):
        return getattr(self.embedder, name)

    def embed_query(self, text: str):
        with self.lock:
            if text in self.vectors:
                self.vectors.move_to_end(text)
                return self.vectors[text]
        vector = self.embedder.embed_query(text)
        vector.flags.writeable = False
        with self.lock:
            self.vectors[text] = vector
            if len(self.vectors) > self.size:
                self.vectors.popitem(last=False)
        return vector


def resolve_lang(name: str, lang: str | None, settings: Settings | None = None) -> str:
    """The corpus language to search for a question in `lang`: the same when the act exists in
    it, otherwise English or the act's first language (a Thai statute answers English questions
    from its Thai text)."""
    spec = corpus_spec(name, settings)
    if lang and lang.lower() in spec.langs:
        return lang.lower()
    return "en" if "en" in spec.langs else sorted(spec.langs)[0]


def search(query: str, settings: Settings, *, corpus: str = "gdpr", lang: str | None = None, k: int = 5,
           mode: str | None = None, fusion: Fusion | None = None) -> SearchResult:
    mode = mode or settings.search_mode
    if mode not in MODES:
        raise NotFoundError(f"unknown search mode {mode!r} — use one of: {', '.join(MODES)}")
    corpus_lang = resolve_lang(corpus, lang, settings)
    s = searcher(corpus, corpus_lang, settings)
    hits = s.search(query, k=k, mode=mode, fusion=fusion or default_fusion(corpus_lang, settings))
    return SearchResult(query, mode, hits)


def index_corpus(name: str, lang: str, settings: Settings, *, rebuild: bool = False) -> dict:
    """Bring one corpus language's index up to date; report what was done."""
    import time

    from .index import build_index, ensure_index

    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    store = open_store(settings)
    embedder = embedder_from_settings(settings)
    started = time.perf_counter()
    before = store.identity(index_key(spec.name, lang))
    if rebuild:
        identity = build_index(spec.name, lang, settings, store, embedder)
    else:
        identity = ensure_index(spec.name, lang, settings, store, embedder)
    status = "up to date" if before == identity and not rebuild else ("built" if before is None else "rebuilt")
    loaded = store.load_index(identity.key)
    return {"key": identity.key, "provisions": len(loaded.provisions), "units": len(loaded.units),
            "model": identity.model, "status": status, "seconds": time.perf_counter() - started}


def hit_json(hit: Hit, snippet_chars: int = 240) -> dict:
    p = hit.provision
    text = " ".join(p.text.split())
    return {"label": p.label, "label_local": p.label_local, "id": p.id, "kind": p.kind,
            "instrument": p.instrument, "lang": p.lang, "title": p.title,
            "score": None if hit.exact else round(hit.score, 4), "exact": hit.exact,
            "snippet": text if len(text) <= snippet_chars else text[: snippet_chars - 1] + "…",
            "url": p.url, "version": p.version}


# -- answers (pincite ask) ----------------------------------------------------------------

NOTICE = ("Not legal advice: quotations of the law's text, checked against the cited provisions; "
          "for your situation, ask a lawyer.")
ASK_K = 10  # hits the relevance gate looks at; the answer uses the first settings.answer_k


def ask(question: str, settings: Settings, *, corpus: str = "gdpr", lang: str | None = None,
        thread: str | None = None, llm=None) -> dict:
    """Answer a question from one corpus, or refuse with a named reason (DESIGN.md §5).

    `thread` continues a conversation (created when new); `llm` overrides the configured model
    (tests pass a scripted one). The answer is logged (asklog) and added to its thread.
    """
    from . import asklog, threads
    from .answer import answer_question
    from .llm import llm_from_settings

    spec, _ = corpus_entry(corpus, settings)  # UnknownCorpusError: a typed error for the surfaces
    corpus_lang = resolve_lang(spec.name, lang, settings)
    history = threads.history(settings, thread)
    model = llm if llm is not None else llm_from_settings(settings)
    try:
        result = answer_question(
            question, retrieve=lambda q: search(q, settings, corpus=spec.name, lang=corpus_lang, k=ASK_K).hits,
            profile=lambda: corpus_profile(spec.name, corpus_lang, settings), llm=model, history=history,
            evidence_k=settings.answer_k, same_language=lang is None or lang.lower() == corpus_lang)
    finally:
        if model is not None and llm is None:
            model.close()  # a client we opened; one passed in belongs to the caller
    thread_id = None
    if thread or settings.ask_log:  # with logging off, only a thread the user named is kept
        thread_id = threads.add_turn(settings, thread, corpus=spec.name, lang=corpus_lang, question=result.question,
                                     rewritten=result.rewritten, answer=answer_text(result, spec),
                                     outcome=result.outcome)
    asklog.record(settings, result, corpus=spec.name, lang=corpus_lang, thread=thread_id)
    return answer_document(result, spec, corpus_lang, _version(spec.name, corpus_lang, settings), thread_id)


def corpus_profile(name: str, lang: str, settings: Settings):
    """What a corpus mentions, for the relevance gate (computed once per loaded index)."""
    from .gate import profile_for

    spec = corpus_spec(name, settings)
    s = searcher(spec.name, lang, settings)
    return profile_for(spec.name, lang, s.provisions, spec.celex, spec.title)


def _version(name: str, lang: str, settings: Settings) -> str:
    from .corpus import corpus_info

    info = corpus_info(name, lang, settings)
    return info.version if info else ""


def answer_text(result, spec) -> str:
    """The answer as one paragraph, or the refusal said plainly."""
    from .verify import REASONS

    if result.outcome == "answered":
        return result.text()
    why = REASONS.get(result.reason, result.reason)
    detail = f" ({result.detail})" if result.detail and result.reason in _SHOWN_DETAIL else ""
    return f"I cannot answer this from {spec.title}: {why}{detail}."


# Details a reader can act on; others (model errors, verification internals) stay in run.detail.
_SHOWN_DETAIL = ("outside_corpus", "outside_law", "no_value", "model_declined")


def coverage_note(spec, lang: str, version: str) -> str:
    """What the corpus is, so a reader told 'no' knows where to look instead."""
    edition = f", as published in {version}" if version else ""
    return (f"This corpus is {spec.title} in '{lang}'{edition}: its articles, annexes and recitals only. "
            f"It holds no case law, guidance, decisions of authorities, or national law.")


def answer_document(result, spec, lang: str, version: str, thread: str | None) -> dict:
    """The answer shape every surface returns (DESIGN.md §5), plus the notice, the thread and
    what the run cost. A refusal carries no sources."""
    answered = result.outcome == "answered"
    usage = result.usage
    document = {
        "outcome": result.outcome, "reason": result.reason, "answer": answer_text(result, spec),
        "sentences": [{"text": s.text, "citations": list(s.citations)} for s in result.sentences] if answered else [],
        "citations": [_citation_json(c, lang) for c in result.cited] if answered else [],
        "corpus": {"name": spec.name, "lang": lang, "version": version},
        "notice": NOTICE,
        "thread": thread,
        "run": {"mode": result.mode, "model": usage.model if usage else None, "rewritten": result.rewritten,
                "detail": result.detail or None, "tokens_in": usage.tokens_in if usage else 0,
                "tokens_out": usage.tokens_out if usage else 0, "cost_usd": usage.cost_usd if usage else None,
                "latency_ms": result.latency_ms},
    }
    if not answered:
        document["covers"] = coverage_note(spec, lang, version)
    return document


def _citation_json(cited, lang: str) -> dict:
    from .answer import local_label

    p = cited.provision
    return {"label": cited.label, "label_local": local_label(cited.label, lang), "id": p.id, "url": p.url,
            "title": p.title, "text": cited.text}


# -- read-only lookups for the HTTP API, MCP server and web page ---------------------------

# The typed name a surface reports for an error, most specific class first.
ERROR_CODES = (
    ("unknown_corpus", "UnknownCorpusError"), ("unknown_language", "UnknownLanguageError"),
    ("unknown_provision", "UnknownProvisionError"), ("bad_label", "CitationError"),
    ("not_found", "NotFoundError"), ("bad_request", "ConfigError"), ("source_unavailable", "SourceError"),
    ("store_unavailable", "StoreError"), ("parse_error", "ParseError"), ("error", "PinciteError"),
)
_corpora_cache: dict[str, tuple[int, list, dict]] = {}
_corpora_lock = threading.Lock()


def error_code(exc: BaseException) -> str:
    """'unknown_corpus', 'bad_label', … for a PinciteError; 'internal_error' for anything else."""
    from . import errors

    for code, name in ERROR_CODES:
        if isinstance(exc, getattr(errors, name)):
            return code
    return "internal_error"


def corpus_entry(name: str, settings: Settings, lang: str | None = None):
    """(spec, lang) of a corpus, the language checked when given; typed errors when unknown."""
    from .errors import UnknownCorpusError, UnknownLanguageError

    try:
        spec = corpus_spec(name, settings)
    except NotFoundError as exc:
        raise UnknownCorpusError(str(exc)) from exc
    if lang is None:
        return spec, None
    try:
        return spec, check_lang(spec, lang)
    except NotFoundError as exc:
        raise UnknownLanguageError(str(exc)) from exc


def default_lang(spec) -> str:
    return "en" if "en" in spec.langs else sorted(spec.langs)[0]


def corpus_provisions(name: str, lang: str, settings: Settings) -> tuple[list, dict]:
    """A corpus's provisions and an id → provision map, kept while the corpus file is unchanged;
    the corpus is built on first use (one build at a time: concurrent first requests wait)."""
    from .corpus import corpus_path, load_provisions

    path = corpus_path(settings, name, lang)
    cached = _corpora_cache.get(str(path))
    if cached is not None and path.is_file() and path.stat().st_mtime_ns == cached[0]:
        return cached[1], cached[2]
    with _corpora_lock:
        provisions = load_provisions(name, lang, settings)
        _corpora_cache[str(path)] = (path.stat().st_mtime_ns, provisions, {p.id: p for p in provisions})
    return provisions, _corpora_cache[str(path)][2]


def provision_json(p) -> dict:
    """A provision as the surfaces return it: the corpus record, full text included."""
    from dataclasses import asdict

    return asdict(p)


def get_provision(provision_id: str, settings: Settings) -> dict:
    """One provision by its id (`gdpr/en/art-33.par-1`), as search hits and citations carry it."""
    from .errors import UnknownProvisionError

    name, lang, rest = (provision_id.split("/", 2) + ["", ""])[:3]
    if not (name and lang and rest):
        raise UnknownProvisionError(f"{provision_id!r} is not a provision id — ids look like "
                                    f"gdpr/en/art-33.par-1 (search hits and citations carry them)")
    spec, lang = corpus_entry(name, settings, lang)
    _, by_id = corpus_provisions(spec.name, lang, settings)
    if provision_id not in by_id:
        raise UnknownProvisionError(f"{spec.name}/{lang} has no provision {provision_id!r} — take the id "
                                    f"from a search hit or a citation, or look the provision up by its label")
    return provision_json(by_id[provision_id])


def find_provision(corpus: str, label: str, settings: Settings, lang: str | None = None) -> list[dict]:
    """The provisions a label denotes: one paragraph, or every provision of an article or annex."""
    from .corpus import find_provisions
    from .errors import UnknownProvisionError

    spec, _ = corpus_entry(corpus, settings)
    spec, lang = corpus_entry(spec.name, settings, lang or default_lang(spec))
    provisions, _ = corpus_provisions(spec.name, lang, settings)
    found = find_provisions(provisions, label)  # CitationError when the label cannot be read
    if not found:
        raise UnknownProvisionError(f"{spec.name}/{lang} has no provision {label!r} — check the label "
                                    f"(e.g. 'Article 33(1)', 'Annex III, point 4', 'Recital 47')")
    return [provision_json(p) for p in found]


def article_outline(corpus: str, label: str, settings: Settings, lang: str | None = None) -> dict:
    """An article's (annex's, section's) parts, each with its lead-in and its points, so a long
    article can be read in parts: `find_provision` with a part's label gives its full text."""
    from dataclasses import replace

    from .answer import local_label
    from .citations import format_label, parse_label

    whole = parse_label(label)
    if whole.kind in ("article", "section", "annex"):
        whole = replace(whole, paragraph=None, points=())
    parts = find_provision(corpus, format_label(whole), settings, lang)
    first = parts[0]
    return {"corpus": first["instrument"], "lang": first["lang"], "label": format_label(whole),
            "label_local": local_label(format_label(whole), first["lang"]), "title": first["title"],
            "path": first["path"], "version": first["version"], "url": first["url"],
            "parts": [_outline_part(p) for p in parts]}


def _outline_part(p: dict) -> dict:
    from .answer import point_label, top_points
    from .verify import point_lines

    text = p["text"]
    paths = top_points(text)
    wanted = {path[0] for path in paths}
    marked = [(indent, marker, line) for indent, marker, line in point_lines(text) if marker in wanted]
    depth = min((indent for indent, _, _ in marked), default=0)
    lines = {marker: line.strip() for indent, marker, line in reversed(marked) if indent == depth}
    points = [{"label": point_label(p["label"], path), "text": _clip(lines.get(path[0], ""))} for path in paths]
    return {"id": p["id"], "label": p["label"], "label_local": p["label_local"], "kind": p["kind"],
            "lead": _clip(text.splitlines()[0] if text else ""), "chars": len(text), "points": points}


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def list_corpora(settings: Settings) -> list[dict]:
    """Every corpus pincite knows (named, then added), its languages, and which are built."""
    from .catalog import NAMED, registered
    from .corpus import built_langs, corpus_info

    added = [spec for name, spec in sorted(registered(settings.home).items()) if name not in NAMED]
    out = []
    for spec in [*NAMED.values(), *added]:
        built = []
        for lang in built_langs(spec.name, settings):
            info = corpus_info(spec.name, lang, settings)
            if info is not None:
                built.append({"lang": lang, "version": info.version,
                              "provisions": info.counts.get("provisions", 0)})
        out.append({"name": spec.name, "title": spec.title, "celex": spec.celex, "format": spec.format,
                    "langs": sorted(spec.langs), "default_lang": default_lang(spec), "built": built})
    return out


def search_document(query: str, settings: Settings, *, corpus: str = "gdpr", lang: str | None = None,
                    k: int = 5, mode: str | None = None) -> dict:
    """`pincite search --json`'s document: the query, where it was searched, the hits."""
    spec, _ = corpus_entry(corpus, settings)
    result = search(query, settings, corpus=spec.name, lang=lang, k=k, mode=mode)
    return {"query": result.query, "corpus": spec.name, "lang": resolve_lang(spec.name, lang, settings),
            "mode": result.mode, "hits": [hit_json(h) for h in result.hits]}


def upload_pdf(filename: str, data: bytes, settings: Settings, *, name: str | None = None,
               lang: str = "en") -> dict:
    """A PDF sent through the web page or the API: kept under the data dir, then added exactly
    as `pincite corpus add-pdf` adds a file. A failure leaves neither the file nor a corpus."""
    from .acts import add_pdf
    from .errors import ConfigError, SourceError

    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(filename).name).strip(".-")
    if not safe.lower().endswith(".pdf") or len(safe) < 5:
        raise ConfigError(f"{filename!r} is not a PDF file name — upload a file ending in .pdf")
    folder = settings.home / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    path, tmp = folder / safe, folder / f".{safe}.tmp"
    existed = path.exists()
    tmp.write_bytes(data)
    tmp.replace(path)
    try:
        added = add_pdf(path, settings, name=name, lang=lang)
    except Exception as exc:
        if not existed:
            path.unlink(missing_ok=True)
        if isinstance(exc, SourceError):  # a bad upload is the sender's to fix, not an unreachable source
            raise ConfigError(str(exc)) from exc
        raise
    return {"name": added.spec.name, "lang": lang, "document": added.spec.document, "new": added.new,
            "counts": added.info.counts}
