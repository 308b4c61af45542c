"""Stores behind one protocol (base.Store): SQLite (embedded, the default) and any store
registered for another URL scheme. `store_from_settings` picks one from the settings."""

from pincite.index.store import sqlite  # noqa: F401  (registers the "sqlite" store)
from pincite.index.store.base import (
    STORES,
    Edge,
    IndexIdentity,
    Scored,
    Store,
    Unit,
    edges_of,
    open_store,
    register_store,
    text_hash,
)
from pincite.settings import Settings


def store_url(settings: Settings) -> str:
    """Where indexes live: the SQLite file under the data directory."""
    return f"sqlite:///{settings.index_path}"


def store_from_settings(settings: Settings) -> Store:
    return open_store(store_url(settings))


__all__ = ["STORES", "Edge", "IndexIdentity", "Scored", "Store", "Unit", "edges_of", "open_store", "register_store",
           "store_from_settings", "store_url", "text_hash"]
