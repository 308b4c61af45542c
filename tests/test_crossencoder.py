"""The cross-encoder slot (PINCITE_RERANK_MODEL), run through fastembed's TextCrossEncoder on a tiny
ONNX model built here (tests/tiny_onnx.py), whose every score the test predicts."""

from __future__ import annotations

import re

import pytest

from pincite.errors import ConfigError
from pincite.retrieve.crossencoder import DEPTH, Chain, CrossEncoderReranker, document
from pincite.retrieve.ranker import LinearRanker
from pincite.retrieve.rerank import reranker_from_settings
from pincite.settings import load_settings
from tests.conftest import service_for
from tests.tiny_onnx import write_cross_encoder

WEIGHTS = {"breach": 1.0, "processor": 3.0}  # what the tiny model adds up for each word of a provision


def predicted(hit) -> float:
    words = re.findall(r"\w+", document(hit).lower())
    return sum(WEIGHTS.get(w, 0.0) for w in words)


def test_the_cross_encoder_orders_the_top_hits_by_its_scores(indexed, tmp_path):
    settings = indexed("gdpr").model_copy(update={"reranker": "none", "follow_references": False})
    model = write_cross_encoder(tmp_path / "tiny", WEIGHTS)
    question = "How must a personal data breach be notified?"
    first = service_for(settings).search(question, corpus="gdpr", k=DEPTH).hits
    crossed = service_for(settings.model_copy(update={"rerank_model": str(model)})).search(question, corpus="gdpr", k=10)
    expected = sorted(first, key=lambda h: -predicted(h))  # stable: ties keep the first stage's order
    assert [h.provision.id for h in crossed.hits] == [h.provision.id for h in expected[:10]]
    assert [h.score for h in crossed.hits] == [predicted(h) for h in expected[:10]]
    assert [h.provision.id for h in crossed.hits] != [h.provision.id for h in first[:10]]


def test_the_cross_encoder_follows_the_learned_ranker(tmp_path):
    model = write_cross_encoder(tmp_path / "tiny", WEIGHTS)
    chain = reranker_from_settings(load_settings(rerank_model=str(model)))
    assert isinstance(chain, Chain) and [type(s) for s in chain.stages] == [LinearRanker, CrossEncoderReranker]
    assert chain.depth == max(DEPTH, chain.stages[0].depth)
    assert isinstance(reranker_from_settings(load_settings(reranker="none", rerank_model=str(model))),
                      CrossEncoderReranker)


def test_no_cross_encoder_by_default():
    assert not isinstance(reranker_from_settings(load_settings()), Chain | CrossEncoderReranker)


def test_a_directory_without_a_model_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="no model.onnx or onnx/model.onnx in empty — set PINCITE_RERANK_MODEL"):
        reranker_from_settings(load_settings(reranker="none", rerank_model=str(tmp_path / "empty")))


def test_a_model_without_its_tokenizer_is_a_clear_error_that_shows_no_path(tmp_path):
    model = write_cross_encoder(tmp_path / "broken", WEIGHTS)
    (model / "tokenizer.json").unlink()
    with pytest.raises(ConfigError, match="cannot load the cross-encoder broken") as caught:
        reranker_from_settings(load_settings(reranker="none", rerank_model=str(model)))
    assert str(tmp_path) not in str(caught.value)
