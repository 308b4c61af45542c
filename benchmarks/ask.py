"""Ask benchmark: warm `ask` latency (p50/p95) in extractive mode, answers and refusals apart.

    python benchmarks/ask.py --home DIR [--split dev|test] [--json]

Needs PINCITE_MIRROR and PINCITE_EMBED_MODEL_PATH. Uses the indexes already in `--home` (builds
what is missing first, untimed). Each question of the GDPR and AI Act sets (English and Italian)
is asked once to warm the service (query vectors, corpus profiles, the other corpora a refusal
looks at), then once more, timed: the second pass is what a running server sees. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from benchmarks.retrieval import QUESTION_FILES, percentile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--split", choices=("dev", "test"), default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.update({"PINCITE_HOME": str(args.home), "PINCITE_ASK_LOG": "false", "PINCITE_ANSWER_MODE": "extractive"})
    from pincite.evaluate.retrieval import load_questions  # after the settings are in the environment
    from pincite.service import Pincite

    questions = [q for f in QUESTION_FILES for q in load_questions(f, args.split)]
    timings: dict[str, list[float]] = {"answered": [], "refused": []}
    with Pincite(llm=None) as pincite:
        for q in questions:
            pincite.ask(q["question"], corpus=q["corpus"], lang=q["lang"])
        for q in questions:
            started = time.perf_counter()
            document = pincite.ask(q["question"], corpus=q["corpus"], lang=q["lang"])
            timings[document["outcome"]].append((time.perf_counter() - started) * 1000)
    every = timings["answered"] + timings["refused"]
    report = {"n": len(every), "split": args.split,
              **{name: {"n": len(v), "p50_ms": round(percentile(v, 0.5), 1), "p95_ms": round(percentile(v, 0.95), 1)}
                 for name, v in (("ask", every), *timings.items()) if v}}
    print(json.dumps(report) if args.json else
          "\n".join(f"{name:9} n={r['n']:4}  p50 {r['p50_ms']:6.1f} ms  p95 {r['p95_ms']:6.1f} ms"
                    for name, r in report.items() if isinstance(r, dict)))


if __name__ == "__main__":
    main()
