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


def copy_home(source: Path, target: Path) -> None:
    """A copy of a data directory that may be open: SQLite files through SQLite's backup API. A
    plain read of a database file that this process has open would, on closing, drop the POSIX
    locks of this process's own connections to it (SQLite's documented pitfall), and a writer in
    another process could then corrupt it."""
    import sqlite3  # noqa: PLC0415 - only the copy needs it

    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".lock", "logs", "*.tmp", "*.sqlite*"))
    for db in Path(source).glob("*.sqlite"):
        with sqlite3.connect(db) as src, sqlite3.connect(Path(target) / db.name) as dst:
            src.backup(dst)
        src.close()
        dst.close()


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
        full_disk_runs(settings, Row, work),
    ]


# -- a full disk ---------------------------------------------------------------------------------

FULL_DISK_COMMANDS = (
    ("index", ["index", "gdpr", "--rebuild"]),
    ("corpus add", ["corpus", "add", DORA, "--lang", "da", "--refresh", "--no-index"]),
    ("ask", ["ask", "How quickly must a breach be notified?", "--corpus", "gdpr"]),
)


def small_disk(where: Path, size: int) -> Path | None:
    """A tmpfs of `size` bytes mounted at `where` (root only), or None when it cannot be mounted."""
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    return where if done.returncode == 0 else None


def fill(disk: Path, free: int) -> Path:
    """A ballast file that leaves about `free` bytes free on `disk`."""
    ballast = disk / "ballast"
    stat = os.statvfs(disk)
    left = max(stat.f_bavail * stat.f_frsize - free, 0)
    chunk = b"\0" * (1 << 20)
    with ballast.open("wb") as out:
        while left > 0:
            try:
                left -= out.write(chunk[:left])
            except OSError:  # the disk is full: that is the point
                break
    return ballast


def leftovers(home: Path) -> list[str]:
    """Temporary files a failed write left behind (a half-written file under its own name)."""
    return [str(p.relative_to(home)) for p in home.rglob("*") if p.name.endswith((".tmp", ".part"))]


def full_disk_runs(settings, Row, work: Path, fills=(0, 4096, 65536, 1 << 20, 4 << 20)):
    """Each command on a disk left with a few bytes, 4 kB … 4 MB free: it succeeds or ends with the
    one-line error, leaves no temporary file, and the index and corpus still answer, disk still full;
    with the space back, every command completes."""
    row = Row("a full disk (tmpfs, 0 B – 4 MB free)")
    started = time.perf_counter()
    seed = Path(settings.home)
    size = sum(p.stat().st_size for p in seed.rglob("*") if p.is_file()) + (24 << 20)
    disk = small_disk(work / "small-disk", size)
    if disk is None:
        row.notes.append("not run: mounting a small tmpfs needs root (CAP_SYS_ADMIN)")
        return row
    try:
        here = settings.model_copy(update={"home": disk / "home"})
        copy_home(seed, here.home)
        for free in fills:
            for what, command in FULL_DISK_COMMANDS:
                _full_disk_run(row, f"{what} with {free} B free", here, command, fill(disk, free))
        for what, command in FULL_DISK_COMMANDS:
            code, _, err = finish(pincite(here, *command))
            if code != 0:
                row.crashes += 1
                row.notes.append(f"{what} with the space back failed: {err.strip().splitlines()[-1:]}")
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)
    row.seconds = time.perf_counter() - started
    return row


def _full_disk_run(row, name: str, settings, command: list[str], ballast: Path) -> None:
    """One run on the full disk. While it is full, reading may refuse (SQLite must write its journal
    to open the index) but only with the one-line error; once the space is back, the index and the
    corpus answer as before: nothing was half-written."""
    code, _, err = finish(pincite(settings, *command))
    row.inputs += 1
    if not _one_line_error(code, err):
        row.crashes += 1
        row.notes.append(f"{name}: exit {code}: {(err.strip().splitlines() or [''])[-1][:200]}")
    elif code != 0 and "could not write " not in err:
        row.crashes += 1  # a full disk named as something else sends the user the wrong way
        row.notes.append(f"{name}: the message does not name the file: {err.strip()[-200:]}")
    elif code != 0:
        row.refused += 1
    left = leftovers(Path(settings.home))
    code, _, err = finish(pincite(settings, "search", "breach notification", "--corpus", "gdpr"))
    if not _one_line_error(code, err):
        row.crashes += 1
        row.notes.append(f"search on the full disk after {name}: {err.strip()[-200:]}")
    ballast.unlink()
    broken = answers(settings)
    if left or broken:
        row.written += 1
        row.notes.append(f"{name}: {broken or 'left ' + ', '.join(left)}")


def _one_line_error(code: int, err: str) -> bool:
    """Success, or the CLI's ending: last line `error: what — how to fix it`, no traceback."""
    last = (err.strip().splitlines() or [""])[-1]
    return "Traceback" not in err and (code == 0 or (last.startswith("error: ") and " — " in last))
