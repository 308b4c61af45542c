"""The `pincite` command. Thin: parse flags, call the service layer, render; no logic of its own."""

from __future__ import annotations

import os
import sys

import typer

from pincite.errors import PinciteError
from pincite.surfaces.cli import ask as ask_commands
from pincite.surfaces.cli import corpus as corpus_commands
from pincite.surfaces.cli import eval as eval_commands
from pincite.surfaces.cli import refs as refs_commands
from pincite.surfaces.cli import search as search_commands
from pincite.surfaces.cli import serve as serve_commands
from pincite.surfaces.cli import verify as verify_commands

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
app.command()(refs_commands.refs)
app.command()(ask_commands.ask)
app.command()(verify_commands.verify)
app.command()(serve_commands.serve)
app.command()(serve_commands.mcp)


def main() -> None:
    """Entry point: a PinciteError becomes one line on stderr and a non-zero exit; a usage error
    (unknown option or command, missing argument) typer's usage message and exit 2.

    Set PINCITE_DEBUG=1 to see the traceback instead.
    """
    try:
        # Standalone mode: typer reports usage errors itself, with whichever click it ships
        # (typer 0.29 vendors its own as typer._click), and exits with their code.
        app(standalone_mode=True, prog_name="pincite")
    except PinciteError as exc:
        if os.environ.get("PINCITE_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except OSError as exc:  # a full disk, a read-only data directory: not a bug, but not ours to wrap everywhere
        if os.environ.get("PINCITE_DEBUG"):
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where} — check free space and permissions of the data "
              f"directory (PINCITE_HOME)", file=sys.stderr)
        sys.exit(1)
    except Exception as exc:  # a bug: one line, and how to see the rest
        if os.environ.get("PINCITE_DEBUG"):
            raise
        print(f"error: pincite failed unexpectedly ({type(exc).__name__}) — run again with PINCITE_DEBUG=1 "
              f"to see the traceback, and report it", file=sys.stderr)
        sys.exit(1)
