"""The SQLite store: identity, atomic replacement, vector cache, damage reported clearly."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import StoreError
from pincite.index.store.sqlite import IndexIdentity, SQLiteStore, Unit
from pincite.provisions import Provision


def provision(n: int) -> Provision:
    return Provision(id=f"t/en/art-{n}", label=f"Article {n}", label_local=f"Article {n}", kind="article",
                     instrument="t", lang="en", title="T", path=[], text=f"text {n}", url="u",
                     source_sha256="s", version="v")


def fill(store: SQLiteStore, key: str, n: int, model: str = "m") -> IndexIdentity:
    identity = IndexIdentity(key, f"sha{n}", model, "h")
    provisions = [provision(i) for i in range(n)]
    units = [Unit(p.id, p.text, ["text", str(i)]) for i, p in enumerate(provisions)]
    vectors = np.eye(n, 4, dtype=np.float32)
    store.replace_index(identity, provisions, units, vectors)
    return identity


def test_round_trip(tmp_path):
    store = SQLiteStore(tmp_path / "i.sqlite")
    identity = fill(store, "t/en", 3)
    loaded = store.loaded("t/en")
    assert (loaded.identity, [u.provision_id for u in loaded.units], loaded.vectors.shape) == (
        identity, ["t/en/art-0", "t/en/art-1", "t/en/art-2"], (3, 4))


def test_replace_swaps_the_whole_index(tmp_path):
    store = SQLiteStore(tmp_path / "i.sqlite")
    fill(store, "t/en", 3)
    fill(store, "t/en", 2)
    assert len(store.provisions("t/en")) == 2


def test_failed_replace_leaves_the_old_index(tmp_path):
    store = SQLiteStore(tmp_path / "i.sqlite")
    old = fill(store, "t/en", 3)
    bad_vectors = np.zeros((1, 4), dtype=np.float32)  # fewer vectors than units: fails mid-write
    with pytest.raises(IndexError):
        store.replace_index(IndexIdentity("t/en", "new", "m", "h"), [provision(0), provision(1)],
                            [Unit("t/en/art-0", "a", []), Unit("t/en/art-1", "b", [])], bad_vectors)
    assert store.identity("t/en") == old and len(store.provisions("t/en")) == 3


def test_vectors_are_cached_by_model_and_text(tmp_path):
    store = SQLiteStore(tmp_path / "i.sqlite")
    fill(store, "t/en", 2)
    from pincite.index.store.sqlite import text_hash

    found = store.cached_vectors("m", [text_hash("text 1"), text_hash("unknown")])
    assert list(found) == [text_hash("text 1")] and found[text_hash("text 1")][1] == 1.0


def test_missing_index_says_how_to_build(tmp_path):
    with pytest.raises(StoreError, match="run: pincite index gdpr --lang en"):
        SQLiteStore(tmp_path / "i.sqlite").provisions("gdpr/en")


def test_corrupt_file_is_a_clear_error(tmp_path):
    path = tmp_path / "i.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        SQLiteStore(path)
