"""Building an index: a corpus's units embedded and stored, atomically.

An index records what built it; when the corpus, the model or the settings that shape the
units change, it is rebuilt (never silently mixed). Unchanged texts are not re-embedded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from pincite.corpus.build import corpus_info, corpus_path, load_provisions
from pincite.index.embed import Embedder, embedder_from_settings
from pincite.index.store import IndexIdentity, Store, Unit, store_from_settings, text_hash
from pincite.index.units import provision_units, settings_hash
from pincite.settings import Settings
from pincite.sources.catalog import check_lang, corpus_spec
from pincite.sources.lock import data_lock


def index_key(name: str, lang: str) -> str:
    return f"{name}/{lang}"


def wanted_identity(name: str, lang: str, settings: Settings, embedder: Embedder) -> IndexIdentity:
    data = corpus_path(settings, name, lang).read_bytes()
    return IndexIdentity(index_key(name, lang), hashlib.sha256(data).hexdigest(), embedder.identity,
                         settings_hash(settings))


def build_index(name: str, lang: str, settings: Settings, store: Store | None = None,
                embedder: Embedder | None = None, progress: Callable[[int, int], None] | None = None) -> IndexIdentity:
    """Build (or rebuild) the index of one corpus language, atomically."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    embedder = embedder or embedder_from_settings(settings)
    with data_lock(settings.home, settings.lock_timeout), _opened(settings, store) as store:
        provisions = load_provisions(spec.name, lang, settings)
        identity = wanted_identity(spec.name, lang, settings, embedder)
        units = [u for p in provisions for u in provision_units(p, settings)]
        vectors = _vectors(units, store, embedder, progress)
        store.replace_index(identity, provisions, units, vectors)
    return identity


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
             progress: Callable[[int, int], None] | None) -> np.ndarray:
    """Embed only texts the store has no vector for; batches keep memory flat."""
    hashes = [text_hash(u.text) for u in units]
    cached = store.cached_vectors(embedder.identity, hashes)
    # Sorted by length so each batch pads to similar lengths: far less wasted compute.
    todo = sorted({h: u.text for h, u in zip(hashes, units, strict=True) if h not in cached}.items(),
                  key=lambda item: (len(item[1]), item[0]))
    step = 128  # texts per progress step
    for start in range(0, len(todo), step):
        chunk = todo[start:start + step]
        for (h, _), row in zip(chunk, embedder.embed([t for _, t in chunk]), strict=True):
            cached[h] = row
        if progress:
            progress(min(start + step, len(todo)), len(todo))
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
                 embedder: Embedder | None = None) -> IndexIdentity:
    """The index as it should be: built when missing, rebuilt when what built it has changed."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    embedder = embedder or embedder_from_settings(settings)
    load_provisions(spec.name, lang, settings)  # builds the corpus on first use
    want = wanted_identity(spec.name, lang, settings, embedder)
    with _opened(settings, store) as store:
        if store.identity(want.key) == want:
            return want
        with data_lock(settings.home, settings.lock_timeout):
            # Another process may have built it while we waited for the lock.
            want = wanted_identity(spec.name, lang, settings, embedder)
            if store.identity(want.key) == want:
                return want
            return build_index(spec.name, lang, settings, store, embedder)
