"""The cross-encoder slot (PINCITE_RERANK_MODEL), run through fastembed's TextCrossEncoder on a tiny
ONNX model built here (tests/tiny_onnx.py), whose every score the test predicts."""

from __future__ import annotations

import re

import pytest

from pincite.errors import ConfigError
from pincite.provisions import Provision
from pincite.retrieve.crossencoder import DEPTH, DOCUMENT_CHARS, Chain, CrossEncoderReranker, blend, document
from pincite.retrieve.hits import Hit
from pincite.retrieve.ranker import LinearRanker
from pincite.retrieve.rerank import reranker_from_settings
from pincite.settings import load_settings
from tests.conftest import service_for
from tests.tiny_onnx import write_cross_encoder

WEIGHTS = {"breach": 1.0, "processor": 3.0}  # what the tiny model adds up for each word of a provision


def predicted(hit, weights: dict[str, float]) -> float:
    words = re.findall(r"\w+", document(hit).lower())
    return sum(weights.get(w, 0.0) for w in words)


def test_the_model_order_is_blended_with_the_order_given():
    # given a, b, c, d; the model ranks d, b, c, a: place sums a 0+3, b 1+1, c 2+2, d 3+0 (ties: as given)
    given = [Hit(_provision(x), score=s) for x, s in zip("abcd", (0.9, 0.8, 0.7, 0.6), strict=True)]
    blended = blend(given, [0.0, 5.0, 1.0, 9.0])
    assert [h.provision.id for h in blended] == ["b", "a", "d", "c"]
    assert [h.score for h in blended] == [0.9, 0.8, 0.7, 0.6]  # the scale given, not the model's logits


def _provision(label: str) -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="paragraph", instrument="act", lang="en",
                     title="", path=[], text=label, url="", source_sha256="", version="")


def test_the_cross_encoder_reorders_the_top_hits_of_a_real_search(indexed, tmp_path):
    settings = indexed("gdpr").model_copy(update={"reranker": "none", "follow_references": False})
    weights = {"subject": 2.0, "high": 3.0}  # the model prefers what the first stage ranks lower: 34(1) and its kin
    model = write_cross_encoder(tmp_path / "tiny", weights)
    question = "How must a personal data breach be notified?"
    first = service_for(settings).search(question, corpus="gdpr", k=DEPTH).hits
    crossed = service_for(settings.model_copy(update={"rerank_model": str(model)})).search(question, corpus="gdpr", k=DEPTH).hits
    ids = [h.provision.id for h in first]
    assert sorted(h.provision.id for h in crossed) == sorted(ids) and [h.provision.id for h in crossed] != ids
    favourite = max(range(len(first)), key=lambda i: (predicted(first[i], weights), -i))  # the tiny model's best pair
    assert [h.provision.id for h in crossed].index(ids[favourite]) < favourite
    assert [h.score for h in crossed] == sorted((h.score for h in first), reverse=True)
    assert all(len(document(h)) <= DOCUMENT_CHARS for h in first)


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
