"""A retrieved provision and how it scored."""

from __future__ import annotations

from dataclasses import dataclass, field

from pincite.provisions import Provision

ASKED_WHY = "matches a question written for it"  # a candidate added for its written questions (retrieve.search)


@dataclass
class Hit:
    provision: Provision
    score: float
    dense: float | None = None
    bm25: float | None = None
    exact: bool = False
    why: list[str] = field(default_factory=list)
    via: str = ""  # the label of the hit whose reference led here (retrieve.follow), if any
    via_words: str = ""  # the referencing words of that reference
    via_hop: str = ""  # what the question asked for that the reference led to (Query.hops: penalty, annex, …)
    asked: float | None = None  # its best written question's similarity to the question (retrieve.questions)
    asked_question: str = ""  # that written question
    asked_words: frozenset[str] = frozenset()  # the analysed words of all its written questions
