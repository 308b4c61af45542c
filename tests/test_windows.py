"""Window units: a provision longer than the embedding window is also indexed window by window,
and scores its best window (PINCITE_INDEX_WINDOWS)."""

from __future__ import annotations

import pytest

from pincite.index.embed import embedder_from_settings, piece_spans
from pincite.index.store import IndexIdentity
from pincite.index.units import provision_units, settings_hash, windows
from pincite.provisions import Provision
from pincite.retrieve.search import Searcher
from pincite.settings import load_settings
from pincite.testing import MemoryStore
from tests.conftest import MODEL, need_shared

FILLER = ("Member States shall lay down the rules on the procedure for the adoption of decisions by the "
          "competent authority, having regard to the nature, gravity and duration of the infringement. ")
TAIL = "The keeper of the register shall feed the carrier pigeons of the authority every morning."


@pytest.fixture(scope="module")
def settings(tmp_path_factory):
    need_shared(MODEL)
    return load_settings(home=tmp_path_factory.mktemp("windows-home"), embed_model_path=MODEL,
                         index_windows=True)


def provision(pid: str, text: str, title: str = "Procedure") -> Provision:
    return Provision(id=f"x/en/{pid}", label=f"Article {pid}", label_local=f"Article {pid}", kind="article",
                     instrument="x", lang="en", title=title, path=[], text=text, url="u",
                     source_sha256="s", version="v")


def test_long_provision_gets_overlapping_windows_within_the_model_window(settings):
    p = provision("1", FILLER * 12 + TAIL)
    found = windows(p, "Procedure: ", settings)
    spans = piece_spans(settings.embed_model_path)
    assert len(found) >= 2 and all(w.startswith("Procedure: ") for w in found)
    assert all(len(spans(w)) <= settings.embed_max_length - 2 for w in found)
    assert found[-1].endswith(TAIL)
    # Half-overlapping: each window's second half opens the next one.
    assert all(b.removeprefix("Procedure: ")[:40] in a for a, b in zip(found, found[1:], strict=False))


def test_short_provision_and_setting_off_add_no_window(settings):
    assert windows(provision("2", FILLER), "Procedure: ", settings) == []
    long = provision("3", FILLER * 12 + TAIL)
    off = settings.model_copy(update={"index_windows": False})
    assert len(provision_units(long, settings)) > len(provision_units(long, off)) == 1
    assert settings_hash(settings) != settings_hash(off)


def test_a_question_about_the_tail_of_a_long_provision_finds_it_by_its_best_window(settings):
    corpus = [provision("1", FILLER * 12 + TAIL),
              provision("2", "Supervisory authorities shall keep a register of their decisions.",
                        title="Register"),
              provision("3", FILLER, title="Decisions")]
    embedder = embedder_from_settings(settings)
    scores = {}
    for windowed in (False, True):
        current = settings.model_copy(update={"index_windows": windowed})
        units = [u for p in corpus for u in provision_units(p, current)]
        store = MemoryStore()
        store.replace_index(IndexIdentity("x/en", "x", embedder.identity, settings_hash(current)), corpus,
                            units, embedder.embed([u.text for u in units]))
        hits = Searcher(store, "x/en", embedder, "en").search("Who feeds the carrier pigeons?", k=3, mode="dense")
        scores[windowed] = {h.provision.id: h.dense for h in hits}
    # Without windows the tail is past the model's 256 word pieces: another provision wins.
    assert max(scores[False], key=scores[False].get) != "x/en/1"
    assert max(scores[True], key=scores[True].get) == "x/en/1"
    assert scores[True]["x/en/1"] > scores[False]["x/en/1"] + 0.1
