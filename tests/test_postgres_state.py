"""With PINCITE_DATABASE_URL set, everything lives in PostgreSQL: indexes, the ask log, threads,
the catalog of added instruments and the rate limits; nothing SQLite is written under the data
directory. On a real server (the session's embedded PostgreSQL)."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from pincite.index.store import state
from pincite.service import Pincite, history
from pincite.settings import load_settings
from pincite.sources.catalog import corpus_spec, registered
from pincite.testing import HashEmbedder

SQLITE_MAGIC = b"SQLite format 3\x00"


@pytest.fixture
def pg_home(tmp_path, corpora, postgres_url, monkeypatch):
    """A data directory whose settings point at a new database, and a mirror with one act pincite
    does not name (so adding it writes the catalog)."""
    mirror = tmp_path / "mirror"
    (mirror / "32022R2554").mkdir(parents=True)
    shutil.copy(corpora / "eurlex-extra/da/32022R2554.dora.da.html", mirror / "32022R2554" / "da.html")
    shutil.copytree(corpora / "gdpr", mirror / "gdpr")
    shutil.copytree(corpora / "32022R0868", mirror / "32022R0868")
    monkeypatch.setenv("PINCITE_DATABASE_URL", postgres_url)
    monkeypatch.setenv("PINCITE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PINCITE_MIRROR", str(mirror))
    monkeypatch.delenv("PINCITE_CONFIG", raising=False)
    yield tmp_path / "home"
    state.close_all()


def sqlite_files(home) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*")
                  if p.is_file() and (p.suffix.startswith(".sqlite") or p.read_bytes()[:16] == SQLITE_MAGIC))


def test_index_ask_thread_and_corpus_add_on_postgres_write_no_sqlite_file(pg_home, postgres_url):
    settings = load_settings()
    with Pincite(settings, embedder=HashEmbedder()) as pincite:  # the embedder is not under test here
        pincite.index("gdpr", "en")
        first = pincite.ask("How quickly must a personal data breach be notified?", corpus="gdpr")
        pincite.ask("And to whom?", corpus="gdpr", thread=first["thread"])
        added = pincite.add_act("32022R2554", "da", name="dora")
        listed = [c["name"] for c in pincite.list_corpora()]
    turns = [t["question"] for t in history.history(settings, first["thread"])]
    assert turns == ["How quickly must a personal data breach be notified?", "And to whom?"]
    assert [r["question"] for r in history.recent(settings, 5)] == [
        "And to whom?", "How quickly must a personal data breach be notified?"]
    assert (added.new, "dora" in listed, corpus_spec("dora", settings).celex) == (True, True, "32022R2554")
    with psycopg.connect(postgres_url) as db:
        (catalog,) = db.execute("SELECT count(*) FROM catalog WHERE name = 'dora'").fetchone()
        keys = [k for (k,) in db.execute("SELECT key FROM indexes ORDER BY key")]
    assert (catalog, keys) == (1, ["dora/da", "gdpr/en"])
    assert sqlite_files(pg_home) == []
    assert not (pg_home / "catalog.json").exists()


def test_the_catalog_in_the_database_is_not_the_data_directorys(pg_home):
    settings = load_settings()
    from pincite.sources.catalog import added_act, register

    register(added_act("32022R2554", name="dora"), settings)
    assert (list(registered(settings)), registered(pg_home)) == (["dora"], {})


def test_concurrent_first_starts_apply_the_state_migrations_once(postgres_url):
    def first_start(_):
        return state.PostgresState(postgres_url, state.POSTGRES_MIGRATIONS)

    with ThreadPoolExecutor(6) as pool:
        opened = list(pool.map(first_start, range(6)))
    for one in opened:
        one.close()
    with psycopg.connect(postgres_url) as db:
        applied = [name for (name,) in db.execute("SELECT name FROM migrations ORDER BY name")]
    assert applied == [name for name, _ in state.POSTGRES_MIGRATIONS]


def test_several_corpora_are_one_query_on_postgres_and_rank_as_on_sqlite(pg_home, monkeypatch):
    from pincite.index.store.postgres import PostgresStore

    on_postgres = load_settings()
    on_sqlite = on_postgres.model_copy(update={"database_url": None, "home": pg_home.parent / "sqlite-home"})
    question, corpora = "Who may re-use data held by public sector bodies?", ["gdpr", "dga"]
    with Pincite(on_sqlite, embedder=HashEmbedder()) as sqlite, Pincite(on_postgres, embedder=HashEmbedder()) as pg:
        for name in corpora:
            sqlite.index(name, "en")
            pg.index(name, "en")
        want = sqlite.search_document(question, corpus=corpora, k=8, mode="bm25")
        calls = []
        monkeypatch.setattr(PostgresStore, "keyword", lambda *a: calls.append("keyword"))
        monkeypatch.setattr(PostgresStore, "dense", lambda *a: calls.append("dense"))
        got = pg.search_document(question, corpus=corpora, k=8, mode="bm25")
        every = pg.search_document(question, corpus="all", k=8, mode="bm25")
        # the signals each corpus is kept and ranked by (retrieve.multi) are the same on both stores
        signals = [[(r.name, r.dense, r.coverage, r.named) for r in one.corpus_results(question, corpora, k=8, mode="bm25")]
                   for one in (sqlite, pg)]
    assert calls == []  # no search per act: search_many asked the database once
    assert [(h["corpus"], h["id"]) for h in got["hits"]] == [(h["corpus"], h["id"]) for h in want["hits"]]
    assert signals[0] == signals[1] and [name for name, *_ in signals[0]] == corpora
    assert every["corpus"] == ["dga", "gdpr"] and {h["id"] for h in every["hits"]} == {h["id"] for h in got["hits"]}


def test_postgres_searches_an_act_whole_and_a_larger_index_to_a_bounded_depth(pg_home):
    """An index of at most `searched_whole` provisions hands fusion every provision (as SQLite);
    a larger one its best SEARCH_DEPTH, and the dense scan then walks HNSW."""
    from pincite.index.store.postgres import SEARCH_DEPTH, SEARCHED_WHOLE

    # the store's depth alone: the questions written for the GDPR's provisions would add their best matches
    with Pincite(load_settings(provision_questions=False), embedder=HashEmbedder()) as pincite:
        pincite.index("gdpr", "en")
        searcher = pincite.searcher("gdpr", "en")
        whole = (searcher.depth, len(searcher.search("data breach notification", k=SEARCHED_WHOLE, mode="dense")))
        pincite.store.searched_whole = SEARCH_DEPTH  # the GDPR's provisions now count as a large index
        bounded = (searcher.depth, len(searcher.search("data breach notification", k=SEARCHED_WHOLE, mode="dense")))
    assert len(searcher.provisions) > SEARCH_DEPTH
    assert whole == (SEARCHED_WHOLE, len(searcher.provisions))
    assert bounded == (SEARCH_DEPTH, SEARCH_DEPTH)
