"""The support check on the adversarial set: per kind, caught (unsupported refused) or
accepted (faithful passed), and the time per sentence.

    python -m benchmarks.verify_support --split dev      # tune on this
    python -m benchmarks.verify_support --split test     # report this

Each item is checked through `Pincite.verify`, the method behind `pincite verify`. The time of the readings against
the clause a sentence follows word for word (`pincite.verify.alignment`, a word-level diff against every clause of the
cited text) is printed apart, as a share of the whole.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from pincite.service import Pincite
from pincite.verify import alignment

SET = Path(__file__).resolve().parents[1] / "evals" / "verify-adversarial.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["dev", "test"], required=True)
    parser.add_argument("--show", action="store_true", help="print each wrong verdict (dev only)")
    parser.add_argument("--set", type=Path, default=SET, help="the question file (default: evals/verify-adversarial.jsonl)")
    args = parser.parse_args()
    items = [json.loads(line) for line in args.set.open(encoding="utf-8") if line.strip()]
    items = [i for i in items if i["split"] == args.split]
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # right, total, right reason
    elapsed = 0.0
    aligned = _timed(alignment, ["swapped_actor", "swapped_opposite", "swapped_modal", "dropped_aligned_condition",
                                 "dropped_only", "inserted_negation"])
    with Pincite() as pincite:
        for item in items:
            pincite.verify("warm-up [Article 1]", corpus=item["corpus"], lang=item["lang"])
            started = time.perf_counter()
            doc = pincite.verify(item["text"], corpus=item["corpus"], lang=item["lang"])
            elapsed += time.perf_counter() - started
            ok = doc["verified"] == item["supported"]
            reasons = [s["reason"] for s in doc["sentences"] if s["reason"]]
            row = rows[("faithful " if item["supported"] else "unsupported ") + item["kind"]]
            row[0] += ok
            row[1] += 1
            row[2] += ok and (item["supported"] or item["expect"] in reasons)
            if args.show and not ok and args.split == "dev":
                print(f"  WRONG {item['id']} {item['kind']} {reasons} {item['text'][:200]}")
                for s in doc["sentences"]:
                    print(f"      {s['reason']}: {s['detail']}")
    _report(rows, len(items), elapsed)
    print(f"  of which the alignment readings: {1000 * aligned[0] / max(len(items), 1):.2f} ms per item "
          f"({aligned[0] / max(elapsed, 1e-9):.0%})")


def _timed(module: object, names: list[str]) -> list[float]:
    """Wraps the module's functions `names` to add their time to the one-element list returned (the check calls them
    through the module, so the wrapped ones are those it calls)."""
    spent = [0.0]

    def timing(f: Callable[..., object]) -> Callable[..., object]:
        def wrapped(*args: object, **kwargs: object) -> object:
            started = time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started
        return wrapped

    for name in names:
        setattr(module, name, timing(getattr(module, name)))
    return spent


def _report(rows: dict, n: int, elapsed: float) -> None:
    print(f"{'kind':32} {'right':>7} {'of':>5} {'share':>7} {'reason named':>13}")
    totals = {"faithful": [0, 0], "unsupported": [0, 0]}
    for kind, (right, total, reason) in sorted(rows.items()):
        print(f"{kind:32} {right:7} {total:5} {right / total:7.1%} {reason:13}")
        totals[kind.split()[0]][0] += right
        totals[kind.split()[0]][1] += total
    for side, (right, total) in totals.items():
        verb = "accepted" if side == "faithful" else "caught"
        print(f"{side} {verb}: {right}/{total} = {right / max(total, 1):.1%}")
    print(f"{1000 * elapsed / max(n, 1):.2f} ms per item")


if __name__ == "__main__":
    main()
