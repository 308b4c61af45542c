"""What limits the first questions (issue 32), measured on the development split only: how often the
right article leads but a sibling paragraph is ranked first, what candidate ranker features and a
within-article chooser gain in cross-validation, and what the relevance gate's floor trades.

    python tools/ranking_study.py [--split dev]

Reads the dev splits of the single-hop sets and of the first-question sets; prints one JSON document.
Needs PINCITE_MIRROR (and builds the indexes it needs). A development tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import numpy as np
from train_ranker import ROOT, SETS, evaluate, hit, pairwise_fit, standardise

from pincite.evaluate.abstention import hits_gold
from pincite.evaluate.retrieval import load_questions
from pincite.retrieve.fusion import default_fusion
from pincite.retrieve.ranker import DEPTH, FEATURES, features
from pincite.service import Pincite

FIRST = ["first-gdpr-en", "first-ai-act-en", "first-dsa-en", "first-data-act-en"]
# Candidate features of what a paragraph does (English and Italian cues), tried and not shipped.
_RULE = re.compile(r"\b(shall|must|is prohibited|are prohibited|has the right|have the right|deve|devono|"
                   r"è vietat|sono vietat|ha il diritto)\b", re.I)
_DEROGATION = re.compile(r"by way of derogation|shall not apply|without prejudice|does not apply|referred to in "
                         r"paragraph|in deroga|non si applica|fatto salvo", re.I)
_PROCEDURE = re.compile(r"implementing acts?|delegated acts?|examination procedure|guidelines|shall be adopted|"
                        r"atti di esecuzione|atti delegati", re.I)
_LIST = re.compile(r"^\s*(which|what)\b.*\b(are|rights|practices|conditions|obligations|information|contain)\b|"
                   r"\blist\b|\bquali\b", re.I)


def article(label: str) -> str:
    return re.split(r"[(,]", label, maxsplit=1)[0].strip()


def candidates(service: Pincite, split: str) -> list[tuple[str, dict, object, list, np.ndarray]]:
    """Per answerable question: its set, the question, the analysed query, the first-stage hits (no
    ranker, no exact lookups) and which of them hit gold."""
    rows = []
    for name in SETS + FIRST:
        for q in load_questions(ROOT / "evals" / f"{name}.jsonl", split):
            if not q["answerable"]:
                continue
            lang = service.resolve_lang(q["corpus"], q.get("lang"))
            searcher = service.searcher(q["corpus"], lang)
            query = searcher.analyse(q["question"])
            hits = [h for h in searcher.search(query, k=DEPTH, fusion=default_fusion(lang, service.settings))
                    if not h.exact]
            rows.append((name, q, query, hits, np.array([hit(h.provision.label, q["gold"]) for h in hits], dtype=bool)))
    return rows


def shape_features(query, hits) -> np.ndarray:
    listed = bool(_LIST.search(query.text))
    rows = []
    for h in hits:
        head = h.provision.text[:400]
        first = re.search(r"\((\d+)\)", h.provision.label) is None or "(1)" in h.provision.label
        points = "\n(" in h.provision.text or "\na)" in h.provision.text
        rows.append([bool(_RULE.search(head)), bool(_DEROGATION.search(head)), bool(_PROCEDURE.search(head)),
                     listed and points, first and bool(_RULE.search(head))])
    return np.array(rows, dtype=np.float32).reshape(len(hits), 5)


def by_part(names: list[str], values: list[float]) -> dict:
    parts = {"single-hop sets": [v for n, v in zip(names, values, strict=True) if not n.startswith("first")],
             "first questions": [v for n, v in zip(names, values, strict=True) if n.startswith("first")]}
    return {k: {"n": len(v), "value": round(float(np.mean(v)), 3)} for k, v in parts.items()}


def folds_of(n: int, folds: int = 5) -> np.ndarray:
    return np.random.default_rng(0).permutation(n) % folds


def cross_validated_hit1(groups) -> list[float]:
    scaled, _, _ = standardise(groups)
    fold, out = folds_of(len(scaled)), [0.0] * len(scaled)
    for f in range(5):
        w = pairwise_fit([g for g, i in zip(scaled, fold, strict=True) if i != f], 0.1)
        for j in np.nonzero(fold == f)[0]:
            out[j] = evaluate([scaled[j]], w)["hit@1"]
    return out


def within_article_hit1(rows) -> list[float]:
    """Keep the first stage's article; choose its paragraph with weights fitted on pairs of paragraphs
    of the same article only (gold against non-gold siblings)."""
    at = {f: i for i, f in enumerate(FEATURES)}
    groups = []
    for _, _, query, hits, labels in rows:
        if not hits:
            groups.append(None)
            continue
        same = [i for i, h in enumerate(hits) if article(h.provision.label) == article(hits[0].provision.label)]
        x = features(query, hits)[same]
        cols = [x[:, at["dense"]] - x[:, at["dense"]].max(), x[:, at["bm25"]] - x[:, at["bm25"]].max(),
                x[:, at["text_coverage"]] - x[:, at["text_coverage"]].max(), x[:, at["first_part"]],
                x[:, at["paragraph_order"]], x[:, at["has_points"]], x[:, at["length"]],
                1 / (1 + np.array(same, dtype=np.float32))]
        groups.append((np.concatenate([np.stack(cols, 1), shape_features(query, hits)[same]], 1), labels[same],
                       same, labels))
    present = np.concatenate([g[0] for g in groups if g is not None])
    mean, dev = present.mean(0), present.std(0) + 1e-6
    fold, out = folds_of(len(groups)), [0.0] * len(groups)
    for f in range(5):
        w = pairwise_fit([((g[0] - mean) / dev, g[1]) for g, i in zip(groups, fold, strict=True)
                          if i != f and g is not None], 0.1)
        for j in np.nonzero(fold == f)[0]:
            g = groups[j]
            if g is not None:
                out[j] = float(g[3][g[2][int(np.argmax(((g[0] - mean) / dev) @ w))]])
    return out


def gate_table(service: Pincite, split: str) -> list[dict]:
    """The floor's trade on dense top-1 (e5's gate), from answers with the floor off: unanswerable
    questions answered, and answerable ones answered with a governing lead or not."""
    outcomes = []
    for name in SETS + FIRST:
        for q in load_questions(ROOT / "evals" / f"{name}.jsonl", split):
            r = service.answer(q["question"], corpus=q["corpus"], lang=q.get("lang") or None)
            if r.outcome != "answered":
                outcomes.append((name, "refused", 0.0, False))
                continue
            cited = [c for s in r.sentences for c in s.citations]
            kind = "unanswerable" if not q["answerable"] else (
                "lead right" if cited and any(hits_gold(cited[0], g) for g in q["gold"]) else "lead wrong")
            outcomes.append((name, kind, r.gate.signals.get("dense", 0.0), bool(r.gate.signals.get("exact"))))
    table = []
    for floor in (0.80, 0.82, 0.84, 0.85, 0.86, 0.87, 0.88):
        row = {"floor": floor}
        for part, first in (("single-hop", False), ("first", True)):
            kept = [(k, d, e) for n, k, d, e in outcomes if n.startswith("first") == first and k != "refused"]
            passed = [k for k, d, e in kept if e or d >= floor]
            for kind in ("lead right", "lead wrong", "unanswerable"):
                row[f"{part}: {kind}"] = passed.count(kind)
        table.append(row)
    return table


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="dev")
    args = parser.parse_args(argv)
    service = Pincite(reranker=None, llm=None)
    rows = candidates(service, args.split)
    names = [r[0] for r in rows]
    base = [(features(query, hits), labels) for _, _, query, hits, labels in rows]
    shaped = [(np.concatenate([x, shape_features(query, hits)], 1), y)
              for (x, y), (_, _, query, hits, _) in zip(base, rows, strict=True)]
    report = {
        "split": args.split,
        "first stage hit@1": by_part(names, [float(len(y) > 0 and y[0]) for _, _, _, _, y in rows]),
        "article of the first hit is a gold article": by_part(names, [
            float(bool(hits) and article(hits[0].provision.label) in {article(g) for g in q["gold"]})
            for _, q, _, hits, _ in rows]),
        "ranker hit@1 (5-fold CV), shipped features": by_part(names, cross_validated_hit1(base)),
        "ranker hit@1 (5-fold CV), + what the paragraph does": by_part(names, cross_validated_hit1(shaped)),
        "within-article chooser hit@1 (5-fold CV)": by_part(names, within_article_hit1(rows)),
    }
    os.environ["PINCITE_RELEVANCE_FLOOR"] = "0"
    report["gate with the floor at each value"] = gate_table(Pincite(llm=None), args.split)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
