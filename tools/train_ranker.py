"""Train the second-stage ranker's weights on the development questions, with k-fold
cross-validation over questions, and write them to src/pincite/retrieve/ranker.json.

    python tools/train_ranker.py [--folds 5] [--dry-run] [--questions]

`--questions` trains the weights for indexes whose provisions have written questions (retrieve.questions):
on the questions of the sets whose act ships them, the first-question sets' too, with the asked features;
without it, the weights for every other index, without them.

Only `"split": "dev"` questions are read. The weights are for the embedding model the settings select
(retrieve.tuning): its set in ranker.json is replaced, the other models' sets are kept. Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH
(or network access) and builds the indexes it needs. A development tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from pincite.citations import hits as label_hits
from pincite.errors import CitationError
from pincite.evaluate.retrieval import load_questions
from pincite.index.embed import settings_model_name
from pincite.index.units import settings_hash
from pincite.retrieve.fusion import default_fusion
from pincite.retrieve.questions import CANDIDATES, question_file
from pincite.retrieve.questions import load_questions as load_written
from pincite.retrieve.ranker import DEPTH, FEATURES, WEIGHTS, features, reach, weight_sets
from pincite.retrieve.tuning import tuned_model
from pincite.service import Pincite

ROOT = Path(__file__).resolve().parents[1]
SETS = ["gdpr-en", "ai-act-en", "ai-act-it", "gdpr-it", "dsa-en", "dma-en", "data-act-en"]
FIRST_SETS = ["first-gdpr-en", "first-ai-act-en", "first-dsa-en", "first-data-act-en"]
ASKED = ("asked", "asked_gap", "asked_rank", "asked_coverage", "covered_with_asked")


def hit(label: str, gold: list[str]) -> bool:
    for g in gold:
        try:
            if label_hits(label, g):
                return True
        except CitationError:
            continue
    return False


class FirstStage:
    """No reranking, but the ranker's depth: the searcher puts the candidates it adds for their written
    questions where the ranker reads them."""

    depth = DEPTH

    def rerank(self, query, hits, k):
        return hits[:k]


def candidates(service: Pincite, q: dict, columns: list[int], questions: bool = False):
    """First-stage hits (no reranker; with `questions`, the provisions their written questions add) and their
    features; exact lookups left out (they come first anyway)."""
    corpus_lang = service.resolve_lang(q["corpus"], q.get("lang"))
    searcher = service.searcher(q["corpus"], corpus_lang)
    if questions and searcher.questions is None:
        searcher.reranker = FirstStage()
        searcher.questions = load_written(q["corpus"], searcher.provisions, service.embedder, service.settings.home)
    query = searcher.analyse(q["question"])
    hits = [h for h in searcher.search(query, k=DEPTH + CANDIDATES, fusion=default_fusion(corpus_lang, service.settings))
            if not h.exact]
    hits = hits[:reach(hits, DEPTH)]
    labels = np.array([hit(h.provision.label, q["gold"]) for h in hits], dtype=bool)
    return features(query, hits)[:, columns], labels


def pairwise_fit(groups, l2: float = 0.1, steps: int = 2000, rate: float = 0.2) -> np.ndarray:
    """Weights w minimising the logistic loss of (positive − negative) feature differences within
    each question, with an L2 penalty (RankNet with a linear scorer)."""
    diffs = [x[y][:, None, :] - x[~y][None, :, :] for x, y in groups if y.any() and (~y).any()]
    pairs = np.concatenate([d.reshape(-1, d.shape[-1]) for d in diffs]) if diffs else np.zeros((0, len(FEATURES)))
    per_question = np.concatenate([np.full(d.shape[0] * d.shape[1], 1.0 / (d.shape[0] * d.shape[1])) for d in diffs])
    w = np.zeros(pairs.shape[1])
    for _ in range(steps):
        margin = pairs @ w
        grad = -(pairs * (per_question / (1 + np.exp(margin)))[:, None]).sum(0) / len(diffs) + l2 * w / len(diffs)
        w -= rate * grad
    return w


def evaluate(groups, w: np.ndarray | None) -> dict:
    ranks = []
    for x, y in groups:
        if not len(y):
            ranks.append(None)
            continue
        order = np.argsort(-(x @ w), kind="stable") if w is not None else np.arange(len(y))
        found = np.nonzero(y[order])[0]
        ranks.append(int(found[0]) + 1 if len(found) else None)
    n = len(ranks)
    return {"n": n, "hit@1": round(sum(r == 1 for r in ranks) / n, 4),
            "hit@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 4),
            "mrr": round(sum(1 / r for r in ranks if r) / n, 4)}


def standardise(groups):
    """Features scaled to mean 0, deviation 1 over all candidates (the fit needs comparable
    scales); returns the scaled groups and (mean, deviation) to fold back into the weights."""
    x = np.concatenate([g[0] for g in groups])
    mean, dev = x.mean(0), x.std(0) + 1e-6
    return [((g[0] - mean) / dev, g[1]) for g in groups], mean, dev


def cross_validate(groups, folds: int, l2: float) -> dict:
    rng = np.random.default_rng(0)
    fold = rng.permutation(len(groups)) % folds
    base, ranked = [], []
    for f in range(folds):
        train = [g for g, i in zip(groups, fold, strict=True) if i != f]
        held = [g for g, i in zip(groups, fold, strict=True) if i == f]
        w = pairwise_fit(train, l2)
        base += held
        ranked.append((held, w))
    first = evaluate(base, None)
    second = {"hit@1": 0.0, "hit@5": 0.0, "mrr": 0.0}
    for held, w in ranked:
        r = evaluate(held, w)
        for key in second:
            second[key] += r[key] * len(held) / len(groups)
    return {"first_stage": first, "ranker": {k: round(v, 4) for k, v in second.items()}}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--dry-run", action="store_true", help="cross-validate only; write nothing")
    parser.add_argument("--questions", action="store_true",
                        help="train the weights for indexes with written questions (retrieve.questions)")
    args = parser.parse_args(argv)
    service = Pincite(reranker=None, llm=None)
    names = SETS + FIRST_SETS if args.questions else SETS
    questions = [{**q, "set": name} for name in names for q in load_questions(ROOT / "evals" / f"{name}.jsonl", "dev")
                 if q["answerable"] and (not args.questions or question_file(q["corpus"]) is not None)]
    used = [name for name in FEATURES if args.questions or name not in ASKED]
    columns = [FEATURES.index(name) for name in used]
    groups, mean, dev = standardise([candidates(service, q, columns, args.questions) for q in questions])
    cv = cross_validate(groups, args.folds, args.l2)
    print(json.dumps({"questions": len(groups), "cross_validation": cv}), file=sys.stderr)
    if args.dry_run:
        return 0
    w = pairwise_fit(groups, args.l2) / dev  # on raw features: ((x - mean) / dev) · w = x · (w / dev) - const
    scale = float(np.abs(w).max()) or 1.0
    model = tuned_model(settings_model_name(service.settings))
    if model is None:
        print(f"no tuning for {settings_model_name(service.settings)!r} in retrieve/tuning.py — add one first",
              file=sys.stderr)
        return 2
    # A local model directory's weights are named by their identity: only that export gets them.
    exports = [service.embedder.identity] if service.settings.embed_model_path is not None else []
    trained = {"models": [model], "exports": exports, "written_questions": args.questions, "features": used,
               "weights": [round(float(v / scale), 6) for v in w],
               "bias": round(float(-(mean @ w) / scale), 6),
               "depth": DEPTH, "settings_hash": settings_hash(service.settings),
               "embedder": service.embedder.identity,
               "trained_on": sorted({q["set"] for q in questions}),
               "split": "dev", "questions": len(groups), "cross_validation": cv, "l2": args.l2}
    # One set per model, with or without written questions: the others' weights stay as they were trained.
    sets = [s for s in weight_sets() if model not in s["models"] or bool(s.get("written_questions")) != args.questions]
    sets.append(trained)
    WEIGHTS.write_text(json.dumps({"sets": sets}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {WEIGHTS.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
