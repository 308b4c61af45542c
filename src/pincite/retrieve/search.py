"""Search one index: dense and BM25 candidates from the store, fused, optionally reranked, with
the provisions a question names put first, and one reference followed when the question asks for
what lives elsewhere (retrieve.follow).

The store does the searching (`Store.dense`, `Store.keyword`): the embedded SQLite store in
memory, a database store in the database. A provision scores its best unit.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from pincite import languages
from pincite.errors import ConfigError, PinciteError
from pincite.index.store import IndexIdentity, Scored, SearchRequest, Store, search_many
from pincite.provisions import Provision
from pincite.retrieve.crosslang import Twin
from pincite.retrieve.definitions import definition_hits
from pincite.retrieve.exact import exact_hits, merge_exact
from pincite.retrieve.follow import follow, with_gateways, with_rules, with_terms
from pincite.retrieve.fusion import Fusion, expand, fuse
from pincite.retrieve.graph import Graph
from pincite.retrieve.hits import ASKED_WHY, Hit
from pincite.retrieve.query import Query, acronym_phrases, analyse, check_query
from pincite.retrieve.questions import CANDIDATES, ProvisionQuestions
from pincite.retrieve.rerank import Reranker
from pincite.settings import SEARCH_MODES

REST_DEPTH = 40  # provisions ranked for the rest of a question that asks for what lives elsewhere
REST_DECAY = 0.2  # how fast a provision's match with the rest falls with its rank there


def check_mode(mode: str) -> str:
    if mode not in SEARCH_MODES:
        raise ConfigError(f"unknown search mode {mode!r} — use one of: {', '.join(SEARCH_MODES)}")
    return mode


class Searcher:
    """One index of one corpus language, searched through its store.

    `depth` is how many candidates each of dense and BM25 hands to fusion (0: every provision, what
    the embedded store affords; a database store hands its bounded `search_depth` for an index of
    more than `searched_whole` provisions, and searches a smaller one whole, asking for
    `searched_whole`: one depth for all of them, so several are still one query)."""

    def __init__(self, store: Store, key: str, embedder=None, lang: str | None = None, *,
                 rule_pattern: str | None = None, depth: int = 0, reranker: Reranker | None = None,
                 follow_references: bool = True, twin: Twin | None = None,
                 questions: ProvisionQuestions | None = None):
        self.store, self.key, self.embedder = store, key, embedder
        self.provisions: list[Provision] = store.provisions(key)
        self.by_id = {p.id: p for p in self.provisions}
        self.lang = lang or (self.provisions[0].lang if self.provisions else "en")
        self.rule_pattern = rule_pattern
        self._depth = depth
        self.reranker = reranker
        self.follow_references = follow_references
        self.twin = twin
        self.questions = questions  # written for each provision, read by the ranker (retrieve.questions)
        self.identity: IndexIdentity | None = None  # the service's note of the index loaded, to notice a rebuild
        self.position = {p.id: i for i, p in enumerate(self.provisions)}
        self.recitals = frozenset(p.id for p in self.provisions if p.kind == "recital")
        self._graph: Graph | None = None
        self._acronyms: dict[str, str] | None = None

    @property
    def depth(self) -> int:
        """Read from the store each time (not kept): a change of its bounds applies at once."""
        bounded, whole = getattr(self.store, "search_depth", 0), getattr(self.store, "searched_whole", 0)
        return self._depth or (whole if bounded and len(self.provisions) <= whole else bounded) or len(self.provisions)

    @property
    def graph(self) -> Graph:
        """The index's reference graph, read from the store on first use."""
        if self._graph is None:
            self._graph = Graph(self.store.edges(self.key), self.provisions)
        return self._graph

    @property
    def acronyms(self) -> dict[str, str]:
        """Acronyms the corpus never writes but spells out (DPO: data protection officer)."""
        if self._acronyms is None:
            self._acronyms = acronym_phrases([p.text for p in self.provisions if p.kind != "recital"])
        return self._acronyms

    def analyse(self, text: str) -> Query:
        return analyse(text, self.lang, rule_pattern=self.rule_pattern, acronyms=self.acronyms)

    def search(self, query: str | Query, k: int = 10, mode: str = "hybrid", fusion: Fusion | None = None) -> list[Hit]:
        query = query if isinstance(query, Query) else self.analyse(query)
        fusion = fusion or Fusion()
        self._embed_with_rest(query, mode)
        dense, bm25 = self.candidates(query, search_many(self.store, self.requests(query, mode, fusion)), fusion)
        return self.rank(query, dense, bm25, k, fusion, mode)

    def request(self, query: Query, mode: str) -> SearchRequest:
        """What the store is asked for this query: a vector for dense, terms for BM25."""
        check_mode(mode)
        vector = self._vector(query) if mode in ("hybrid", "dense") else None
        terms = list(query.tokens) if mode in ("hybrid", "bm25") else None
        return SearchRequest(self.key, vector, terms, self.depth)

    def requests(self, query: Query, mode: str, fusion: Fusion) -> list[SearchRequest]:
        """`request`, and a second keyword search for the statute's words for the question's plain
        ones when the fusion weighs them (index.vocabulary)."""
        main = self.request(query, mode)
        if main.terms is None or not query.expansions or fusion.expansion_weight <= 0:
            return [main]
        return [main, SearchRequest(self.key, None, list(query.expansions), self.depth)]

    @staticmethod
    def candidates(query: Query, found: list[tuple[Scored | None, Scored | None]],
                   fusion: Fusion) -> tuple[Scored | None, Scored | None]:
        """The store's answers to `requests` as one (dense, BM25) pair: the expansion's BM25 added
        to the question's at the fusion's weight."""
        (dense, bm25), *extra = found
        return dense, expand(bm25, extra[0][1], fusion.expansion_weight) if extra else bm25

    def rank(self, query: Query, dense: Scored | None, bm25: Scored | None, k: int = 10,
             fusion: Fusion | None = None, mode: str = "hybrid") -> list[Hit]:
        """The store's candidates fused, reranked, the provisions the query names put first, and
        one reference followed when the question asks for what lives elsewhere."""
        fusion = fusion or Fusion()
        ranked, scores = self._ranked(query, dense, bm25, k, fusion, mode)
        if self.follow_references and query.hops:
            ranked = follow(query, ranked, self.graph, self.by_id, scores, self._rest(query, mode, fusion))
        if self.follow_references:
            ranked = with_rules(ranked, self.graph, self.by_id, k)
            ranked = with_gateways(ranked, self.graph, k)
            ranked = with_terms(ranked, self.graph, k)
        if query.asks in TITLED_ANSWERS:
            ranked = titled_first(ranked, k, query.asks, self.provisions)
        return ranked[:k]

    def _ranked(self, query: Query, dense: Scored | None, bm25: Scored | None, k: int,
                fusion: Fusion, mode: str) -> tuple[list[Hit], dict[str, float]]:
        """Hits best first (fused, reranked, named provisions first), and the fused scores."""
        truncated = dense is not None and len(dense) >= self.depth and self.depth < len(self.provisions)
        scores = fuse(dense, bm25, fusion, truncated=truncated)  # a new dict, changed in place below
        if fusion.recital_weight != 1.0:
            for pid in self.recitals.intersection(scores):
                scores[pid] *= fusion.recital_weight
        dense_of, bm25_of = dict(dense or []), dict(bm25 or [])
        depth = max(max(k, 1) * 2, getattr(self.reranker, "depth", 0))
        # The best `depth` of every provision's score (a heap: the index is searched whole).
        order = heapq.nsmallest(depth, scores, key=lambda pid: (-scores[pid], self.position[pid]))
        hits = [Hit(self.by_id[pid], scores[pid], dense_of.get(pid) if dense is not None else None,
                    bm25_of.get(pid, 0.0) if bm25 is not None else None) for pid in order]
        if self.questions is not None and mode != "bm25":
            hits = self._asked(query, hits, scores, dense_of if dense is not None else None,
                               bm25_of if bm25 is not None else None)
        if self.reranker is not None:
            hits = self.reranker.rerank(query, hits, len(hits))
        if self.twin is not None:
            hits = self.twin.rerank(query, hits, mode)
        named = exact_hits(query, self.provisions, self.rule_pattern)
        if not named:  # a question that names a provision asks about that one, not about a term
            named = definition_hits(query.term, self.provisions, lambda: self.graph.definitions)
        return merge_exact(named, hits), scores

    def _asked(self, query: Query, hits: list[Hit], scores: dict[str, float], dense_of: dict | None,
               bm25_of: dict | None) -> list[Hit]:
        """The hits with their written questions' match (`Hit.asked`), and the provisions whose questions
        match best that the first stage ranked too low for the ranker to read: put just after the ones it
        reads, marked, so it reads them too (retrieve.ranker)."""
        assert self.questions is not None
        asked, row = self.questions.matches(self._vector(query))
        said = self.questions.texts
        words = self.questions.words
        for h in hits:
            h.asked = asked.get(h.provision.id)
            h.asked_question = said[row[h.provision.id]] if h.provision.id in row and said else ""
            h.asked_words = words.get(h.provision.id, frozenset())
        read = getattr(self.reranker, "depth", len(hits))
        seen = {h.provision.id for h in hits[:read]}
        best = [pid for pid in heapq.nlargest(CANDIDATES, asked, key=lambda pid: (asked[pid], -self.position[pid]))
                if pid not in seen and pid in self.by_id]
        if not best:
            return hits
        low = min((h.score for h in hits), default=0.0)
        added = [Hit(self.by_id[pid], scores.get(pid, low), dense_of.get(pid) if dense_of is not None else None,
                     bm25_of.get(pid, 0.0) if bm25_of is not None else None, asked=asked[pid],
                     asked_question=said[row[pid]] if said else "", why=[ASKED_WHY],
                     asked_words=words.get(pid, frozenset())) for pid in best]
        moved = set(best)
        rest = [h for h in hits[read:] if h.provision.id not in moved]
        return hits[:read] + added + rest

    def _rest(self, query: Query, mode: str, fusion: Fusion) -> dict[str, float]:
        """How well each provision matches the rest of the question ("not appointing a DPO"):
        by its rank when that is searched as a question of its own, 1 for the first."""
        if not query.rest_tokens:
            return {}
        rest = analyse(query.rest, self.lang, rule_pattern=self.rule_pattern)
        dense, bm25 = self.candidates(rest, search_many(self.store, self.requests(rest, mode, fusion)), fusion)
        ranked, _ = self._ranked(rest, dense, bm25, REST_DEPTH, fusion, mode)
        return {h.provision.id: 1 / (1 + REST_DECAY * rank) for rank, h in enumerate(ranked[:REST_DEPTH])}

    def _embed_with_rest(self, query: Query, mode: str) -> None:
        """A question whose rest is searched too (`_rest`) has both embedded in one batch, where the
        embedder remembers query vectors (the service's query cache)."""
        together = getattr(self.embedder, "embed_queries", None)
        if together is not None and mode != "bm25" and self.follow_references and query.hops and query.rest_tokens:
            together([query.text, check_query(query.rest)])  # the text `analyse` makes of the rest

    def _vector(self, query: Query):
        if self.embedder is None:
            raise PinciteError("dense search needs an embedding model — set PINCITE_EMBED_MODEL_PATH")
        return self.embedder.embed_query(query.text)


# Questions the act answers in articles it titles for them (Query.asks): whether it applies, in its
# scope article ('Material scope', 'Territorial scope', 'Subject matter and scope', 'Ambito di
# applicazione territoriale'); which acts it amends, in its amending articles ('Amendment to
# Regulation (EC) No 300/2008', 'Modifica del regolamento …'); from when it applies, in its final
# article ('Entry into force and application'). With the number of them put first (the best scope part;
# every amending article found) and whether the act's own parts are taken when retrieval found none (the
# question names the act's application: there is only one article for it).
TITLED_ANSWERS = {
    "scope": (languages.cue("scope", "ANSWER_TITLES"), 1, False),
    "amendments": (languages.cue("amendments", "ANSWER_TITLES"), 12, False),
    "application": (languages.cue("application", "ANSWER_TITLES"), 4, True),
}


def answers_by_title(asks: str | None, p: Provision) -> bool:
    """Whether `p` is of the articles the act titles for what the question asks (TITLED_ANSWERS)."""
    titled = TITLED_ANSWERS.get(asks or "")
    return titled is not None and p.kind != "recital" and bool(titled[0].search(p.title or ""))


def titled_first(hits: list[Hit], k: int, asks: str, provisions: Sequence[Provision] = ()) -> list[Hit]:
    """The candidates of the articles titled for the question first ('Does the GDPR apply to us?' →
    its scope article; 'Which regulations does the AI Act amend?' → its amending articles), when one
    is among the first `k` (or, for the act's application, from `provisions` when none is): that is
    where the answer is, however the question is told."""
    _, count, whole = TITLED_ANSWERS[asks]
    if any(h.exact for h in hits[:1]):
        return hits
    if not any(answers_by_title(asks, h.provision) and not h.exact for h in hits[:k]):
        if not whole:
            return hits
        found = {h.provision.id for h in hits}
        hits = hits + [Hit(p, 0.0) for p in provisions if answers_by_title(asks, p) and p.id not in found]
    first = [h for h in hits if answers_by_title(asks, h.provision) and not h.exact][:count]
    moved = {id(h) for h in first}
    return first + [h for h in hits if id(h) not in moved]


def search_together(jobs: list[tuple[Searcher, Query, Fusion]], k: int, mode: str) -> list[list[Hit]]:
    """Several indexes of one store searched for one question: the candidates in one store query
    (a database store's; the embedded store searches each in turn), then each index's own fusion."""
    if not jobs:
        return []
    asked = [searcher.requests(query, mode, fusion) for searcher, query, fusion in jobs]
    found = search_many(jobs[0][0].store, [r for requests in asked for r in requests])
    out, start = [], 0
    for (searcher, query, fusion), requests in zip(jobs, asked, strict=True):
        dense, bm25 = searcher.candidates(query, found[start:start + len(requests)], fusion)
        start += len(requests)
        out.append(searcher.rank(query, dense, bm25, k, fusion, mode))
    return out
