"""Shared fixtures. Tests that need ../shared skip with a reason when it is absent."""

from __future__ import annotations

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
