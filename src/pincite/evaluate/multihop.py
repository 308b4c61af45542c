"""Multi-hop evaluation: questions whose complete answer cites several provisions linked by a
cross-reference (`gold_all` in evals/multihop.jsonl: a duty and its fine, a rule and its
exception, a provision and the annex point it points to).

Two figures, each over the answerable questions: all-gold recall@k (every `gold_all` provision
in the top k of retrieval) and the share of extractive answers citing every `gold_all`
provision. Run it with PINCITE_FOLLOW_REFERENCES on and off (`--no-graph`) to see what
following references adds.
"""

from __future__ import annotations

import time
from collections import defaultdict

from pincite.evaluate.abstention import hits_gold
from pincite.evaluate.retrieval import latency_summary, split_of
from pincite.service import Pincite


def evaluate_multihop(questions: list[dict], pincite: Pincite, *, k: int = 10, progress=None) -> dict:
    rows, latencies = [], []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        rows.append(_run(q, pincite, k))
        latencies.append((time.perf_counter() - started) * 1000)
        if progress:
            progress(done, len(questions))
    answerable = [r for r in rows if r["answerable"]]
    by_hop: dict[str, list[dict]] = defaultdict(list)
    for r in answerable:
        by_hop[r["hop"]].append(r)
    return {"n": len(answerable), "k": k, "split": split_of(questions),
            "follow_references": pincite.settings.follow_references, **_figures(answerable, k),
            "by_hop": {hop: {"n": len(rs), **_figures(rs, k)} for hop, rs in sorted(by_hop.items())},
            "latency_ms": latency_summary(latencies[1:] or latencies), "questions": rows}


def _figures(rows: list[dict], k: int) -> dict:
    n = len(rows) or 1
    return {f"all_gold_recall@{k}": round(sum(r["all_retrieved"] for r in rows) / n, 4),
            "answers_citing_all_gold": round(sum(r["all_cited"] for r in rows) / n, 4),
            "answered": round(sum(r["outcome"] == "answered" for r in rows) / n, 4)}


def _run(q: dict, pincite: Pincite, k: int) -> dict:
    gold = q.get("gold_all") or q["gold"]
    lang = q.get("lang") or None
    retrieved = [h.provision.label for h in pincite.search(q["question"], corpus=q["corpus"], lang=lang, k=k).hits]
    answer = pincite.answer(q["question"], corpus=q["corpus"], lang=lang)
    cited = [c.label for c in answer.cited]
    found = [g for g in gold if any(hits_gold(label, g) for label in retrieved[:k])]
    quoted = [g for g in gold if any(hits_gold(label, g) for label in cited)]
    return {"id": q["id"], "corpus": q["corpus"], "lang": q.get("lang"), "hop": q.get("hop", "uncategorised"),
            "answerable": q["answerable"], "gold_all": gold, "retrieved": retrieved, "found": found,
            "all_retrieved": len(found) == len(gold), "outcome": answer.outcome, "reason": answer.reason,
            "cited": cited, "all_cited": answer.outcome == "answered" and len(quoted) == len(gold)}
