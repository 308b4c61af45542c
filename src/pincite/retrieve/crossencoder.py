"""A cross-encoder over the top hits (`PINCITE_RERANK_MODEL`), for users who can download one.

A cross-encoder reads the question and a provision together and scores the pair, which the
bi-encoder that finds the candidates cannot: it sees "the controller shall" against "the
processor shall". It runs through fastembed's `TextCrossEncoder` (ONNX, no torch): a name it
knows (`Xenova/ms-marco-MiniLM-L-12-v2`, `BAAI/bge-reranker-base`, …) is downloaded to its cache
on first use; a local directory (a `model.onnx` or `onnx/model.onnx` with its `tokenizer.json`
and `tokenizer_config.json`) is loaded as it is, without the network. The model's first output
column is the pair's score (fastembed feeds `input_ids`, and `token_type_ids` and
`attention_mask` when the model takes them).

Its order is blended with the order it is given, not put in its place: measured with
ms-marco-MiniLM-L-12-v2 on the dev splits of the English sets, the model's order alone lost
hit@1 to the learned ranker on the first questions, and the sum of the two ranks gained on
every kind of set (docs/retrieval.md, "A cross-encoder, measured").
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from pincite.errors import ConfigError
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query

DEPTH = 10  # hits the cross-encoder reads, a model pass each: ~0.5 s a question on two cores (30: 5.6 s)
DOCUMENT_CHARS = 1200  # of a provision the model reads: the whole took 1.4–2.8× the time for one more dev hit in 196


class PairScorer(Protocol):
    def rerank(self, query: str, documents: list[str]) -> Iterable[float]: ...


@dataclass(frozen=True)
class CrossEncoderReranker:
    """The top `depth` hits re-ordered by the model's score of (question, provision)."""

    model: PairScorer  # fastembed's TextCrossEncoder, or a fake in tests
    depth: int = DEPTH

    def rerank(self, query: Query, hits: list[Hit], k: int) -> list[Hit]:
        head, tail = hits[: self.depth], hits[self.depth:]
        if len(head) < 2:
            return hits[:k]
        return blend(head, [float(s) for s in self.model.rerank(query.text, [document(h) for h in head])])[:k] \
            + tail[: max(0, k - len(head))]


def blend(hits: list[Hit], scores: list[float]) -> list[Hit]:
    """`hits` ordered by the sum of each one's place as given and its place in the model's order (ties: as
    given). The scores stay those given, dealt out in the new order, so that what reads them (the
    extractive answer's "nearly as well as the best") keeps its scale; the model's own scores are logits."""
    by_model = sorted(range(len(hits)), key=lambda i: (-scores[i], i))
    place = {i: at for at, i in enumerate(by_model)}
    order = sorted(range(len(hits)), key=lambda i: (i + place[i], i))
    given = sorted((h.score for h in hits), reverse=True)
    return [replace(hits[i], score=score) for i, score in zip(order, given, strict=True)]


def document(hit: Hit) -> str:
    """What the model reads of a provision: its article's title, then its text (as it is indexed)."""
    p = hit.provision
    return (f"{p.title}\n{p.text}" if p.title else p.text)[:DOCUMENT_CHARS]


@dataclass(frozen=True)
class Chain:
    """Rerankers applied in turn (the learned ranker, then the cross-encoder)."""

    stages: tuple

    @property
    def depth(self) -> int:
        return max(getattr(s, "depth", 0) for s in self.stages)

    def rerank(self, query: Query, hits: list[Hit], k: int) -> list[Hit]:
        for stage in self.stages:
            hits = stage.rerank(query, hits, len(hits))
        return hits[:k]


def load_cross_encoder(name_or_path: str, threads: int | None = None) -> CrossEncoderReranker:
    """fastembed's cross-encoder for a model name it knows or a local model directory."""
    try:
        from fastembed.common.model_description import ModelSource
        from fastembed.rerank.cross_encoder import TextCrossEncoder
    except ImportError as exc:  # pragma: no cover - fastembed is a dependency
        raise ConfigError("fastembed is not installed — pip install fastembed") from exc
    path = Path(name_or_path).expanduser()
    local = path.is_dir()
    try:
        if not local:
            return CrossEncoderReranker(TextCrossEncoder(name_or_path, threads=threads))
        model_file = next((f for f in ("model.onnx", "onnx/model.onnx") if (path / f).is_file()), None)
        if model_file is None:
            raise ConfigError(f"no model.onnx or onnx/model.onnx in {path.name} — set PINCITE_RERANK_MODEL to a "
                              f"cross-encoder's ONNX export, or to a model name fastembed knows")
        # fastembed loads a local directory only under a registered name: one per directory and file.
        name = f"pincite/local-{hashlib.sha256(f'{path.resolve()}:{model_file}'.encode()).hexdigest()[:12]}"
        if not any(m["model"] == name for m in TextCrossEncoder.list_supported_models()):
            TextCrossEncoder.add_custom_model(name, sources=ModelSource(hf=name), model_file=model_file)
        return CrossEncoderReranker(TextCrossEncoder(name, threads=threads, specific_model_path=str(path)))
    except ConfigError:
        raise
    except Exception as exc:  # fastembed raises bare ValueErrors (unknown model, no network, bad files)
        what, why = (path.name, _first_line(exc).replace(str(path), path.name)) if local else (repr(name_or_path), _first_line(exc))
        raise ConfigError(f"cannot load the cross-encoder {what} ({why}) — check PINCITE_RERANK_MODEL: "
                          f"a model name fastembed knows, or a local directory with model.onnx and "
                          f"tokenizer.json") from exc


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
