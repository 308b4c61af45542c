"""`pincite config`: the effective settings and where each came from."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from pincite.settings import config_file, settings_sources
from pincite.surfaces.cli.common import out, print_json


def config(as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False) -> None:
    """The effective settings and where each came from (default, file, environment, flag); secrets masked.
    Every surface (CLI, HTTP API, MCP server) reads the same: the config file, then PINCITE_* variables."""
    rows = settings_sources()
    if as_json:
        print_json({"config_file": str(config_file()), "settings": rows})
        return
    file = config_file()
    out.print(f"config file: {file}" + ("" if file.is_file() else " (none)"))
    table = Table("setting", "value", "source")
    for row in rows:
        value = row["value"]
        table.add_row(row["env"], "" if value is None else str(value), row["source"])
    out.print(table)
