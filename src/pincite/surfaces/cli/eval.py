"""`pincite eval …`: measure retrieval (and abstention) on question files with gold provisions."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pincite.settings import SEARCH_MODES
from pincite.surfaces.cli.common import err, out, print_json, settings

app = typer.Typer(help="Evaluate retrieval, abstention, answers and multi-hop answers on question files.",
                  no_args_is_help=True)

Questions = Annotated[list[Path], typer.Option("--questions", "-q", help="JSONL question file(s).")]
Split = Annotated[str | None, typer.Option("--split", help="Only the questions of this split: dev or test.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
WithModel = Annotated[bool, typer.Option("--llm", help="Answer with the configured model (PINCITE_LLM), not extractively.")]


def _load(files: list[Path], split: str | None) -> list[dict]:
    from pincite.evaluate.retrieval import load_questions  # heavy (the service): not for --help

    return [q for f in files for q in load_questions(f, split)]


def _service(**parts):
    from pincite.service import Pincite  # heavy: not for `pincite eval --help`

    return Pincite(settings(), **parts)


def _answered(evaluate, files: list[Path], split: str | None, llm: bool) -> dict:
    """An evaluation that runs the answer pipeline: extractive unless `--llm`."""
    qs = _load(files, split)
    with _service(**({} if llm else {"llm": None})) as pincite:
        return evaluate(qs, pincite, progress=_progress)


def _progress(done: int, total: int) -> None:
    if err.is_terminal:
        err.print(f"\r{done}/{total}", end="")


@app.command()
def retrieval(
    questions: Questions,
    mode: Annotated[str | None, typer.Option(help=f"{', '.join(SEARCH_MODES)} (default: PINCITE_SEARCH_MODE).")] = None,
    k: Annotated[int, typer.Option("-k", min=10, help="Depth of each ranking (at least 10).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")] = False,
    sweep: Annotated[bool, typer.Option(help="Compare modes and fusion settings in a table.")] = False,
    split: Split = None,
    across: Annotated[list[str] | None, typer.Option(
        "--across", help="Search every question in all these corpora together (repeat; `all`: every corpus "
                         "indexed in the question's language); a hit counts only in the question's own corpus.")] = None,
) -> None:
    """hit@1/3/5/10, MRR and latency. Builds or reuses the indexes the questions need."""
    from pincite.evaluate.retrieval import evaluate_across, evaluate_retrieval  # heavy: the service
    from pincite.retrieve.search import check_mode  # heavy: numpy

    if mode is not None:
        check_mode(mode)
    qs = _load(questions, split)
    with _service() as pincite:
        if sweep:
            _sweep(qs, pincite, k, as_json)
            return
        if across:
            report = evaluate_across(qs, pincite, across, mode=mode, k=k, progress=_progress)
        else:
            report = evaluate_retrieval(qs, pincite, mode=mode, k=k, progress=_progress)
    if as_json:
        print_json(report)
        return
    _table([(report["mode"], report)])
    if across:
        out.print(f"searched together: {', '.join(report['corpora'])}; share of the top 10 from other corpora "
                  f"(foreign@10): {report['foreign@10']:.3f}")


def _sweep(qs: list[dict], pincite, k: int, as_json: bool) -> None:
    from pincite.evaluate.retrieval import evaluate_retrieval  # heavy: the retrieve stage and the service
    from pincite.retrieve.fusion import Fusion  # heavy: numpy

    rows = [(mode, evaluate_retrieval(qs, pincite, mode=mode, k=k)) for mode in ("dense", "bm25")]
    for method, weight, recital in itertools.product(("linear", "rrf"), (0.3, 0.5, 0.7), (1.0, 0.75)):
        fusion = Fusion(method=method, dense_weight=weight, recital_weight=recital, rrf_k=pincite.settings.rrf_k,
                        expansion_weight=pincite.settings.expansion_weight)
        name = f"hybrid {method} dense={weight} recital×{recital}"
        rows.append((name, evaluate_retrieval(qs, pincite, mode="hybrid", k=k, fusion=fusion)))
    rows.append(("hybrid (defaults)", evaluate_retrieval(qs, pincite, mode="hybrid", k=k)))
    if as_json:
        print_json([{"setting": name, **{key: r[key] for key in _KEYS}} for name, r in rows])
        return
    _table(rows)


_KEYS = ("n", "hit@1", "hit@3", "hit@5", "hit@10", "mrr", "latency_ms")


def _table(rows) -> None:
    table = Table("setting", "n", "hit@1", "hit@3", "hit@5", "hit@10", "MRR", "p50 ms", "p95 ms")
    for name, r in rows:
        table.add_row(name, str(r["n"]), *[f"{r[key]:.3f}" for key in ("hit@1", "hit@3", "hit@5", "hit@10", "mrr")],
                      f"{r['latency_ms']['p50']:.1f}", f"{r['latency_ms']['p95']:.1f}")
    out.print(table)


@app.command()
def abstention(
    questions: Questions,
    as_json: AsJson = False,
    llm: WithModel = False,
    split: Split = None,
) -> None:
    """Answered vs refused, for answerable and unanswerable questions apart (extractive by default)."""
    from pincite.evaluate.abstention import evaluate_abstention  # heavy: the whole answer stage

    report = _answered(evaluate_abstention, questions, split, llm)
    if as_json:
        print_json(report)
        return
    table = Table("mode", "split", "n", "answerable answered", "answered precision", "coverage",
                  "unanswerable refused", "p50 ms", "p95 ms")

    def rate(key: str, group: str) -> str:
        return f"{report[key]:.3f}" if report[group] else "–"  # no such questions: no rate

    table.add_row(report["mode"], str(report["split"]), str(report["n"]), rate("answerable_answered_rate", "answerable"),
                  rate("answered_precision", "answerable"), f"{report['coverage']:.3f}",
                  rate("unanswerable_refused_rate", "unanswerable"),
                  f"{report['latency_ms']['p50']:.1f}", f"{report['latency_ms']['p95']:.1f}")
    out.print(table)
    for group, counts in report["reasons"].items():
        if counts:
            out.print(f"{group}: " + ", ".join(f"{reason} {n}" for reason, n in counts.items()))
    _risk_table(report["risk_coverage"])


@app.command()
def answers(
    questions: Questions,
    as_json: AsJson = False,
    llm: WithModel = False,
    split: Split = None,
) -> None:
    """Whether each answer leads with a governing provision and how many of its citations govern (`gold`)."""
    from pincite.evaluate.answers import evaluate_answers  # heavy: the whole answer stage

    report = _answered(evaluate_answers, questions, split, llm)
    if as_json:
        print_json(report)
        return
    table = Table("category", "n", "answered", "lead right", "citation precision", "answered precision",
                  "citations / answer", "retrieval hit@1", title=f"split {report['split']}, {report['mode']}")
    for name, row in [("all", report), *report["by_category"].items()]:
        table.add_row(name, str(row["n"]), f"{row['answered']:.3f}", f"{row['lead_right']:.3f}",
                      f"{row['citation_precision']:.3f}", f"{row['answered_precision']:.3f}",
                      f"{row['citations_per_answer']:.2f}", f"{row['retrieval_hit@1']:.3f}")
    out.print(table)
    if report["unanswerable"]:
        out.print(f"unanswerable refused: {report['unanswerable_refused_rate']:.3f} of {report['unanswerable']}")


@app.command()
def multihop(
    questions: Questions,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")] = False,
    no_graph: Annotated[bool, typer.Option("--no-graph", help="Do not follow references (as "
                                                              "PINCITE_FOLLOW_REFERENCES=false).")] = False,
    split: Split = None,
) -> None:
    """All-gold recall@10 and extractive answers citing every `gold_all` provision (evals/multihop.jsonl)."""
    from pincite.evaluate.multihop import evaluate_multihop  # heavy: the whole answer stage
    from pincite.service import Pincite  # heavy: the same

    qs = _load(questions, split)
    configured = settings()
    if no_graph:
        configured = configured.model_copy(update={"follow_references": False})
    with Pincite(configured, llm=None) as pincite:
        report = evaluate_multihop(qs, pincite, progress=_progress)
    if as_json:
        print_json(report)
        return
    table = Table("hop", "n", "all-gold recall@10", "answers citing all gold", "answered")
    for name, row in [("all", report), *report["by_hop"].items()]:
        table.add_row(name, str(row["n"]), f"{row['all_gold_recall@10']:.3f}", f"{row['answers_citing_all_gold']:.3f}",
                      f"{row['answered']:.3f}")
    out.print(table)
    out.print(f"split {report['split']}, references followed: {'yes' if report['follow_references'] else 'no'}")


RISK_ROWS = 12  # rows of the risk–coverage table the terminal shows (--json has every floor)


def _risk_table(rows: list[dict]) -> None:
    """The risk–coverage table, thinned to at most RISK_ROWS floors (the lowest always kept)."""
    if not rows:
        return
    step = max(1, -(-len(rows) // RISK_ROWS))
    table = Table("floor", "answered", "coverage", "answerable answered", "answered precision",
                  "unanswerable refused", title="Risk–coverage (the gate's final score as floor)")
    for row in rows[::step]:
        table.add_row(f"{row['floor']:.3f}", str(row["answered"]), f"{row['coverage']:.3f}",
                      f"{row['answerable_answered_rate']:.3f}", f"{row['answered_precision']:.3f}",
                      f"{row['unanswerable_refused_rate']:.3f}")
    out.print(table)
