"""Server-sent events for POST /ask: the answer as a stream of events."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator

from pincite.errors import PinciteError, error_code
from pincite.progress import stage_name, throttled
from pincite.surfaces import schemas

log = logging.getLogger("pincite.http")
KEEPALIVE_SECONDS = 10.0  # an SSE comment while the answer is being built (a first use builds an index)


def answer_events(document: dict) -> list[tuple[str, dict]]:
    """The answer as a sequence of events: it is verified whole before any of it is sent, so a
    stream never shows a sentence that a check would then withdraw."""
    if document["outcome"] == "answered":
        events = [("heading", {"text": document["heading"]})] if document.get("heading") else []
        events += [("sentence", {"index": i, **s}) for i, s in enumerate(document["sentences"])]
        events += [("citation", c) for c in document["citations"]]
    else:
        events = [("refusal", {"reason": document["reason"], "answer": document["answer"],
                               "covers": document.get("covers"), "see": document.get("see", [])})]
    return [*events, ("done", document)]


def sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def answer_stream(run, body: schemas.AskRequest, redact=lambda message: message) -> AsyncIterator[str]:
    """`run(progress)` answers in a worker thread; the stages of any build it makes first are sent
    as `progress` events as they happen (`{"stage": "embed", "done": 256, "total": 587}`: the
    stage without the corpus, which the client named), then the answer."""
    yield sse("start", {"question": body.question, "corpus": body.corpus, "lang": body.lang, "thread": body.thread})
    loop = asyncio.get_running_loop()
    stages: asyncio.Queue[dict] = asyncio.Queue()

    def report(stage: str, done: int, total: int | None) -> None:  # in the worker thread
        loop.call_soon_threadsafe(stages.put_nowait, {"stage": stage_name(stage), "done": done, "total": total})

    job = asyncio.ensure_future(run(throttled(report)))
    async for event in _progress_until(job, stages):
        yield event
    try:
        document = job.result()
    except PinciteError as exc:
        yield sse("error", {"error": error_code(exc), "message": redact(str(exc))})
        return
    except Exception:
        log.exception("answer failed")
        yield sse("error", {"error": "internal_error", "message": "the server failed unexpectedly"})
        return
    for event, data in answer_events(document):
        yield sse(event, data)


async def _progress_until(job: asyncio.Future, stages: asyncio.Queue) -> AsyncIterator[str]:
    """`progress` events while `job` runs (an SSE comment every KEEPALIVE_SECONDS without one),
    then those reported before it ended."""
    getter = None
    try:
        while not job.done():
            getter = getter or asyncio.ensure_future(stages.get())
            finished, _ = await asyncio.wait({job, getter}, timeout=KEEPALIVE_SECONDS,
                                             return_when=asyncio.FIRST_COMPLETED)
            if getter in finished:
                yield sse("progress", getter.result())
                getter = None
            elif not finished:
                yield ": still working\n\n"
    finally:  # the job ended, or the client went away
        if getter is not None:
            getter.cancel()  # a reported stage it had not taken yet stays in the queue
    while not stages.empty():
        yield sse("progress", stages.get_nowait())
