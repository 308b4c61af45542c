"""Abstention evaluation: does pincite answer what the corpus answers and refuse the rest?

Runs the real answer pipeline (retrieve → gate → answer → verify, extractive unless a model is
asked for) on a question file and reports answerable and unanswerable questions
separately. Nothing is logged and no thread is written: an evaluation is not a conversation.
"""

from __future__ import annotations

import time
from collections import Counter

from pincite.citations import hits as label_hits
from pincite.errors import CitationError
from pincite.evaluate.retrieval import latency_summary, split_of
from pincite.service import Pincite


def evaluate_abstention(questions: list[dict], pincite: Pincite, *, progress=None) -> dict:
    """Answers with the service's answerer: extractive unless the service has a model and its
    answer mode allows one."""
    rows, latencies = [], []
    mode = None
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        row, mode = _run(q, pincite)
        rows.append(row)
        latencies.append((time.perf_counter() - started) * 1000)
        if progress:
            progress(done, len(questions))
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    return {
        "n": len(rows),
        "mode": mode,
        "split": split_of(questions),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "answerable_answered_rate": _share(sum(r["outcome"] == "answered" for r in answerable), len(answerable)),
        "answerable_answered_correct_rate": _share(sum(bool(r["correct"]) for r in answerable), len(answerable)),
        "unanswerable_refused_rate": _share(sum(r["outcome"] == "refused" for r in unanswerable), len(unanswerable)),
        "answered_correct_precision": _share(sum(bool(r["correct"]) for r in answerable),
                                             sum(r["outcome"] == "answered" for r in answerable)),
        "answered_precision": _precision(answerable),
        "coverage": _share(sum(r["outcome"] == "answered" for r in rows), len(rows)),
        "risk_coverage": risk_coverage(rows),
        "reasons": {
            "answerable": dict(Counter(r["reason"] for r in answerable if r["reason"]).most_common()),
            "unanswerable": dict(Counter(r["reason"] or "answered" for r in unanswerable).most_common()),
        },
        "latency_ms": latency_summary(latencies[1:] or latencies),
        "questions": rows,
    }


def _run(q: dict, pincite: Pincite) -> tuple[dict, str]:
    corpus = q["corpus"]
    result = pincite.answer(q["question"], corpus=corpus, lang=q.get("lang") or None)
    cited = [c.label for c in result.cited]
    correct = None
    if q["answerable"]:
        correct = result.outcome == "answered" and any(hits_gold(label, g) for label in cited for g in q["gold"])
    signals = result.gate.signals if result.gate else {}
    row = {"id": q["id"], "corpus": corpus, "lang": q.get("lang"), "category": q.get("category"),
           "answerable": q["answerable"], "gold": q["gold"], "outcome": result.outcome, "reason": result.reason,
           "detail": result.detail or None, "cited": cited, "correct": correct, "signals": signals,
           "retrieved": [h.provision.label for h in result.hits[:10]]}
    return row, result.mode


def _precision(answerable: list[dict]) -> float:
    """Of the answered answerable questions, the share whose citations hit a gold provision."""
    answered = [r for r in answerable if r["outcome"] == "answered"]
    return _share(sum(bool(r["correct"]) for r in answered), len(answered))


def _score(row: dict) -> float:
    """The gate's final score of an answered question; one that names a provision, or that the questions written for
    its hits answer for (the gate's `bypass`), skips the floor, so it stays answered at any threshold."""
    signals = row["signals"] or {}
    return float("inf") if signals.get("exact") or signals.get("bypass") else float(signals.get("relevance") or 0.0)


def risk_coverage(rows: list[dict]) -> list[dict]:
    """For each value of the gate's final score among answered questions, taken as the floor:
    what would still be answered (`coverage`, a share of all questions), the answered precision
    of the answerable ones, and the share of unanswerable questions refused. Raising the floor
    only withdraws answers, so the table is exact for every floor at or above the one in use."""
    answered = [r for r in rows if r["outcome"] == "answered"]
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = len(rows) - len(answerable)
    table = []
    for floor in sorted({_score(r) for r in answered if _score(r) != float("inf")}):
        kept = [r for r in answered if _score(r) >= floor]
        kept_answerable = [r for r in kept if r["answerable"]]
        table.append({"floor": round(floor, 4), "answered": len(kept), "coverage": _share(len(kept), len(rows)),
                      "answerable_answered_rate": _share(len(kept_answerable), len(answerable)),
                      "answered_precision": _precision(kept_answerable),
                      "unanswerable_refused_rate": _share(unanswerable - (len(kept) - len(kept_answerable)),
                                                          unanswerable)})
    return table


def hits_gold(label: str, gold: str) -> bool:
    try:
        return label_hits(label, gold)
    except CitationError:
        return False


def _share(count: int, n: int) -> float:
    return round(count / n, 4) if n else 0.0
