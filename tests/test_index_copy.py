"""PostgreSQL from an existing index: a database's index is copied from the user's SQLite index
when that one was built from the same corpus, model and settings — the embedder computes no
passage — and searches as the SQLite index does; built otherwise, it is embedded (with a note),
and a failed copy leaves nothing in the database. Real SQLite and PostgreSQL, the real model."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys

import numpy as np
import psycopg
import pytest
from pydantic import SecretStr

from pincite.errors import ConfigError
from pincite.index.embed import embedder_from_settings
from pincite.index.store import text_hash
from pincite.index.units import settings_hash
from pincite.service import Pincite
from pincite.settings import load_settings
from tests.conftest import CORPORA, MODEL, service_for
from tests.test_store_postgres import QUESTIONS, seed_vector_cache


class CountingEmbedder:
    """The real embedder, counting the passages it embeds (queries apart: searching embeds those)."""

    def __init__(self, inner):
        self.inner, self.passages = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed(self, texts):
        self.passages += len(texts)
        return self.inner.embed(texts)


def on_postgres(settings, url: str, **changes):
    """The same settings (the same data directory, so the same SQLite index), indexes in `url`."""
    return settings.model_copy(update={"database_url": SecretStr(url), **changes})


def labels(pincite: Pincite, question: str) -> list[str]:
    return [h.provision.label for h in pincite.search(question, corpus="gdpr", k=5).hits]


def test_the_first_search_on_postgres_copies_the_sqlite_index_without_embedding(indexed, postgres_url):
    settings = indexed("gdpr")
    sqlite = service_for(settings)
    embedder = CountingEmbedder(embedder_from_settings(settings))
    with Pincite(on_postgres(settings, postgres_url), embedder=embedder) as pincite:
        got = {q: labels(pincite, q) for q in QUESTIONS}  # the index made on first use
        copied = pincite.store.identity("gdpr/en")
        hashes = [text_hash(u.text) for u in pincite.store.units("gdpr/en")]
        vectors = pincite.store.cached_vectors(copied.model, hashes)
    want = sqlite.store.cached_vectors(copied.model, hashes)
    assert embedder.passages == 0 and copied == sqlite.store.identity("gdpr/en")
    assert all(np.array_equal(vectors[h], want[h]) for h in hashes) and len(vectors) == len(want)
    assert got == {q: labels(sqlite, q) for q in QUESTIONS}


def test_index_to_database_prints_the_copy_then_up_to_date(indexed, postgres_url):
    settings = indexed("gdpr")
    identity = service_for(settings).store.identity("gdpr/en")
    env = {**os.environ, "PINCITE_HOME": str(settings.home), "PINCITE_MIRROR": str(CORPORA),
           "PINCITE_EMBED_MODEL_PATH": str(MODEL), "PINCITE_DATABASE_URL": postgres_url}
    runs = [subprocess.run([sys.executable, "-m", "pincite", "index", "gdpr", "--to-database"], capture_output=True,
                           text=True, env=env, timeout=300) for _ in range(2)]
    lines = [re.sub(r"in [0-9.]+ s$", "in N s", run.stdout.strip()) for run in runs]
    head = f"gdpr/en: 587 provisions, 849 index units, model {identity.model} — "
    assert lines == [head + "copied from the SQLite index in N s", head + "up to date in N s"], runs[0].stderr


def test_an_index_built_with_other_settings_is_embedded_not_copied(indexed, postgres_url, caplog):
    settings = indexed("gdpr")
    sqlite = service_for(settings).store
    seed_vector_cache(sqlite, postgres_url, text_hash)  # the texts both builds share: not what is tested
    changed = on_postgres(settings, postgres_url, index_split_chars=600)
    embedder = CountingEmbedder(embedder_from_settings(settings))
    with caplog.at_level(logging.WARNING, logger="pincite.index"), \
            Pincite(changed, embedder=embedder) as pincite:
        report = pincite.index("gdpr", "en", to_database=True)
        built = pincite.store.identity("gdpr/en")
    assert (report["status"], built.settings_hash) == ("built", settings_hash(changed)) and embedder.passages > 0
    assert [r.getMessage().split(" — ")[-1] for r in caplog.records] == ["embedding it"]
    assert "was built with other index settings" in caplog.records[0].getMessage()


def test_a_copy_failing_in_the_database_leaves_no_index_there(indexed, postgres_url, monkeypatch):
    from pincite.index.store import postgres  # the module whose COPY is made to fail

    def failing(db, target, types, rows):
        if target.startswith("edges"):  # after provisions, units and terms were written
            raise psycopg.errors.QueryCanceled("canceled")
        copy_rows(db, target, types, rows)

    copy_rows = postgres.copy_rows
    monkeypatch.setattr(postgres, "copy_rows", failing)
    settings = on_postgres(indexed("gdpr"), postgres_url)
    with Pincite(settings, embedder=CountingEmbedder(embedder_from_settings(settings))) as pincite:
        with pytest.raises(Exception, match="canceled"):
            pincite.index("gdpr", "en", to_database=True)
        assert pincite.store.keys() == []
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT count(*) FROM units").fetchone() == (0,)


def test_to_database_without_a_database_says_how_to_name_one(mirrored_home):
    with pytest.raises(ConfigError, match=r"set PINCITE_DATABASE_URL=postgresql://"), \
            Pincite(load_settings()) as pincite:
        pincite.index("gdpr", to_database=True)
