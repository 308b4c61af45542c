"""Evaluation: question files with gold provisions, run against the real pipeline."""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from pathlib import Path

from pincite.citations import hits as label_hits
from pincite.errors import CitationError, ConfigError
from pincite.retrieve.fusion import Fusion
from pincite.service import Pincite

REQUIRED = ("id", "corpus", "question")
CUTOFFS = (1, 3, 5, 10)


SPLITS = ("dev", "test")


def load_questions(path: Path, split: str | None = None) -> list[dict]:
    """Read and validate a JSONL question file; a bad line is named, not skipped. With `split`,
    only the questions of that split ("dev" or "test")."""
    if split is not None and split not in SPLITS:
        raise ConfigError(f"unknown split {split!r} — use dev or test")
    if not path.is_file():
        raise ConfigError(f"question file {path} does not exist — pass --questions FILE (JSONL)")
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{number}: not JSON ({exc.msg}) — one question object per line") from exc
        missing = [key for key in REQUIRED if not q.get(key)]
        if missing:
            raise ConfigError(f"{path}:{number}: missing {', '.join(missing)} — see evals/README.md")
        q.setdefault("gold", [])
        q.setdefault("answerable", bool(q["gold"]))
        q.setdefault("category", "uncategorised")
        q.setdefault("split", None)
        if split is None or q["split"] == split:
            questions.append(q)
    if not questions:
        raise ConfigError(f"{path} holds no questions" + (f" of split {split!r}" if split else ""))
    return questions


def split_of(questions: list[dict]) -> str | None:
    """The split a report covers: the one all its questions share, 'mixed', or None."""
    splits = {q.get("split") for q in questions}
    return splits.pop() if len(splits) == 1 else "mixed"


def rank_of(retrieved: list[str], gold: list[str]) -> int | None:
    for position, label in enumerate(retrieved, start=1):
        for g in gold:
            try:
                if label_hits(label, g):
                    return position
            except CitationError:
                continue
    return None


def evaluate_retrieval(questions: list[dict], pincite: Pincite, *, mode: str | None = None, k: int = 10,
                       fusion: Fusion | None = None, progress=None) -> dict:
    """hit@k and MRR over the answerable questions, per-query latency, and every ranking."""
    rows, latencies = [], []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        result = pincite.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=max(k, 10),
                                mode=mode, fusion=fusion)
        latencies.append((time.perf_counter() - started) * 1000)
        retrieved = [h.provision.label for h in result.hits]
        rank = rank_of(retrieved, q["gold"]) if q["answerable"] else None
        rows.append({"id": q["id"], "corpus": q["corpus"], "lang": q.get("lang"), "category": q["category"],
                     "answerable": q["answerable"], "gold": q["gold"], "rank": rank, "retrieved": retrieved})
        if progress:
            progress(done, len(questions))
    report = metrics([r for r in rows if r["answerable"]])
    report["by_category"] = {c: metrics(rs) for c, rs in _group(rows).items()}
    report["latency_ms"] = latency_summary(latencies[1:] or latencies)  # the first query loads the model
    report["mode"] = mode or pincite.settings.search_mode
    report["split"] = split_of(questions)
    report["questions"] = rows
    return report


def evaluate_across(questions: list[dict], pincite: Pincite, corpora: list[str], *, mode: str | None = None,
                    k: int = 10, progress=None) -> dict:
    """Every question searched in all of `corpora` together (`pincite search --corpus A --corpus B`):
    a hit counts only in the question's own corpus, and `foreign@10` is the share of the top ten
    that come from the other corpora (averaged over the answerable questions)."""
    rows, latencies = [], []
    searched: list[str] = []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        searched, hits = pincite.search_across(q["question"], corpora, lang=q.get("lang"), k=max(k, 10), mode=mode)
        latencies.append((time.perf_counter() - started) * 1000)
        retrieved = [h.hit.provision.label for h in hits]
        own = [label for h, label in zip(hits, retrieved, strict=True) if h.corpus == q["corpus"]]
        at = [i for i, h in enumerate(hits, start=1) if h.corpus == q["corpus"]]  # where each of `own` stands
        found = rank_of(own, q["gold"]) if q["answerable"] else None
        rank = at[found - 1] if found else None
        rows.append({"id": q["id"], "corpus": q["corpus"], "lang": q.get("lang"), "category": q["category"],
                     "answerable": q["answerable"], "gold": q["gold"], "rank": rank, "retrieved": retrieved,
                     "retrieved_corpora": [h.corpus for h in hits],
                     "foreign": sum(1 for h in hits[:10] if h.corpus != q["corpus"])})
        if progress:
            progress(done, len(questions))
    answerable = [r for r in rows if r["answerable"]]
    report = metrics(answerable)
    report["foreign@10"] = _share(sum(r["foreign"] for r in answerable), 10 * len(answerable))
    report["by_category"] = {c: metrics(rs) for c, rs in _group(rows).items()}
    report["by_corpus"] = {c: metrics([r for r in answerable if r["corpus"] == c])
                           for c in sorted({r["corpus"] for r in answerable})}
    report["corpora"] = searched
    report["latency_ms"] = latency_summary(latencies[1:] or latencies)
    report["mode"] = mode or pincite.settings.search_mode
    report["split"] = split_of(questions)
    report["questions"] = rows
    return report


def _group(rows: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if r["answerable"]:
            groups[r["category"]].append(r)
    return dict(sorted(groups.items()))


def metrics(rows: list[dict]) -> dict:
    n = len(rows)
    out: dict = {"n": n}
    for cutoff in CUTOFFS:
        out[f"hit@{cutoff}"] = _share(sum(1 for r in rows if r["rank"] and r["rank"] <= cutoff), n)
    out["mrr"] = round(sum(1 / r["rank"] for r in rows if r["rank"]) / n, 4) if n else 0.0
    return out


def _share(count: int, n: int) -> float:
    return round(count / n, 4) if n else 0.0


def latency_summary(values: list[float]) -> dict:
    if not values:
        return {"p50": 0.0, "p95": 0.0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered), 2), "p95": round(p95, 2)}
