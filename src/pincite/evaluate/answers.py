"""Answer evaluation: does the answer lead with a governing provision, and does it cite only those?

Runs the real answer pipeline (extractive unless a model is asked for) on a question file whose
`gold` lists every provision that governs each question, and reports per question whether it was
answered, whether its first citation is governing ("lead right"; a refusal is never a right lead)
and its citation precision (cited provisions that hit `gold`, over all it cites); per category and
split. Citations are compared at the level they are made (paragraph or point), with the rule of
`eval retrieval` (a point inside a gold paragraph hits it; a bare article does not hit its paragraphs).
"""

from __future__ import annotations

import time
from collections import defaultdict

from pincite.evaluate.abstention import hits_gold
from pincite.evaluate.retrieval import latency_summary, rank_of, split_of
from pincite.service import Pincite


def evaluate_answers(questions: list[dict], pincite: Pincite, *, progress=None) -> dict:
    """Lead right, citation precision and answered share over the answerable questions (an
    unanswerable one in the file is counted apart: refused or not)."""
    rows, latencies = [], []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        rows.append(_run(q, pincite))
        latencies.append((time.perf_counter() - started) * 1000)
        if progress:
            progress(done, len(questions))
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    report = {"split": split_of(questions), "mode": rows[0]["mode"] if rows else None, **summary(answerable)}
    report["unanswerable"] = len(unanswerable)
    report["unanswerable_refused_rate"] = _share(sum(r["outcome"] == "refused" for r in unanswerable),
                                                 len(unanswerable))
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in answerable:
        groups[r["category"]].append(r)
    report["by_category"] = {c: summary(rs) for c, rs in sorted(groups.items())}
    report["latency_ms"] = latency_summary(latencies[1:] or latencies)
    report["questions"] = rows
    return report


def _run(q: dict, pincite: Pincite) -> dict:
    result = pincite.answer(q["question"], corpus=q["corpus"], lang=q.get("lang") or None)
    answered = result.outcome == "answered"
    cited = list(dict.fromkeys(c for s in result.sentences for c in s.citations)) if answered else []
    governing = [label for label in cited if any(hits_gold(label, g) for g in q["gold"])]
    retrieved = [h.provision.label for h in result.hits[:10]]
    return {"id": q["id"], "corpus": q["corpus"], "lang": q.get("lang"), "category": q.get("category"),
            "answerable": q["answerable"], "gold": q["gold"], "mode": result.mode, "outcome": result.outcome,
            "reason": result.reason, "cited": cited, "governing": governing,
            "lead_right": bool(cited) and cited[0] in governing,
            "citation_precision": _share(len(governing), len(cited)) if cited else None,
            "retrieved_rank": rank_of(retrieved, q["gold"]) if q["answerable"] else None, "retrieved": retrieved}


def summary(rows: list[dict]) -> dict:
    """`citation_precision` pools every citation of the answered questions (so a padded answer
    weighs as much as it cites); `answer_precision_mean` averages it per answered question."""
    answered = [r for r in rows if r["outcome"] == "answered"]
    cited = sum(len(r["cited"]) for r in answered)
    return {
        "n": len(rows),
        "answered": _share(len(answered), len(rows)),
        "lead_right": _share(sum(r["lead_right"] for r in rows), len(rows)),
        "lead_right_of_answered": _share(sum(r["lead_right"] for r in answered), len(answered)),
        "citation_precision": _share(sum(len(r["governing"]) for r in answered), cited),
        "answer_precision_mean": _mean([r["citation_precision"] for r in answered]),
        "answered_precision": _share(sum(bool(r["governing"]) for r in answered), len(answered)),
        "citations_per_answer": round(cited / len(answered), 2) if answered else 0.0,
        "retrieval_hit@1": _share(sum(r["retrieved_rank"] == 1 for r in rows), len(rows)),
        "retrieval_hit@5": _share(sum(bool(r["retrieved_rank"]) and r["retrieved_rank"] <= 5 for r in rows),
                                  len(rows)),
    }


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _share(count: int, n: int) -> float:
    return round(count / n, 4) if n else 0.0
