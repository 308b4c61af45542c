"""The plain-word table both retrieval and the support check read (index.vocabulary), and the
second keyword search retrieval makes with it."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.index.analysis import tokenize
from pincite.index.store import IndexIdentity, open_store
from pincite.index.units import provision_units
from pincite.index.vocabulary import equivalents, expansions, statutory
from pincite.provisions import Provision
from pincite.retrieve.fusion import Fusion, expand
from pincite.retrieve.search import Searcher, search_together
from pincite.settings import Settings


def stems(text: str) -> tuple[str, ...]:
    return tuple(tokenize(text, "en"))


def test_a_plain_word_is_searched_as_the_statutes_words():
    found = expansions(stems("our company was hacked"), "en")
    assert set(stems("controller breach")) <= set(found)
    assert set(stems("company hacked")).isdisjoint(found)


def test_a_statutory_word_is_not_expanded_and_words_the_question_has_are_not_added():
    assert expansions(stems("the controller shall notify the breach"), "en") == ()
    assert stems("breach")[0] not in expansions(stems("hacked, a breach"), "en")


def test_the_support_check_reads_its_own_groups_both_ways():
    same = equivalents("en")
    company, firm, controller = stems("company firm controller")
    assert firm in same[company] and company in same[firm]
    assert controller not in same[company]  # the search's company → controller is not the support check's
    assert controller in statutory("en")[company]


def test_italian_has_its_own_groups():
    assert set(tokenize("sanzione", "it")) <= set(expansions(tuple(tokenize("multa", "it")), "it"))
    assert expansions(("compani",), "xx") == ()


def test_expansion_adds_the_second_searchs_scores_at_its_weight():
    merged = expand([("a", 2.0), ("b", 1.0)], [("b", 4.0), ("c", 1.0)], 0.5)
    assert merged == [("b", 3.0), ("a", 2.0), ("c", 0.5)]
    assert expand([("a", 2.0)], [("c", 1.0)], 0.0) == [("a", 2.0)]


def provision(n: int, title: str, text: str) -> Provision:
    return Provision(id=f"t/en/art-{n}", label=f"Article {n}", label_local=f"Article {n}", kind="article",
                     instrument="t", lang="en", title=title, path=[], text=text, url="u", source_sha256="s",
                     version="v")


PROVISIONS = [
    provision(1, "Notification of a personal data breach", "The controller shall notify the breach."),
    provision(2, "Records", "A company shall keep records of its accounts."),
    provision(3, "Scope", "This Regulation applies to the processing of data."),
    provision(4, "Entry into force", "This Regulation enters into force on the twentieth day."),
]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def searcher(request, tmp_path):
    import pincite.testing  # noqa: F401  (registers the memory store)

    url = {"memory": "memory:", "sqlite": f"sqlite:///{tmp_path / 'index.sqlite'}"}.get(request.param)
    store = open_store(url or request.getfixturevalue("postgres_url"))
    units = [u for p in PROVISIONS for u in provision_units(p, Settings())]
    store.replace_index(IndexIdentity("t/en", "x", "none", "x"), PROVISIONS, units,
                        np.zeros((len(units), 4), np.float32))
    yield Searcher(store, "t/en", None, "en")
    store.close()


def test_a_plain_question_finds_the_provision_in_the_statutes_words(searcher):
    question = "Our company was hacked"
    plain = [h.provision.label for h in searcher.search(question, k=4, mode="bm25", fusion=Fusion())]
    expanded = searcher.search(question, k=4, mode="bm25", fusion=Fusion(expansion_weight=1.0))
    assert plain == ["Article 2"]
    assert [h.provision.label for h in expanded][:2] == ["Article 1", "Article 2"]


def test_several_indexes_searched_together_each_get_their_expansion(searcher):
    query = searcher.analyse("Our company was hacked")
    jobs = [(searcher, query, Fusion(expansion_weight=1.0)), (searcher, query, Fusion())]
    expanded, plain = search_together(jobs, 4, "bm25")
    assert [h.provision.label for h in expanded][0] == "Article 1"
    assert [h.provision.label for h in plain] == ["Article 2"]
