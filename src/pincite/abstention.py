"""Abstention evaluation: does pincite answer what the corpus answers and refuse the rest?

Runs the real answer pipeline (retrieve → gate → answer → verify, extractive unless a model is
asked for) on a question file (DESIGN.md §5) and reports answerable and unanswerable questions
separately. Nothing is logged and no thread is written: an evaluation is not a conversation.
"""

from __future__ import annotations

import time
from collections import Counter

from .answer import answer_question
from .citations import hits as label_hits
from .errors import CitationError
from .evaluate import latency_summary
from .service import ASK_K, corpus_profile, resolve_lang, search
from .settings import Settings


def evaluate_abstention(questions: list[dict], settings: Settings, *, llm=None, progress=None) -> dict:
    rows, latencies = [], []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        rows.append(_run(q, settings, llm))
        latencies.append((time.perf_counter() - started) * 1000)
        if progress:
            progress(done, len(questions))
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    return {
        "n": len(rows),
        "mode": "llm" if llm is not None else "extractive",
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "answerable_answered_rate": _share(sum(r["outcome"] == "answered" for r in answerable), len(answerable)),
        "answerable_answered_correct_rate": _share(sum(bool(r["correct"]) for r in answerable), len(answerable)),
        "unanswerable_refused_rate": _share(sum(r["outcome"] == "refused" for r in unanswerable), len(unanswerable)),
        "answered_correct_precision": _share(sum(bool(r["correct"]) for r in answerable),
                                             sum(r["outcome"] == "answered" for r in answerable)),
        "reasons": {
            "answerable": dict(Counter(r["reason"] for r in answerable if r["reason"]).most_common()),
            "unanswerable": dict(Counter(r["reason"] or "answered" for r in unanswerable).most_common()),
        },
        "latency_ms": latency_summary(latencies[1:] or latencies),
        "questions": rows,
    }


def _run(q: dict, settings: Settings, llm) -> dict:
    corpus, lang = q["corpus"], resolve_lang(q["corpus"], q.get("lang"))
    result = answer_question(
        q["question"], retrieve=lambda text: search(text, settings, corpus=corpus, lang=lang, k=ASK_K).hits,
        profile=lambda: corpus_profile(corpus, lang, settings), llm=llm, evidence_k=settings.answer_k,
        same_language=(q.get("lang") or lang) == lang)
    cited = [c.label for c in result.cited]
    correct = None
    if q["answerable"]:
        correct = result.outcome == "answered" and any(_hit(label, g) for label in cited for g in q["gold"])
    signals = result.gate.signals if result.gate else {}
    return {"id": q["id"], "corpus": corpus, "lang": q.get("lang"), "category": q.get("category"),
            "answerable": q["answerable"], "gold": q["gold"], "outcome": result.outcome, "reason": result.reason,
            "detail": result.detail or None, "cited": cited, "correct": correct, "signals": signals,
            "retrieved": [h.provision.label for h in result.hits[:10]]}


def _hit(label: str, gold: str) -> bool:
    try:
        return label_hits(label, gold)
    except CitationError:
        return False


def _share(count: int, n: int) -> float:
    return round(count / n, 4) if n else 0.0
