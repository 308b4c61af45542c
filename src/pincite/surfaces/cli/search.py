"""`pincite index` and `pincite search`: build an index, find the governing provisions."""

from __future__ import annotations

from typing import Annotated

import typer

from pincite.settings import SEARCH_MODES
from pincite.surfaces.cli.common import err, out, print_json, progress, service


def index(
    name: Annotated[str, typer.Argument(help="Corpus name (gdpr, ai-act).")],
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language code (default: en, or the "
                                                                  "corpus's only language).")] = None,
    rebuild: Annotated[bool, typer.Option(help="Rebuild even if the index is current.")] = False,
    to_database: Annotated[bool, typer.Option(
        "--to-database", help="Put the index in the PostgreSQL database of PINCITE_DATABASE_URL, copying the "
                              "vectors of the SQLite index when it was built with the same model and settings.")] = False,
) -> None:
    """Build (or bring up to date) the search index of a corpus: embeddings + keyword index."""
    with service() as pincite, progress(f"Indexing {name}…", pincite):
        report = pincite.index(name, lang, rebuild=rebuild, to_database=to_database)
    status = "copied from the SQLite index" if report["status"] == "copied" else report["status"]
    out.print(f"{report['key']}: {report['provisions']} provisions, {report['units']} index units, "
              f"model {report['model']} — {status} in {report['seconds']:.1f} s")


def search(
    query: Annotated[str, typer.Argument(help="What to look for (a question, words, or a citation).")],
    corpus: Annotated[list[str] | None, typer.Option(
        "--corpus", "-c", help="Corpus name (gdpr, ai-act, …); repeat to search several at once; `all`: every corpus indexed in the language.")] = None,
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language of the query.")] = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100, help="How many hits.")] = 5,
    mode: Annotated[str | None, typer.Option(help=f"{', '.join(SEARCH_MODES)} (default: PINCITE_SEARCH_MODE).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Search one corpus or several; each hit with label, title, score, snippet and source link."""
    names = corpus or ["gdpr"]
    with service() as pincite, progress(f"Searching {', '.join(names)}…", pincite):
        document = pincite.search_document(query, corpus=names[0] if len(names) == 1 else names, lang=lang,
                                           k=k, mode=mode)
    if as_json:
        print_json(document)
        return
    rows = document["hits"]
    if not rows:
        err.print("no hits")
    for n, row in enumerate(rows, start=1):
        score = "named" if row["exact"] else f"{row['score']:.3f}"
        instrument = f"{row['instrument']} " if len(names) > 1 or "all" in names else ""
        out.print(f"[bold]{n}. {instrument}{row['label_local']}[/bold] — {row['title']} [dim]({score})[/dim]")
        out.print(f"   {row['snippet']}", markup=False)
        out.print(f"   [dim]{row['url']}[/dim]")
