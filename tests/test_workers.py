"""Several server processes on one database: the rate limit and the question cap hold across
them (kept in the database, not in one process's memory), on SQLite (the history file) and on
PostgreSQL; the MCP server's HTTP transport draws on the same per-client limit. Real servers:
`pincite serve` and `pincite mcp` as subprocesses on loopback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from contextlib import ExitStack, contextmanager
from pathlib import Path

import anyio
import httpx
import pytest

from pincite.index.store import state
from pincite.service import Pincite
from pincite.settings import load_settings
from pincite.testing import HashEmbedder
from tests.conftest import CORPORA

# The CLI with the hash embedder registered through the embedder seam: the servers under test
# need an index, and what they are tested for is not embedding.
CLI = ("import sys; from pincite.index.embed import register_embedder; from pincite.testing import HashEmbedder; "
       "register_embedder('hash', lambda settings: HashEmbedder()); from pincite.surfaces.cli import main; "
       "sys.argv[0] = 'pincite'; main()")
LUXEMBOURG = "Which data protection authority in Luxembourg handles complaints?"


@pytest.fixture(params=["sqlite", "postgres"])
def shared(request, tmp_path, corpora):
    """The environment of servers that share one data directory and, for postgres, one database;
    GDPR indexed there with the hash embedder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    env.update(PINCITE_HOME=str(tmp_path / "home"), PINCITE_MIRROR=str(CORPORA), PINCITE_EMBEDDER="hash",
               PINCITE_RATE_LIMIT_PER_MINUTE="4", PINCITE_SESSION_QUESTION_CAP="2", PINCITE_ACCESS_LOG="false")
    if request.param == "postgres":
        env["PINCITE_DATABASE_URL"] = request.getfixturevalue("postgres_url")
    settings = load_settings(home=tmp_path / "home", mirror=CORPORA,
                             database_url=env.get("PINCITE_DATABASE_URL"))
    with Pincite(settings, embedder=HashEmbedder()) as pincite:
        pincite.index("gdpr", "en")
    state.close_all()
    return env


@contextmanager
def server(env: dict, *args: str):
    """`pincite ARGS --port 0` as a subprocess; yields the base URL it prints on stderr."""
    command = [sys.executable, "-c", CLI, *args, "--port", "0"]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        try:
            line = process.stderr.readline()
            match = re.search(r"(http://[0-9.:]+)", line)
            if not match:
                raise RuntimeError(f"the server did not say where it listens: {line!r} {process.stderr.read()}")
            threading.Thread(target=process.stderr.read, daemon=True).start()  # keeps its stderr from filling
            yield match[1]
        finally:
            process.terminate()
            process.wait(20)


def test_two_server_processes_share_one_rate_limit(shared):
    with ExitStack() as stack:
        urls = [stack.enter_context(server(shared, "serve")) for _ in range(2)]
        statuses = [httpx.get(f"{urls[i % 2]}/corpora", timeout=60).status_code for i in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]


def test_two_server_processes_share_one_question_cap(shared):
    with ExitStack() as stack:
        urls = [stack.enter_context(server(shared, "serve")) for _ in range(2)]
        asked = [httpx.post(f"{urls[i % 2]}/ask", json={"question": LUXEMBOURG}, timeout=120) for i in range(3)]
    assert [r.status_code for r in asked] == [200, 200, 429]
    assert asked[2].json()["error"] == "question_cap"


def test_the_mcp_http_transport_counts_against_the_same_limit(shared):
    with server(shared, "serve") as api, server(shared, "mcp", "--transport", "http") as mcp:
        first = [httpx.get(f"{api}/corpora", timeout=60).status_code for _ in range(3)]
        over_mcp = [httpx.post(f"{mcp}/mcp", json={}, timeout=60) for _ in range(2)]
    assert first == [200, 200, 200]
    assert over_mcp[0].status_code != 429  # the fourth request of the minute: allowed (and a bad MCP message)
    assert (over_mcp[1].status_code, over_mcp[1].json()["error"]) == (429, "rate_limited")


# -- every surface on PostgreSQL, the HTTP API served by two worker processes ---------------------

SEARCH = {"query": "right to erasure of personal data", "corpus": "gdpr", "k": 3}
ASK = {"question": "What must a notification of a personal data breach to the supervisory authority describe?",
       "corpus": "gdpr"}


def steady(document: dict) -> dict:
    """An answer without what differs between two asks: its new thread id and its latency."""
    return {**document, "thread": None, "run": {**document["run"], "latency_ms": None}}


def workers_of(pid: int) -> int:
    """How many processes `pid` has forked (from /proc)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        count += fields[1] == str(pid)
    return count


@contextmanager
def workers_server(env: dict, workers: int):
    command = [sys.executable, "-c", CLI, "serve", "--port", "0", "--workers", str(workers)]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        try:
            line = process.stderr.readline()
            match = re.search(r"(http://[0-9.:]+)", line)
            assert match, f"{line!r} {process.stderr.read()}"
            threading.Thread(target=process.stderr.read, daemon=True).start()
            yield match[1], process
        finally:
            process.terminate()
            process.wait(30)


@pytest.fixture
def on_postgres(tmp_path, corpora, postgres_url):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    env.update(PINCITE_HOME=str(tmp_path / "home"), PINCITE_MIRROR=str(CORPORA), PINCITE_EMBEDDER="hash",
               PINCITE_DATABASE_URL=postgres_url, PINCITE_RATE_LIMIT_PER_MINUTE="0",
               PINCITE_SESSION_QUESTION_CAP="0")
    # The same embedder name as the subprocesses: what was tuned (fusion, floor, ranker) follows it.
    settings = load_settings(home=tmp_path / "home", mirror=CORPORA, database_url=postgres_url, embedder="hash")
    with Pincite(settings, embedder=HashEmbedder()) as pincite:
        pincite.index("gdpr", "en")
        expected = [pincite.search_document(SEARCH["query"], corpus="gdpr", k=3), steady(pincite.ask(**ASK))]
    state.close_all()
    return env, expected


def test_cli_http_with_two_workers_and_mcp_agree_on_postgres(on_postgres):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env, expected = on_postgres

    def cli(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-c", CLI, *args, "--json"], capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    async def mcp() -> list[dict]:
        server = StdioServerParameters(command=sys.executable, args=["-c", CLI, "mcp"], env=env)
        async with Client(server, read_timeout_seconds=300) as client:
            search = await client.call_tool("search", SEARCH)
            ask = await client.call_tool("ask", ASK)
            return [search.structured_content, steady(ask.structured_content)]

    with workers_server(env, 2) as (url, process), httpx.Client(base_url=url, timeout=300) as client:
        params = {"q": SEARCH["query"], "corpus": SEARCH["corpus"], "k": SEARCH["k"]}
        searches = [client.get("/search", params=params).json() for _ in range(4)]
        http = [searches[0], steady(client.post("/ask", json=ASK).json())]
        forked = workers_of(process.pid)
    assert forked == 2
    assert all(s == searches[0] for s in searches)
    assert cli("search", SEARCH["query"], "--corpus", "gdpr", "-k", "3") == expected[0]
    assert steady(cli("ask", ASK["question"], "--corpus", "gdpr")) == expected[1]
    assert http == expected
    assert anyio.run(mcp) == expected


def test_workers_starting_together_agree_on_one_salt(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from pincite.surfaces.http.guard import server_salt

    settings = load_settings(home=tmp_path / "home")
    with ThreadPoolExecutor(8) as pool:
        salts = set(pool.map(lambda _: server_salt(settings), range(32)))
    assert len(salts) == 1 and [p.name for p in (tmp_path / "home").iterdir()] == ["server-salt"]
