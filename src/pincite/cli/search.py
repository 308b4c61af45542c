"""`pincite index` and `pincite search`: build an index, find the governing provisions."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import service
from ..crosssearch import corpus_hit_json, search_corpora
from ..settings import Settings
from .common import err, out, print_json, progress, settings


def index(
    name: Annotated[str, typer.Argument(help="Corpus name (gdpr, ai-act).")],
    lang: Annotated[str, typer.Option("--lang", "-l", help="Language code.")] = "en",
    rebuild: Annotated[bool, typer.Option(help="Rebuild even if the index is current.")] = False,
) -> None:
    """Build (or bring up to date) the search index of a corpus: embeddings + keyword index."""
    s = settings()
    with progress(f"Indexing {name}/{lang}…"):
        report = service.index_corpus(name, lang, s, rebuild=rebuild)
    out.print(f"{report['key']}: {report['provisions']} provisions, {report['units']} index units, "
              f"model {report['model']} — {report['status']} in {report['seconds']:.1f} s")


def search(
    query: Annotated[str, typer.Argument(help="What to look for (a question, words, or a citation).")],
    corpus: Annotated[list[str] | None, typer.Option(
        "--corpus", "-c", help="Corpus name (gdpr, ai-act, …); repeat to search several at once.")] = None,
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language of the query.")] = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100, help="How many hits.")] = 5,
    mode: Annotated[str | None, typer.Option(help="hybrid, dense or bm25.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Search one corpus or several; each hit with label, title, score, snippet and source link."""
    s: Settings = settings()
    names = corpus or ["gdpr"]
    with progress(f"Searching {', '.join(names)}…"):
        if len(names) == 1:
            result = service.search(query, s, corpus=names[0], lang=lang, k=k, mode=mode)
            rows, used_mode = [service.hit_json(h) for h in result.hits], result.mode
        else:
            rows = [corpus_hit_json(h) for h in search_corpora(query, s, names, lang=lang, k=k, mode=mode)]
            used_mode = mode or s.search_mode
    if as_json:
        print_json({"query": query, "corpus": names[0] if len(names) == 1 else names, "mode": used_mode,
                    "hits": rows})
        return
    if not rows:
        err.print("no hits")
    for n, row in enumerate(rows, start=1):
        score = "named" if row["exact"] else f"{row['score']:.3f}"
        instrument = f"{row['instrument']} " if len(names) > 1 else ""
        out.print(f"[bold]{n}. {instrument}{row['label_local']}[/bold] — {row['title']} [dim]({score})[/dim]")
        out.print(f"   {row['snippet']}", markup=False)
        out.print(f"   [dim]{row['url']}[/dim]")
