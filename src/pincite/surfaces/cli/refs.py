"""`pincite refs`: what a provision cites and what cites it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pincite.surfaces.cli.common import out, print_json, progress, service


def refs(
    label: Annotated[str, typer.Argument(help="A citation, e.g. 'Article 37', 'Article 6(2)', 'Annex III'.")],
    corpus: Annotated[str, typer.Option("--corpus", "-c", help="Corpus name (gdpr, ai-act, pdpa, …).")] = "gdpr",
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language code (default: en, or the "
                                                                  "corpus's only language).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document (as GET /provisions/{id}/references).")] = False,
) -> None:
    """The references a provision makes and the provisions that refer to it, with the referencing
    words; an article or annex gathers the references of all its parts."""
    with service() as pincite, progress(f"Reading the references of {label}…", pincite):
        document = pincite.references(corpus, label, lang)
    if as_json:
        print_json(document)
        return
    p = document["provision"]
    out.print(f"[bold]{p['label_local']}[/bold]" + (f" — {p['title']}" if p["title"] else ""))
    _table("cites", document["cites"], "from")
    _table("cited by", document["cited_by"], "to")


def _table(title: str, rows: list[dict], part: str) -> None:
    if not rows:
        out.print(f"{title}: none")
        return
    table = Table(title=f"{title} ({len(rows)})", title_justify="left")
    for column in (part, "provision" if part == "from" else "cited by", "words"):
        table.add_column(column)
    for row in rows:
        other_act = row["external"] and row["act"] and row["act"] not in row["label"]
        where = row["label_local"] + (f" (act {row['act']}, not this one)" if other_act else "")
        table.add_row(row[part], where, row["words"])
    out.print(table)
