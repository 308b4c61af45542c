"""Hybrid fusion: dense and BM25 candidates combined into one score per provision."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pincite.index.store import Scored
from pincite.retrieve.tuning import settings_tuning


@dataclass(frozen=True)
class Fusion:
    """How dense and BM25 scores are combined; chosen by `pincite eval retrieval --sweep`."""

    method: str = "linear"  # "linear" (weighted min-max scores) or "rrf"
    dense_weight: float = 0.5  # linear: weight of dense; rrf: weight of the dense ranking
    rrf_k: int = 60
    recital_weight: float = 1.0  # recitals are context, not obligations: optionally demoted
    expansion_weight: float = 0.0  # BM25 of the statute's words for a question's plain words, added at this weight


def fuse(dense: Scored | None, bm25: Scored | None, fusion: Fusion, *, truncated: bool = False) -> dict[str, float]:
    """One score per candidate provision. Min-max normalisation runs over the candidates: dense
    from the lowest candidate score (a candidate missing from the list scores that), BM25 from 0.
    A `truncated` dense list (the store's best few, not every provision) does not know the index's
    lowest score: its floor is at most cosine 0, unrelated — the bounded list's own lowest would
    stretch the differences among the best (GDPR dev split, depth 200: hit@5 0.775 with the list's
    own lowest, 0.793 with at most 0, 0.802 with every provision)."""
    if bm25 is None:
        return dict(dense or [])
    if dense is None:
        return dict(bm25)
    if fusion.method == "rrf":
        return _rrf(dense, bm25, fusion)
    d_ids, d = _minmax(dense, floor=min(min((s for _, s in dense), default=0.0), 0.0) if truncated else None)
    b_ids, b = _minmax(bm25, floor=0.0)
    w = fusion.dense_weight
    # Each side's share, then the sum where a provision is on both: the same numbers as
    # w·d + (1 − w)·b over the union, with no Python loop over the dense side (the embedded stores
    # hand back every provision there).
    fused = dict(zip(d_ids, (w * d).tolist(), strict=True))
    for pid, s in zip(b_ids, ((1 - w) * b).tolist(), strict=True):
        fused[pid] = fused[pid] + s if pid in fused else s
    return fused


def expand(bm25: Scored | None, extra: Scored | None, weight: float) -> Scored | None:
    """BM25 of the question's words plus `weight` × BM25 of the statute's words for its plain
    ones (a second keyword search: the stores take terms, not weighted terms), best first."""
    if bm25 is None or not extra or weight <= 0:
        return bm25
    scores = dict(bm25)
    for pid, s in extra:
        scores[pid] = scores.get(pid, 0.0) + weight * s
    return sorted(scores.items(), key=lambda item: -item[1])


def _minmax(scored: Scored, floor: float | None) -> tuple[tuple[str, ...], np.ndarray]:
    """The ids and their scores scaled to [0, 1] from `floor` (None: the lowest score) to the best."""
    if not scored:
        return (), np.zeros(0)
    ids, values = zip(*scored, strict=True)
    scores = np.array(values, dtype=np.float64)
    low = scores.min() if floor is None else floor
    span = scores.max() - low
    return ids, (scores - low) / span if span > 0 else np.zeros(len(scores))


def _rrf(dense: Scored, bm25: Scored, fusion: Fusion) -> dict[str, float]:
    """Reciprocal rank fusion; a candidate missing from a list ranks just after its end."""
    w, k = fusion.dense_weight, fusion.rrf_k
    rd = {pid: r for r, (pid, _) in enumerate(dense, start=1)}
    rb = {pid: r for r, (pid, _) in enumerate(bm25, start=1)}
    ids = {*rd, *rb}
    last = len(ids) + 1
    return {pid: w / (k + rd.get(pid, last)) + (1 - w) / (k + rb.get(pid, last)) for pid in ids}


def default_fusion(lang: str, settings) -> Fusion:
    """Fusion chosen by the evaluation for the settings' embedding model (retrieve.tuning)."""
    weight = settings_tuning(settings).weight(lang)
    if settings.dense_weight is not None:
        weight = settings.dense_weight
    return Fusion(method=settings.fusion_method, dense_weight=weight, rrf_k=settings.rrf_k,
                  recital_weight=settings.recital_weight, expansion_weight=settings.expansion_weight)
