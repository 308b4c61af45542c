"""An experiment, not shipped: a linear map on English question vectors before dense search,
fitted on the development questions. Prints, by cross-validation over the dev questions only:

1. dense retrieval alone (provision-level hit@1/5/10, MRR), the question vectors as embedded
   against mapped, folds of whole articles (no article is asked about both in the fitting and
   the held-out questions);
2. with `--ranker`: the first stage (dense + BM25 fused) and the learned ranker retrained on its
   candidates (tools/train_ranker.py's 5-fold cross-validation), without and with the map, each
   English question searched with the map fitted without its article's fold (Italian questions
   as embedded).

    python tools/train_query_map.py [--folds 5] [--l2 0.1] [--epochs 30] [--ranker]

The map is a 384 × 384 matrix W: a question's vector q becomes W q / |W q|. It is fitted by
gradient descent on a softmax over the units of the question's corpus (the answering
provision's best unit against 2000 others drawn at random each epoch, temperature 0.05), with
an L2 pull of W towards the identity. Figures and why it was not kept: docs/retrieval.md ("A
linear map on question vectors"). Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH (or
network access) and builds the indexes it needs. A development tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from pincite.evaluate.retrieval import load_questions
from pincite.index.embed import embedder_from_settings
from pincite.retrieve.ranker import _article
from pincite.service import Pincite, QueryCache
from pincite.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_ranker  # noqa: E402  (tools/ is no package)

ROOT = Path(__file__).resolve().parents[1]
SETS = ["gdpr-en", "ai-act-en", "dsa-en", "dma-en", "data-act-en"]
NEGATIVES = 2000
TEMPERATURE = 0.05
RATE = 0.05


def gold_of(index, key: str, q: dict) -> tuple[list[int], tuple[str, str] | None]:
    """The positions of the question's gold provisions in `index`, and the (corpus key, article)
    of the first: the unit the folds hold out."""
    gold = [i for i, p in enumerate(index.provisions) if train_ranker.hit(p.label, q["gold"])]
    return gold, (key, _article(index.provisions[gold[0]].label)) if gold else None


def examples(service: Pincite):
    """(question vector, corpus key, gold provision positions, gold article) per answerable dev
    question, and each corpus key's index (its unit vectors and their provisions)."""
    rows, indexes = [], {}
    for name in SETS:
        for q in load_questions(ROOT / "evals" / f"{name}.jsonl", "dev"):
            if not q["answerable"]:
                continue
            searcher = service.searcher(q["corpus"], "en")
            index = indexes.setdefault(searcher.key, searcher.store.loaded(searcher.key))
            gold, article = gold_of(index, searcher.key, q)
            if gold:
                rows.append((service.embedder.embed_query(q["question"]), searcher.key, gold, article))
    return rows, indexes


def moved(w: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The question vector moved by the map, L2-normalised again."""
    z = w @ q
    return z / np.linalg.norm(z)


def fit(rows, indexes, l2: float, epochs: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    dim = len(rows[0][0])
    w = np.eye(dim, dtype=np.float32)
    positives = [np.nonzero(np.isin(indexes[key].unit_provision, gold))[0] for _, key, gold, _ in rows]
    for _ in range(epochs):
        grad = np.zeros_like(w)
        for (q, key, _, _), pos in zip(rows, positives, strict=True):
            vectors = indexes[key].vectors
            drawn = rng.choice(len(vectors), size=min(NEGATIVES, len(vectors)), replace=False)
            units = np.concatenate([pos, drawn[~np.isin(drawn, pos)]])
            x = vectors[units]
            z = w @ q
            norm = float(np.linalg.norm(z))
            u = z / norm
            s = x @ u / TEMPERATURE
            p = np.exp(s - s.max())
            p /= p.sum()
            p[int(np.argmax(s[: len(pos)]))] -= 1.0  # the best unit of the answering provision is the target
            gu = x.T @ (p / TEMPERATURE)
            grad += np.outer((gu - u * (u @ gu)) / norm, q)
        w -= RATE * (grad / len(rows) + l2 * (w - np.eye(dim, dtype=np.float32)))
    return w


def evaluate(rows, indexes, w: np.ndarray | None) -> dict:
    """Dense provision-level hit@1/5/10 and MRR (a provision scores its best unit)."""
    ranks = []
    for q, key, gold, _ in rows:
        best = indexes[key].dense_scores(q if w is None else moved(w, q))
        order = np.argsort(-best, kind="stable")
        ranks.append(int(np.nonzero(np.isin(order, gold))[0][0]) + 1)
    n = len(ranks)
    return {"n": n, **{f"hit@{k}": round(sum(r <= k for r in ranks) / n, 4) for k in (1, 5, 10)},
            "mrr": round(sum(1 / r for r in ranks) / n, 4)}


def article_folds(rows, folds: int) -> dict:
    """Each gold article's fold, articles dealt at random."""
    articles = sorted({r[3] for r in rows})
    order = np.random.default_rng(0).permutation(len(articles))
    return {articles[i]: n % folds for n, i in enumerate(order)}


def cross_validate(rows, indexes, fold_of: dict, folds: int, l2: float, epochs: int):
    """Pooled held-out dense figures without and with the map, and each fold's map."""
    base, mapped, maps = [], [], {}
    for f in range(folds):
        held = [r for r in rows if fold_of[r[3]] == f]
        maps[f] = fit([r for r in rows if fold_of[r[3]] != f], indexes, l2, epochs)
        base.append((evaluate(held, indexes, None), len(held)))
        mapped.append((evaluate(held, indexes, maps[f]), len(held)))

    def pooled(results):
        return {k: round(sum(r[k] * n for r, n in results) / len(rows), 4) for k in ("hit@1", "hit@5", "hit@10", "mrr")}

    return {"dense": pooled(base), "mapped": pooled(mapped)}, maps


class MappedEmbedder:
    """The service's embedder, with question vectors moved by `matrix` while it is set."""

    def __init__(self, embedder):
        self.embedder, self.identity, self.matrix = embedder, embedder.identity, None

    @property
    def dim(self) -> int:
        return self.embedder.dim

    def embed(self, texts):
        return self.embedder.embed(texts)

    def embed_query(self, text):
        q = self.embedder.embed_query(text)
        return q if self.matrix is None else moved(self.matrix, q)


def ranker_figures(service: Pincite, embedder: MappedEmbedder, indexes, fold_of: dict, maps, folds: int) -> dict:
    """train_ranker's cross-validation over its dev questions, on candidates searched without the
    map, then with each English question's held-out map."""
    questions = [q for name in train_ranker.SETS
                 for q in load_questions(ROOT / "evals" / f"{name}.jsonl", "dev") if q["answerable"]]
    out = {}
    for label, use in (("as_embedded", False), ("mapped", True)):
        groups = []
        for q in questions:
            embedder.matrix = None
            if use and service.resolve_lang(q["corpus"], q.get("lang")) == "en":
                searcher = service.searcher(q["corpus"], "en")
                _, article = gold_of(indexes[searcher.key], searcher.key, q)
                embedder.matrix = maps[fold_of[article]] if article in fold_of else None
            groups.append(train_ranker.candidates(service, q))
        embedder.matrix = None
        scaled, _, _ = train_ranker.standardise(groups)
        out[label] = train_ranker.cross_validate(scaled, folds, 0.1)  # train_ranker's default L2
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--ranker", action="store_true", help="also the first stage and the retrained ranker")
    args = parser.parse_args(argv)
    settings = load_settings()
    embedder = MappedEmbedder(QueryCache(embedder_from_settings(settings)))
    service = Pincite(settings, embedder=embedder, reranker=None, llm=None)
    rows, indexes = examples(service)
    fold_of = article_folds(rows, args.folds)
    cv, maps = cross_validate(rows, indexes, fold_of, args.folds, args.l2, args.epochs)
    report = {"questions": len(rows), "dense_cross_validation": cv}
    if args.ranker:
        report["ranker_cross_validation"] = ranker_figures(service, embedder, indexes, fold_of, maps, args.folds)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
