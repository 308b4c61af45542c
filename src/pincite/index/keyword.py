"""The keyword index: BM25 postings as numpy arrays (after bm25s: speed from the data layout)."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

Postings = dict[str, tuple[np.ndarray, np.ndarray]]  # term → (unit positions, BM25 weights)
K1, B = 1.2, 0.75  # BM25's term-frequency saturation and length normalisation (every store uses these)


def bm25_weights(doc_tokens: list[list[str]], k1: float = K1, b: float = B) -> Postings:
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
        idf = robertson_idf(n, len(docs))
        norm = freq + k1 * (1 - b + b * lengths[idx] / avg)
        postings[term] = (idx, (idf * freq * (k1 + 1) / norm).astype(np.float32))
    return postings


def robertson_idf(n: int, df: int) -> float:
    """The idf BM25 uses, for a term in df of n documents."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))
