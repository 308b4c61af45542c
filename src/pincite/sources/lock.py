"""The data directory's lock: one writer at a time (fetching into the cache, building a corpus,
registering an act, building an index), across processes and threads.

An advisory `fcntl.flock` on `<home>/.lock`: the kernel drops it when its holder dies, even by
`kill -9`, so a crashed build never leaves a stale lock behind. Re-entrant within a process
(adding an act builds its corpus, then its index, each of which takes the lock).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pincite.errors import LockedError

try:
    import fcntl
except ImportError:  # Windows: no flock; the unique temporary names still keep files whole
    fcntl = None  # type: ignore[assignment]  # mypy sees the POSIX module; None marks its absence

POLL = 0.05  # seconds between attempts while another process holds the lock


class _Held:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_held: dict[str, _Held] = {}
_registry = threading.Lock()


@contextmanager
def data_lock(home: Path, timeout: float) -> Iterator[None]:
    """Hold the data directory's lock; wait up to `timeout` seconds for another holder."""
    key = str(Path(home).resolve())
    with _registry:
        held = _held.setdefault(key, _Held())
    deadline = time.monotonic() + timeout
    if not held.lock.acquire(timeout=max(timeout, 0.001)):
        raise _locked(timeout)
    try:
        if held.depth == 0:
            held.fd = _take(Path(key), deadline, timeout)
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
            if held.depth == 0 and held.fd is not None:
                os.close(held.fd)  # closing the descriptor releases the flock
                held.fd = None
    finally:
        held.lock.release()


def _take(home: Path, deadline: float, timeout: float) -> int | None:
    if fcntl is None:
        return None
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(home / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise _locked(timeout) from None
            time.sleep(POLL)


def _locked(timeout: float) -> LockedError:
    return LockedError(f"another pincite process holds the lock on the data directory (it is fetching, "
                       f"building or indexing) and did not finish within {timeout:g} s — wait for it to "
                       f"finish and run this again, or raise PINCITE_LOCK_TIMEOUT")
