"""Server-sent events for POST /ask: the answer as a stream of events."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator

from pincite.errors import PinciteError, error_code
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
    yield sse("start", {"question": body.question, "corpus": body.corpus, "lang": body.lang, "thread": body.thread})
    job = asyncio.ensure_future(run())
    while True:
        try:
            document = await asyncio.wait_for(asyncio.shield(job), KEEPALIVE_SECONDS)
            break
        except TimeoutError:
            yield ": still working\n\n"
        except PinciteError as exc:
            yield sse("error", {"error": error_code(exc), "message": redact(str(exc))})
            return
        except Exception:
            log.exception("answer failed")
            yield sse("error", {"error": "internal_error", "message": "the server failed unexpectedly"})
            return
    for event, data in answer_events(document):
        yield sse(event, data)
