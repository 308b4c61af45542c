"""Choose how several corpora searched together are merged (retrieve.multi: KEEP_MARGIN,
RANK_STEP, NAMED_BONUS, and the weight of term coverage in a corpus's relevance) on development questions.

Each question is searched once in every corpus; the merge is then replayed for every setting of
the grid, and the settings are ranked by MRR on (corpus, provision). Development split only: the
test split is for the figure (`pincite eval retrieval --across … --split test`).

    python tools/tune_corpora.py -q evals/gdpr-en.jsonl -q evals/dsa-en.jsonl \
        --across gdpr --across dsa --across dga
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from pincite.evaluate.retrieval import load_questions, metrics, rank_of
from pincite.retrieve.multi import COVERAGE_WEIGHT, KEEP_MARGIN, NAMED_BONUS, RANK_STEP, search_corpora
from pincite.service import Pincite
from pincite.settings import load_settings

COVERAGE_WEIGHTS = (0.0, 0.25, 0.5)
MARGINS = (0.05, 0.1, 0.15, 0.2, 10.0)
STEPS = (0.005, 0.01, 0.02, 0.04)
BONUSES = (0.0, 0.05, 0.1, 0.2, 0.5)


def searched(questions: list[dict], pincite: Pincite, corpora: list[str]) -> list[tuple[dict, list]]:
    """Per question, each corpus's result (its hits and signals)."""
    return [(q, pincite.corpus_results(q["question"], corpora, lang=q.get("lang"), k=10, coverage=True)) for q in questions]


def replay(cached, weight: float, margin: float, step: float, bonus: float) -> dict:
    rows = []
    for q, results in cached:
        hits = search_corpora(results, 10, keep_margin=margin, rank_step=step, named_bonus=bonus,
                              coverage_weight=weight)
        own = [(i, h.hit.provision.label) for i, h in enumerate(hits, start=1) if h.corpus == q["corpus"]]
        found = rank_of([label for _, label in own], q["gold"])
        rows.append({"rank": own[found - 1][0] if found else None,
                     "foreign": sum(1 for h in hits if h.corpus != q["corpus"])})
    report = metrics(rows)
    report["foreign@10"] = round(sum(r["foreign"] for r in rows) / (10 * len(rows)), 4)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-q", "--questions", action="append", type=Path, required=True)
    parser.add_argument("--across", action="append", required=True)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    questions = [q for f in args.questions for q in load_questions(f, "dev") if q["answerable"]]
    with Pincite(load_settings()) as pincite:
        cached = searched(questions, pincite, args.across)
    grid = [(*setting, replay(cached, *setting))
            for setting in itertools.product(COVERAGE_WEIGHTS, MARGINS, STEPS, BONUSES)]
    grid.sort(key=lambda row: (-row[4]["mrr"], -row[4]["hit@1"]))
    print(f"{len(questions)} dev questions; coverage weight, keep margin, rank step, named bonus → "
          f"hit@1 hit@5 MRR foreign@10")
    shipped = (COVERAGE_WEIGHT, KEEP_MARGIN, RANK_STEP, NAMED_BONUS)
    rows = [*grid[: args.top], *[("shipped", *row[1:]) for row in grid if tuple(row[:4]) == shipped]]
    for w, m, s, b, r in rows:
        print(f"{w!s:>7} {m:5} {s:6} {b:4}  {r['hit@1']:.3f} {r['hit@5']:.3f} {r['mrr']:.3f} {r['foreign@10']:.3f}")


if __name__ == "__main__":
    main()
