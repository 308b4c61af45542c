"""Progress of long work: one callback, passed down from a surface to the stage doing the work.

    Progress = Callable[[str, int, int | None], None]     # (stage, done, total or None)

A build reports each stage as it starts — `gdpr/en: fetch`, `parse`, `check` (of N provisions),
`write`, `embed` (0/M, then as batches finish, up to M/M), `write` (the index's units) — and a
surface shows them: a bar on a terminal, plain lines in a log, SSE `progress` events, MCP progress
notifications. `throttled` keeps a stream short: each stage once, a counted stage every ~10 %.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, int | None], None]
STEPS = 10  # a counted stage is passed on about this many times (every ~10 %)


def report(progress: Progress | None, key: str, stage: str, done: int = 0, total: int | None = None) -> None:
    """Tell `progress` (when there is one) that the work on `key` (`gdpr/en`) is at `stage`."""
    if progress is not None:
        progress(f"{key}: {stage}", done, total)


def stage_name(stage: str) -> str:
    """The stage without the corpus it works on: `gdpr/en: embed` → `embed` (for a surface that
    names the corpus itself, as the page does)."""
    return stage.rpartition(": ")[2]


def describe(stage: str, done: int, total: int | None) -> str:
    """One report as text: `gdpr/en: embed 256/587`, `gdpr/en: parse`."""
    if total is not None:
        return f"{stage} {done}/{total}"
    return f"{stage} {done}" if done else stage


def throttled(progress: Progress) -> Progress:
    """`progress` told of a stage's first report and then of about every tenth of its count, the
    last included (an embedding reports every batch)."""
    last: dict = {"stage": None, "step": -1}

    def passed_on(stage: str, done: int, total: int | None) -> None:
        step = done * STEPS // total if total else 0
        if stage == last["stage"] and step <= last["step"]:
            return
        last.update(stage=stage, step=step)
        progress(stage, done, total)

    return passed_on
