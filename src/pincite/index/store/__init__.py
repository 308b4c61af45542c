"""Stores behind one protocol (base.Store): SQLite (embedded, the default), PostgreSQL + pgvector
(`PINCITE_DATABASE_URL`), and any store registered for another URL scheme. `store_from_settings`
picks one from the settings."""

from pincite.index.store import sqlite  # noqa: F401  (registers the "sqlite" store)
from pincite.index.store.base import (
    STORES,
    Edge,
    IndexIdentity,
    Scored,
    SearchRequest,
    Store,
    Unit,
    edges_of,
    open_store,
    register_store,
    search_many,
    text_hash,
)
from pincite.settings import Settings


def _open_postgres(url: str) -> Store:
    from pincite.index.store.postgres import PostgresStore  # lazy: psycopg loads only when a database is set

    return PostgresStore(url)


register_store("postgresql", _open_postgres)
register_store("postgres", _open_postgres)


def store_url(settings: Settings) -> str:
    """Where indexes live: the database of PINCITE_DATABASE_URL, else the SQLite file under the
    data directory."""
    url = settings.database_url.get_secret_value() if settings.database_url else ""
    if url.strip():
        return url.strip()
    return f"sqlite:///{settings.index_path}"


def store_from_settings(settings: Settings) -> Store:
    return open_store(store_url(settings))


__all__ = ["STORES", "Edge", "IndexIdentity", "Scored", "SearchRequest", "Store", "Unit", "edges_of", "open_store",
           "register_store", "search_many", "store_from_settings", "store_url", "text_hash"]
