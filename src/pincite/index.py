"""The index stage: provisions → units (what is embedded and keyword-indexed) → the store.

An index records what built it; when the corpus, the model or the settings that shape the
units change, it is rebuilt (never silently mixed). Unchanged texts are not re-embedded.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

import numpy as np

from .analysis import tokenize
from .catalog import check_lang, corpus_spec
from .corpus import corpus_path, load_provisions
from .embed import Embedder, embedder_from_settings
from .provisions import Provision
from .settings import Settings
from .store import IndexIdentity, LoadedIndex, SQLiteStore, Store, Unit, text_hash

# Bump when unit construction or analysis changes, so old indexes are rebuilt.
UNITS_VERSION = 1
_POINT_LINE = re.compile(r"^(?:\(?[a-z]{1,4}\)|\(?\d{1,3}\)|\d{1,3}\.|—|–|-|•)\s")


def units_settings(settings: Settings) -> dict:
    return {"units_version": UNITS_VERSION, "heading": settings.index_heading,
            "sentences": settings.index_sentences,
            "split_chars": settings.index_split_chars, "max_length": settings.embed_max_length}


def settings_hash(settings: Settings) -> str:
    return hashlib.sha256(json.dumps(units_settings(settings), sort_keys=True).encode()).hexdigest()[:16]


def provision_units(p: Provision, settings: Settings) -> list[Unit]:
    """The whole provision, plus one unit per top-level point of a long paragraph.

    Every unit maps back to the provision: splitting is an index-time choice, the corpus
    holds citation units only.
    """
    heading = f"{p.title}: " if settings.index_heading and p.title else ""
    units = [Unit(p.id, heading + p.text, tokenize(f"{p.title}\n{p.text}", p.lang))]
    if settings.index_split_chars and len(p.text) > settings.index_split_chars:
        lead, points = split_points(p.text)
        if len(points) > 1:
            units += [Unit(p.id, f"{heading}{lead} {point}".strip(), []) for point in points]
    if settings.index_sentences:
        pieces = sentences(p.text)
        if len(pieces) > 1:
            units += [Unit(p.id, heading + piece, []) for piece in pieces]
    return units


_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(‘«\u201c])")


def sentences(text: str) -> list[str]:
    """Sentences and point lines: short texts the sentence model was trained to match."""
    out = []
    for line in text.splitlines():
        out += [s.strip() for s in _SENTENCE_END.split(line.strip()) if len(s.strip()) > 20]
    return out


def split_points(text: str) -> tuple[str, list[str]]:
    """(lead-in, [point with its nested lines]) of a provision text as the parser lays it out:
    points are the least-indented point lines after the first line."""
    lines = text.splitlines()
    depths = [len(ln) - len(ln.lstrip()) for ln in lines]
    candidates = [d for i, (ln, d) in enumerate(zip(lines, depths, strict=True))
                  if i and _POINT_LINE.match(ln.lstrip())]
    if not candidates:
        return " ".join(ln.strip() for ln in lines), []
    top = min(candidates)
    lead: list[str] = []
    points: list[list[str]] = []
    for i, (line, depth) in enumerate(zip(lines, depths, strict=True)):
        if i and depth == top and _POINT_LINE.match(line.lstrip()):
            points.append([line.strip()])
        elif points:
            points[-1].append(line.strip())
        else:
            lead.append(line.strip())
    return " ".join(lead), [" ".join(p) for p in points]


def index_key(name: str, lang: str) -> str:
    return f"{name}/{lang}"


def open_store(settings: Settings) -> Store:
    return SQLiteStore(settings.index_path)


def wanted_identity(name: str, lang: str, settings: Settings, embedder: Embedder) -> IndexIdentity:
    data = corpus_path(settings, name, lang).read_bytes()
    return IndexIdentity(index_key(name, lang), hashlib.sha256(data).hexdigest(), embedder.identity,
                         settings_hash(settings))


def build_index(name: str, lang: str, settings: Settings, store: Store | None = None,
                embedder: Embedder | None = None, progress: Callable[[int, int], None] | None = None) -> IndexIdentity:
    """Build (or rebuild) the index of one corpus language, atomically."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    store = store or open_store(settings)
    embedder = embedder or embedder_from_settings(settings)
    provisions = load_provisions(spec.name, lang, settings)
    identity = wanted_identity(spec.name, lang, settings, embedder)
    units = [u for p in provisions for u in provision_units(p, settings)]
    vectors = _vectors(units, store, embedder, progress)
    store.replace_index(identity, provisions, units, vectors)
    return identity


def _vectors(units: list[Unit], store: Store, embedder: Embedder,
             progress: Callable[[int, int], None] | None) -> np.ndarray:
    """Embed only texts the store has no vector for; batches keep memory flat."""
    hashes = [text_hash(u.text) for u in units]
    cached = store.cached_vectors(embedder.identity, hashes)
    # Sorted by length so each batch pads to similar lengths: far less wasted compute.
    todo = sorted({h: u.text for h, u in zip(hashes, units, strict=True) if h not in cached}.items(),
                  key=lambda item: (len(item[1]), item[0]))
    step = max(embedder.batch_size * 4, 64)
    for start in range(0, len(todo), step):
        chunk = todo[start:start + step]
        for (h, _), row in zip(chunk, embedder.embed([t for _, t in chunk]), strict=True):
            cached[h] = row
        if progress:
            progress(min(start + step, len(todo)), len(todo))
    return np.vstack([cached[h] for h in hashes]) if hashes else np.zeros((0, 384), np.float32)


def ensure_index(name: str, lang: str, settings: Settings, store: Store | None = None,
                 embedder: Embedder | None = None) -> IndexIdentity:
    """The index as it should be: built when missing, rebuilt when what built it has changed."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    store = store or open_store(settings)
    embedder = embedder or embedder_from_settings(settings)
    load_provisions(spec.name, lang, settings)  # builds the corpus on first use
    want = wanted_identity(spec.name, lang, settings, embedder)
    if store.identity(want.key) != want:
        return build_index(spec.name, lang, settings, store, embedder)
    return want


def load_index(name: str, lang: str, settings: Settings, store: Store | None = None,
               embedder: Embedder | None = None) -> LoadedIndex:
    store = store or open_store(settings)
    identity = ensure_index(name, lang, settings, store, embedder)
    return store.load_index(identity.key)
