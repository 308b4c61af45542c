"""The embedder: the direct onnxruntime path gives fastembed's vectors; bad model paths are clear."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import ConfigError
from pincite.index.embed import DEFAULT_MODEL, _load
from pincite.index.embed import ModelEmbedder as Embedder
from tests.conftest import MODEL, need_shared

TEXTS = ["How quickly must a personal data breach be notified?",
         "The controller shall notify the supervisory authority within 72 hours. " * 30, "short"]


def test_local_onnx_matches_fastembed_reference():
    need_shared(MODEL)
    ours = Embedder(DEFAULT_MODEL, MODEL, max_length=256).embed(TEXTS)
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    try:
        TextEmbedding.add_custom_model(model="ref-minilm", pooling=PoolingType.MEAN, normalization=True,
                                       sources=ModelSource(hf=DEFAULT_MODEL), dim=384, model_file="model.onnx")
    except ValueError:
        pass
    reference = TextEmbedding(model_name="ref-minilm", specific_model_path=str(MODEL))
    reference.model.tokenizer.enable_truncation(max_length=256)
    theirs = np.vstack(list(reference.embed(TEXTS)))
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    assert np.min(np.sum(ours * theirs, axis=1)) > 0.9999


def test_vectors_are_unit_length():
    need_shared(MODEL)
    vectors = Embedder(DEFAULT_MODEL, MODEL).embed(TEXTS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_window_changes_long_text_vectors_only():
    need_shared(MODEL)
    short_window = Embedder(DEFAULT_MODEL, MODEL, max_length=32).embed(TEXTS)
    long_window = Embedder(DEFAULT_MODEL, MODEL, max_length=256).embed(TEXTS)
    assert np.allclose(short_window[2], long_window[2], atol=1e-5) and not np.allclose(short_window[1], long_window[1])


def test_missing_model_directory_is_a_clear_error(tmp_path):
    _load.cache_clear()
    with pytest.raises(ConfigError, match="no model.onnx in"):
        Embedder(DEFAULT_MODEL, tmp_path).embed(["x"])


def test_token_batches_keep_long_texts_in_small_batches():
    from pincite.index.embed import token_batches

    texts = ["short"] * 40 + ["x" * 4000] * 20
    sizes = [len(b) for b in token_batches(texts, batch_size=32, max_length=256, budget=2048)]
    assert sizes == [32, 8, 8, 8, 4] and sum(sizes) == 60
