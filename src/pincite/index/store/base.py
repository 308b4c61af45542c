"""The Store seam: where indexes live and where they are searched.

An index is identified by a key ("gdpr/en") and records what built it (corpus sha256, model,
settings hash). Replacing an index is one transaction, so a crash leaves the old one intact.
The searches are part of the interface (`dense`, `keyword`), so a database store searches in
the database; the embedded SQLite store keeps each index's vectors and postings in memory.

Stores are picked from STORES by the scheme of the store URL (`open_store`); the built-ins are
registered the same way any other would be.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from pincite.errors import ConfigError, StoreError
from pincite.provisions import Provision


@dataclass(frozen=True)
class IndexIdentity:
    key: str  # "gdpr/en"
    corpus_sha256: str  # sha256 of the corpus JSONL the index was built from
    model: str
    settings_hash: str


@dataclass(frozen=True)
class Unit:
    """One entry of the index: a provision, or a part of a long one, as embedded and searched."""

    provision_id: str
    text: str  # what is embedded
    tokens: list[str]  # what BM25 sees


@dataclass(frozen=True)
class Edge:
    """One reference: the provision `source` cites `label` with `words`. `target` is the cited
    provision's id in this corpus, or None for a reference to another act (`external`, `act`)."""

    source: str
    target: str | None
    label: str
    words: str
    external: bool = False
    act: str = ""


def edges_of(provisions: list[Provision]) -> list[Edge]:
    """The reference graph of an index, from the references each provision carries."""
    return [Edge(p.id, r.get("target"), r.get("label", ""), r.get("words", ""), bool(r.get("external")),
                 r.get("act", "")) for p in provisions for r in p.refs]


Scored = list[tuple[str, float]]  # (provision id, score), best first


class Store(Protocol):
    def identity(self, key: str) -> IndexIdentity | None:
        """What built the index `key`, or None when there is none."""

    def keys(self) -> list[str]:
        """Every index held."""

    def replace_index(self, identity: IndexIdentity, provisions: list[Provision], units: list[Unit],
                      vectors: np.ndarray) -> None:
        """Swap in a whole index in one transaction."""

    def cached_vectors(self, model: str, hashes: list[str]) -> dict[str, np.ndarray]:
        """Vectors already computed with `model` for these text hashes."""

    def provisions(self, key: str) -> list[Provision]:
        """The provisions of an index, in corpus order."""

    def units(self, key: str) -> list[Unit]:
        """The units of an index, in order."""

    def edges(self, key: str) -> list[Edge]:
        """The reference graph of an index (from its provisions' `refs`, stored with it)."""

    def dense(self, key: str, vector: np.ndarray, k: int) -> Scored:
        """The k provisions whose best unit is closest to `vector` (cosine)."""

    def keyword(self, key: str, terms: list[str], k: int) -> Scored:
        """The k provisions whose best unit scores highest for these analysed terms (BM25)."""

    def close(self) -> None: ...

    # Optional: `search_many(requests) -> list[tuple[Scored | None, Scored | None]]`, the dense and
    # keyword candidates of several indexes in one query (a database store); without it the
    # searches run one after another (`search_each`).


@dataclass(frozen=True)
class SearchRequest:
    """The candidates one index is asked for: dense (a query vector) and/or keyword (analysed terms)."""

    key: str
    vector: np.ndarray | None
    terms: list[str] | None
    depth: int


def search_each(store: Store, requests: list[SearchRequest]) -> list[tuple[Scored | None, Scored | None]]:
    """(dense, keyword) candidates per request, one search at a time: the embedded stores' way."""
    return [(store.dense(r.key, r.vector, r.depth) if r.vector is not None else None,
             store.keyword(r.key, r.terms, r.depth) if r.terms is not None else None) for r in requests]


def search_many(store: Store, requests: list[SearchRequest]) -> list[tuple[Scored | None, Scored | None]]:
    """The candidates of several indexes: in one query where the store can, else one by one."""
    many = getattr(store, "search_many", None)
    return many(requests) if many is not None else search_each(store, requests)


STORES: dict[str, Callable[[str], Store]] = {}


def register_store(scheme: str, make: Callable[[str], Store]) -> None:
    """Make `make(url)` the store for URLs of this scheme ('sqlite', 'memory', …)."""
    STORES[scheme] = make


def open_store(url: str) -> Store:
    scheme = url.split(":", 1)[0].lower()
    if scheme not in STORES:
        raise ConfigError(f"no store for {scheme!r} URLs — use one of: {', '.join(sorted(STORES))}")
    return STORES[scheme](url)


def check_replacement(identity: IndexIdentity, units: list[Unit], vectors: np.ndarray) -> None:
    """What every store refuses before it writes anything: units and vectors that do not pair up."""
    if len(units) != len(vectors):
        raise StoreError(f"index {identity.key}: {len(units)} units but {len(vectors)} vectors — "
                         f"nothing was replaced; rebuild with: pincite index {identity.key.split('/')[0]}")


def text_hash(text: str) -> str:
    """What identifies an embedded text in the vector cache."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
