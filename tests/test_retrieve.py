"""Search on a real index of the GDPR and the AI Act, built with the shipped model through the mirror."""

from __future__ import annotations

import pytest

from pincite.citations import split_points
from pincite.errors import ConfigError, NotFoundError, PinciteError
from pincite.index.keyword import bm25_weights
from pincite.retrieve.fusion import Fusion, fuse
from tests.conftest import service_for


def labels(result):
    return [h.provision.label for h in result.hits]


def test_breach_deadline_finds_article_33_1(indexed):
    result = service_for(indexed("gdpr")).search("How quickly must a personal data breach be notified to the authority?", corpus="gdpr", k=3)
    assert labels(result)[0] == "Article 33(1)"


def test_named_provision_comes_first(indexed):
    result = service_for(indexed("gdpr")).search("What does Art. 83(5) provide?", corpus="gdpr", k=5)
    assert labels(result)[0] == "Article 83(5)" and result.hits[0].exact


def test_named_article_brings_its_paragraphs(indexed):
    result = service_for(indexed("gdpr")).search("Article 17", corpus="gdpr", k=5)
    assert labels(result)[:3] == ["Article 17(1)", "Article 17(2)", "Article 17(3)"]


def test_article_6_is_not_article_60(indexed):
    result = service_for(indexed("gdpr")).search("Article 6", corpus="gdpr", k=10)
    assert all(h.provision.label.startswith("Article 6(") for h in result.hits if h.exact)


@pytest.mark.parametrize("mode", ["dense", "bm25", "hybrid"])
def test_every_mode_returns_k_hits(indexed, mode):
    result = service_for(indexed("gdpr")).search("right to erasure", corpus="gdpr", k=7, mode=mode)
    assert len(result.hits) == 7 and result.mode == mode


def test_bm25_finds_a_legal_token_typed_in_the_question(indexed):
    result = service_for(indexed("gdpr")).search("20 000 000 EUR", corpus="gdpr", k=3, mode="bm25")
    assert {"Article 83(5)", "Article 83(6)"} & set(labels(result))


def test_italian_question_searches_the_italian_text(indexed):
    result = service_for(indexed("ai-act", "it")).search("Articolo 5", corpus="ai-act", lang="it", k=3)
    assert result.hits[0].provision.label_local == "Articolo 5, paragrafo 1"


def test_empty_query_is_a_clear_error(indexed):
    with pytest.raises(PinciteError, match="the question is empty"):
        service_for(indexed("gdpr")).search("   ", corpus="gdpr")


def test_ten_thousand_character_query_is_bounded(indexed):
    result = service_for(indexed("gdpr")).search("data breach " * 900, corpus="gdpr", k=5)
    assert len(result.hits) == 5


def test_unknown_corpus_is_a_clear_error(indexed):
    with pytest.raises(NotFoundError, match="unknown corpus"):
        service_for(indexed("gdpr")).search("x", corpus="hipaa")


def test_unknown_mode_is_a_clear_error(indexed):
    with pytest.raises(ConfigError, match="unknown search mode"):
        service_for(indexed("gdpr")).search("x", corpus="gdpr", mode="fuzzy")


def test_index_is_reused_when_current(indexed):
    report = service_for(indexed("gdpr")).index("gdpr", "en")
    assert report["status"] == "up to date" and report["provisions"] == 587


def test_bm25_weights_rank_the_rarer_term_higher():
    postings = bm25_weights([["breach", "notify"], ["notify"], ["notify", "fine"]])
    assert postings["breach"][1][0] > postings["notify"][1][0]


def test_linear_fusion_balances_both_sides():
    dense, bm25 = [("a", 1.0), ("c", 0.5), ("b", 0.0)], [("b", 10.0), ("c", 5.0)]
    assert fuse(dense, bm25, Fusion(dense_weight=0.5)) == {"a": 0.5, "b": 0.5, "c": 0.5}


def test_rrf_fusion_prefers_agreement():
    dense, bm25 = [("a", 3.0), ("b", 2.0), ("c", 1.0)], [("b", 3.0), ("c", 2.0), ("a", 1.0)]
    scores = fuse(dense, bm25, Fusion(method="rrf", dense_weight=0.5))
    assert max(scores, key=scores.get) == "b"


def test_split_points_carry_nested_lines_with_their_point():
    lead, points = split_points("1. Prohibited:\n(a) first\n  (i) inner\n(b) second")
    assert (lead, points) == ("1. Prohibited:", ["(a) first (i) inner", "(b) second"])


def test_search_command_takes_several_corpora(indexed):
    import json
    import subprocess
    import sys

    indexed("gdpr")
    settings = indexed("ai-act")  # both indexed by other tests already: no build here
    env = {"PINCITE_HOME": str(settings.home), "PINCITE_MIRROR": str(settings.mirror),
           "PINCITE_EMBED_MODEL_PATH": str(settings.embed_model_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "pincite", "search", "Article 5", "--corpus", "gdpr",
                           "--corpus", "ai-act", "--lang", "en", "-k", "6", "--json"], capture_output=True,
                          text=True, env=env, timeout=300)
    hits = json.loads(done.stdout)["hits"]
    assert {h["instrument"] for h in hits} == {"gdpr", "ai-act"} and all(h["exact"] for h in hits[:2])


def test_an_italian_question_translates_into_the_words_of_the_english_text():
    from pincite.retrieve.crosslang import load_table, translate
    from pincite.retrieve.query import analyse

    english = translate(analyse("Quali sanzioni si applicano ai fornitori?", "it"), load_table("it")).split()
    assert {"penalties", "providers"} <= set(english)
    assert load_table("da") is None  # no table shipped: no cross-language search


def test_cross_language_search_also_ranks_by_the_english_text_and_returns_italian_provisions(indexed):
    settings = indexed("ai-act", "it")
    indexed("ai-act", "en")
    question = "Quali pratiche di intelligenza artificiale sono vietate?"
    on = service_for(settings.model_copy(update={"cross_language": True}))
    off = service_for(settings)
    crossed, alone = (s.search(question, corpus="ai-act", lang="it", k=10) for s in (on, off))
    assert on.searcher("ai-act", "it").twin is not None and off.searcher("ai-act", "it").twin is None
    assert all(h.provision.lang == "it" for h in crossed.hits)
    # The English ranking reorders the Italian candidates (whether for the better is measured on the
    # question sets: README, "Cross-language search").
    assert [h.provision.id for h in crossed.hits] != [h.provision.id for h in alone.hits]


def test_linear_fusion_of_a_truncated_list_scales_from_cosine_zero_and_keeps_keyword_only_candidates():
    dense, bm25 = [("a", 0.8), ("b", 0.4)], [("c", 2.0), ("a", 1.0)]
    # dense from 0 (truncated) to 0.8: a 1.0, b 0.5; BM25 from 0 to 2.0: c 1.0, a 0.5
    assert fuse(dense, bm25, Fusion(dense_weight=0.5), truncated=True) == {"a": 0.75, "b": 0.25, "c": 0.5}


class CountingModel:
    """The real model, counting how it is asked for vectors."""

    def __init__(self, model):
        self.model, self.identity, self.batches, self.singles = model, model.identity, [], 0

    @property
    def dim(self):
        return self.model.dim

    def embed(self, texts):
        self.batches.append(list(texts))
        return self.model.embed(texts)

    def embed_query(self, text):
        self.singles += 1
        return self.model.embed_query(text)


def test_a_question_that_asks_for_what_lives_elsewhere_is_embedded_with_its_rest_in_one_batch(indexed):
    from pincite.index.embed import embedder_from_settings
    from pincite.service import Pincite, QueryCache

    settings = indexed("gdpr")
    model = CountingModel(embedder_from_settings(settings))
    question = "What is the fine for not appointing a DPO?"
    batched = Pincite(settings, embedder=QueryCache(model), llm=None).search(question, corpus="gdpr", k=10)
    assert model.singles == 0 and len(model.batches) == 1 and len(model.batches[0]) == 2
    one_by_one = Pincite(settings, embedder=model.model, llm=None).search(question, corpus="gdpr", k=10)
    assert labels(batched) == labels(one_by_one) and "Article 83(4)" in labels(batched)
