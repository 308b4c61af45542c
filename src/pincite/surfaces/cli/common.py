"""What the command groups share: settings from flags, a stderr console, JSON output."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from rich.console import Console

from pincite.settings import Settings, load_settings

err = Console(stderr=True)
# Piped output is not cut to 80 columns: tables stay readable in files and CI logs.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)


def settings() -> Settings:
    return load_settings()


@contextmanager
def progress(message: str):
    """A spinner on stderr for long work; stdout stays clean for --json."""
    if err.is_terminal:
        with err.status(message):
            yield
    else:
        yield


@contextmanager
def batch_progress():
    """One progress bar on stderr for a batch; yields `advance(label, done, total)`. Nothing is
    drawn when stderr is not a terminal (logs stay clean)."""
    if not err.is_terminal:
        yield lambda label, done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("Adding acts", total=None)
        yield lambda label, done, total: bar.update(task, completed=done, total=total,
                                                    description=f"Adding acts (last: {label})")


def print_json(document) -> None:
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def service():
    """The service a command calls (imported here: the service pulls in numpy and the stages,
    which `pincite --help` does not need)."""
    from pincite.service import Pincite  # heavy (numpy, every stage): only commands that need it

    return Pincite(settings())
