"""Load benchmark of the HTTP API on loopback: concurrent clients against /search and /ask.

    python benchmarks/load.py [--clients 20] [--seconds 30] [--endpoints search,ask] [--distinct] [--url URL] [--json]

Starts `pincite serve --port 0` in a subprocess (rate limit and question cap off, extractive
answers: no model) unless --url points at a running server, warms it up (the first request loads
the model and the index, building them if needed), then runs each endpoint in turn: N clients,
each sending its next request as soon as the last one is answered, for S seconds or
--max-requests requests, whichever comes first. Questions come from evals/gdpr-en.jsonl, each
client starting at a different one (--distinct makes every request's question unique, so no cache
helps). Prints throughput, p50/p95/max latency and the error count
per endpoint; asserts nothing (a benchmark, not a test). Needs PINCITE_MIRROR and
PINCITE_EMBED_MODEL_PATH offline; uses PINCITE_HOME as it is.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "evals" / "gdpr-en.jsonl"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


@contextmanager
def server():
    """`pincite serve` on a free loopback port, limits off; yields its URL."""
    env = {**os.environ, "PINCITE_RATE_LIMIT_PER_MINUTE": "0", "PINCITE_SESSION_QUESTION_CAP": "0"}
    env.pop("PINCITE_LLM", None)
    with subprocess.Popen([sys.executable, "-m", "pincite", "serve", "--port", "0"], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        try:
            line = process.stderr.readline()
            match = re.search(r"(http://\S+?)/ ", line)
            if not match:
                raise SystemExit(f"pincite serve did not start: {line}{process.stderr.read()}")
            yield match[1]
        finally:
            process.terminate()
            process.wait(15)


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0, help="per endpoint")
    parser.add_argument("--max-requests", type=int, default=100_000, help="per endpoint")
    parser.add_argument("--endpoints", default="search,ask")
    parser.add_argument("--url", help="a running pincite serve (default: start one)")
    parser.add_argument("--distinct", action="store_true",
                        help="make every request's question unique (measures the uncached path)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    endpoints = [e.strip() for e in args.endpoints.split(",") if e.strip()]
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line]

    def measure(url: str) -> list[dict]:
        warm_up(url, endpoints)
        return [asyncio.run(run_endpoint(url, e, questions, args.clients, args.seconds, args.max_requests,
                                             args.distinct))
                for e in endpoints]

    load_before = os.getloadavg()[0]  # other work on the machine skews every figure below
    if args.url:
        results = measure(args.url)
    else:
        with server() as url:
            results = measure(url)
    report = {"load_average_before": round(load_before, 2), "clients": args.clients,
              "seconds_per_endpoint": args.seconds, "distinct_questions": len(questions),
              "every_request_distinct": args.distinct, "cores": os.cpu_count(), "results": results}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"pincite load: {args.clients} clients × {args.seconds:g} s per endpoint, loopback, extractive answers, "
          f"{'every request a new question' if args.distinct else f'{len(questions)} questions in turn'}, "
          f"{os.cpu_count()} cores, load average {load_before:.2f} before")
    print(f"{'endpoint':<9} {'requests':>8} {'errors':>6} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for r in results:
        print(f"{r['endpoint']:<9} {r['requests']:>8} {r['errors']:>6} {r['throughput_per_s']:>7} "
              f"{r['p50_ms']:>8} {r['p95_ms']:>8} {r['max_ms']:>8}")
        for error in r["first_errors"]:
            print(f"  error: {error}")


if __name__ == "__main__":
    main()
