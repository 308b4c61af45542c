"""The SQLite store's own behaviour (the shared behaviour is in test_store_contract.py): damage
reported clearly, a missing index says how to build it, replacements survive reopening."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import StoreError
from pincite.index.store.sqlite import IndexIdentity, SQLiteStore, Unit
from tests.test_store_contract import provision


def test_an_index_survives_reopening_the_file(tmp_path):
    identity = IndexIdentity("t/en", "sha", "m", "h")
    SQLiteStore(tmp_path / "i.sqlite").replace_index(identity, [provision(0)], [Unit("t/en/art-0", "text 0", [])],
                                                      np.ones((1, 4), np.float32))
    reopened = SQLiteStore(tmp_path / "i.sqlite")
    assert reopened.identity("t/en") == identity and reopened.loaded("t/en").vectors.shape == (1, 4)


def test_missing_index_says_how_to_build(tmp_path):
    with pytest.raises(StoreError, match="run: pincite index gdpr --lang en"):
        SQLiteStore(tmp_path / "i.sqlite").provisions("gdpr/en")


def test_corrupt_file_is_a_clear_error(tmp_path):
    path = tmp_path / "i.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        SQLiteStore(path)


def _index_of(store: SQLiteStore, key: str, n: int) -> None:
    provisions = [provision(i) for i in range(n)]
    units = [Unit(p.id, f"{key} {p.text}", ["text"]) for p in provisions]
    store.replace_index(IndexIdentity(key, "a", "m", "h"), provisions, units, np.eye(n, 4, dtype=np.float32))


def test_past_the_threshold_the_embedded_store_hints_postgres_once(tmp_path, monkeypatch, caplog):
    from pincite.index.store import sqlite

    monkeypatch.setattr(sqlite, "HINT_UNITS", 5)  # the real one (60 000 units) would take minutes to build
    monkeypatch.setattr(sqlite, "_hinted", False)
    store = SQLiteStore(tmp_path / "index.sqlite")
    _index_of(store, "a/en", 3)
    store.dense("a/en", np.eye(1, 4, dtype=np.float32)[0], 2)
    assert caplog.messages == []  # 3 units in memory: under the threshold
    _index_of(store, "b/en", 3)
    store.dense("b/en", np.eye(1, 4, dtype=np.float32)[0], 2)  # 6 units in memory now
    _index_of(store, "c/en", 6)
    store.dense("c/en", np.eye(1, 4, dtype=np.float32)[0], 2)
    assert caplog.messages == ["pincite: 6 index units are held in memory by the embedded SQLite store (0 MB of "
                               "vectors alone) — for corpora this large set PINCITE_DATABASE_URL=postgresql://… "
                               "to search in PostgreSQL (README: On PostgreSQL)"]
