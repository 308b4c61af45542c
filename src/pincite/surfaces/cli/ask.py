"""`pincite ask`: an answer whose every sentence is cited, or a refusal that says why."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from pincite.answer.llm import config_from_settings
from pincite.surfaces.cli.common import err, out, print_json, progress, service


def ask(
    question: Annotated[str, typer.Argument(help="The question, in the corpus's language or English.")],
    corpus: Annotated[str, typer.Option("--corpus", "-c", help="Corpus name, e.g. gdpr, ai-act.")] = "gdpr",
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language of the question.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    thread: Annotated[str | None, typer.Option("--thread", "-t", help="Continue this conversation.")] = None,
) -> None:
    """Answer from the corpus with a pinpoint citation on every sentence, or refuse (exit 0 either way)."""
    with service() as pincite:
        model = config_from_settings(pincite.settings)
        if model is not None and model.remote and pincite.settings.answer_mode != "extractive":
            err.print(f"note: your question and the retrieved provisions are sent to {model.provider} "
                      f"({model.where}) to write the answer", markup=False)
        with progress(f"Answering from {corpus}…", pincite):
            document = pincite.ask(question, corpus=corpus, lang=lang, thread=thread)
    if as_json:
        print_json(document)
    else:
        _render(document)
    if document["thread"]:
        err.print(f"thread {document['thread']} — follow up with: pincite ask … --thread {document['thread']}",
                  markup=False, highlight=False)


def _render(document: dict) -> None:
    if document["outcome"] == "answered":
        if document.get("heading"):
            out.print(f"[bold]{escape(document['heading'])}[/bold]", highlight=False)
        for sentence in document["sentences"]:
            labels = "; ".join(_local(document, label) for label in sentence["citations"])
            out.print(f"{sentence['text']} [bold]\\[{labels}][/bold]", highlight=False)
        out.print("\n[bold]Sources[/bold]")
        for c in document["citations"]:
            out.print(f"  {c['label_local']} — {c['title']}" if c["title"] else f"  {c['label_local']}",
                      markup=False, highlight=False)
            out.print(f"  [dim]{c['url']}[/dim]", highlight=False)
    else:
        out.print(f"[bold]Refused[/bold] ({document['reason']}): {document['answer']}", highlight=False)
        if document.get("see"):
            out.print("\n[bold]Where the law deals with this[/bold]")
            for pointer in document["see"]:
                out.print(f"  {pointer['corpus']} {pointer['label']} — {pointer['why']}", markup=False, highlight=False)
                out.print(f"  [dim]{pointer['url']}[/dim]", highlight=False)
        out.print(document["covers"], markup=False, highlight=False)
    corpus = document["corpus"]
    out.print(f"[dim]{corpus['name']}/{corpus['lang']} · {corpus['version']}[/dim]", highlight=False)
    out.print(f"[dim]{document['notice']}[/dim]", highlight=False)


def _local(document: dict, label: str) -> str:
    return next((c["label_local"] for c in document["citations"] if c["label"] == label), label)
