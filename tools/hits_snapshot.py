"""Whether a change moved any search result: the hits of every question in evals/, written once
before the change and once after, then compared.

    python tools/hits_snapshot.py write FILE     # top 10 and top 30 of every question, as searched now
    python tools/hits_snapshot.py compare A B    # prints the questions whose hits differ; exit 1 if any

A hit is its provision id, its place, its `via` and the hop that led there; scores are compared
to `--tolerance` (exact hits score infinity; default 1e-5: vectors embedded in a batch differ from those embedded alone in
the seventh digit). For changes meant to make search faster and find the same things
(docs/retrieval.md, "Speed and memory"). Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH (or
network access) and builds the indexes it needs. A development tool: not in the wheel.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def question_files() -> list[Path]:
    """The question sets (verify-adversarial.jsonl holds answers to verify, not questions)."""
    return [f for f in sorted((ROOT / "evals").glob("*.jsonl")) if f.name != "verify-adversarial.jsonl"]


def snapshot() -> list[dict]:
    from pincite.evaluate.retrieval import load_questions
    from pincite.service import Pincite

    service = Pincite(llm=None)
    rows = []
    for path in question_files():
        for q in load_questions(path):
            for k in (10, 30):
                hits = service.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=k).hits
                rows.append({"file": path.name, "question": q["question"], "k": k,
                             "hits": [[h.provision.id, h.score, h.via, h.via_hop] for h in hits]})
    return rows


def differences(before: list[dict], after: list[dict], tolerance: float) -> list[str]:
    if [(r["file"], r["question"], r["k"]) for r in before] != [(r["file"], r["question"], r["k"]) for r in after]:
        return ["the two snapshots are of different questions"]
    out = []
    for a, b in zip(before, after, strict=True):
        same_hits = [h[:1] + h[2:] for h in a["hits"]] == [h[:1] + h[2:] for h in b["hits"]]
        close = same_hits and all(x[1] == y[1] or abs(x[1] - y[1]) <= tolerance for x, y in zip(a["hits"], b["hits"], strict=True))
        if not close:
            out.append(f"{a['file']} k={a['k']}: {a['question'][:100]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    write = sub.add_parser("write")
    write.add_argument("file", type=Path)
    compare = sub.add_parser("compare")
    compare.add_argument("before", type=Path)
    compare.add_argument("after", type=Path)
    compare.add_argument("--tolerance", type=float, default=1e-5)
    args = parser.parse_args()
    if args.command == "write":
        rows = snapshot()
        args.file.write_text(json.dumps(rows), encoding="utf-8")
        print(f"{len(rows)} searches written to {args.file}")
        return
    before, after = (json.loads(p.read_text(encoding="utf-8")) for p in (args.before, args.after))
    changed = differences(before, after, args.tolerance)
    for line in changed:
        print(line)
    print(f"{len(changed)} of {len(before)} searches differ")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
