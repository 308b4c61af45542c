"""The one way the benchmarks start a server: `pincite serve --port 0` as its own process (rate
limit and question cap off, unless `env` says otherwise), yielding the URL it prints on stderr.
Used by load.py and robustness_api.py."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from contextlib import contextmanager

LIMITS_OFF = {"PINCITE_RATE_LIMIT_PER_MINUTE": "0", "PINCITE_SESSION_QUESTION_CAP": "0"}


@contextmanager
def live_server(env: dict, *args: str, wait: float = 15):
    """`pincite serve --port 0 ARGS` with `env` (limits off, no model); yields its base URL."""
    env = {k: v for k, v in {**env, **LIMITS_OFF}.items() if k != "PINCITE_LLM"}
    command = [sys.executable, "-m", "pincite", "serve", "--port", "0", *args]
    with subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as process:
        try:
            line = process.stderr.readline()
            match = re.search(r"(http://\S+?)/ ", line)
            if not match:
                raise SystemExit(f"error: pincite serve did not start ({line.strip()} {process.stderr.read()}) — "
                                 f"run it by hand to see why")
            threading.Thread(target=process.stderr.read, daemon=True).start()  # keeps its stderr from filling
            yield match[1]
        finally:
            process.terminate()
            process.wait(wait)
