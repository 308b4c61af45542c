"""Text from documents a user uploaded is untrusted: sentences in it that address an AI or give
instructions about answering are not law, whatever the page says. They are cut before the text
reaches a model's prompt and before a sentence is checked against it, so an injected "note for
AI assistants" can neither steer the model nor lend its claim support."""

from __future__ import annotations

import re
from dataclasses import replace

from pincite.provisions import Provision
from pincite.verify.check import Cited

UPLOADED_KINDS = ("page", "rule")  # provisions cut from a PDF a user uploaded, not from a publisher

_INSTRUCTION = re.compile(
    r"\b(?:AI|assistants?|chatbots?|language\s+models?|LLMs?|GPT|Claude|the\s+model|system\s+prompt)\b"
    r"|\b(?:ignore|disregard|forget|override)\b[^.]{0,60}\b(?:instructions?|rules?|prompt|above|previous)"
    r"|\b(?:answer|respond|reply|say|tell\s+(?:the\s+)?users?)\s+(?:that|with|only)\b"
    r"|\bnew\s+instructions?\b|\binstructions?\s+(?:to|for)\b", re.IGNORECASE)
# A sentence, or a line that ends without a full stop (a point of a list): every piece of the
# text is one of these, so what is kept reads as the text read.
_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+|\n|$)")


def uploaded(p: Provision) -> bool:
    return p.kind in UPLOADED_KINDS or not p.celex


def without_instructions(text: str) -> str:
    """The text less every sentence that addresses an AI or tells it how to answer."""
    return "".join(piece for piece in _SENTENCE.findall(text) if not _INSTRUCTION.search(piece)).strip()


def as_data(p: Provision) -> Provision:
    """A provision as it may be shown to a model and checked against: an uploaded one without
    its instruction-like sentences (and title), a published one as it is."""
    if not uploaded(p):
        return p
    title = "" if _INSTRUCTION.search(p.title or "") else p.title
    return replace(p, text=without_instructions(p.text), title=title)


def cited_as_data(cited: Cited | None) -> Cited | None:
    """A looked-up citation as it may be checked against: `pincite verify` on an uploaded corpus
    gives an injected note no more support than an answer does."""
    if cited is None or not uploaded(cited.provision):
        return cited
    return Cited(cited.label, as_data(cited.provision), without_instructions(cited.text))
