"""What the answer stage returns: an answer whose sentences carry citations, or a refusal."""

from __future__ import annotations

from dataclasses import dataclass, field

from pincite.answer.gate import GateResult
from pincite.answer.llm import Usage
from pincite.citations import local_label
from pincite.verify.check import Cited, Sentence


@dataclass
class Answer:
    outcome: str  # "answered" or "refused"
    reason: str | None = None
    detail: str = ""
    sentences: list[Sentence] = field(default_factory=list)
    cited: list[Cited] = field(default_factory=list)
    mode: str = "extractive"
    question: str = ""
    rewritten: str | None = None
    hits: list = field(default_factory=list)
    gate: GateResult | None = None
    usage: Usage | None = None
    lang: str = "en"
    latency_ms: float = 0.0
    evidence: list | None = None  # the provisions citations resolve against, when not the hits (agent)
    agent: dict | None = None  # agent mode: tool calls, budgets, what stopped it (the document's run)
    see: list = field(default_factory=list)  # a refusal's pointers (answer.pointers.Pointer), never quoted
    listed: int = 0  # sentences beyond the first of a quoted list (its points count as one quotation)

    def text(self) -> str:
        """The answer as prose: each sentence followed by its citations in the instrument's style."""
        return " ".join(f"{s.text} [{'; '.join(local_label(c, self.lang) for c in s.citations)}]"
                        for s in self.sentences)


def refused(reason: str | None, detail: str = "", **extra) -> Answer:
    # `reason` is a failed Verdict's or GateResult's: set whenever they fail, which their types cannot say.
    return Answer("refused", reason, detail, **extra)


def distinct(hits: list) -> list:
    """Hits without repeats of a provision, in order."""
    seen, out = set(), []
    for hit in hits:
        if hit.provision.id not in seen:
            seen.add(hit.provision.id)
            out.append(hit)
    return out
