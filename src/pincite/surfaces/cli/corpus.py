"""`pincite corpus …`: build, check, show and count the provisions of an act."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pincite.errors import ConfigError
from pincite.surfaces.cli.common import batch_progress, out, print_json, progress, service

app = typer.Typer(help="Build and inspect corpora: an act parsed into citable provisions.",
                  no_args_is_help=True)

Lang = Annotated[str, typer.Option("--lang", "-l", help="Language code, e.g. en, it, fr.")]
MaybeLang = Annotated[str | None, typer.Option("--lang", "-l", help="Language code (default: en, or the corpus's "
                                                                    "only language, e.g. th for pdpa).")]


@app.command()
def build(
    name: Annotated[str, typer.Argument(help="Corpus name (gdpr, ai-act) or CELEX number.")],
    lang: Lang = "en",
    out_file: Annotated[Path | None, typer.Option("--out", help="Also write the JSONL here.")] = None,
    refresh: Annotated[bool, typer.Option(help="Fetch the source again even if cached.")] = False,
) -> None:
    """Fetch the act, parse it into provisions, check it, and write it as JSONL."""
    with service() as pincite, progress(f"Building {name}/{lang}…", pincite):
        info = pincite.build_corpus(name, lang, out=out_file, refresh=refresh)
    out.print(_built_line(info))
    out.print(f"written to {out_file or info.path}")


def _built_line(info) -> str:
    c = info.counts
    other = [f"{c[k]} {k}" for k in ("sections", "rules", "pages") if c.get(k)]
    if other:  # a statute, rulebook or document rather than an EUR-Lex act
        return f"{info.name}/{info.lang}: {c['provisions']} provisions ({', '.join(other)}) — {info.version}"
    return (f"{info.name}/{info.lang}: {c['provisions']} provisions ({c['enacting']} in the enacting "
            f"terms, {c['annex_items']} annex items, {c['recitals']} recitals) — {info.version}")


@app.command()
def add(
    celex: Annotated[str | None, typer.Argument(help="CELEX number of the act, e.g. 32022R2065.")] = None,
    lang: Lang = "en",
    name: Annotated[str | None, typer.Option("--name", help="Short name to use for it (default: the CELEX).")] = None,
    consolidated: Annotated[str | None, typer.Option(
        "--consolidated", help="Use the consolidated text of this date (YYYY-MM-DD).")] = None,
    no_index: Annotated[bool, typer.Option("--no-index", help="Build the corpus but not its index.")] = False,
    refresh: Annotated[bool, typer.Option(help="Fetch the source again even if cached.")] = False,
    from_file: Annotated[Path | None, typer.Option(
        "--from", help="Add every act this file names: one CELEX number or corpus name per line, optionally "
                       "followed by languages (32022R2065 en,fr); # starts a comment.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=16, help="With --from: sources fetched at once.")] = 4,
) -> None:
    """Add any EUR-Lex act by CELEX number: register, build and index it (adding again is fine)."""
    if (celex is None) == (from_file is None):
        raise ConfigError("name one act or a file of them — run: pincite corpus add CELEX, or "
                          "pincite corpus add --from FILE")
    if from_file is not None:
        if name or consolidated or refresh:
            raise ConfigError("--name, --consolidated and --refresh apply to one act — add such an act on its own")
        _add_from(from_file, index=not no_index, jobs=jobs)
        return
    with service() as pincite, progress(f"Adding {celex}/{lang}…", pincite):
        added = pincite.add_act(celex, lang, name=name, consolidated=consolidated, index=not no_index,
                                refresh=refresh)
    _print_added(added)


def _add_from(path: Path, *, index: bool, jobs: int) -> None:
    """One progress bar for the batch (stderr), one line per act (stdout), the failures in a
    table at the end; exit 1 when any act failed."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the batch file {path.name} ({getattr(exc, 'strerror', None) or exc}) — "
                          f"give a UTF-8 text file with one CELEX number per line") from exc
    started = time.perf_counter()
    with service() as pincite, batch_progress(pincite) as advance:
        def report(outcome, done: int, total: int) -> None:
            out.print(_outcome_line(outcome))
            advance(outcome.name or outcome.item.act, done, total)

        outcomes = pincite.add_from(text, index=index, jobs=jobs, progress=report)
    counts = Counter(o.status for o in outcomes)
    out.print(f"{len(outcomes)} acts in {time.perf_counter() - started:.1f} s: {counts['added']} added, "
              f"{counts['skipped']} already added, {counts['failed']} failed")
    failed = [o for o in outcomes if o.status == "failed"]
    if failed:
        table = Table("line", "act", "why it failed")
        for o in failed:
            table.add_row(str(o.item.line), f"{o.item.act}{'/' + o.item.lang if o.item.lang else ''}", o.reason)
        out.print(table)
        raise typer.Exit(1)


def _outcome_line(o) -> str:
    where = o.name or f"{o.item.act}{'/' + o.item.lang if o.item.lang else ''}"
    if o.status == "failed":
        return f"{where}: failed (line {o.item.line}) — {o.reason}"
    what = "already added" if o.status == "skipped" else f"added in {o.seconds:.1f} s"
    units = f", {o.units} index units" if o.units else ""
    return f"{where}: {what} — {o.provisions} provisions{units}"


@app.command("add-pdf")
def add_pdf(
    file: Annotated[Path, typer.Argument(help="The PDF file.")],
    name: Annotated[str | None, typer.Option("--name", help="Short name for it (default: from the file name).")] = None,
    lang: Lang = "en",
    structure: Annotated[str, typer.Option(
        "--as", help="rules (one provision per rule id), pages, or auto (rules when rule ids open lines).")] = "auto",
    rule_pattern: Annotated[str | None, typer.Option(
        "--rule-pattern", help=r"Regex a rule id matches (default '[A-Z]{2,4}-\d+(?:\.\d+)+[A-Z]?').")] = None,
    no_index: Annotated[bool, typer.Option("--no-index", help="Build the corpus but not its index.")] = False,
) -> None:
    """Add a PDF: a rulebook module (cited by rule id) or any document (cited `file.pdf, p. N`)."""
    with service() as pincite, progress(f"Adding {file.name}…", pincite):
        added = pincite.add_pdf(file, name=name, lang=lang, structure=structure, rule_pattern=rule_pattern,
                                index=not no_index)
    _print_added(added)


def _print_added(added) -> None:
    state = "added" if added.new or added.built else "already added"
    out.print(f"{added.spec.name} ({state}): {_built_line(added.info)}")
    if added.index:
        out.print(f"indexed: {added.index['units']} index units, {added.index['status']}")


@app.command()
def check(name: Annotated[str, typer.Argument(help="Corpus name.")], lang: Lang = "en") -> None:
    """Re-parse the cached source offline and compare with the stored corpus."""
    with service() as pincite:
        ok, message = pincite.check_corpus(name, lang)
    out.print(message)
    if not ok:
        raise typer.Exit(1)


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="Corpus name.")],
    label: Annotated[str, typer.Argument(help="A citation, e.g. 'Article 33(1)', 'Annex III, point 4'.")],
    lang: MaybeLang = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document (as GET /provisions).")] = False,
) -> None:
    """Show a provision (or every provision inside an article or annex)."""
    with service() as pincite:
        document = pincite.provisions_document(name, label, lang)
    if as_json:
        print_json(document)
        return
    for p in document["provisions"]:
        heading = f"{p['label_local']}" + (f" — {p['title']}" if p["title"] else "")
        out.print(f"[bold]{heading}[/bold]")
        out.print(p["text"], markup=False)
        out.print(f"[dim]{p['version']} · {p['url']}[/dim]\n")


@app.command("list")
def list_corpora(
    known: Annotated[bool, typer.Option("--all", help="Also the acts pincite knows by name but has not built here.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document (as GET /corpora).")] = False,
) -> None:
    """Every corpus built on this machine: name, languages, version, provisions, whether indexed."""
    with service() as pincite:
        corpora = [c for c in pincite.list_corpora() if known or c["built"]]
    if as_json:
        print_json({"corpora": corpora})
        return
    if not corpora:
        out.print("no corpus is built here yet — ask a question (pincite ask \"…\" --corpus gdpr) or run "
                  "pincite corpus add CELEX; pincite corpus list --all shows the acts pincite knows by name")
        return
    table = Table("corpus", "lang", "version", "provisions", "indexed", "title")
    for c in corpora:
        for b in c["built"]:
            table.add_row(c["name"], b["lang"], b["version"], str(b["provisions"]), "yes" if b["indexed"] else "no",
                          c["title"])
        if not c["built"]:
            table.add_row(c["name"], ",".join(c["langs"]) if len(c["langs"]) <= 3 else f"{len(c['langs'])} languages",
                          "—", "—", "—", c["title"])
    out.print(table)


@app.command()
def stats(
    name: Annotated[str, typer.Argument(help="Corpus name.")],
    lang: Annotated[list[str] | None, typer.Option("--lang", "-l", help="Languages (default: all built).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Count provisions by kind, per language."""
    with service() as pincite, progress(f"Counting {name}…", pincite):
        rows = pincite.corpus_stats(name, lang)
    if as_json:
        print_json([{"name": i.name, "lang": i.lang, "version": i.version, **i.counts} for i in rows])
        return
    _stats_table(rows)


def _stats_table(rows) -> None:
    keys = ["provisions", "enacting", "paragraphs", "unnumbered_articles", "definitions", "articles",
            "annexes", "annex_items", "recitals", "references", "external_references"]
    table = Table("corpus", "version", *[k.replace("_", " ") for k in keys])
    for info in rows:
        table.add_row(f"{info.name}/{info.lang}", info.version, *[str(info.counts[k]) for k in keys])
    out.print(table)
