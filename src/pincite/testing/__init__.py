"""Fakes for tests, registered through the same seams as the real parts.

`MemoryStore` is a Store with nothing on disk (URL scheme "memory:"); `HashEmbedder` gives
deterministic vectors without a model, for tests about anything but embedding quality.
"""

from __future__ import annotations

import hashlib

import numpy as np

from pincite.index.store.base import (
    Edge,
    IndexIdentity,
    Scored,
    Unit,
    check_replacement,
    edges_of,
    register_store,
    text_hash,
)
from pincite.index.store.matrix import MatrixIndex
from pincite.index.units import provision_units
from pincite.provisions import Provision
from pincite.retrieve.search import Searcher
from pincite.settings import Settings


class MemoryStore:
    """Every index in this process's memory; replacing one swaps it whole."""

    def __init__(self, url: str = "memory:"):
        self.indexes: dict[str, MatrixIndex] = {}
        self.vectors: dict[tuple[str, str], np.ndarray] = {}

    def identity(self, key: str) -> IndexIdentity | None:
        index = self.indexes.get(key)
        return index.identity if index else None

    def keys(self) -> list[str]:
        return sorted(self.indexes)

    def replace_index(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                      vectors: np.ndarray) -> None:
        check_replacement(identity, units, vectors)
        index = MatrixIndex(identity, provisions, units, np.asarray(vectors, dtype=np.float32))
        for unit, vector in zip(units, index.vectors, strict=True):
            self.vectors[(identity.model, text_hash(unit.text))] = vector
        self.indexes[identity.key] = index

    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        return {h: self.vectors[(model, h)] for h in hashes if (model, h) in self.vectors}

    def provisions(self, key: str) -> list[Provision]:
        return self.indexes[key].provisions

    def units(self, key: str) -> list[Unit]:
        return self.indexes[key].units

    def edges(self, key: str) -> list[Edge]:
        return edges_of(self.indexes[key].provisions)

    def dense(self, key: str, vector: np.ndarray, k: int) -> Scored:
        return self.indexes[key].dense(vector, k)

    def keyword(self, key: str, terms: list[str], k: int) -> Scored:
        return self.indexes[key].keyword(terms, k)

    def close(self) -> None:
        pass


register_store("memory", MemoryStore)


class HashEmbedder:
    """Deterministic unit vectors from a text's hash: the same text, the same vector."""

    identity = "hash-embedder"

    def __init__(self, dim: int = 16):
        self.dim = dim

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.vstack([self.embed_query(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        vector = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return vector / np.linalg.norm(vector)


def keyword_searcher(provisions: list[Provision], settings: Settings, lang: str, *,
                     rule_pattern: str | None = None) -> Searcher:
    """A Searcher over these provisions' units with zero vectors: for BM25 and exact lookup."""
    units = [u for p in provisions for u in provision_units(p, settings)]
    store = MemoryStore()
    key = f"{provisions[0].instrument}/{lang}" if provisions else f"test/{lang}"
    store.replace_index(IndexIdentity(key, "x", "none", "x"), provisions, units,
                        np.zeros((len(units), 4), np.float32))
    return Searcher(store, key, None, lang, rule_pattern=rule_pattern)
