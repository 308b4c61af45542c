"""The service: one object that the CLI, HTTP API, MCP server and web page all call.

    from pincite.service import Pincite
    pincite = Pincite(settings)                  # store, embedder, llm: None fills them from settings
    pincite.ask("How fast must a breach be notified?", corpus="gdpr")

No surface has logic of its own: each parses its input, calls one method here, and renders the
document it gets back (shaped in `documents`). The object holds what is worth keeping between
calls — loaded indexes, corpora, corpus profiles, query vectors — for as long as it lives.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import overload

from pincite.answer.agent import Budget
from pincite.answer.gate import Profile, check, names_corpus, own_aliases, profile_for, relevance
from pincite.answer.llm import LLM, llm_from_settings
from pincite.answer.pipeline import Context, answer_question, answerer_for
from pincite.answer.pointers import pointer
from pincite.citations import RULE_PATTERN, format_label, parse_label
from pincite.corpus import acts
from pincite.corpus.build import (
    CorpusInfo,
    build_corpus,
    built_langs,
    check_corpus,
    corpus_info,
    corpus_path,
    find_provisions,
    load_provisions,
)
from pincite.errors import (
    ConfigError,
    NotFoundError,
    ParseError,
    PinciteError,
    SourceError,
    StoreError,
    UnknownCorpusError,
    UnknownLanguageError,
    UnknownProvisionError,
    WriteError,
)
from pincite.index.build import COPY, build_index, ensure_index, index_is_current, index_key
from pincite.index.embed import Embedder, embedder_from_settings
from pincite.index.store import Store, store_from_settings, store_url
from pincite.progress import Progress
from pincite.provisions import Provision
from pincite.retrieve.crosslang import Twin, load_table
from pincite.retrieve.fusion import Fusion, default_fusion
from pincite.retrieve.hits import Hit
from pincite.retrieve.multi import COVERAGE_WEIGHT, CorpusHit, CorpusResult, search_corpora
from pincite.retrieve.query import Query
from pincite.retrieve.questions import load_questions as load_written
from pincite.retrieve.rerank import reads_questions, reranker_from_settings
from pincite.retrieve.search import Searcher, check_mode, search_together
from pincite.retrieve.tuning import settings_tuning
from pincite.service import batch, documents, history
from pincite.service.tools import ServiceTools
from pincite.settings import Settings, load_settings
from pincite.sources.catalog import NAMED, CorpusSpec, act_number, check_lang, corpus_spec, registered
from pincite.sources.fetch import mirror_langs
from pincite.sources.files import write_atomic
from pincite.verify.claims import check_text, lookup_label
from pincite.verify.opinion import second_opinions
from pincite.verify.untrusted import cited_as_data

ASK_K = 10  # hits the relevance gate looks at; the answer uses the first settings.answer_k
# A refusal names another corpus when that corpus passes the gate and its relevance beats this
# one's by at least ELSEWHERE_MARGIN (set by hand, not tuned: it changes no outcome, only pointers).
ELSEWHERE_MARGIN = 0.15
ELSEWHERE_CORPORA = 6  # other indexed corpora looked at, at most (a refusal stays cheap)
ELSEWHERE_K = 3  # hits of another corpus the gate looks at (its coverage reads the top three)
ELSEWHERE_REASONS = ("below_floor", "outside_corpus", "no_quote", "no_value", "not_in_text")
_NOT_GIVEN = object()
# Who hears of the stages of a build the current call makes (`Pincite.reporting`): one per thread
# or task, so each of a server's requests reports to its own client.
_PROGRESS: ContextVar[Progress | None] = ContextVar("pincite_progress", default=None)
log = logging.getLogger("pincite")


@dataclass(frozen=True)
class SearchResult:
    query: str
    mode: str
    hits: list[Hit]
    lang: str = ""


class QueryCache:
    """An embedder whose query vectors are remembered (LRU): a server sees the same questions
    again and again, and embedding one is half of a search's time on two cores (~8–10 ms median
    of ~16–20; benchmarks/retrieval.py prints both)."""

    def __init__(self, embedder: Embedder, size: int = 4096):
        self.embedder, self.size = embedder, size
        self.identity = embedder.identity
        self.vectors: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    @property
    def dim(self) -> int:
        return self.embedder.dim

    def embed(self, texts: list[str]):
        return self.embedder.embed(texts)

    def embed_query(self, text: str):
        with self.lock:
            if text in self.vectors:
                self.vectors.move_to_end(text)
                return self.vectors[text]
        vector = self.embedder.embed_query(text)
        self._keep(text, vector)
        return vector

    def embed_queries(self, texts: list[str]) -> None:
        """Remember the vectors of several queries, those not known yet embedded in one batch: a
        question that asks for what lives elsewhere is searched with its rest too (~15 % faster
        than one at a time)."""
        with self.lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if len(missing) < 2:
            return  # one text is embedded when it is searched, as any other
        embed = getattr(self.embedder, "embed_queries", self.embedder.embed)  # queries may have their own prompt
        for text, vector in zip(missing, embed(missing), strict=True):
            self._keep(text, vector)

    def _keep(self, text: str, vector) -> None:
        vector.flags.writeable = False
        with self.lock:
            self.vectors[text] = vector
            if len(self.vectors) > self.size:
                self.vectors.popitem(last=False)


class Pincite:
    """Everything a surface can ask for, over one Settings. `store`, `embedder` and `llm` are
    filled from the settings when not given (as httpx fills a missing transport); pass
    `llm=None` explicitly to answer extractively whatever the settings say."""

    def __init__(self, settings: Settings | None = None, *, store: Store | None = None,
                 embedder: Embedder | None = None, llm=_NOT_GIVEN, reranker=_NOT_GIVEN):
        self.settings = settings or load_settings()
        self._store, self._embedder = store, embedder
        self._llm = llm
        self._owns_llm = llm is _NOT_GIVEN
        self._reranker = reranker
        self._searchers: dict[str, Searcher] = {}
        self._profiles: dict[tuple, Profile] = {}
        self._corpora: dict[str, tuple[int, list[Provision], dict[str, Provision]]] = {}
        self._lock = threading.RLock()

    # -- the parts, filled from settings on first use ----------------------------------------

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = store_from_settings(self.settings)
        return self._store

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = QueryCache(embedder_from_settings(self.settings))
        return self._embedder

    @property
    def relevance_floor(self) -> float:
        """The gate's floor: the setting, else the one chosen for the embedding model (retrieve.tuning)."""
        if self.settings.relevance_floor is not None:
            return self.settings.relevance_floor
        return settings_tuning(self.settings).relevance_floor

    @property
    def llm(self) -> LLM | None:
        if self._llm is _NOT_GIVEN:
            self._llm = llm_from_settings(self.settings)
        return self._llm

    @property
    def reranker(self):
        if self._reranker is _NOT_GIVEN:
            self._reranker = reranker_from_settings(self.settings)
        return self._reranker

    def close(self) -> None:
        if self._owns_llm and self._llm not in (_NOT_GIVEN, None):
            self._llm.close()  # a client we opened; one passed in belongs to the caller
        if self._store is not None:
            self._store.close()

    def __enter__(self) -> Pincite:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- progress -------------------------------------------------------------------------

    @contextmanager
    def reporting(self, progress: Progress | None) -> Iterator[Pincite]:
        """Within the block, `progress(stage, done, total)` hears of every stage of a corpus or
        index that a call builds (`ask` on an act not built yet fetches, parses, checks, embeds and
        writes it first). The calls of this thread or task only: a server's requests each report
        to their own client."""
        token = _PROGRESS.set(progress)
        try:
            yield self
        finally:
            _PROGRESS.reset(token)

    @property
    def progress(self) -> Progress | None:
        """The reporter set by `reporting` for the current call, if any."""
        return _PROGRESS.get()

    # -- corpora --------------------------------------------------------------------------

    @overload
    def corpus(self, name: str, lang: str) -> tuple[CorpusSpec, str]: ...

    @overload
    def corpus(self, name: str, lang: None = None) -> tuple[CorpusSpec, None]: ...

    @overload
    def corpus(self, name: str, lang: str | None) -> tuple[CorpusSpec, str | None]: ...

    def corpus(self, name: str, lang: str | None = None) -> tuple[CorpusSpec, str | None]:
        """(spec, lang) of a corpus, the language checked when given; typed errors when unknown."""
        try:
            spec = corpus_spec(name, self.settings)
        except NotFoundError as exc:
            raise UnknownCorpusError(str(exc)) from exc
        if lang is None:
            return spec, None
        try:
            return spec, check_lang(spec, lang)
        except NotFoundError as exc:
            raise UnknownLanguageError(str(exc)) from exc

    def resolve_lang(self, name: str, lang: str | None) -> str:
        """The corpus language to search for a question in `lang`: the same when the act exists
        in it, otherwise English or the act's first language (a Thai statute answers English
        questions from its Thai text)."""
        spec, _ = self.corpus(name)
        if lang and lang.strip().lower() in spec.langs:
            return lang.strip().lower()
        if lang and lang.strip().lower() not in self._languages():
            raise UnknownLanguageError(f"{lang!r} is not a language pincite reads — use a two-letter code such as "
                                       f"en, it, fr or th")
        return default_lang(spec)

    def _languages(self) -> frozenset[str]:
        """Every language some corpus exists in (a question may be in any of them)."""
        return frozenset().union(*(s.langs for s in [*NAMED.values(), *registered(self.settings).values()]))

    def provisions(self, name: str, lang: str) -> tuple[list[Provision], dict[str, Provision]]:
        """A corpus's provisions and an id → provision map, kept while the corpus file is
        unchanged; built on first use (one build at a time: concurrent first requests wait)."""
        path = corpus_path(self.settings, name, lang)
        cached = self._corpora.get(str(path))
        if cached is not None and path.is_file() and path.stat().st_mtime_ns == cached[0]:
            return cached[1], cached[2]
        with self._lock:
            found = load_provisions(name, lang, self.settings, self.progress)
            self._corpora[str(path)] = (path.stat().st_mtime_ns, found, {p.id: p for p in found})
        return self._corpora[str(path)][1], self._corpora[str(path)][2]

    def list_corpora(self) -> list[dict]:
        """Every corpus pincite knows (named, then added), its languages, and which are built."""
        added = [spec for name, spec in sorted(registered(self.settings).items()) if name not in NAMED]
        out = []
        for spec in [*NAMED.values(), *added]:
            built = []
            for lang in built_langs(spec.name, self.settings):
                info = corpus_info(spec.name, lang, self.settings)
                if info is not None:
                    built.append({"lang": lang, "version": info.version,
                                  "provisions": info.counts.get("provisions", 0),
                                  "indexed": index_is_current(spec.name, lang, self.settings, self.store,
                                                              self.embedder)})
            out.append({"name": spec.name, "title": spec.title, "celex": spec.celex, "format": spec.format,
                        "langs": sorted(spec.langs), "default_lang": default_lang(spec), "built": built,
                        "available": self._available(spec, [b["lang"] for b in built])})
        return out

    def available_languages(self, name: str) -> list[str]:
        """The languages a question to `name` can be answered in here: with a mirror (offline),
        those it holds a file for plus those already built; without, every language of the act."""
        spec, _ = self.corpus(name)
        return self._available(spec, built_langs(spec.name, self.settings))

    def _available(self, spec: CorpusSpec, built: list[str]) -> list[str]:
        if self.settings.mirror is None:
            return sorted(spec.langs)
        return sorted(mirror_langs(spec, self.settings.mirror) | set(built))

    def build_corpus(self, name: str, lang: str, *, out: Path | None = None, refresh: bool = False) -> CorpusInfo:
        spec, lang = self.corpus(name, lang)
        return build_corpus(spec.name, lang, self.settings, out=out, refresh=refresh, progress=self.progress)

    def check_corpus(self, name: str, lang: str) -> tuple[bool, str]:
        spec, lang = self.corpus(name, lang)
        return check_corpus(spec.name, lang, self.settings)

    def corpus_stats(self, name: str, langs: list[str] | None = None) -> list[CorpusInfo]:
        """Counts by kind per language: the languages asked for (built on first use), else
        every language built."""
        spec, _ = self.corpus(name)
        langs = langs or built_langs(spec.name, self.settings)
        if not langs:
            raise NotFoundError(f"{spec.name} has no built language — run: pincite corpus build {spec.name} "
                                f"--lang {default_lang(spec)}")
        infos = []
        for code in langs:
            _, code = self.corpus(spec.name, code)
            infos.append(corpus_info(spec.name, code, self.settings) or self.build_corpus(spec.name, code))
        return infos

    def add_act(self, celex: str, lang: str, *, name: str | None = None, consolidated: str | None = None,
                index: bool = True, refresh: bool = False) -> acts.Added:
        """Register, build and index any EUR-Lex act; idempotent."""
        added = acts.add_act(celex, lang, self.settings, name=name, consolidated=consolidated, refresh=refresh,
                             progress=self.progress)
        return self._indexed(added, lang) if index else added

    def add_from(self, text: str, *, index: bool = True, jobs: int = batch.JOBS,
                 progress=None) -> list[batch.Outcome]:
        """`pincite corpus add --from FILE`: every act the batch text names (one per line, optional
        languages), sources fetched `jobs` at a time; already-added acts skipped, failures
        reported per act. `progress(outcome, done, total)` hears of each act as it ends."""
        items = batch.parse_batch(text)
        if not items:
            raise ConfigError("the batch names no act — write one CELEX number or corpus name per line, "
                              "e.g. 32022R2065 en,fr")
        return batch.add_batch(self, items, index=index, jobs=jobs, progress=progress)

    def add_pdf(self, file: Path, *, name: str | None = None, lang: str = "en", structure: str = "auto",
                rule_pattern: str | None = None, index: bool = True) -> acts.Added:
        """Register, build and index a PDF: one provision per rule id, or per page."""
        added = acts.add_pdf(file, self.settings, name=name, lang=lang, structure=structure,
                             rule_pattern=rule_pattern, progress=self.progress)
        return self._indexed(added, lang) if index else added

    def _indexed(self, added: acts.Added, lang: str) -> acts.Added:
        name = added.spec.name
        try:
            return replace(added, index=self.index(name, lang))
        except PinciteError as exc:  # the corpus is built and registered; only its index is missing
            raise type(exc)(f"{name}/{lang} was added, but indexing failed ({exc}) — fix that, then run: "
                            f"pincite index {name} --lang {lang}") from exc

    def upload_pdf(self, filename: str, data: bytes, *, name: str | None = None, lang: str = "en") -> dict:
        """A PDF sent through the web page or the API: kept under the data dir, then added exactly
        as `pincite corpus add-pdf` adds a file. A failure leaves neither the file nor a corpus,
        and its message names the file only, never where the server keeps it."""
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(filename).name).strip(".-")
        if not safe.lower().endswith(".pdf") or len(safe) < 5:
            raise ConfigError(f"{filename!r} is not a PDF file name — upload a file ending in .pdf")
        folder = self.settings.home / "uploads"
        path = folder / safe
        existed = path.exists()
        try:
            write_atomic(path, data)
            added = self.add_pdf(path, name=name, lang=lang)
        except Exception as exc:
            if not existed:
                path.unlink(missing_ok=True)
            raise _upload_error(exc, safe, self.settings.home) from exc
        return {"name": added.spec.name, "lang": lang, "document": added.spec.document, "new": added.new,
                "counts": added.info.counts}

    # -- provisions -----------------------------------------------------------------------

    def get_provision(self, provision_id: str) -> dict:
        """One provision by its id (`gdpr/en/art-33.par-1`), as search hits and citations carry it."""
        name, lang, rest = (provision_id.split("/", 2) + ["", ""])[:3]
        if not (name and lang and rest):
            raise UnknownProvisionError(f"{provision_id!r} is not a provision id — ids look like "
                                        f"gdpr/en/art-33.par-1 (search hits and citations carry them)")
        spec, lang = self.corpus(name, lang)
        _, by_id = self.provisions(spec.name, lang)
        if provision_id not in by_id:
            raise UnknownProvisionError(f"{spec.name}/{lang} has no provision {provision_id!r} — take the id "
                                        f"from a search hit or a citation, or look the provision up by its label")
        return documents.provision_json(by_id[provision_id])

    def find(self, corpus: str, label: str, lang: str | None = None) -> list[Provision]:
        """The provisions a label denotes: one paragraph, or every provision of an article or annex."""
        spec, _ = self.corpus(corpus)
        spec, lang = self.corpus(spec.name, lang or default_lang(spec))
        found_in, _ = self.provisions(spec.name, lang)
        pattern = spec.rule_pattern or RULE_PATTERN
        found = find_provisions(found_in, label, pattern)  # CitationError: unreadable
        # One reading of a label everywhere: a point the paragraph does not have ('Article 5(1)(z)') is
        # unknown here as it is to `verify`, not the whole paragraph.
        if not found or lookup_label(label, found_in, pattern) is None:
            raise UnknownProvisionError(f"{spec.name}/{lang} has no provision {label!r} — check the label "
                                        f"(e.g. 'Article 33(1)', 'Annex III, point 4', 'Recital 47')")
        return found

    def provisions_document(self, corpus: str, label: str, lang: str | None = None) -> dict:
        """`pincite corpus show --json`, GET /provisions?corpus=&label= and the MCP get_provision tool."""
        return {"provisions": [documents.provision_json(p) for p in self.find(corpus, label, lang)]}

    def article_outline(self, corpus: str, label: str, lang: str | None = None) -> dict:
        """An article's (annex's, section's) parts, each with its lead-in and its points, so a long
        article can be read in parts."""
        whole = parse_label(label)
        if whole.kind in ("article", "section", "annex"):
            whole = replace(whole, paragraph=None, points=())
        whole_label = format_label(whole)
        return documents.outline_document(whole_label, self.find(corpus, whole_label, lang))

    def references(self, corpus: str, label: str, lang: str | None = None) -> dict:
        """What a provision cites and what cites it, with the referencing words (`pincite refs`,
        GET /provisions/{id}/references, the MCP get_references tool). An article or annex label
        gathers the edges of all its parts; the corpus is built and indexed on first use."""
        spec, _ = self.corpus(corpus)
        spec, lang = self.corpus(spec.name, lang or default_lang(spec))
        parts = self.find(spec.name, label, lang)
        searcher = self.searcher(spec.name, lang)
        return documents.references_document(label, parts, searcher.graph, searcher.by_id)

    def references_by_id(self, provision_id: str) -> dict:
        """`references` of one provision named by its id (GET /provisions/{id}/references)."""
        p = self.get_provision(provision_id)  # UnknownProvisionError: not an id of a built corpus
        name, lang = provision_id.split("/", 2)[:2]
        return self.references(name, p["label"], lang)

    # -- search ---------------------------------------------------------------------------

    def searcher(self, name: str, lang: str) -> Searcher:
        """A corpus language's index, built on first use and reloaded when it is replaced."""
        spec, lang = self.corpus(name, lang)
        key = index_key(spec.name, lang)
        cached = self._searchers.get(key)
        if cached is not None and self.store.identity(key) == cached.identity:
            return cached
        with self._lock:  # concurrent first requests (HTTP, MCP) build and load an index once
            cached = self._searchers.get(key)
            if cached is not None and self.store.identity(key) == cached.identity:
                return cached
            identity = ensure_index(spec.name, lang, self.settings, self.store, self.embedder, self.progress)
            searcher = Searcher(self.store, key, self.embedder, lang, rule_pattern=spec.rule_pattern or None,
                                reranker=self.reranker, follow_references=self.settings.follow_references,
                                twin=self._twin(spec, lang))
            if self.settings.provision_questions and reads_questions(self.reranker):
                searcher.questions = load_written(spec.name, searcher.provisions, self.embedder, self.settings.home,
                                                  progress=self.progress)
            searcher.identity = identity
            self._searchers[key] = searcher
        return searcher

    def _twin(self, spec: CorpusSpec, lang: str) -> Twin | None:
        """The act's English version, for cross-language search of a question in `lang`."""
        table = load_table(lang) if lang != "en" and self.settings.cross_language else None
        if table is None or "en" not in spec.langs:
            return None
        try:
            return Twin(self.searcher(spec.name, "en"), table, lang)
        except PinciteError as exc:  # no English text to be had (a mirror without it): the Italian alone
            log.warning("cross-language search of %s/%s off: %s", spec.name, lang, exc)
            return None

    def search(self, query: str | Query, *, corpus: str = "gdpr", lang: str | None = None, k: int = 5,
               mode: str | None = None, fusion: Fusion | None = None) -> SearchResult:
        mode = check_mode(mode or self.settings.search_mode)
        spec, _ = self.corpus(corpus)
        corpus_lang = self.resolve_lang(spec.name, lang)
        hits = self.searcher(spec.name, corpus_lang).search(
            query, k=k, mode=mode, fusion=fusion or default_fusion(corpus_lang, self.settings))
        return SearchResult(query if isinstance(query, str) else query.text, mode, hits, corpus_lang)

    def search_document(self, query: str, *, corpus: str | list[str] = "gdpr", lang: str | None = None,
                        k: int = 5, mode: str | None = None) -> dict:
        """`pincite search --json`, GET /search and the MCP search tool: one document."""
        names = [corpus] if isinstance(corpus, str) else list(dict.fromkeys(corpus))
        mode = check_mode(mode or self.settings.search_mode)
        if len(names) == 1 and names[0].strip().lower() != "all":
            spec, _ = self.corpus(names[0])
            result = self.search(query, corpus=spec.name, lang=lang, k=k, mode=mode)
            return documents.search_document(query, spec.name, result.lang, mode,
                                             [documents.hit_json(h) for h in result.hits])
        searched, hits = self.search_across(query, names, lang=lang, k=k, mode=mode)
        return documents.search_document(query, searched, lang, mode, [documents.corpus_hit_json(h) for h in hits])

    def search_across(self, query: str, corpora: list[str], *, lang: str | None = None, k: int = 5,
                      mode: str | None = None) -> tuple[list[str], list[CorpusHit]]:
        """One question searched in several corpora, ranked on one scale (retrieve.multi): the
        corpora searched (`all` expanded) and the hits, each naming its corpus."""
        mode = check_mode(mode or self.settings.search_mode)
        results = self.corpus_results(query, corpora, lang=lang, k=k, mode=mode)
        return [r.name for r in results], search_corpora(results, k)

    def _expand(self, names: list[str], lang: str | None) -> list[str]:
        """`all`: every corpus with an index in the question's language (English when none is given)."""
        if "all" not in (n.strip().lower() for n in names):
            return names
        wanted = (lang or "en").lower()
        every = sorted({key.split("/")[0] for key in self.store.keys() if key.split("/")[-1] == wanted})
        if not every:
            raise NotFoundError(f"no corpus is indexed in {wanted!r} yet — index one first, e.g. pincite index gdpr")
        return every

    def corpus_results(self, query: str, corpora: list[str], *, lang: str | None = None, k: int = 5,
                       mode: str | None = None, coverage: bool | None = None) -> list[CorpusResult]:
        """Each corpus analysed and fused in its own language, the candidates of all of them asked
        of the store at once (one query on PostgreSQL); with each corpus's hits, the gate's signals
        that compare across corpora (retrieve.multi), read from at least the gate's ASK_K hits.
        Term coverage needs the corpus's profile (seconds to build a first time): it is computed
        when the merge weighs it (bm25 mode, or COVERAGE_WEIGHT > 0) or `coverage` asks for it."""
        mode = check_mode(mode or self.settings.search_mode)
        jobs = []
        for name in dict.fromkeys(n.strip() for n in self._expand(corpora, lang) if n.strip()):
            spec, _ = self.corpus(name)
            corpus_lang = self.resolve_lang(spec.name, lang)
            searcher = self.searcher(spec.name, corpus_lang)
            jobs.append((spec, corpus_lang, searcher, searcher.analyse(query), default_fusion(corpus_lang, self.settings)))
        found = search_together([(s, q, f) for _, _, s, q, f in jobs], max(k, ASK_K), mode)
        wanted = mode == "bm25" or COVERAGE_WEIGHT > 0 if coverage is None else coverage
        results = []
        for (spec, corpus_lang, _, q, _), hits in zip(jobs, found, strict=True):
            dense = [h.dense for h in hits if h.dense is not None]
            covered = relevance(q, hits, self.profile(spec.name, corpus_lang))["coverage"] if wanted and hits else 0.0
            named = names_corpus(q, {act_number(spec.celex)}, own_aliases(spec.name, spec.title))
            results.append(CorpusResult(spec.name, corpus_lang, hits[:k], max(dense) if dense else (None if hits else 0.0),
                                        covered, named=named))
        return results

    def index(self, name: str, lang: str | None = None, *, rebuild: bool = False, to_database: bool = False,
              progress: Progress | None = None) -> dict:
        """Bring one corpus language's index up to date (no `lang`: the corpus's default); report
        what was done. `progress` (default: the one `reporting` set) hears of each stage. In a
        database an index is copied from the SQLite index built alike (status `copied`);
        `to_database` refuses settings that name no database."""
        if to_database and store_url(self.settings).startswith("sqlite:"):
            raise ConfigError("copying an index to the database needs one — set PINCITE_DATABASE_URL="
                              "postgresql://USER:PASSWORD@HOST:PORT/DATABASE (or database_url in the config file)")
        spec, _ = self.corpus(name)
        spec, lang = self.corpus(spec.name, lang or default_lang(spec))
        started = time.perf_counter()
        key = index_key(spec.name, lang)
        before = self.store.identity(key)
        stages, progress = _heard(progress or self.progress)
        if rebuild:
            identity = build_index(spec.name, lang, self.settings, self.store, self.embedder, progress)
        else:
            identity = ensure_index(spec.name, lang, self.settings, self.store, self.embedder, progress)
        if self.settings.provision_questions and reads_questions(self.reranker):
            # their vectors now, once per model, not on the first question (retrieve.questions)
            load_written(spec.name, self.store.provisions(key), self.embedder, self.settings.home, progress=progress)
        status = "up to date" if before == identity and not rebuild else ("built" if before is None else "rebuilt")
        status = "copied" if f"{key}: {COPY}" in stages else status
        return {"key": identity.key, "provisions": len(self.store.provisions(key)),
                "units": len(self.store.units(key)), "model": identity.model, "status": status,
                "seconds": time.perf_counter() - started}

    # -- answers --------------------------------------------------------------------------

    def profile(self, name: str, lang: str) -> Profile:
        """What a corpus mentions, for the relevance gate (computed once per loaded index)."""
        spec, lang = self.corpus(name, lang)
        searcher = self.searcher(spec.name, lang)
        key = (spec.name, lang, searcher.identity)
        if key not in self._profiles:
            self._profiles[key] = replace(profile_for(spec.name, lang, searcher.provisions, spec.celex, spec.title),
                                          rule_pattern=spec.rule_pattern or RULE_PATTERN)
        return self._profiles[key]

    def answer(self, question: str, *, corpus: str = "gdpr", lang: str | None = None,
               turns: list[dict] | None = None):
        """The answer pipeline on one question, without logging it (what `ask` and the
        abstention evaluation share)."""
        spec, _ = self.corpus(corpus)
        corpus_lang = self.resolve_lang(spec.name, lang)
        searcher = self.searcher(spec.name, corpus_lang)
        fusion = default_fusion(corpus_lang, self.settings)
        tuning = settings_tuning(self.settings)
        context = Context(lambda name, code: ServiceTools(self, name, code),
                          Budget(self.settings.agent_tool_calls, self.settings.agent_token_budget))
        result = answer_question(
            question, answerer=answerer_for(self.settings.answer_mode, self.llm, context), analyse=searcher.analyse,
            retrieve=lambda query: searcher.search(query, k=ASK_K, mode=self.settings.search_mode, fusion=fusion),
            profile=lambda: self.profile(spec.name, corpus_lang), history=turns,
            evidence_k=self.settings.answer_k, same_language=lang is None or lang.lower() == corpus_lang,
            floor=self.relevance_floor, coverage_weight=tuning.coverage_weight, asked_floor=tuning.asked_floor,
            asked_cover_floor=tuning.asked_cover_floor)
        if result.outcome == "refused" and result.reason in ELSEWHERE_REASONS:
            result.see = [*result.see, *self._elsewhere(result, spec.name, corpus_lang)]
        return result

    def _elsewhere(self, result, name: str, lang: str) -> list:
        """A pointer to the best provision of each other corpus already indexed in `lang` that
        matches the refused question far better than `name` does (none is built or rebuilt for this:
        an index left behind by a change of corpus, model or settings is passed over)."""
        own = (result.gate.signals.get("relevance") if result.gate else None) or 0.0
        keys = [k for k in self.store.keys() if k.endswith(f"/{lang}") and k != index_key(name, lang)]
        found = []
        for key in keys[:ELSEWHERE_CORPORA]:
            other = key.rsplit("/", 1)[0]
            try:
                cached = self._searchers.get(key)
                if cached is None and not index_is_current(other, lang, self.settings, self.store, self.embedder):
                    continue  # a loaded searcher is current: searcher() reloads it only when its index was replaced
                searcher = self.searcher(other, lang)
                query = searcher.analyse(result.rewritten or result.question)
                # Dense only: the query vector is already cached, so another corpus costs one vector scan.
                hits = searcher.search(query, k=ELSEWHERE_K, mode="dense")
                gate = check(query, hits, self.profile(other, lang), floor=self.relevance_floor,
                             coverage_weight=settings_tuning(self.settings).coverage_weight)
            except PinciteError:  # a corpus that cannot be searched now is no pointer
                continue
            if gate.ok and gate.signals["relevance"] >= own + ELSEWHERE_MARGIN:
                best = next(h for h in hits if not h.exact) if any(not h.exact for h in hits) else hits[0]
                found.append((gate.signals["relevance"], pointer(best.provision, other, query)))
        return [p for _, p in sorted(found, key=lambda pair: -pair[0])[:1]]

    def ask(self, question: str, *, corpus: str = "gdpr", lang: str | None = None, thread: str | None = None) -> dict:
        """Answer a question from one corpus, or refuse with a named reason.
        `thread` continues a conversation (created when new). The answer is logged and added
        to its thread."""
        spec, _ = self.corpus(corpus)  # UnknownCorpusError: a typed error for the surfaces
        corpus_lang = self.resolve_lang(spec.name, lang)
        result = self.answer(question, corpus=spec.name, lang=lang, turns=history.history(self.settings, thread))
        thread_id = None
        try:
            if thread or self.settings.ask_log:  # with logging off, only a thread the user named is kept
                thread_id = history.add_turn(self.settings, thread, corpus=spec.name, lang=corpus_lang,
                                             question=result.question, rewritten=result.rewritten,
                                             answer=documents.answer_text(result, spec), outcome=result.outcome)
            history.record(self.settings, result, corpus=spec.name, lang=corpus_lang, thread=thread_id)
        except WriteError as exc:
            if thread:  # the user is continuing a conversation: a lost turn must not pass silently
                raise
            # A full disk costs the log entry, not the answer the reader asked for.
            log.warning("ask log not written: %s", exc)
            thread_id = None
        return documents.answer_document(result, spec, corpus_lang, self._version(spec.name, corpus_lang), thread_id)

    # -- verify ---------------------------------------------------------------------------

    def verify(self, text: str, *, corpus: str = "gdpr", lang: str | None = None,
               second_opinion: bool | None = None) -> dict:
        """Check each sentence of any text against the provisions its citations name, looked up
        directly in the corpus (no retrieval; a corpus not built is built on first use).
        `second_opinion`: also ask the model whether each cited text entails its sentence (None:
        when a model is configured); the model can only take support away (verify/opinion.py)."""
        spec, _ = self.corpus(corpus)
        spec, lang = self.corpus(spec.name, lang or default_lang(spec))
        provisions, _ = self.provisions(spec.name, lang)
        lookup, rule_pattern = self.lookup(spec.name, lang), spec.rule_pattern or RULE_PATTERN
        checked = check_text(text or "", lookup, lang, corpus=spec.name, rule_pattern=rule_pattern, act=provisions)
        opinions = None
        if second_opinion is not False:
            try:
                llm, unavailable = self.llm, None
            except ConfigError as exc:
                if second_opinion:  # asked for by name: a model that cannot be set up is the caller's to fix
                    raise
                llm, unavailable = None, str(exc)  # on by default only: the rules' verdict still stands
            if second_opinion and llm is None:
                raise ConfigError("a second opinion needs a model — set PINCITE_LLM (e.g. openai:gpt-4.1-mini), "
                                  "or leave the second opinion off")
            if llm is not None or unavailable:
                judged = second_opinions(checked, lookup, llm, lang, rule_pattern=rule_pattern,
                                         unavailable=unavailable)
                checked, opinions = [c for c, _ in judged], [o for _, o in judged]
        return documents.verify_document(checked, spec, lang, self._version(spec.name, lang), opinions)

    def lookup(self, name: str, lang: str):
        """label → the cited text in a corpus language (None when the corpus has no such provision)."""
        spec, lang = self.corpus(name, lang)
        provisions, _ = self.provisions(spec.name, lang)
        return lambda label: cited_as_data(lookup_label(label, provisions, spec.rule_pattern or RULE_PATTERN))

    def _version(self, name: str, lang: str) -> str:
        info = corpus_info(name, lang, self.settings)
        return info.version if info else ""


def _upload_error(exc: Exception, safe: str, home: Path) -> PinciteError:
    """What the sender of a failed upload is told: the file's name, never a server path."""
    if isinstance(exc, OSError):
        return StoreError(f"the server could not store {safe} ({exc.strerror or type(exc).__name__}) — "
                          f"try again later")
    if not isinstance(exc, PinciteError):
        return PinciteError(f"the server failed to add {safe} — the error is in its log")
    message = str(exc)
    for where in _server_paths(home, safe):
        message = message.replace(where, safe)
    message = re.sub(r"""(?<![\w:/.])(?:file://)?/[^\s'"()]+""", safe, message)  # any other absolute path
    if isinstance(exc, (SourceError, ParseError)):  # a bad upload is the sender's to fix
        return ConfigError(message)
    return type(exc)(message)


def _server_paths(home: Path, safe: str) -> list[str]:
    path = home / "uploads" / safe
    forms = [path.resolve().as_uri(), str(path.resolve()), path.as_uri() if path.is_absolute() else "", str(path)]
    return sorted({f for f in forms if f}, key=len, reverse=True)


def _heard(progress: Progress | None) -> tuple[set[str], Progress]:
    """The stages a build reports, kept (what was done), and `progress` told of them too."""
    stages: set[str] = set()

    def heard(stage: str, done: int, total: int | None) -> None:
        stages.add(stage)
        if progress is not None:
            progress(stage, done, total)

    return stages, heard


def default_lang(spec: CorpusSpec) -> str:
    return "en" if "en" in spec.langs else sorted(spec.langs)[0]
