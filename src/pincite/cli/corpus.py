"""`pincite corpus …`: build, check, show and count the provisions of an act."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from .. import corpus as service
from ..errors import NotFoundError
from .common import out, print_json, progress, settings

app = typer.Typer(help="Build and inspect corpora: an act parsed into citable provisions.",
                  no_args_is_help=True)

Lang = Annotated[str, typer.Option("--lang", "-l", help="Language code, e.g. en, it, fr.")]


@app.command()
def build(
    name: Annotated[str, typer.Argument(help="Corpus name (gdpr, ai-act) or CELEX number.")],
    lang: Lang = "en",
    out_file: Annotated[Path | None, typer.Option("--out", help="Also write the JSONL here.")] = None,
    refresh: Annotated[bool, typer.Option(help="Fetch the source again even if cached.")] = False,
) -> None:
    """Fetch the act, parse it into provisions, check it, and write it as JSONL."""
    with progress(f"Building {name}/{lang}…"):
        info = service.build_corpus(name, lang, settings(), out=out_file, refresh=refresh)
    c = info.counts
    out.print(f"{info.name}/{info.lang}: {c['provisions']} provisions ({c['enacting']} in the enacting "
              f"terms, {c['annex_items']} annex items, {c['recitals']} recitals) — {info.version}")
    out.print(f"written to {out_file or info.path}")


@app.command()
def check(name: Annotated[str, typer.Argument(help="Corpus name.")], lang: Lang = "en") -> None:
    """Re-parse the cached source offline and compare with the stored corpus."""
    ok, message = service.check_corpus(name, lang, settings())
    out.print(message)
    if not ok:
        raise typer.Exit(1)


@app.command()
def show(
    name: Annotated[str, typer.Argument(help="Corpus name.")],
    label: Annotated[str, typer.Argument(help="A citation, e.g. 'Article 33(1)', 'Annex III, point 4'.")],
    lang: Lang = "en",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Show a provision (or every provision inside an article or annex)."""
    found = service.show_provision(name, label, lang, settings())
    if as_json:
        print_json([asdict(p) for p in found])
        return
    for p in found:
        heading = f"{p.label_local}" + (f" — {p.title}" if p.title else "")
        out.print(f"[bold]{heading}[/bold]")
        out.print(p.text, markup=False)
        out.print(f"[dim]{p.version} · {p.url}[/dim]\n")


@app.command()
def stats(
    name: Annotated[str, typer.Argument(help="Corpus name.")],
    lang: Annotated[list[str] | None, typer.Option("--lang", "-l", help="Languages (default: all built).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Count provisions by kind, per language."""
    s = settings()
    langs = lang or service.built_langs(name, s)
    if not langs:
        raise NotFoundError(f"{name} has no built language — run: pincite corpus build {name} --lang en")
    rows = []
    for code in langs:
        info = service.corpus_info(name, code, s)
        if info is None:
            with progress(f"Building {name}/{code}…"):
                info = service.build_corpus(name, code, s)
        rows.append(info)
    if as_json:
        print_json([{"name": i.name, "lang": i.lang, "version": i.version, **i.counts} for i in rows])
        return
    _stats_table(rows)


def _stats_table(rows) -> None:
    keys = ["provisions", "enacting", "paragraphs", "unnumbered_articles", "definitions", "articles",
            "annexes", "annex_items", "recitals"]
    table = Table("corpus", "version", *[k.replace("_", " ") for k in keys])
    for info in rows:
        table.add_row(f"{info.name}/{info.lang}", info.version, *[str(info.counts[k]) for k in keys])
    out.print(table)
