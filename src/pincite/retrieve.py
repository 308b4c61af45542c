"""The retrieve stage: dense, BM25, hybrid fusion, and exact lookup of named provisions.

A `Searcher` holds one loaded index in memory (vectors as one matrix, BM25 postings as numpy
arrays, after bm25s: speed from the data layout) and answers queries in a few milliseconds.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from .analysis import tokenize
from .citations import find_citations
from .corpus import find_provisions
from .errors import PinciteError
from .provisions import Provision
from .store import LoadedIndex

MODES = ("hybrid", "dense", "bm25")
MAX_QUERY_CHARS = 2000


@dataclass(frozen=True)
class Fusion:
    """How dense and BM25 scores are combined; chosen by `pincite eval retrieval --sweep`."""

    method: str = "linear"  # "linear" (weighted min-max scores) or "rrf"
    dense_weight: float = 0.5  # linear: weight of dense; rrf: weight of the dense ranking
    rrf_k: int = 60
    recital_weight: float = 1.0  # recitals are context, not obligations: optionally demoted


@dataclass
class Hit:
    provision: Provision
    score: float
    dense: float | None = None
    bm25: float | None = None
    exact: bool = False
    why: list[str] = field(default_factory=list)


def bm25_weights(doc_tokens: list[list[str]], k1: float = 1.2, b: float = 0.75):
    """Postings term → (doc indexes, BM25 weights); Robertson/Lucene idf (Lù 2024, bm25s)."""
    n = len(doc_tokens)
    lengths = np.array([len(t) for t in doc_tokens], dtype=np.float32)
    avg = float(lengths.mean()) if n and lengths.sum() else 1.0
    tf: dict[str, dict[int, int]] = defaultdict(dict)
    for i, tokens in enumerate(doc_tokens):
        for token in tokens:
            tf[token][i] = tf[token].get(i, 0) + 1
    postings = {}
    for term, docs in tf.items():
        idx = np.fromiter(docs.keys(), dtype=np.int32, count=len(docs))
        freq = np.fromiter(docs.values(), dtype=np.float32, count=len(docs))
        idf = math.log(1 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
        norm = freq + k1 * (1 - b + b * lengths[idx] / avg)
        postings[term] = (idx, (idf * freq * (k1 + 1) / norm).astype(np.float32))
    return postings


class Searcher:
    """Search one loaded index. Units map back to provisions; a provision scores its best unit."""

    def __init__(self, index: LoadedIndex, embedder=None, lang: str | None = None,
                 rule_pattern: str | None = None):
        self.index = index
        self.rule_pattern = rule_pattern
        self.embedder = embedder
        self.provisions = index.provisions
        self.lang = lang or (index.provisions[0].lang if index.provisions else "en")
        position = {p.id: i for i, p in enumerate(self.provisions)}
        self.unit_provision = np.array([position[u.provision_id] for u in index.units], dtype=np.int32)
        keyword_units = [i for i, u in enumerate(index.units) if u.tokens]
        self.keyword_provision = self.unit_provision[keyword_units]
        self.postings = bm25_weights([index.units[i].tokens for i in keyword_units])
        self.is_recital = np.array([p.kind == "recital" for p in self.provisions])

    def dense_scores(self, query: str) -> np.ndarray:
        if self.embedder is None:
            raise PinciteError("dense search needs an embedding model — set PINCITE_EMBED_MODEL_PATH")
        sims = self.index.vectors @ self.embedder.embed_query(query)
        best = np.full(len(self.provisions), -1.0, dtype=np.float32)
        np.maximum.at(best, self.unit_provision, sims)
        return best

    def bm25_scores(self, query: str) -> np.ndarray:
        per_unit = np.zeros(len(self.keyword_provision), dtype=np.float32)
        for term in set(tokenize(query, self.lang)):
            if term in self.postings:
                idx, weights = self.postings[term]
                per_unit[idx] += weights
        best = np.zeros(len(self.provisions), dtype=np.float32)
        np.maximum.at(best, self.keyword_provision, per_unit)
        return best

    def search(self, query: str, k: int = 10, mode: str = "hybrid", fusion: Fusion = Fusion()) -> list[Hit]:
        query = check_query(query)
        dense = self.dense_scores(query) if mode in ("hybrid", "dense") else None
        bm25 = self.bm25_scores(query) if mode in ("hybrid", "bm25") else None
        scores = fuse(dense, bm25, fusion)
        if fusion.recital_weight != 1.0:
            scores = np.where(self.is_recital, scores * fusion.recital_weight, scores)
        order = np.argsort(-scores, kind="stable")[: max(k, 1) * 2]
        hits = [Hit(self.provisions[i], float(scores[i]),
                    None if dense is None else float(dense[i]),
                    None if bm25 is None else float(bm25[i])) for i in order]
        return merge_exact(self.exact_hits(query), hits)[:k]

    def exact_hits(self, query: str) -> list[Hit]:
        """Provisions the question names ('Article 17', 'Art. 83(5)', 'Annex III', 'Articolo 5')."""
        found: list[Hit] = []
        extra = {"rule_pattern": self.rule_pattern} if self.rule_pattern else {}
        for _, _, citation in find_citations(query, **extra):
            for p in find_provisions(self.provisions, citation, **extra)[:20]:
                found.append(Hit(p, math.inf, exact=True, why=[f"named: {citation}"]))
        return found


def merge_exact(exact: list[Hit], ranked: list[Hit]) -> list[Hit]:
    """Named provisions first, in the order named, then the ranked hits without repeats."""
    seen: set[str] = set()
    out: list[Hit] = []
    for hit in exact + ranked:
        if hit.provision.id not in seen:
            seen.add(hit.provision.id)
            out.append(hit)
    return out


def fuse(dense: np.ndarray | None, bm25: np.ndarray | None, fusion: Fusion) -> np.ndarray:
    if bm25 is None:
        return dense
    if dense is None:
        return bm25
    if fusion.method == "rrf":
        return (fusion.dense_weight / (fusion.rrf_k + _ranks(dense))
                + (1 - fusion.dense_weight) / (fusion.rrf_k + _ranks(bm25)))
    return fusion.dense_weight * _minmax(dense) + (1 - fusion.dense_weight) * _minmax(bm25)


def _ranks(scores: np.ndarray) -> np.ndarray:
    ranks = np.empty(len(scores), dtype=np.float32)
    ranks[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
    return ranks


def _minmax(scores: np.ndarray) -> np.ndarray:
    low, high = float(scores.min()), float(scores.max())
    return (scores - low) / (high - low) if high > low else np.zeros_like(scores)


def check_query(query: str) -> str:
    text = " ".join(query.split())
    if not text:
        raise PinciteError("the question is empty — type what you want to find")
    # Long pasted text is cut rather than refused: the start carries the question.
    return text[:MAX_QUERY_CHARS]


def default_fusion(lang: str, settings=None) -> Fusion:
    """Fusion chosen by the evaluation (docs/retrieval.md). The shipped model is English-only,
    so other languages lean on BM25 and exact lookup."""
    # Thai script is opaque to the English model: dense adds only noise there (measured on the
    # PDPA set: hit@10 0.93 hybrid against 1.0 BM25 alone).
    weight = 0.5 if lang == "en" else (0.0 if lang == "th" else 0.3)
    if settings is None:
        return Fusion(dense_weight=weight)
    if settings.dense_weight is not None:
        weight = settings.dense_weight
    return Fusion(method=settings.fusion_method, dense_weight=weight, rrf_k=settings.rrf_k,
                  recital_weight=settings.recital_weight)
