"""The Store contract: every store passes the same tests (the embedded SQLite store, PostgreSQL +
pgvector on a real server started for the session, the in-memory test store)."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import StoreError
from pincite.index.store import IndexIdentity, Unit, open_store, text_hash
from pincite.provisions import Provision

STORE_URLS = {
    "sqlite": lambda request, tmp_path: f"sqlite:///{tmp_path / 'index.sqlite'}",
    "memory": lambda request, tmp_path: "memory:",
    "postgres": lambda request, tmp_path: request.getfixturevalue("postgres_url"),
}


@pytest.fixture(params=sorted(STORE_URLS))
def store(request, tmp_path):
    import pincite.testing  # noqa: F401  (registers the memory store)

    opened = open_store(STORE_URLS[request.param](request, tmp_path))
    yield opened
    opened.close()


def provision(n: int, refs: list[dict] | None = None, kind: str = "article") -> Provision:
    return Provision(id=f"t/en/art-{n}", label=f"Article {n}", label_local=f"Article {n}", kind=kind,
                     instrument="t", lang="en", title="T", path=[], text=f"text {n}", url="u",
                     source_sha256="s", version="v", refs=refs or [])


def fill(store, n: int = 3, key: str = "t/en", sha: str = "a") -> IndexIdentity:
    identity = IndexIdentity(key, sha, "m", "h")
    refs = [{"label": "Article 0", "target": "t/en/art-0", "words": "Article 0", "external": False, "act": ""},
            {"label": "Regulation (EU) 2016/679", "target": None, "words": "Regulation (EU) 2016/679",
             "external": True, "act": "2016/679"}]
    provisions = [provision(i, refs if i == n - 1 else None) for i in range(n)]
    units = [Unit(p.id, p.text, ["text", f"word{i}"]) for i, p in enumerate(provisions)]
    store.replace_index(identity, provisions, units, np.eye(n, 4, dtype=np.float32))
    return identity


def test_an_unknown_index_has_no_identity(store):
    assert (store.identity("t/en"), store.keys()) == (None, [])


def test_identity_provisions_and_units_round_trip(store):
    identity = fill(store)
    assert store.identity("t/en") == identity and store.keys() == ["t/en"]
    assert [p.id for p in store.provisions("t/en")] == ["t/en/art-0", "t/en/art-1", "t/en/art-2"]
    assert [u.tokens for u in store.units("t/en")][1] == ["text", "word1"]


def test_replacing_swaps_the_whole_index(store):
    fill(store, 3)
    fill(store, 2, sha="b")
    assert store.identity("t/en").corpus_sha256 == "b" and len(store.provisions("t/en")) == 2


def test_a_failed_replacement_leaves_the_old_index(store):
    old = fill(store, 3)
    with pytest.raises(StoreError, match="2 units but 1 vectors"):
        store.replace_index(IndexIdentity("t/en", "new", "m", "h"), [provision(0), provision(1)],
                            [Unit("t/en/art-0", "a", []), Unit("t/en/art-1", "b", [])], np.zeros((1, 4), np.float32))
    assert store.identity("t/en") == old and len(store.provisions("t/en")) == 3


def test_vectors_are_cached_by_model_and_text(store):
    fill(store, 2)
    found = store.cached_vectors("m", [text_hash("text 1"), text_hash("unknown")])
    assert list(found) == [text_hash("text 1")] and found[text_hash("text 1")][1] == 1.0
    assert store.cached_vectors("other-model", [text_hash("text 1")]) == {}


def test_dense_search_ranks_by_cosine_best_first(store):
    fill(store, 3)
    query = np.array([0.0, 0.6, 0.8, 0.0], dtype=np.float32)
    hits = store.dense("t/en", query, 2)
    assert [pid for pid, _ in hits] == ["t/en/art-2", "t/en/art-1"] and hits[0][1] == pytest.approx(0.8)


def test_keyword_search_scores_only_matching_provisions(store):
    fill(store, 3)
    assert [pid for pid, _ in store.keyword("t/en", ["word1"], 10)] == ["t/en/art-1"]
    assert store.keyword("t/en", ["absent"], 10) == []


def test_edges_come_back_with_the_index(store):
    fill(store, 3)
    edges = store.edges("t/en")
    assert [(e.source, e.target, e.external, e.act) for e in edges] == [
        ("t/en/art-2", "t/en/art-0", False, ""), ("t/en/art-2", None, True, "2016/679")]


def test_two_indexes_are_kept_apart(store):
    fill(store, 3, key="a/en")
    fill(store, 2, key="b/en")
    assert (len(store.provisions("a/en")), len(store.provisions("b/en"))) == (3, 2)
    assert {pid.split("/")[0] for pid, _ in store.keyword("b/en", ["text"], 10)} == {"t"}


def several_units(store) -> list[list[str]]:
    """Three provisions, four units with tokens (the first provision has two) and one without."""
    provisions = [provision(i) for i in range(3)]
    tokens = [["breach", "notify", "breach"], ["notify", "authority"], ["breach"], ["data", "subject", "notify"]]
    owners = [0, 0, 1, 2]
    units = [Unit(provisions[o].id, " ".join(t), t) for o, t in zip(owners, tokens, strict=True)]
    units.append(Unit(provisions[2].id, "no words", []))
    vectors = np.random.default_rng(7).standard_normal((len(units), 4)).astype(np.float32)
    store.replace_index(IndexIdentity("t/en", "a", "m", "h"), provisions, units,
                        vectors / np.linalg.norm(vectors, axis=1, keepdims=True))
    return tokens


def test_keyword_scores_are_bm25_of_each_provisions_best_unit(store):
    from pincite.index.keyword import bm25_weights

    tokens = several_units(store)
    postings = bm25_weights(tokens)  # the reference: the units with tokens, idf over them
    per_unit = np.zeros(len(tokens))
    for term in ("breach", "notify"):
        per_unit[postings[term][0]] += postings[term][1]
    expected = {"t/en/art-0": max(per_unit[0], per_unit[1]), "t/en/art-1": per_unit[2], "t/en/art-2": per_unit[3]}
    hits = store.keyword("t/en", ["notify", "breach", "breach"], 10)
    assert [pid for pid, _ in hits] == sorted(expected, key=lambda pid: -expected[pid])
    assert dict(hits) == pytest.approx(expected, rel=1e-5)


def test_dense_search_scores_a_provision_by_its_best_unit(store):
    several_units(store)
    units = store.units("t/en")
    best_of_0 = store.cached_vectors("m", [text_hash(units[1].text)])[text_hash(units[1].text)]
    hits = store.dense("t/en", best_of_0, 3)
    assert [pid for pid, _ in hits][0] == "t/en/art-0" and hits[0][1] == pytest.approx(1.0, abs=1e-5)
    assert sorted(pid for pid, _ in hits) == ["t/en/art-0", "t/en/art-1", "t/en/art-2"]


def test_several_indexes_searched_at_once_give_what_each_search_gives(store):
    from pincite.index.store import SearchRequest, search_many

    several_units(store)
    fill(store, 3, key="b/en")
    query = store.cached_vectors("m", [text_hash("breach")])[text_hash("breach")]
    requests = [SearchRequest("t/en", query, ["notify", "breach"], 2), SearchRequest("b/en", query, ["word1"], 2),
                SearchRequest("t/en", None, ["authority"], 2)]
    each = [(store.dense(r.key, r.vector, 2) if r.vector is not None else None, store.keyword(r.key, r.terms, 2))
            for r in requests]
    together = search_many(store, requests)
    assert [len(d or []) for d, _ in together] == [2, 2, 0] and together[1][1][0][0] == "t/en/art-1"
    assert [(d and [p for p, _ in d], [p for p, _ in k]) for d, k in together] == \
        [(d and [p for p, _ in d], [p for p, _ in k]) for d, k in each]
    assert [[s for _, s in k] for _, k in together] == [pytest.approx([s for _, s in k], rel=1e-5) for _, k in each]
