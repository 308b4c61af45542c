"""The API under attack, for the robustness benchmark: a live `pincite serve` on loopback, probed by
Schemathesis from its /openapi.json and by hostile clients (oversized bodies, slow partial
requests, 200 connections at once, malformed JSON, SSE clients that hang up mid-stream). After each
attack the server must answer /health and a real search.

In these rows `crashes` counts 5xx responses and responses that contradict the schema, `hangs`
a server that did not answer the next request within HANG_LIMIT seconds.
"""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import httpx

from benchmarks import serving
from benchmarks.robustness_faults import env_for

HANG_LIMIT = 10.0


@contextmanager
def live_server(settings):
    """`pincite serve --port 0` over `settings` as its own process (no rate limit, no question cap)."""
    with serving.live_server(env_for(settings)) as url:
        yield url


def answers_next(url: str) -> bool:
    """Whether the server answers /health and a real search within HANG_LIMIT seconds."""
    try:
        with httpx.Client(base_url=url, timeout=HANG_LIMIT) as client:
            return (client.get("/health").status_code == 200
                    and client.get("/search", params={"q": "breach notification"}).status_code == 200)
    except httpx.HTTPError:
        return False


def _finish(row, url: str, started: float):
    if not answers_next(url):
        row.hangs += 1
        row.notes.append("the server did not answer the next request")
    row.seconds = time.perf_counter() - started
    return row


def schemathesis_row(url: str, Row, examples: int):
    row = Row("Schemathesis on /openapi.json")
    started = time.perf_counter()
    command = [str(Path(sys.executable).with_name("schemathesis")), "run", f"{url}/openapi.json", "--checks",
               "not_a_server_error,response_schema_conformance", "-n", str(examples), "--no-color",
               "--seed", "15", "--request-timeout", "120", "--phases", "examples,coverage,fuzzing",
               "--warnings", "off", "--continue-on-failure", "--generation-database", "none"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    output = run.stdout + run.stderr
    generated = re.search(r"(\d+) generated", output)
    row.inputs = int(generated[1]) if generated else 0
    failures = re.findall(r"❌ (\S+ [^:]+): (\d+)", output)
    row.crashes = sum(int(n) for _, n in failures)
    row.notes += [f"{what}: {n}" for what, n in failures]
    row.notes += [m.strip() for m in re.findall(r"\[5\d\d\][^\n]*\n\n[^\n]*", output)][:10]
    if run.returncode not in (0, 1) or not generated:
        row.crashes += 1
        row.notes.append(f"schemathesis exited {run.returncode}: {output.strip()[-300:]}")
    return _finish(row, url, started)


def _count(row, response: httpx.Response | None, what: str) -> None:
    row.inputs += 1
    if response is None:
        return
    if response.status_code >= 500:
        row.crashes += 1
        row.notes.append(f"{what}: {response.status_code} {response.text[:120]}")


def oversized_row(url: str, Row):
    row = Row("oversized bodies")
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=60) as client:
        for size in (20_000, 1_000_000, 30_000_000):
            body = json.dumps({"question": "x" * size}).encode()
            _count(row, client.post("/ask", content=body, headers={"Content-Type": "application/json"}), f"{size} B")
            _count(row, client.post("/ask", content=iter([body[:8192], body[8192:]]),
                                    headers={"Content-Type": "application/json"}), f"{size} B streamed")
        _count(row, client.post("/corpora/pdf", params={"filename": "big.pdf"}, content=b"%PDF-1.4" + b"0" * 30_000_000),
               "30 MB upload")
    for declared in ("99999999999", "-1", "abc"):  # a length no body follows
        with socket.create_connection(_address(url), timeout=5) as sock:
            sock.sendall(f"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {declared}\r\n\r\n{{".encode())
            status = _status_line(sock)
        row.inputs += 1
        if status.startswith(b"HTTP/1.1 5"):
            row.crashes += 1
            row.notes.append(f"Content-Length {declared}: {status[:40]!r}")
    return _finish(row, url, started)


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    return host.strip("[]"), int(port)


def _status_line(sock: socket.socket) -> bytes:
    try:
        return sock.recv(200).split(b"\r\n", 1)[0]
    except (TimeoutError, OSError):
        return b""


def slow_clients_row(url: str, Row, clients: int = 100, seconds: float = 8.0):
    """Clients that send a request a byte at a time: the server keeps answering everyone else."""
    row = Row(f"{clients} slow partial requests")
    started = time.perf_counter()
    socks = []
    for _ in range(clients):
        sock = socket.create_connection(_address(url), timeout=5)
        sock.sendall(b"POST /ask HTTP/1.1\r\nHost: x\r\n")
        socks.append(sock)
    request = b"Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"question\""
    worst = 0.0
    for i in range(int(seconds)):
        for sock in socks:
            try:
                sock.sendall(request[i:i + 1])
            except OSError:
                pass  # the server may close a client this slow: that is allowed
        probe = time.perf_counter()
        alive = answers_next(url)
        worst = max(worst, time.perf_counter() - probe)
        row.inputs += 1
        if not alive:
            row.hangs += 1
            row.notes.append(f"no answer for others after {i + 1} s of slow clients")
        time.sleep(max(0.0, 1 - (time.perf_counter() - probe)))
    for sock in socks:
        sock.close()
    row.notes.append(f"slowest answer to another client meanwhile: {worst * 1000:.0f} ms")
    return _finish(row, url, started)


def concurrent_row(url: str, Row, connections: int = 200):
    row = Row(f"{connections} concurrent connections")
    started = time.perf_counter()

    def one(i: int):
        try:
            with httpx.Client(base_url=url, timeout=120) as client:
                if i % 4 == 0:
                    return client.post("/ask", json={"question": f"How fast must breach {i} be notified?"})
                return client.get("/search", params={"q": f"consent withdrawal {i}"})
        except httpx.HTTPError as exc:
            return exc

    with ThreadPoolExecutor(connections) as pool:
        results = list(pool.map(one, range(connections)))
    for result in results:
        if isinstance(result, Exception):
            row.inputs += 1
            row.crashes += 1
            row.notes.append(f"{type(result).__name__}: {result}")
        else:
            _count(row, result, "concurrent request")
    return _finish(row, url, started)


def malformed_bodies(rng: random.Random, n: int) -> list[bytes]:
    fixed = [b"", b"{", b"null", b"[]", b'"question"', b"{\"question\": NaN}", b'{"question": 1e999}',
             b'{"question": "\\ud800 lone"}', b'{"question": "x", "question": "y"}', b"\xff\xfe{}",
             b"[" * 100_00 + b"]" * 100_00, b'{"a":' * 5000 + b"1" + b"}" * 5000,
             b'{"question": "' + b"\\u0000" * 1000 + b'"}', b'{"question": {"$gt": ""}}']
    valid = json.dumps({"question": "How fast must a breach be notified?", "corpus": "gdpr"}).encode()
    out = list(fixed)
    while len(out) < n:
        data = bytearray(valid)
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        out.append(bytes(data[: rng.randint(1, len(data))]))
    return out


def malformed_row(url: str, Row, n: int = 300, seed: int = 15):
    row = Row("malformed JSON")
    started = time.perf_counter()
    with httpx.Client(base_url=url, timeout=60) as client:
        for body in malformed_bodies(random.Random(seed), n):
            for ctype in ("application/json", "text/plain"):
                _count(row, client.post("/ask", content=body, headers={"Content-Type": ctype}), f"body {body[:40]!r}")
    return _finish(row, url, started)


def sse_disconnect_row(url: str, Row, clients: int = 20):
    row = Row("SSE clients that hang up mid-stream")
    started = time.perf_counter()
    for i in range(clients):
        with httpx.Client(base_url=url, timeout=60) as client, client.stream(
                "POST", "/ask", json={"question": f"What must controllers do about breach {i}?"},
                headers={"Accept": "text/event-stream"}) as response:
            _count(row, response, "SSE")
            for _ in response.iter_raw(16):
                break  # hang up after the first bytes
    return _finish(row, url, started)


def load_row(url: str, Row, endpoint: str, clients: int = 20, seconds: float = 60.0):
    """`clients` keep-alive clients asking /search or /ask (extractive) for `seconds`, through
    benchmarks/load.py's client: every request must succeed (an error counts as a crash)."""
    import asyncio  # noqa: PLC0415 - only this row runs an event loop

    from benchmarks.load import QUESTIONS, run_endpoint  # noqa: PLC0415 - load.py parses its own arguments only in main

    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line]
    row = Row(f"{clients} clients × {seconds:g} s on /{endpoint}")
    started = time.perf_counter()
    result = asyncio.run(run_endpoint(url, endpoint, questions, clients, seconds, 10**9, False))
    row.inputs, row.crashes = result["requests"], result["errors"]
    row.notes.append(f"p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, {result['throughput_per_s']} requests/s")
    row.notes += [f"error: {e}" for e in result["first_errors"]]
    return _finish(row, url, started)


def attack_rows(work: Path, settings, Row, examples: int = 300, load_seconds: float = 60.0) -> list:
    with live_server(settings) as url:
        if not answers_next(url):
            raise SystemExit("error: the server does not answer a search — is the GDPR indexed?")
        return [schemathesis_row(url, Row, examples), oversized_row(url, Row), slow_clients_row(url, Row),
                concurrent_row(url, Row), malformed_row(url, Row), sse_disconnect_row(url, Row),
                load_row(url, Row, "search", seconds=load_seconds), load_row(url, Row, "ask", seconds=load_seconds)]
