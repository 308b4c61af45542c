"""`pincite serve` (HTTP API and web page) and `pincite mcp` (MCP server). Server libraries are
imported only when a server starts, so the rest of the CLI stays fast."""

from __future__ import annotations

import logging
import sys
from types import ModuleType
from typing import Annotated

import typer

from pincite.errors import ConfigError
from pincite.surfaces.cli.common import settings
from pincite.surfaces.http.keys import check_exposure

Host = Annotated[str, typer.Option(help="Address to listen on (127.0.0.1: this machine only).")]
Insecure = Annotated[bool, typer.Option("--insecure-no-auth", help="Serve a non-loopback address without "
                                        "API keys (refused by default: set PINCITE_API_KEYS instead).")]


def _server_imports(what: str) -> ModuleType:
    try:
        if what == "http":
            from pincite.surfaces.http import app  # FastAPI: only when a server starts

            return app
        from pincite.surfaces import mcp  # the mcp SDK: only when a server starts

        return mcp
    except ImportError as exc:
        raise ConfigError(f"the server needs {exc.name}, which is not installed — "
                          f"run: pip install 'pincite[serve]'") from exc


def _log_to_stderr() -> None:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")


def serve(
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free port, printed).")] = 8000,
    insecure_no_auth: Insecure = False,
    workers: Annotated[int, typer.Option(min=1, max=64, help="Server processes sharing the port and the database "
                                                             "(rate limits and question caps hold across them).")] = 1,
) -> None:
    """Serve the HTTP API (OpenAPI at /openapi.json) and the chat page at http://HOST:PORT/."""
    config = settings()
    check_exposure(host, config, insecure_no_auth)
    http = _server_imports("http")
    _log_to_stderr()
    code = http.serve(config, host, port, workers)
    if code:
        raise typer.Exit(code)


def mcp(
    transport: Annotated[str, typer.Option(help="stdio, or http (streamable HTTP on /mcp).")] = "stdio",
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port of the http transport (0: any free port).")] = 8001,
    insecure_no_auth: Insecure = False,
) -> None:
    """Run the MCP server: read-only tools search, get_provision, article_outline, get_references, list_corpora,
    ask, verify_citations. It reads <home>/config.toml and PINCITE_* variables; an MCP client passes a stdio server
    only a few variables (PATH, HOME), so put settings in the config file or the client's `env` (pincite config)."""
    if transport not in ("stdio", "http"):
        raise ConfigError(f"unknown transport {transport!r} — use stdio or http")
    config = settings()
    if transport == "http":
        check_exposure(host, config, insecure_no_auth)
    server = _server_imports("mcp")
    # On stdio, stdout belongs to the protocol: every log line goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if transport == "stdio":
        server.run_stdio(config)
    else:
        server.run_http(config, host, port)
