"""Faults for the robustness benchmark: `kill -9` of `pincite index` and `pincite corpus add` at
random moments, and two adds of one act at once. After each kill the previous index and corpus
must still load and answer; at the end the same command, left alone, must complete."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

DORA = "32022R2554"
CORPORA = Path(os.environ.get("PINCITE_MIRROR") or Path(__file__).resolve().parents[2] / "shared" / "corpora")


def env_for(settings, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCITE_")}
    env.update(PINCITE_HOME=str(settings.home), PINCITE_MIRROR=str(settings.mirror),
               PINCITE_EMBED_MODEL_PATH=str(settings.embed_model_path), **extra)
    return env


def pincite(settings, *args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pincite", *args], env=env_for(settings, **env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(process: subprocess.Popen, timeout: float = 600) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def with_dora(settings):
    """The settings over a mirror that also holds DORA (Danish) under its CELEX, for `corpus add`."""
    mirror = Path(settings.home).parent / "fault-mirror"
    if not mirror.exists():
        shutil.copytree(CORPORA / "gdpr", mirror / "gdpr")
        (mirror / DORA).mkdir(parents=True)
        shutil.copy(CORPORA / "eurlex-extra" / "da" / "32022R2554.dora.da.html", mirror / DORA / "da.html")
    return settings.model_copy(update={"mirror": mirror})


def answers(settings) -> str | None:
    """None when the GDPR index and the DORA corpus load and answer, else what failed."""
    from pincite.service import Pincite

    try:
        with Pincite(settings.model_copy(update={"ask_log": False}), llm=None) as service:
            hits = service.search_document("breach notification", corpus="gdpr", k=3)["hits"]
            answer = service.ask("How quickly must a breach be notified?", corpus="gdpr")
            dora = service.provisions_document("dora", "Article 1", "da")["provisions"]
    except Exception as exc:  # any failure to load or answer is what the row counts
        return f"{type(exc).__name__}: {exc}"
    if not hits or answer["outcome"] != "answered" or not dora:
        return f"hits {len(hits)}, outcome {answer['outcome']}, dora {len(dora)}"
    return None


def kill_runs(what: str, command: list[str], kills: int, settings, rng: random.Random, Row):
    """`kills` runs of `command`, each killed with SIGKILL at a random moment of a normal run."""
    row = Row(what)
    started = time.perf_counter()
    code, _, err = finish(pincite(settings, *command))
    span = time.perf_counter() - started
    if code != 0:
        row.crashes += 1
        row.notes.append(f"the undisturbed run failed: {err.strip().splitlines()[-1:]}")
    for _ in range(kills):
        process = pincite(settings, *command)
        time.sleep(rng.uniform(0.2, span))
        process.send_signal(signal.SIGKILL)
        process.communicate()
        row.inputs += 1
        broken = answers(settings)
        if broken:
            row.written += 1  # a half-written state: the previous index or corpus no longer answers
            row.notes.append(f"after kill -9: {broken}")
    code, _, err = finish(pincite(settings, *command))
    if code != 0:
        row.crashes += 1
        row.notes.append(f"the run after the kills failed: {err.strip().splitlines()[-1:]}")
    row.seconds = time.perf_counter() - started
    return row


def concurrent_adds(settings, Row, runs: int = 3):
    """Two `corpus add` of one act at once, `runs` times: both finish, or one names the lock."""
    row = Row("two `corpus add` of one act at once")
    started = time.perf_counter()
    for n in range(runs):
        fresh = settings.model_copy(update={"home": Path(settings.home).parent / f"adds-{n}"})
        pair = [pincite(fresh, "corpus", "add", DORA, "--lang", "da", "--name", "dora", "--no-index")
                for _ in range(2)]
        for code, _, err in (finish(p) for p in pair):
            row.inputs += 1
            last = (err.strip().splitlines() or [""])[-1]
            if "Traceback" in err or (code != 0 and "lock" not in last):
                row.crashes += 1
                row.notes.append(f"exit {code}: {last}")
    row.seconds = time.perf_counter() - started
    return row


def fault_rows(kills: int, work: Path, settings, Row, seed: int = 9) -> list:
    rng = random.Random(seed)
    settings = with_dora(settings)
    code, _, err = finish(pincite(settings, "corpus", "add", DORA, "--lang", "da", "--name", "dora", "--no-index"))
    if code != 0:
        raise SystemExit(f"error: could not add DORA for the fault runs ({err.strip()[-200:]}) — check PINCITE_MIRROR")
    return [
        kill_runs("kill -9 of `pincite index --rebuild`", ["index", "gdpr", "--rebuild"], kills, settings, rng, Row),
        kill_runs("kill -9 of `pincite corpus add --refresh`",
                  ["corpus", "add", DORA, "--lang", "da", "--refresh", "--no-index"], kills, settings, rng, Row),
        concurrent_adds(settings, Row),
    ]
