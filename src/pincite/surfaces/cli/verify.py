"""`pincite verify`: which sentences of a text are backed by the provisions they cite."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from pincite.errors import UnknownCorpusError, UnknownLanguageError
from pincite.surfaces.cli.common import err, out, print_json, progress, service


def verify(
    file: Annotated[str, typer.Argument(help="A text file whose sentences carry [Article …] citations; - for stdin.")] = "-",
    corpus: Annotated[str, typer.Option("--corpus", "-c", help="Corpus the citations are to, e.g. gdpr, ai-act.")] = "gdpr",
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Language of the text and its labels.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")] = False,
    second_opinion: Annotated[bool | None, typer.Option(
        "--second-opinion/--no-second-opinion",
        help="Also ask the model (PINCITE_LLM) whether each cited text entails its sentence; it can only "
             "take support away. Default: on when a model is configured.")] = None,
) -> None:
    """Check each sentence against the provisions it cites (looked up directly, no search).
    Exit 0 when every sentence is supported, 1 when any is not, 2 on a usage error."""
    text = _read(file)
    try:
        with service() as pincite, progress(f"Checking citations against {corpus}…", pincite):
            document = pincite.verify(text, corpus=corpus, lang=lang, second_opinion=second_opinion)
    except (UnknownCorpusError, UnknownLanguageError) as exc:  # a usage error: exit 2, not 1 (unsupported)
        err.print(f"error: {exc}", markup=False, highlight=False)
        raise typer.Exit(2) from None
    if as_json:
        print_json(document)
    else:
        _render(document)
    raise typer.Exit(0 if document["verified"] else 1)


def _read(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        err.print(f"error: cannot read {file!r} ({type(exc).__name__}) — give a UTF-8 text file, or - for stdin",
                  markup=False, highlight=False)
        raise typer.Exit(2) from None


def _render(document: dict) -> None:
    for n, s in enumerate(document["sentences"], start=1):
        mark = "[green]supported[/green]" if s["supported"] else f"[red]not supported[/red] ({s['reason']})"
        out.print(f"{n}. {mark}: ", end="", highlight=False)
        out.print(s["text"], markup=False, highlight=False)
        if s["detail"]:
            out.print(f"   {s['detail']}", markup=False, highlight=False, style="dim")
        said = s.get("opinion") or {}
        if "supported" in said and s["reason"] != "model_disagrees":  # model_disagrees: its reason is the detail
            verdict = "supported" if said["supported"] else "not supported"
            out.print(f"   model: {verdict}" + (f" — {said['reason']}" if said["reason"] else ""),
                      markup=False, highlight=False, style="dim")
    errors = [s["opinion"]["error"] for s in document["sentences"] if "error" in (s.get("opinion") or {})]
    if errors:  # one line, not one a sentence: an unreachable model says the same thing each time
        out.print(f"second opinion unavailable for {len(errors)} sentence(s), the rules' verdict kept: {errors[0]}",
                  markup=False, highlight=False, style="dim")
    if not document["sentences"]:
        out.print("no sentences to check", markup=False)
    c = document["corpus"]
    out.print(f"[dim]{c['name']}/{c['lang']} · {c['version']}[/dim]", highlight=False)
