"""The `pincite` command. Thin: parse flags, call the service layer, render; no logic of its own."""

from __future__ import annotations

import os
import sys

import typer

from ..errors import PinciteError
from . import ask as ask_commands
from . import corpus as corpus_commands
from . import eval as eval_commands
from . import search as search_commands
from . import serve as serve_commands

app = typer.Typer(
    name="pincite",
    help="Answers about legislation where every sentence carries a pinpoint citation checked in code.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(corpus_commands.app, name="corpus")
app.add_typer(eval_commands.app, name="eval")
app.command()(search_commands.index)
app.command()(search_commands.search)
app.command()(ask_commands.ask)
app.command()(serve_commands.serve)
app.command()(serve_commands.mcp)


def main() -> None:
    """Entry point: a PinciteError becomes one line on stderr and a non-zero exit.

    Set PINCITE_DEBUG=1 to see the traceback instead.
    """
    try:
        app(standalone_mode=False)
    except PinciteError as exc:
        if os.environ.get("PINCITE_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:  # click usage errors arrive here in non-standalone mode
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
