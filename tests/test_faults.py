"""Faults on one data directory: builds at the same time, a source that parses but fails the
corpus checks, a lock held by another process. Real `pincite` processes, real files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from pincite.errors import PinciteError
from tests.live_server import env_for

DORA = "32022R2554"  # not a named corpus: `corpus add` registers it


@pytest.fixture
def settings(mirrored_home, corpora, tmp_path, monkeypatch):
    """The shared corpora as the mirror, plus DORA (Danish) under its CELEX."""
    from pincite.settings import load_settings

    mirror = tmp_path / "mirror"
    shutil.copytree(corpora / "gdpr", mirror / "gdpr")
    (mirror / DORA).mkdir()
    shutil.copy(corpora / "eurlex-extra" / "da" / "32022R2554.dora.da.html", mirror / DORA / "da.html")
    monkeypatch.setenv("PINCITE_MIRROR", str(mirror))
    return load_settings()


def _truncated_but_well_formed(html: bytes) -> bytes:
    """The page cut after its 40th article and closed again: valid markup, too few provisions."""
    cut = html.index(b'id="art_40"')
    return html[:cut] + b'"></div></div></body></html>\n'


def _mirror_with(tmp_path, name: str, data: bytes):
    folder = tmp_path / "bad-mirror" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "en.html").write_bytes(data)
    return folder.parent


def test_a_source_that_fails_the_checks_is_not_cached_and_a_later_build_succeeds(settings, corpora, tmp_path):
    from pincite.corpus.build import build_corpus
    from pincite.sources.catalog import corpus_spec
    from pincite.sources.fetch import cached_source

    bad = _mirror_with(tmp_path, "gdpr", _truncated_but_well_formed((corpora / "gdpr" / "en.html").read_bytes()))
    with pytest.raises(PinciteError):
        build_corpus("gdpr", "en", settings.model_copy(update={"mirror": bad}))
    assert cached_source(corpus_spec("gdpr"), "en", settings) is None
    assert not (settings.sources_dir / "gdpr").exists() or not list((settings.sources_dir / "gdpr").iterdir())
    info = build_corpus("gdpr", "en", settings)  # good bytes, no refresh
    assert info.counts["enacting"] == 414


def test_a_cached_source_that_no_longer_parses_is_fetched_again(settings, corpora):
    from pincite.corpus.build import build_corpus
    from pincite.sources.catalog import corpus_spec
    from pincite.sources.fetch import HTML, store_source

    spec = corpus_spec("gdpr")
    page = _truncated_but_well_formed((corpora / "gdpr" / "en.html").read_bytes())
    store_source(spec, "en", settings, "file:///old", page, HTML)  # as an older pincite cached it
    assert build_corpus("gdpr", "en", settings).counts["enacting"] == 414


def _pincite(settings, *args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pincite", *args], env={**env_for(settings), **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_adds_of_the_same_act_at_once_both_finish(settings):
    first, second = (_pincite(settings, "corpus", "add", DORA, "--lang", "da", "--name", "dora", "--no-index") for _ in range(2))
    results = [(p.wait(120), p.stdout.read(), p.stderr.read()) for p in (first, second)]
    for p in (first, second):
        p.stdout.close()
        p.stderr.close()
    assert [code for code, _, _ in results] == [0, 0], results
    assert sorted("already added" in out for _, out, _ in results) == [False, True]
    assert "Traceback" not in "".join(err for _, _, err in results)


@pytest.mark.parametrize("command", [["corpus", "add", DORA, "--lang", "da", "--no-index"], ["corpus", "build", "gdpr"],
                                     ["index", "gdpr"]])
def test_a_held_lock_is_reported_plainly(settings, command):
    from pincite.sources.lock import data_lock

    with data_lock(settings.home, 1):
        process = _pincite(settings, *command, PINCITE_LOCK_TIMEOUT="0.3")
        code, err = process.wait(60), process.stderr.read()
        process.stdout.close()
        process.stderr.close()
    assert code != 0
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: another pincite process holds the lock") and "Traceback" not in err


def test_the_lock_is_reentrant_and_released(settings):
    from pincite.sources.lock import data_lock

    with data_lock(settings.home, 1), data_lock(settings.home, 1):
        pass
    process = _pincite(settings, "corpus", "build", "gdpr", PINCITE_LOCK_TIMEOUT="0.3")
    assert process.wait(120) == 0, process.stderr.read()
    process.stdout.close()
    process.stderr.close()


def test_temporary_names_are_unique_per_writer(tmp_path):
    import threading

    from pincite.sources.catalog import added_act, register, registered

    threads = [threading.Thread(target=register, args=(added_act(f"3202{i}R000{i}", f"act-{i}"), tmp_path))
               for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert registered(tmp_path)  # a readable registry, whichever writer renamed last
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MB filesystem (tmpfs): room for the GDPR's source, not for its corpus as well."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("needs permission to mount a small tmpfs (root)")
    yield where
    subprocess.run(["umount", str(where)], check=True)


def test_a_full_disk_is_one_clear_error_and_nothing_half_written(settings, tiny_disk):
    full = settings.model_copy(update={"home": tiny_disk / "home"})
    process = _pincite(full, "corpus", "build", "gdpr")
    code, err = process.wait(120), process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    assert code != 0 and "Traceback" not in err
    assert re.match(r"error: .*(No space left on device|free space).* — ", err.strip().splitlines()[-1]), err
    left = [p.name for p in tiny_disk.rglob("*") if p.is_file()]
    assert not [n for n in left if n.endswith((".tmp", ".part", ".jsonl"))], left
