"""The second stage: a linear ranker over the fused top candidates, from the law's own structure.

The first stage (dense + BM25, fused) finds the right article almost always but often ranks a
sibling paragraph first. This stage re-scores the top candidates with features the first stage
has — each candidate's scores, its article's best score, how much of the question its article
title covers, its kind and position, the question's intent — and a dozen weights learned on the
development questions (`python tools/train_ranker.py`; the weights ship in `ranker.json` with
the settings hash they were trained for).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from pincite import languages
from pincite.index.analysis import token_set
from pincite.retrieve.hits import ASKED_WHY, Hit
from pincite.retrieve.query import Query

WEIGHTS = Path(__file__).with_name("ranker.json")
DEPTH = 40  # candidates re-scored

FEATURES = (
    "fused", "dense", "bm25", "reciprocal_rank", "title_coverage", "article_best", "article_share",
    "text_coverage", "recital", "definition", "first_part", "has_points", "intent_definition",
    "intent_date", "intent_penalty", "intent_exception", "length", "article_bm25", "article_density",
    "best_in_article", "paragraph_order",
    # the provision's written questions (retrieve.questions): the best one's similarity to the question, that
    # less the best of any candidate's, and its place among the candidates; 0 where none were written
    "asked", "asked_gap", "asked_rank",
    # the share of the question's terms its written questions hold, and the share they and its text hold together
    "asked_coverage", "covered_with_asked",
)
# What a title says a provision is about, in every language with a pack (TITLE_TOPICS).
_APPLICATION = languages.cue("application", "TITLE_TOPICS")
_PENALTY = languages.cue("penalty", "TITLE_TOPICS")
_EXCEPTION = languages.cue("exception", "TITLE_TOPICS")


def _article(label: str) -> str:
    """'Article 33(1)' → 'Article 33'; 'Annex III, point 4' → 'Annex III'."""
    return re.split(r"[(,]", label, maxsplit=1)[0].strip()


def _coverage(wanted: frozenset[str], terms: frozenset[str]) -> float:
    return len(wanted & terms) / len(wanted) if wanted else 0.0


@lru_cache(maxsize=65536)
def _own(label: str, title: str, text: str, kind: str, lang: str) -> tuple:
    """What a candidate brings whatever the question: read once per provision (every question that
    ranks it would read it again, ~1 ms of a search's 40 candidates)."""
    return (_article(label), token_set(title, lang) if title else frozenset(), token_set(f"{title}\n{text}", lang),
            kind == "recital", kind == "definition", _first_part(label), "\n(" in text or "\na)" in text,
            bool(_APPLICATION.search(title)), bool(_PENALTY.search(title)), bool(_EXCEPTION.search(title + " " + text[:200])),
            math.log1p(len(text)) / 8, _order(label))


def provision_words(provision, lang: str) -> frozenset[str]:
    """The analysed words of a provision's title and text, as the ranker reads them (cached per provision)."""
    return _own(provision.label, provision.title, provision.text, provision.kind, lang)[2]


def features(query: Query, hits: list[Hit]) -> np.ndarray:
    """One row of FEATURES per hit (hits in first-stage order)."""
    if not hits:
        return np.zeros((0, len(FEATURES)), dtype=np.float32)
    dense = np.array([h.dense if h.dense is not None else 0.0 for h in hits], dtype=np.float32)
    bm25 = np.array([h.bm25 if h.bm25 is not None else 0.0 for h in hits], dtype=np.float32)
    top_bm25 = float(bm25.max()) or 1.0
    own = [_own(h.provision.label, h.provision.title, h.provision.text, h.provision.kind, query.lang) for h in hits]
    wanted = frozenset(query.terms)
    best: dict[str, float] = {}
    best_bm25: dict[str, float] = {}
    count: dict[str, int] = {}
    for o, d, b in zip(own, dense, bm25, strict=True):
        key = o[0]
        best[key] = max(best.get(key, -1.0), float(d))
        best_bm25[key] = max(best_bm25.get(key, 0.0), float(b))
        count[key] = count.get(key, 0) + 1
    top_dense = max(best.values()) or 1.0
    asked = [h.asked for h in hits]
    known = sorted((a for a in asked if a is not None), reverse=True)
    top_asked = known[0] if known else 0.0
    rows = []
    for rank, (h, o, d, b) in enumerate(zip(hits, own, dense, bm25, strict=True)):
        article, title, words, recital, definition, first, points, applies, punishes, excepts, length, order = o
        article_best = best[article]
        rows.append([
            h.score if math.isfinite(h.score) else 1.0, d, b / top_bm25, 1 / (1 + rank),
            _coverage(wanted, title), article_best / top_dense, d / article_best if article_best > 0 else 0.0,
            _coverage(wanted, words), recital, definition, first, points,
            query.intent == "definition" and definition, query.intent == "date" and applies,
            query.intent == "penalty" and punishes, query.intent == "exception" and excepts, length,
            best_bm25[article] / top_bm25, math.log1p(count[article]), d >= article_best, order,
            *_asked(asked[rank], top_asked, known),
            _coverage(wanted, h.asked_words), _coverage(wanted, words | h.asked_words),
        ])
    return np.array(rows, dtype=np.float32)


def reach(hits: list[Hit], depth: int) -> int:
    """How many hits the ranker reads: the first `depth`, and those after them that were added for their written
    questions (retrieve.search puts them there)."""
    read = depth
    while read < len(hits) and ASKED_WHY in hits[read].why:
        read += 1
    return read


def _asked(asked: float | None, top: float, known: list[float]) -> tuple[float, float, float]:
    """The asked features of one candidate: 0 where its provision has no written questions."""
    if asked is None:
        return 0.0, 0.0, 0.0
    return asked, asked - top, 1 / (1 + known.index(asked))


def _order(label: str) -> float:
    """1 for an article's first paragraph (or an article without paragraphs), 1/n for the n-th."""
    m = re.search(r"\((\d+)\)", label)
    return 1.0 / int(m.group(1)) if m else 1.0


def _first_part(label: str) -> bool:
    """The first paragraph of an article, an article without paragraphs, or an annex's first item."""
    m = re.search(r"\((\d+)\)", label)
    return m is None or m.group(1) == "1"


@dataclass(frozen=True)
class LinearRanker:
    weights: tuple[float, ...]
    bias: float = 0.0
    depth: int = DEPTH
    columns: tuple[int, ...] | None = None  # the FEATURES the weights are for, in order (None: all of them)
    asked: LinearRanker | None = None  # the weights for an index whose provisions have written questions

    @property
    def reads_questions(self) -> bool:
        return self.asked is not None

    def rerank(self, query: Query, hits: list[Hit], k: int) -> list[Hit]:
        if self.asked is not None and any(h.asked is not None for h in hits):  # the index has written questions
            return self.asked.rerank(query, hits, k)
        read = reach(hits, self.depth)
        head, tail = hits[:read], hits[read:]
        if len(head) < 2:
            return hits[:k]
        rows = features(query, head)
        if self.columns is not None:
            rows = rows[:, self.columns]
        scores = rows @ np.asarray(self.weights, dtype=np.float32) + self.bias
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        return [replace(head[i], score=float(scores[i])) for i in order][:k] + tail[: max(0, k - len(head))]


def load_ranker(settings_hash: str, embed_model: str, export: str | None = None,
                path: Path = WEIGHTS) -> LinearRanker | None:
    """The shipped weights trained on `embed_model`'s scores (its name: a weight set's `models`
    list it; a local model directory or prompts of the user's own, `export`, must be one the set
    lists in `exports`: other weights under the same name are another model), or None (the first
    stage's order is kept) when there are none, or when they were trained for other features or
    for indexes built with other settings. Another model's weights over this model's scores would
    be a silent mis-measurement of it."""
    base = _linear(weight_set(embed_model, path), settings_hash, export)
    if base is None:
        return None
    asked = _linear(weight_set(embed_model, path, questions=True), settings_hash, export)
    return replace(base, asked=asked)


def _linear(chosen: dict | None, settings_hash: str, export: str | None) -> LinearRanker | None:
    """A weight set's ranker, if its features are all computed here and it was trained for these settings."""
    if chosen is None or not set(chosen["features"]) <= set(FEATURES) or chosen.get("settings_hash") != settings_hash:
        return None
    if export is not None and export not in chosen.get("exports", []):
        return None
    columns = tuple(FEATURES.index(name) for name in chosen["features"])
    return LinearRanker(tuple(chosen["weights"]), chosen.get("bias", 0.0), chosen.get("depth", DEPTH),
                        None if columns == tuple(range(len(FEATURES))) else columns)


def weight_sets(path: Path = WEIGHTS) -> list[dict]:
    """Every weight set of the file: per embedding model it was trained on, one for indexes without written
    questions and one for those with them (`"written_questions": true`)."""
    if not path.is_file():
        return []
    return list(json.loads(path.read_text(encoding="utf-8")).get("sets", []))


def weight_set(embed_model: str, path: Path = WEIGHTS, *, questions: bool = False) -> dict | None:
    """The weight set for the model `embed_model` names (retrieve.tuning.tuned_model), if any."""
    # tuning needs the embedder module; only when a ranker loads
    from pincite.retrieve.tuning import tuned_model

    model = tuned_model(embed_model)
    return next((s for s in weight_sets(path) if model in s["models"] and bool(s.get("written_questions")) == questions),
                None) if model else None
