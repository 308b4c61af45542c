"""What the command groups share: settings from flags, a stderr console, JSON output."""

from __future__ import annotations

import json
import sys
import threading
from contextlib import contextmanager, nullcontext

from rich.console import Console

from pincite.progress import Progress, describe, throttled
from pincite.settings import Settings, load_settings

err = Console(stderr=True)
# Piped output is not cut to 80 columns: tables stay readable in files and CI logs.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)


def settings() -> Settings:
    return load_settings()


QUIET_SECONDS = 1.0  # plain progress lines are held back this long: quick work prints none


@contextmanager
def progress(message: str, pincite=None):
    """A spinner on stderr for long work; stdout stays clean for --json. Given the service, the
    stages of any build its calls make meanwhile (fetch, parse, check, embed N/M, write): on a
    bar on a terminal, else as plain lines (`pincite: gdpr/en: embed 256/587`)."""
    if not err.is_terminal:
        lines = _Lines()
        try:
            with _reporting(pincite, throttled(lines)):
                yield
        finally:
            lines.close()
        return
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[stage]}"),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task(message, total=None, stage="")

        def show(stage: str, done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total, stage=describe(stage, done, total))

        with _reporting(pincite, show):
            yield


class _Lines:
    """Stage lines on stderr, for a log or a script. Held for the first QUIET_SECONDS: work done,
    or failed, by then prints none (a quick failure stays one `error:` line); slower work prints
    them when the time is up (a timer: a long stage after quick ones is not silent), then each as it comes."""

    def __init__(self) -> None:
        self.held: list[str] | None = []
        self.lock = threading.Lock()
        self.timer = threading.Timer(QUIET_SECONDS, self.release)
        self.timer.daemon = True

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        line = f"pincite: {describe(stage, done, total)}\n"
        with self.lock:
            if self.held is None:
                sys.stderr.write(line)
                sys.stderr.flush()
                return
            self.held.append(line)
            if not self.timer.is_alive():
                self.timer.start()

    def release(self) -> None:
        with self.lock:
            if self.held:
                sys.stderr.write("".join(self.held))
                sys.stderr.flush()
            self.held = None

    def close(self) -> None:
        self.timer.cancel()


def _reporting(pincite, progress: Progress):
    return pincite.reporting(progress) if pincite is not None else nullcontext()


@contextmanager
def batch_progress(pincite=None):
    """One progress bar on stderr for a batch, with the stage of the act being built (given the
    service); yields `advance(label, done, total)`. Nothing is drawn when stderr is not a
    terminal: the batch prints a line per act on stdout, and logs stay clean."""
    if not err.is_terminal:
        yield lambda label, done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[stage]}"),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task("Adding acts", total=None, stage="")
        with _reporting(pincite, throttled(lambda stage, done, total: bar.update(
                task, stage=describe(stage, done, total)))):
            yield lambda label, done, total: bar.update(task, completed=done, total=total,
                                                        description=f"Adding acts (last: {label})")


def print_json(document) -> None:
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def service():
    """The service a command calls (imported here: the service pulls in numpy and the stages,
    which `pincite --help` does not need)."""
    from pincite.service import Pincite  # heavy (numpy, every stage): only commands that need it

    return Pincite(settings())
