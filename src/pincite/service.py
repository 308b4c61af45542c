"""The service layer: what the CLI, HTTP API, MCP server and web page call. No surface has logic of its own."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import check_lang, corpus_spec
from .embed import embedder_from_settings
from .errors import NotFoundError
from .index import index_key, load_index, open_store
from .retrieve import MODES, Fusion, Hit, Searcher, default_fusion
from .settings import Settings

_searchers: dict[tuple, Searcher] = {}


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]


def searcher(name: str, lang: str, settings: Settings) -> Searcher:
    """A loaded index, kept for the life of the process; reloaded when its identity changes."""
    spec = corpus_spec(name)
    lang = check_lang(spec, lang)
    embedder = embedder_from_settings(settings)
    cache_key = (str(settings.index_path), index_key(spec.name, lang), embedder.identity)
    cached = _searchers.get(cache_key)
    store = open_store(settings)
    if cached is not None and store.identity(cached.index.identity.key) == cached.index.identity:
        return cached
    index = load_index(spec.name, lang, settings, store, embedder)
    _searchers[cache_key] = Searcher(index, embedder, lang)
    return _searchers[cache_key]


def resolve_lang(name: str, lang: str | None) -> str:
    """The corpus language to search for a question in `lang`: the same when the act exists in
    it, otherwise the act's first language (a Thai statute answers English questions in Thai)."""
    spec = corpus_spec(name)
    if lang and lang.lower() in spec.langs:
        return lang.lower()
    if lang is None:
        return "en" if "en" in spec.langs else sorted(spec.langs)[0]
    return "en" if "en" in spec.langs else sorted(spec.langs)[0]


def search(query: str, settings: Settings, *, corpus: str = "gdpr", lang: str | None = None, k: int = 5,
           mode: str | None = None, fusion: Fusion | None = None) -> SearchResult:
    mode = mode or settings.search_mode
    if mode not in MODES:
        raise NotFoundError(f"unknown search mode {mode!r} — use one of: {', '.join(MODES)}")
    corpus_lang = resolve_lang(corpus, lang)
    s = searcher(corpus, corpus_lang, settings)
    hits = s.search(query, k=k, mode=mode, fusion=fusion or default_fusion(corpus_lang, settings))
    return SearchResult(query, mode, hits)


def index_corpus(name: str, lang: str, settings: Settings, *, rebuild: bool = False) -> dict:
    """Bring one corpus language's index up to date; report what was done."""
    import time

    from .index import build_index, ensure_index

    spec = corpus_spec(name)
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
