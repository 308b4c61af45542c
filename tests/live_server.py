"""Real servers for the surface tests: uvicorn on 127.0.0.1, port 0, in a thread or a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def http_server(settings):
    """`pincite serve`'s app over `settings`, on a free loopback port; yields its base URL."""
    from pincite.surfaces.http.app import bind, create_app, server, url_of

    sock = bind("127.0.0.1", 0)
    srv = server(create_app(settings), sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the HTTP server did not start")
        time.sleep(0.02)
    try:
        yield url_of(sock)
    finally:
        srv.should_exit = True
        thread.join(10)
        sock.close()


def env_for(settings) -> dict:
    """The environment that makes a `pincite` subprocess use `settings`' data (no model configured)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    env.update(PINCITE_HOME=str(settings.home), PINCITE_MIRROR=str(settings.mirror or ""),
               PINCITE_EMBED_MODEL_PATH=str(settings.embed_model_path or ""),
               PINCITE_RATE_LIMIT_PER_MINUTE=str(settings.rate_limit_per_minute),
               PINCITE_SESSION_QUESTION_CAP=str(settings.session_question_cap))
    if settings.database_url is not None:
        env["PINCITE_DATABASE_URL"] = settings.database_url.get_secret_value()
    return {k: v for k, v in env.items() if v}


@contextmanager
def mcp_http_server(settings, **env: str):
    """`pincite mcp --transport http --port 0` as a subprocess (`env`: more variables, e.g.
    PINCITE_API_KEYS); yields the /mcp URL it prints."""
    command = [sys.executable, "-m", "pincite", "mcp", "--transport", "http", "--port", "0"]
    with subprocess.Popen(command, env={**env_for(settings), **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True) as process:
        drain = threading.Thread(target=process.stderr.read, daemon=True)  # keeps its stderr from filling
        try:
            line = process.stderr.readline()
            match = re.search(r"(http://\S+/mcp)", line)
            if not match:
                raise RuntimeError(f"pincite mcp did not say where it listens: {line!r} {process.stderr.read()}")
            drain.start()
            yield match[1]
        finally:
            process.terminate()
            process.wait(10)
            if drain.is_alive():
                drain.join(5)


@contextmanager
def chromium():
    """Debian's headless Chromium driven by Playwright (which cannot download its own browsers here)."""
    import pytest

    if not CHROMIUM.exists():
        pytest.skip(f"needs {CHROMIUM} (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
