"""`pincite serve --workers N`: N server processes on one listening socket.

One process is bounded by the GIL (a search is CPU-bound Python and numpy); N processes forked
after the socket is bound each accept from it, each with its own service, store and connection
pool, all on one database (PostgreSQL or the SQLite files) — rate limits and question caps are
kept there, so they hold across workers. The parent only supervises: it forwards SIGINT/SIGTERM
to the workers and replaces one that dies (a worker that dies within a second of starting stops
the whole server instead: it would only die again).
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable

from pincite.errors import ConfigError

log = logging.getLogger("pincite.http")
EARLY_DEATH = 1.0  # seconds: a worker that dies sooner is broken, not unlucky


def run_workers(run: Callable[[], None], workers: int) -> int:
    """Fork `workers` processes that each call `run()`; return when all have stopped (the exit code)."""
    if not hasattr(os, "fork"):
        raise ConfigError("--workers needs a system with fork (Linux, macOS) — serve with --workers 1 here")
    children: dict[int, float] = {}
    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            _signal(pid, signal.SIGTERM)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        for _ in range(workers):
            children[_spawn(run)] = time.monotonic()
        return _supervise(run, children, lambda: stopping, stop)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _supervise(run, children: dict[int, float], stopping: Callable[[], bool], stop) -> int:
    code = 0
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        started = children.pop(pid, None)
        if started is None or stopping():
            continue
        if time.monotonic() - started < EARLY_DEATH:
            print("pincite: a worker stopped as it started — stopping the server (see the error above)",
                  file=sys.stderr, flush=True)
            code = 1
            stop(signal.SIGTERM, None)
            continue
        log.warning("worker %s stopped (status %s); starting another", pid, status)
        children[_spawn(run)] = time.monotonic()
    return code


def _spawn(run: Callable[[], None]) -> int:
    pid = os.fork()
    if pid:
        return pid
    # The worker: the parent's signal handlers are not its own (uvicorn installs its own).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    code = 0
    try:
        run()
    except BaseException:  # anything at all: the worker must end here, never return into the parent's code
        traceback.print_exc()
        code = 1
    finally:
        sys.stderr.flush()
        os._exit(code)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
