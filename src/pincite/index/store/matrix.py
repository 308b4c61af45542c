"""An index held in memory and searched there: one vector matrix, BM25 postings as arrays.

The SQLite store keeps one of these per loaded index; `pincite.testing.MemoryStore` is one
without a file behind it.
"""

from __future__ import annotations

import numpy as np

from pincite.index.keyword import bm25_weights
from pincite.index.store.base import IndexIdentity, Scored, Unit
from pincite.provisions import Provision


class MatrixIndex:
    """A provision scores its best unit, dense and BM25 alike."""

    def __init__(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                 vectors: np.ndarray):
        self.identity, self.provisions, self.units, self.vectors = identity, provisions, units, vectors
        self.ids = [p.id for p in provisions]
        position = {pid: i for i, pid in enumerate(self.ids)}
        self.unit_provision = np.array([position[u.provision_id] for u in units], dtype=np.int32)
        keyword_units = [i for i, u in enumerate(units) if u.tokens]
        self.keyword_provision = self.unit_provision[keyword_units]
        self.postings = bm25_weights([units[i].tokens for i in keyword_units])

    def dense_scores(self, vector: np.ndarray) -> np.ndarray:
        """Every provision's best-unit cosine (vectors are L2-normalised)."""
        best = np.full(len(self.provisions), -1.0, dtype=np.float32)
        if len(self.units):
            np.maximum.at(best, self.unit_provision, self.vectors @ vector)
        return best

    def keyword_scores(self, terms: list[str]) -> np.ndarray:
        """Every provision's best-unit BM25 score."""
        per_unit = np.zeros(len(self.keyword_provision), dtype=np.float32)
        for term in set(terms):
            if term in self.postings:
                idx, weights = self.postings[term]
                per_unit[idx] += weights
        best = np.zeros(len(self.provisions), dtype=np.float32)
        np.maximum.at(best, self.keyword_provision, per_unit)
        return best

    def dense(self, vector: np.ndarray, k: int) -> Scored:
        return self._top(self.dense_scores(vector), k)

    def keyword(self, terms: list[str], k: int) -> Scored:
        scores = self.keyword_scores(terms)
        return [(pid, s) for pid, s in self._top(scores, k) if s > 0]

    def _top(self, scores: np.ndarray, k: int) -> Scored:
        k = min(k, len(scores))
        if k <= 0:
            return []
        part = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        order = part[np.lexsort((part, -scores[part]))]  # best first; ties in corpus order
        ids = self.ids
        return list(zip([ids[i] for i in order.tolist()], scores[order].tolist(), strict=True))
