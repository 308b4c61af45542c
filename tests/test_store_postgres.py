"""The PostgreSQL store's own behaviour, on a real server (the shared behaviour is in
test_store_contract.py): migrations once under concurrent first starts, a killed or failed build
leaves the old index searchable, credentials never reach a message, and a real corpus indexed
through PINCITE_DATABASE_URL searches as the SQLite store does without writing SQLite files."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import psycopg
import pytest

from pincite.errors import StoreError
from pincite.index.store import IndexIdentity, Unit, open_store
from pincite.index.store.postgres import MIGRATIONS
from tests.test_store_contract import fill, provision


@pytest.fixture
def store(postgres_url):
    opened = open_store(postgres_url)
    yield opened
    opened.close()


def test_concurrent_first_starts_apply_each_migration_once(postgres_url):
    with ThreadPoolExecutor(6) as pool:
        stores = list(pool.map(lambda _: open_store(postgres_url), range(6)))
    for opened in stores:
        opened.close()
    with psycopg.connect(postgres_url) as db:
        applied = [name for (name,) in db.execute("SELECT name FROM migrations ORDER BY name")]
    assert applied == [name for name, _ in MIGRATIONS]


def test_a_replacement_failing_in_the_database_leaves_the_old_index_searchable(store):
    old = fill(store, 3)
    # PostgreSQL text cannot hold NUL: the COPY fails after the old rows were deleted, in the transaction.
    with pytest.raises(StoreError, match="could not query"):
        store.replace_index(IndexIdentity("t/en", "new", "m", "h"), [provision(0)],
                            [Unit("t/en/art-0", "bad\x00text", ["bad"])], np.ones((1, 4), np.float32))
    assert store.identity("t/en") == old and [pid for pid, _ in store.keyword("t/en", ["word1"], 5)] == ["t/en/art-1"]
    assert store.dense("t/en", np.array([0, 0, 1, 0], np.float32), 1)[0][0] == "t/en/art-2"


KILLED_BUILD = """
import sys, time, numpy as np
import pincite.index.store.postgres as postgres
from pincite.index.store import IndexIdentity, Unit, open_store
from tests.test_store_contract import provision
copy_rows = postgres.copy_rows

def slow_units(db, target, types, rows):  # a long build: the COPY of units stalls after 100 rows
    if target.startswith("units"):
        rows = (time.sleep(3600) if i == 100 else row for i, row in enumerate(rows))
    copy_rows(db, target, types, rows)

postgres.copy_rows = slow_units
provisions = [provision(i) for i in range(1000)]
units = [Unit(p.id, f"unit {i}", ["new", f"w{i}"]) for i, p in enumerate(provisions)]
vectors = np.random.default_rng(0).standard_normal((1000, 4)).astype(np.float32)
open_store(sys.argv[1]).replace_index(IndexIdentity("t/en", "new", "m", "h"), provisions, units, vectors)
"""


def test_a_build_killed_mid_copy_leaves_the_old_index_searchable(store, postgres_url):
    old = fill(store, 3)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with subprocess.Popen([sys.executable, "-c", KILLED_BUILD, postgres_url], cwd=root) as build:
        try:
            wait_for_copy(postgres_url, build)
        finally:
            build.send_signal(signal.SIGKILL)
    assert store.identity("t/en") == old and len(store.provisions("t/en")) == 3
    assert [pid for pid, _ in store.keyword("t/en", ["word2"], 5)] == ["t/en/art-2"]
    assert fill(store, 2, sha="b").corpus_sha256 == store.identity("t/en").corpus_sha256  # its lock was released


def wait_for_copy(url: str, build: subprocess.Popen, seconds: float = 60) -> None:
    """Until the build's transaction is writing units (its COPY is running)."""
    deadline = time.monotonic() + seconds
    with psycopg.connect(url, autocommit=True) as db:
        while time.monotonic() < deadline and build.poll() is None:
            if db.execute("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'COPY units%%' "
                          "AND state = 'active'").fetchone():
                return
            time.sleep(0.02)
    pytest.fail("the build never reached its COPY of units")


def test_a_connection_failure_names_no_credentials(tmp_path):
    url = f"postgresql://pincite:hunter2@/pincite?host={tmp_path}"
    with pytest.raises(StoreError) as failure:
        open_store(url)
    message = str(failure.value)
    assert message.startswith("could not connect to PostgreSQL database 'pincite'") and "hunter2" not in message
    assert "check PINCITE_DATABASE_URL" in message


def test_the_cli_reports_a_bad_database_in_one_line_without_the_password(mirrored_home, tmp_path):
    env = {**os.environ, "PINCITE_HOME": str(mirrored_home),
           "PINCITE_DATABASE_URL": f"postgresql://pincite:hunter2@/pincite?host={tmp_path}"}
    result = subprocess.run([sys.executable, "-m", "pincite", "search", "breach notification", "--corpus", "gdpr"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: could not connect to PostgreSQL database 'pincite'")
    assert "hunter2" not in result.stderr + result.stdout


QUESTIONS = [
    "How quickly must a personal data breach be notified to the supervisory authority?",
    "What are the conditions for valid consent?",
    "Can I ask a company to erase my personal data?",
    "When is a data protection impact assessment required?",
    "What fines can a supervisory authority impose?",
]


def test_a_real_corpus_indexed_into_postgres_searches_as_sqlite_and_writes_no_sqlite_file(
        indexed, postgres_url, tmp_path, monkeypatch):
    from pincite.index.store import text_hash
    from pincite.service import Pincite
    from pincite.settings import load_settings
    from tests.conftest import CORPORA, MODEL, service_for

    sqlite = service_for(indexed("gdpr"))
    seed_vector_cache(sqlite.store, postgres_url, text_hash)
    monkeypatch.setenv("PINCITE_DATABASE_URL", postgres_url)
    home = tmp_path / "home"
    with Pincite(load_settings(home=home, mirror=CORPORA, embed_model_path=MODEL)) as pincite:
        report = pincite.index("gdpr", "en")  # the corpus built from the mirror, its units, the store
        got = {q: [h.provision.label for h in pincite.search(q, corpus="gdpr", k=5).hits] for q in QUESTIONS}
    want = {q: [h.provision.label for h in sqlite.search(q, corpus="gdpr", k=5).hits] for q in QUESTIONS}
    assert (report["status"], report["provisions"]) == ("built", len(sqlite.store.provisions("gdpr/en")))
    assert got == want
    assert [str(p.relative_to(home)) for p in home.rglob("*.sqlite*")] == []


def seed_vector_cache(sqlite, postgres_url: str, text_hash) -> None:
    """The SQLite index's vectors, put in the database under another key: the build under test
    finds every text already embedded (embedding GDPR again costs minutes on a busy machine,
    and the embedder is not what this test is about)."""
    identity = sqlite.identity("gdpr/en")
    units = sqlite.units("gdpr/en")
    cached = sqlite.cached_vectors(identity.model, [text_hash(u.text) for u in units])
    seed = open_store(postgres_url)
    try:
        seed.replace_index(IndexIdentity("seed/en", "seed", identity.model, "seed"), sqlite.provisions("gdpr/en"),
                           units, np.vstack([cached[text_hash(u.text)] for u in units]))
    finally:
        seed.close()


def test_an_index_written_before_stored_weights_gets_them_on_upgrade(postgres_url):
    """A database at migration 001 (postings without weights) is upgraded on start, and its
    BM25 scores are what `keyword.bm25_weights` computes."""
    from pincite.index.keyword import bm25_weights
    from pincite.index.store.postgres import migrate

    tokens = [["breach", "notify", "breach"], ["notify"], ["fine"]]
    with psycopg.connect(postgres_url, autocommit=True) as db:
        migrate(db, MIGRATIONS[:1])
        db.execute("INSERT INTO indexes VALUES ('t/en', 'a', 'm', 'h', 2, 3, 3, 3, %s)",
                   (sum(map(len, tokens)) / 3,))
        for i, unit in enumerate(tokens):
            db.execute("INSERT INTO provisions VALUES ('t/en', %s, %s, %s)", (i, f"t/en/art-{i}", provision(i).to_json()))
            db.execute("INSERT INTO units VALUES ('t/en', %s, %s, %s, 'x', %s, %s, 2, '[1,0]')",
                       (i, i, f"t/en/art-{i}", unit, f"h{i}"))
            for term in set(unit):
                db.execute("INSERT INTO postings VALUES ('t/en', %s, %s, %s, %s, %s)",
                           (term, i, i, unit.count(term), len(unit)))
        for term in {"breach", "notify", "fine"}:
            db.execute("INSERT INTO terms VALUES ('t/en', %s, %s)", (term, sum(term in u for u in tokens)))
    upgraded = open_store(postgres_url)
    try:
        hits = dict(upgraded.keyword("t/en", ["notify", "breach"], 10))
    finally:
        upgraded.close()
    postings = bm25_weights(tokens)
    expected = {f"t/en/art-{i}": 0.0 for i in (0, 1)}
    for term in ("notify", "breach"):
        for i, weight in zip(*postings[term], strict=True):
            expected[f"t/en/art-{i}"] += float(weight)
    assert hits == pytest.approx(expected, rel=1e-5)


def test_keyword_search_rescores_units_found_in_each_terms_first_postings(store):
    """With postings_per_term = N a unit is a candidate when it is among some query term's N
    highest-weight postings, and its score is then its exact BM25 — also for the terms in whose
    lists it came later than N."""
    from pincite.index.keyword import bm25_weights

    provisions = [provision(i) for i in range(4)]
    tokens = [["common"], ["common", "x"], ["common", "x", "y"], ["common", "x", "y", "z", "rare"]]
    units = [Unit(p.id, " ".join(t), t) for p, t in zip(provisions, tokens, strict=True)]
    store.replace_index(IndexIdentity("t/en", "a", "m", "h"), provisions, units, np.eye(4, dtype=np.float32))
    weights = {term: dict(zip(*(a.tolist() for a in arrays), strict=True))
               for term, arrays in bm25_weights(tokens).items()}
    exact = {f"t/en/art-{i}": weights["common"][i] + weights["rare"].get(i, 0.0) for i in range(4)}
    top_two = {pid: exact[pid] for pid in ("t/en/art-3", "t/en/art-0")}
    assert dict(store.keyword("t/en", ["common", "rare"], 2)) == pytest.approx(top_two, rel=1e-5)
    store.postings_per_term = 2  # "common": units 0 and 1 first; unit 3 is a candidate through "rare"
    with psycopg.connect(store.url) as db:
        first = db.execute("SELECT unit_ord FROM postings WHERE key = 't/en' AND term = 'common' "
                           "ORDER BY weight DESC, unit_ord LIMIT 2").fetchall()
    assert first == [(0,), (1,)]
    assert dict(store.keyword("t/en", ["common", "rare"], 2)) == pytest.approx(top_two, rel=1e-5)
    from pincite.index.store import SearchRequest

    [(_, together)] = store.search_many([SearchRequest("t/en", None, ["common", "rare"], 2)])
    assert dict(together) == pytest.approx(top_two, rel=1e-5)


def test_searches_are_planned_for_their_own_index_each_time(postgres_url, monkeypatch):
    """A statement psycopg has prepared gets a custom plan on every run, never the server's one
    generic plan for all keys (planned for a big index it walks the whole HNSW graph for a small
    one among them)."""
    from pincite.index.store import SearchRequest, postgres

    monkeypatch.setattr(postgres, "POOL_SIZE", 1)  # one connection: its prepared statements are all of them
    store = open_store(postgres_url)
    try:
        for key in ("a/en", "b/en"):
            fill(store, key=key)
        for _ in range(12):
            for key in ("a/en", "b/en"):
                store.search_many([SearchRequest(key, np.eye(4, dtype=np.float32)[0], ["text"], 2)])
                store.keyword(key, ["text"], 2)
        with store.pool.connection() as db:
            plans = db.execute("SELECT sum(generic_plans), sum(custom_plans) FROM pg_prepared_statements").fetchone()
    finally:
        store.close()
    assert plans[1] > 0 and plans[0] == 0
