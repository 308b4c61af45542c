"""Sentence embeddings through fastembed (ONNX, no torch), imported only when needed.

The default model is sentence-transformers/all-MiniLM-L6-v2. `embed_model_path` points at a
local ONNX export of it (or of any model given by `embed_model`) so nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from pincite.errors import ConfigError

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


def model_identity(model: str, model_path: Path | None) -> str:
    """What an index records about the model: the name, and for a local directory a hash of
    its weights file size and config, so swapped weights are noticed."""
    if model_path is None:
        return model
    config = (model_path / "config.json")
    stamp = config.read_text(encoding="utf-8") if config.is_file() else ""
    onnx = model_path / "model.onnx"
    size = onnx.stat().st_size if onnx.is_file() else 0
    return f"{model}@{hashlib.sha256(f'{stamp}{size}'.encode()).hexdigest()[:12]}"


def _pooling_of(model_path: Path) -> tuple[str, bool]:
    """Read the sentence-transformers pooling config where there is one (mean pooling default)."""
    config = model_path / "pooling_config.json"
    if config.is_file():
        data = json.loads(config.read_text(encoding="utf-8"))
        if data.get("pooling_mode_cls_token"):
            return "CLS", True
    return "MEAN", True


@lru_cache(maxsize=4)
def _load(model: str, model_path: str | None, max_length: int, threads: int | None, token_budget: int = 2048,
          backend: str = "onnx"):
    if model_path is not None:
        path = Path(model_path)
        if not (path / "model.onnx").is_file():
            raise ConfigError(f"no model.onnx in {path} — set PINCITE_EMBED_MODEL_PATH to a directory "
                              f"holding an ONNX sentence-embedding model")
        if backend == "onnx":
            if not (path / "tokenizer.json").is_file():
                raise ConfigError(f"no tokenizer.json in {path} — the onnx embedder needs one; "
                                  f"set PINCITE_EMBEDDER=fastembed")
            return LocalOnnx(path, max_length, threads, token_budget)
    try:
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType
    except ImportError as exc:  # pragma: no cover - fastembed is a dependency
        raise ConfigError("fastembed is not installed — pip install fastembed") from exc
    if model_path is None:
        try:
            embedder = TextEmbedding(model_name=model, threads=threads)
        except Exception as exc:  # fastembed raises bare exceptions for unknown models or no network
            raise ConfigError(f"cannot load embedding model {model!r} ({exc}) — check PINCITE_EMBED_MODEL, "
                              f"or set PINCITE_EMBED_MODEL_PATH to a local model directory") from exc
        _set_window(embedder, max_length)
        return embedder
    path = Path(model_path)
    pooling, normalize = _pooling_of(path)
    dim = json.loads((path / "config.json").read_text(encoding="utf-8")).get("hidden_size", 384)
    local_name = f"{model}-local"
    try:
        TextEmbedding.add_custom_model(
            model=local_name, pooling=getattr(PoolingType, pooling), normalization=normalize,
            sources=ModelSource(hf=model), dim=dim, model_file="model.onnx",
        )
    except ValueError:
        pass  # already registered in this process
    embedder = TextEmbedding(model_name=local_name, specific_model_path=str(path), threads=threads)
    _set_window(embedder, max_length)
    return embedder


def _set_window(embedder, max_length: int) -> None:
    """fastembed truncates at the tokenizer's 512; MiniLM was trained on 256 word pieces."""
    model = getattr(embedder, "model", None)
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is not None:
        tokenizer.enable_truncation(max_length=max_length)


@lru_cache(maxsize=4)
def _piece_tokenizer(model_path: str):
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(Path(model_path) / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def piece_spans(model_path: Path | None) -> Callable[[str], list[tuple[int, int]]]:
    """A function giving the character spans of a text's word pieces, as the model's tokenizer
    cuts it (no special tokens, no truncation); without a local tokenizer, ~4 characters a piece."""
    if model_path is not None and (Path(model_path) / "tokenizer.json").is_file():
        tokenizer = _piece_tokenizer(str(model_path))

        def spans(text: str) -> list[tuple[int, int]]:
            encoded = tokenizer.encode(text, add_special_tokens=False)
            return [span for span in encoded.offsets if span[1] > span[0]]
        return spans
    return lambda text: [(i, min(i + 4, len(text))) for i in range(0, len(text), 4)]


def token_batches(texts: list[str], batch_size: int, max_length: int, budget: int):
    """Consecutive batches whose size × estimated longest length stays within the budget."""
    batch: list[str] = []
    longest = 0
    for text in texts:
        tokens = min(max_length, len(text) // 4 + 2)  # ~4 characters a word piece
        if batch and (len(batch) >= batch_size or (len(batch) + 1) * max(longest, tokens) > budget):
            yield batch
            batch, longest = [], 0
        batch.append(text)
        longest = max(longest, tokens)
    if batch:
        yield batch


class LocalOnnx:
    """A sentence-transformers ONNX export run directly with onnxruntime and tokenizers.

    Same vectors as fastembed's (mean pooling over the attention mask, then L2 normalisation;
    cosine 1.0000 on samples), but it starts in ~0.4 s instead of ~1.7 s: importing fastembed
    and its graph optimisation dominate a cold `pincite search`.
    """

    def __init__(self, path: Path, max_length: int, threads: int | None, token_budget: int = 2048):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        # The arena keeps the largest batch's buffers for every later shape: 1.1 GB peak on the GDPR.
        options.enable_cpu_mem_arena = False
        if threads:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(path / "model.onnx"), options, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer.enable_padding()
        self.cls_pooling = _pooling_of(path)[0] == "CLS"
        self.max_length = max_length
        # Word pieces per batch: attention memory grows with batch × length², so long texts go
        # in small batches and short ones in large batches (peak RSS stays under ~500 MB).
        self.token_budget = token_budget

    def embed(self, texts: list[str], batch_size: int = 32):
        for batch in token_batches(texts, batch_size, self.max_length, self.token_budget):
            yield from self._batch(batch)

    def query_embed(self, texts: list[str]):
        return self.embed(texts)

    def _batch(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        if self.cls_pooling:
            return hidden[:, 0]
        weights = mask[..., None].astype(np.float32)
        return (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)


class Embedder(Protocol):
    """What the index and retrieval need of an embedding model: L2-normalised float32 rows."""

    identity: str  # recorded with an index: a changed model means a rebuilt index
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class ModelEmbedder:
    """One model, loaded on first use: `backend` "onnx" runs a local export on onnxruntime
    directly, "fastembed" goes through fastembed (a named model, downloaded once)."""

    def __init__(self, model: str, model_path: Path | None, *, max_length: int = 256,
                 batch_size: int = 32, threads: int | None = None, token_budget: int = 2048,
                 backend: str = "onnx"):
        self.model = model
        self.model_path = model_path
        self.max_length = max_length
        self.batch_size = batch_size
        self.threads = threads
        self.token_budget = token_budget
        self.backend = backend
        self.identity = model_identity(model, model_path)

    @property
    def dim(self) -> int:
        config = self.model_path / "config.json" if self.model_path else None
        if config is not None and config.is_file():
            return int(json.loads(config.read_text(encoding="utf-8")).get("hidden_size", 384))
        return int(self.embed_query("dimension").shape[0])

    def _impl(self):
        path = str(self.model_path) if self.model_path else None
        return _load(self.model, path, self.max_length, self.threads, self.token_budget, self.backend)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        rows = list(self._impl().embed(texts, batch_size=self.batch_size))
        return _normalised(np.vstack(rows))

    def embed_query(self, text: str) -> np.ndarray:
        (row,) = list(self._impl().query_embed([text]))
        return _normalised(row[None, :])[0]


def _normalised(matrix: np.ndarray) -> np.ndarray:
    matrix = matrix.astype(np.float32, copy=False)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def _model_embedder(backend: str):
    def make(settings) -> Embedder:
        return ModelEmbedder(settings.embed_model, settings.embed_model_path, max_length=settings.embed_max_length,
                             batch_size=settings.embed_batch_size, threads=settings.embed_threads or None,
                             token_budget=settings.embed_token_budget, backend=backend)
    return make


# Embedders by name (settings.embedder); the built-ins are registered like any other.
EMBEDDERS: dict[str, Callable[..., Embedder]] = {}


def register_embedder(name: str, make: Callable[..., Embedder]) -> None:
    EMBEDDERS[name] = make


register_embedder("onnx", _model_embedder("onnx"))
register_embedder("fastembed", _model_embedder("fastembed"))


def embedder_from_settings(settings) -> Embedder:
    name = settings.embedder
    if name == "auto":
        path = settings.embed_model_path
        name = "onnx" if path is not None and (Path(path) / "tokenizer.json").is_file() else "fastembed"
    make = EMBEDDERS.get(name)
    if make is None:
        raise ConfigError(f"unknown embedder {name!r} — use auto or one of: {', '.join(sorted(EMBEDDERS))}")
    return make(settings)
