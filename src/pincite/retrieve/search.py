"""Search one index: dense and BM25 candidates from the store, fused, optionally reranked, with
the provisions a question names put first.

The store does the searching (`Store.dense`, `Store.keyword`): the embedded SQLite store in
memory, a database store in the database. A provision scores its best unit.
"""

from __future__ import annotations

from pincite.errors import ConfigError, PinciteError
from pincite.index.store import Store
from pincite.provisions import Provision
from pincite.retrieve.crosslang import Twin
from pincite.retrieve.exact import exact_hits, merge_exact
from pincite.retrieve.fusion import Fusion, fuse
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query, analyse
from pincite.retrieve.rerank import Reranker
from pincite.settings import SEARCH_MODES


def check_mode(mode: str) -> str:
    if mode not in SEARCH_MODES:
        raise ConfigError(f"unknown search mode {mode!r} — use one of: {', '.join(SEARCH_MODES)}")
    return mode


class Searcher:
    """One index of one corpus language, searched through its store.

    `depth` is how many candidates each of dense and BM25 hands to fusion (0: every provision,
    what the embedded store affords; a database store searches a bounded depth)."""

    def __init__(self, store: Store, key: str, embedder=None, lang: str | None = None, *,
                 rule_pattern: str | None = None, depth: int = 0, reranker: Reranker | None = None,
                 twin: Twin | None = None):
        self.store, self.key, self.embedder = store, key, embedder
        self.provisions: list[Provision] = store.provisions(key)
        self.by_id = {p.id: p for p in self.provisions}
        self.lang = lang or (self.provisions[0].lang if self.provisions else "en")
        self.rule_pattern = rule_pattern
        self.depth = depth or len(self.provisions)
        self.reranker = reranker
        self.twin = twin
        self.position = {p.id: i for i, p in enumerate(self.provisions)}

    def analyse(self, text: str) -> Query:
        return analyse(text, self.lang, rule_pattern=self.rule_pattern)

    def search(self, query: str | Query, k: int = 10, mode: str = "hybrid", fusion: Fusion | None = None) -> list[Hit]:
        query = query if isinstance(query, Query) else self.analyse(query)
        fusion = fusion or Fusion()
        check_mode(mode)
        dense = self._dense(query) if mode in ("hybrid", "dense") else None
        bm25 = self.store.keyword(self.key, list(query.tokens), self.depth) if mode in ("hybrid", "bm25") else None
        scores = fuse(dense, bm25, fusion)
        if fusion.recital_weight != 1.0:
            scores = {pid: s * fusion.recital_weight if self.by_id[pid].kind == "recital" else s
                      for pid, s in scores.items()}
        dense_of, bm25_of = dict(dense or []), dict(bm25 or [])
        depth = max(max(k, 1) * 2, getattr(self.reranker, "depth", 0))
        order = sorted(scores, key=lambda pid: (-scores[pid], self.position[pid]))[:depth]
        hits = [Hit(self.by_id[pid], scores[pid], dense_of.get(pid) if dense is not None else None,
                    bm25_of.get(pid, 0.0) if bm25 is not None else None) for pid in order]
        if self.reranker is not None:
            hits = self.reranker.rerank(query, hits, len(hits))
        if self.twin is not None:
            hits = self.twin.rerank(query, hits, mode)
        return merge_exact(exact_hits(query, self.provisions, self.rule_pattern), hits)[:k]

    def _dense(self, query: Query):
        if self.embedder is None:
            raise PinciteError("dense search needs an embedding model — set PINCITE_EMBED_MODEL_PATH")
        return self.store.dense(self.key, self.embedder.embed_query(query.text), self.depth)
