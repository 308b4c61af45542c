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
from pincite.index.embed import piece_spans
from pincite.index.store.base import Unit
from pincite.provisions import Provision
from pincite.settings import Settings

# Bump when unit construction or analysis changes, so old indexes are rebuilt.
UNITS_VERSION = 1
WINDOW_OVERLAP = 0.5  # share of a window the next one repeats, so a sentence cut at one edge is whole in the next


def units_settings(settings: Settings) -> dict:
    return {"units_version": UNITS_VERSION, "heading": settings.index_heading,
            "sentences": settings.index_sentences,
            "split_chars": settings.index_split_chars, "max_length": settings.embed_max_length,
            **({"windows": WINDOW_OVERLAP} if settings.index_windows else {})}


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
    if settings.index_windows:
        units += [Unit(p.id, text, []) for text in windows(p, heading, settings)]
    if settings.index_sentences:
        pieces = sentences(p.text)
        if len(pieces) > 1:
            units += [Unit(p.id, heading + piece, []) for piece in pieces]
    return units


def windows(p: Provision, heading: str, settings: Settings) -> list[str]:
    """The rest of a provision too long for one embedding window (the whole-provision unit is
    cut after embed_max_length word pieces): windows of that many pieces, half-overlapping, from
    where the next one starts to the end, each with the title and, when it has points and the
    lead-in is short, the lead-in. Empty when the provision fits."""
    spans = piece_spans(settings.embed_model_path)
    budget = settings.embed_max_length - 2  # [CLS] and [SEP]
    pieces = spans(p.text)
    if len(spans(heading)) + len(pieces) <= budget:
        return []
    lead, points = split_points(p.text)
    lead = lead if points and len(spans(lead)) <= budget // 4 else ""
    prefix = f"{heading}{lead} ".lstrip() if lead else heading
    size = max(budget - len(spans(prefix)), 16)
    step = max(int(size * (1 - WINDOW_OVERLAP)), 1)
    out = []
    for start in range(step, len(pieces), step):
        begin = max(p.text.rfind(c, 0, pieces[start][0]) for c in " \n") + 1  # a whole word first
        cut = _WORD_END.search(p.text, pieces[min(start + size, len(pieces)) - 1][1])  # and a whole word last
        end = cut.start() if cut else len(p.text)
        out.append(prefix + p.text[begin:end].strip())
        if start + size >= len(pieces):
            break
    return out


_WORD_END = re.compile(r"\s|$")
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(‘«\u201c])")


def sentences(text: str) -> list[str]:
    """Sentences and point lines: short texts the sentence model was trained to match."""
    out = []
    for line in text.splitlines():
        out += [s.strip() for s in _SENTENCE_END.split(line.strip()) if len(s.strip()) > 20]
    return out
