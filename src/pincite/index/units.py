"""Units: what the index embeds and keyword-indexes for each provision.

A unit maps back to its provision: splitting is an index-time choice, the corpus holds
citation units only.
"""

from __future__ import annotations

import hashlib
import json
import re

from pincite.citations import split_points
from pincite.index.analysis import tokenize
from pincite.index.store.base import Unit
from pincite.provisions import Provision
from pincite.settings import Settings

# Bump when unit construction or analysis changes, so old indexes are rebuilt.
UNITS_VERSION = 1


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
