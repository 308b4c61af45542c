"""The `pincite` command. Thin: parse flags, call the service layer, render; no logic of its own."""

from __future__ import annotations

import json
import os
import sys
from importlib.metadata import version
from typing import Annotated

import typer

from pincite.errors import PinciteError
from pincite.surfaces.cli import ask as ask_commands
from pincite.surfaces.cli import config as config_commands
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


def _version(value: bool) -> None:
    if value:
        print(f"pincite {version('pincite')}")
        raise typer.Exit()


@app.callback()
def _options(show_version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False) -> None:
    """Answers about legislation where every sentence carries a pinpoint citation checked in code."""


app.add_typer(corpus_commands.app, name="corpus")
app.add_typer(eval_commands.app, name="eval")
app.command()(search_commands.index)
app.command()(search_commands.search)
app.command()(refs_commands.refs)
app.command()(ask_commands.ask)
app.command()(verify_commands.verify)
app.command()(serve_commands.serve)
app.command()(serve_commands.mcp)
app.command()(config_commands.config)


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
        _fail(exc.code, str(exc), exc.exit_code)
    except OSError as exc:  # a full disk, a read-only data directory: not a bug, but not ours to wrap everywhere
        if os.environ.get("PINCITE_DEBUG"):
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        _fail("write_failed", f"{exc.strerror or exc}{where} — check free space and permissions of the data "
                              f"directory (PINCITE_HOME)", 1)
    except Exception as exc:  # a bug: one line, and how to see the rest
        if os.environ.get("PINCITE_DEBUG"):
            raise
        _fail("error", f"pincite failed unexpectedly ({type(exc).__name__}) — run again with PINCITE_DEBUG=1 "
                       f"to see the traceback, and report it", 1)


def _fail(code: str, message: str, exit_code: int) -> None:
    """One line on stderr; under --json also the error document (as the HTTP API's) on stdout, so a
    script reading stdout gets JSON whatever happened."""
    print(f"error: {message}", file=sys.stderr)
    if "--json" in sys.argv[1:]:
        sys.stdout.write(json.dumps({"error": code, "message": message}, ensure_ascii=False) + "\n")
    sys.exit(exit_code)
