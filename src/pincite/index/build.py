"""Building an index: a corpus's units embedded and stored, atomically.

An index records what built it; when the corpus, the model or the settings that shape the
units change, it is rebuilt (never silently mixed). Unchanged texts are not re-embedded, and a
database store's index is copied from the user's SQLite index when that one was built from the
same corpus, model and settings (`_copied`): its vectors are not computed again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import numpy as np

from pincite.corpus.build import corpus_info, corpus_path, load_provisions
from pincite.errors import StoreError
from pincite.index.embed import Embedder, embedder_from_settings
from pincite.index.store import IndexIdentity, Store, Unit, store_from_settings, store_url, text_hash
from pincite.index.store.sqlite import SQLiteStore
from pincite.index.units import provision_units, settings_hash
from pincite.progress import Progress, report
from pincite.settings import Settings
from pincite.sources.catalog import check_lang, corpus_spec
from pincite.sources.lock import data_lock

log = logging.getLogger("pincite.index")
COPY = "copy"  # the stage reported when an index is copied from the SQLite index, not embedded


def index_key(name: str, lang: str) -> str:
    return f"{name}/{lang}"


def wanted_identity(name: str, lang: str, settings: Settings, embedder: Embedder) -> IndexIdentity:
    data = corpus_path(settings, name, lang).read_bytes()
    return IndexIdentity(index_key(name, lang), hashlib.sha256(data).hexdigest(), embedder.identity,
                         settings_hash(settings))


def build_index(name: str, lang: str, settings: Settings, store: Store | None = None,
                embedder: Embedder | None = None, progress: Progress | None = None) -> IndexIdentity:
    """Build (or rebuild) the index of one corpus language, atomically; `progress` hears of
    each stage (the corpus's too, when it is built first)."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    embedder = embedder or embedder_from_settings(settings)
    with data_lock(settings.home, settings.lock_timeout), _opened(settings, store) as store:
        provisions = load_provisions(spec.name, lang, settings, progress)
        identity = wanted_identity(spec.name, lang, settings, embedder)
        if _copied(identity, settings, store, progress):
            return identity
        units = [u for p in provisions for u in provision_units(p, settings)]
        vectors = _vectors(units, store, embedder, partial(report, progress, identity.key))
        report(progress, identity.key, "write", 0, len(units))
        store.replace_index(identity, provisions, units, vectors)
    return identity


def _copied(want: IndexIdentity, settings: Settings, store: Store, progress: Progress | None) -> bool:
    """Whether the index `want` was copied into a database store from the SQLite index of these
    settings (`<home>/index.sqlite`), which holds it built from the same corpus, model and settings:
    provisions, units and vectors as they are, in the store's one transaction. An SQLite index
    built otherwise is not copied: one line says why, and the caller embeds."""
    source = _sqlite_source(settings, store)
    if source is None:
        return False
    try:
        found = source.identity(want.key)
        if found is None:
            return False
        if found != want:
            log.warning("pincite: %s: not copied from %s, which was built %s — embedding it", want.key,
                        settings.index_path, _difference(found, want))
            return False
        report(progress, want.key, COPY, 0, None)
        _, provisions, units, vectors = source.contents(want.key)
        report(progress, want.key, COPY, len(units), len(units))
    except StoreError as exc:  # a damaged SQLite file: the database gets the index embedded
        log.warning("pincite: %s: not copied (%s) — embedding it", want.key, exc)
        return False
    finally:
        source.close()
    report(progress, want.key, "write", 0, len(units))
    store.replace_index(want, provisions, units, vectors)
    return True


def _sqlite_source(settings: Settings, store: Store) -> SQLiteStore | None:
    """The SQLite index file to copy from: when the settings put indexes in a database and the
    user's SQLite file is there (never created here)."""
    if store_url(settings).startswith("sqlite:") or isinstance(store, SQLiteStore) or not settings.index_path.is_file():
        return None
    try:
        return SQLiteStore(settings.index_path)
    except StoreError as exc:
        log.warning("pincite: the SQLite index is not copied (%s)", exc)
        return None


def _difference(found: IndexIdentity, want: IndexIdentity) -> str:
    """How an SQLite index differs from the one wanted, in a few words."""
    if found.model != want.model:
        return f"with the model {found.model} (now {want.model})"
    if found.settings_hash != want.settings_hash:
        return f"with other index settings (settings hash {found.settings_hash}, now {want.settings_hash})"
    return "from another version of the corpus"


@contextmanager
def _opened(settings: Settings, store: Store | None) -> Iterator[Store]:
    """The store given, or the settings' one opened for this call and closed after it (a
    database store holds a connection pool)."""
    if store is not None:
        yield store
        return
    opened = store_from_settings(settings)
    try:
        yield opened
    finally:
        opened.close()


def _vectors(units: list[Unit], store: Store, embedder: Embedder,
             tell: Callable[[str, int, int], None]) -> np.ndarray:
    """Embed only texts the store has no vector for; batches keep memory flat. `tell(stage,
    done, total)` hears of the count embedded."""
    hashes = [text_hash(u.text) for u in units]
    cached = store.cached_vectors(embedder.identity, hashes)
    # Sorted by length so each batch pads to similar lengths: far less wasted compute.
    todo = sorted({h: u.text for h, u in zip(hashes, units, strict=True) if h not in cached}.items(),
                  key=lambda item: (len(item[1]), item[0]))
    step = 128  # texts per progress step
    if todo:
        tell("embed", 0, len(todo))
    for start in range(0, len(todo), step):
        chunk = todo[start:start + step]
        for (h, _), row in zip(chunk, embedder.embed([t for _, t in chunk]), strict=True):
            cached[h] = row
        tell("embed", min(start + step, len(todo)), len(todo))
    return np.vstack([cached[h] for h in hashes]) if hashes else np.zeros((0, embedder.dim), np.float32)


def index_is_current(name: str, lang: str, settings: Settings, store: Store, embedder: Embedder) -> bool:
    """Whether the index of a corpus language is there and as `ensure_index` would leave it, found
    without building or rebuilding anything (a corpus from an older parser is not current)."""
    spec = corpus_spec(name, settings)
    if corpus_info(spec.name, lang, settings) is None:
        return False
    want = wanted_identity(spec.name, lang, settings, embedder)
    return store.identity(want.key) == want


def ensure_index(name: str, lang: str, settings: Settings, store: Store | None = None,
                 embedder: Embedder | None = None, progress: Progress | None = None) -> IndexIdentity:
    """The index as it should be: built when missing, rebuilt when what built it has changed
    (`progress` hears of the stages of what is built)."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    embedder = embedder or embedder_from_settings(settings)
    load_provisions(spec.name, lang, settings, progress)  # builds the corpus on first use
    want = wanted_identity(spec.name, lang, settings, embedder)
    with _opened(settings, store) as store:
        if store.identity(want.key) == want:
            return want
        with data_lock(settings.home, settings.lock_timeout):
            # Another process may have built it while we waited for the lock.
            want = wanted_identity(spec.name, lang, settings, embedder)
            if store.identity(want.key) == want:
                return want
            return build_index(spec.name, lang, settings, store, embedder, progress)
