"""The reranker slot: a second stage over the fused hits, before exact lookup puts named
provisions first. None by default; a reranker is picked by `settings.reranker` from RERANKERS."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from pincite.errors import ConfigError
from pincite.index.embed import settings_model_identity, settings_model_name
from pincite.retrieve.crossencoder import Chain, load_cross_encoder
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query


class Reranker(Protocol):
    def rerank(self, query: Query, hits: list[Hit], k: int) -> list[Hit]:
        """The best k of `hits`, best first."""


RERANKERS: dict[str, Callable[..., Reranker | None]] = {}


def register_reranker(name: str, make: Callable[..., Reranker | None]) -> None:
    RERANKERS[name] = make


def _learned(settings) -> Reranker | None:
    from pincite.index.units import settings_hash  # the ranker's features: only when it is asked for
    from pincite.retrieve.ranker import load_ranker  # the same

    own = settings.embed_model_path is not None or settings.embed_query_prompt is not None \
        or settings.embed_document_prompt is not None
    return load_ranker(settings_hash(settings), settings_model_name(settings),
                       settings_model_identity(settings) if own else None)


register_reranker("none", lambda settings: None)
register_reranker("learned", _learned)


def reads_questions(reranker: Reranker | None) -> bool:
    """Whether a reranker (or a stage of a chain) reads the questions written for each provision
    (retrieve.questions): the learned ranker, when weights trained with them ship for the model."""
    stages = getattr(reranker, "stages", (reranker,))
    return any(getattr(stage, "reads_questions", False) for stage in stages)


def reranker_from_settings(settings) -> Reranker | None:
    """The reranker `settings.reranker` names, followed by a cross-encoder when
    `settings.rerank_model` names one (retrieve.crossencoder)."""
    make = RERANKERS.get(settings.reranker)
    if make is None:
        raise ConfigError(f"unknown reranker {settings.reranker!r} — use one of: {', '.join(sorted(RERANKERS))}")
    first = make(settings)
    if not settings.rerank_model:
        return first
    cross = load_cross_encoder(settings.rerank_model, settings.embed_threads or None)
    return cross if first is None else Chain((first, cross))
