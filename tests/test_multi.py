"""Several corpora searched together: one scale across corpora, and only the relevant ones kept."""

from __future__ import annotations

import pytest

from pincite.errors import ConfigError
from pincite.provisions import Provision
from pincite.retrieve.hits import Hit
from pincite.retrieve.multi import KEEP_MARGIN, NAMED_BONUS, RANK_STEP, CorpusResult, search_corpora
from tests.conftest import service_for


def hit(corpus: str, label: str, score: float = 1.0, exact: bool = False) -> Hit:
    p = Provision(id=f"{corpus}/en/{label}", label=label, label_local=label, kind="paragraph", instrument=corpus,
                  lang="en", title="", path=[], text="", url="", source_sha256="", version="")
    return Hit(p, float("inf") if exact else score, dense=0.5, exact=exact)


def result(corpus: str, relevance: float, labels: list[str], exact: tuple[str, ...] = (),
           named: bool = False) -> CorpusResult:
    """A corpus's hits (first stage order) with `relevance` as its dense top-1 and no coverage."""
    hits = [hit(corpus, label, exact=True) for label in exact]
    hits += [hit(corpus, label, 1.0 - i / 10) for i, label in enumerate(labels)]
    return CorpusResult(corpus, "en", hits, relevance, 0.0, named=named)


def cited(hits) -> list[str]:
    return [h.citation for h in hits]


def test_a_corpus_far_below_the_best_is_dropped():
    best = result("dsa", 1.0, ["Article 34(1)", "Article 34(2)"])
    far = result("cra", 1.0 - KEEP_MARGIN - 0.01, ["Article 13(1)"])
    assert cited(search_corpora([far, best], 10)) == ["dsa Article 34(1)", "dsa Article 34(2)"]


def test_a_corpus_near_the_best_interleaves_by_relevance_less_a_step_per_place():
    best = result("dsa", 1.0, [f"Article {n}" for n in range(1, 6)])
    near = result("dma", 1.0 - 2.5 * RANK_STEP, ["Article 6(1)", "Article 6(2)"])
    # dma's first hit scores between dsa's third (1 − 2 step) and fourth (1 − 3 step)
    assert cited(search_corpora([near, best], 5)) == [
        "dsa Article 1", "dsa Article 2", "dsa Article 3", "dma Article 6(1)", "dsa Article 4"]


def test_each_corpus_keeps_its_own_order_whatever_its_scores():
    ranked = CorpusResult("gdpr", "en", [hit("gdpr", "Article 6(1)", -3.0), hit("gdpr", "Article 7(1)", 2.0)], 0.9, 0.0)
    assert cited(search_corpora([ranked], 5)) == ["gdpr Article 6(1)", "gdpr Article 7(1)"]


def test_a_provision_named_in_the_question_is_kept_and_first_even_from_a_dropped_corpus():
    best = result("ai-act", 1.0, ["Article 50(1)"])
    named = result("gdpr", 0.2, ["Article 13(1)"], exact=("Article 5(1)",))
    assert cited(search_corpora([best, named], 10)) == ["gdpr Article 5(1)", "ai-act Article 50(1)"]


def test_a_corpus_the_question_names_gains_and_its_named_provisions_alone_count():
    # 'What does Article 85(2) of the GDPR provide?': the DSA has an Article 85(2) too
    gdpr = result("gdpr", 0.5, ["Article 85(1)"], exact=("Article 85(2)",), named=True)
    dsa = result("dsa", 0.5 + NAMED_BONUS / 2, ["Article 34(1)"], exact=("Article 85(2)",))
    assert cited(search_corpora([dsa, gdpr], 10)) == ["gdpr Article 85(2)", "gdpr Article 85(1)", "dsa Article 34(1)"]


def test_without_dense_scores_the_corpora_compare_by_term_coverage():
    covered = CorpusResult("dga", "en", [hit("dga", "Article 3(1)")], None, 0.9)
    barely = CorpusResult("gdpr", "en", [hit("gdpr", "Article 6(1)")], None, 0.9 - KEEP_MARGIN - 0.1)
    assert cited(search_corpora([barely, covered], 10)) == ["dga Article 3(1)"]


def test_no_corpus_is_a_clear_error():
    with pytest.raises(ConfigError, match="no corpus to search"):
        search_corpora([], 10)


def test_a_question_of_one_act_keeps_the_other_out_of_the_list(indexed):
    indexed("gdpr")
    pincite = service_for(indexed("ai-act"))  # both indexed by other tests already: no build here
    question = "How quickly must a personal data breach be notified to the supervisory authority?"
    results = {r.name: r.relevance() for r in pincite.corpus_results(question, ["gdpr", "ai-act"], k=10)}
    searched, hits = pincite.search_across(question, ["gdpr", "ai-act"], k=10)
    assert searched == ["gdpr", "ai-act"] and results["gdpr"] > results["ai-act"]
    assert cited(hits)[0] == "gdpr Article 33(1)"
    kept_ai_act = results["ai-act"] >= results["gdpr"] - KEEP_MARGIN
    assert ({h.corpus for h in hits} == {"gdpr", "ai-act"}) == kept_ai_act


def test_the_evaluation_across_corpora_counts_a_hit_only_in_the_questions_own_corpus(indexed):
    from pincite.evaluate.retrieval import evaluate_across

    indexed("gdpr")
    pincite = service_for(indexed("ai-act"))
    asked = [{"id": corpus, "corpus": corpus, "question": "What does Article 5 say?", "gold": ["Article 5(1)"],
              "answerable": True, "category": "lookup", "split": "dev"} for corpus in ("gdpr", "ai-act")]
    report = evaluate_across(asked, pincite, ["gdpr", "ai-act"])
    rows = {r["id"]: r for r in report["questions"]}
    # Both acts have an Article 5(1), named in the question: the GDPR's comes first (listed first).
    assert rows["gdpr"]["rank"] == 1 and rows["ai-act"]["rank"] > 1
    where = rows["ai-act"]["rank"] - 1
    assert (rows["ai-act"]["retrieved"][where], rows["ai-act"]["retrieved_corpora"][where]) == ("Article 5(1)", "ai-act")
    assert report["hit@1"] == 0.5 and report["corpora"] == ["gdpr", "ai-act"]
    foreign = sum(c != r["corpus"] for r in rows.values() for c in r["retrieved_corpora"][:10])
    assert report["foreign@10"] == round(foreign / 20, 4) > 0
