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
