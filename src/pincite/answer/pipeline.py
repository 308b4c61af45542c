"""The answer pipeline: scored evidence in, a cited answer or a named refusal out.

Evidence and answer are kept apart (after PaperQA2): the pipeline receives a `retrieve`
function and never searches on its own. rewrite (a follow-up, with a model) → analyse →
retrieve → gate → answer → verify. With no evidence, or evidence the relevance gate finds too
weak, it refuses without calling a model. How an answer is written is an `Answerer`, picked
from ANSWERERS by `settings.answer_mode`: extractive (quotations, the default), llm, or agent
(the model reads the law through the service's tools, answer/agent.py); the gate runs first in
every mode.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from pincite.answer.agent import Agent, Budget, Toolbox
from pincite.answer.extractive import extractive
from pincite.answer.gate import Profile, check
from pincite.answer.generate import generate, rewrite
from pincite.answer.llm import LLM, ModelError, Usage, add_usage
from pincite.answer.pointers import cannot_contain, pointers
from pincite.answer.result import Answer, refused
from pincite.errors import ConfigError
from pincite.retrieve.query import Query, refers_back
from pincite.verify.check import MAX_SENTENCES, Cited, resolve
from pincite.verify.claims import verify
from pincite.verify.untrusted import as_data

EVIDENCE_K = 6  # provisions shown to a model, and searched for quotes


class Answerer(Protocol):
    mode: str  # what the answer document's run.mode says

    def rewrite(self, question: str, history: list[dict]) -> tuple[str | None, Usage | None]:
        """A follow-up as a standalone question, or (None, None) to search it as asked."""

    def answer(self, query: Query, hits: list, profile: Profile, *, max_sentences: int) -> Answer:
        """An answer from these hits (verified), or a refusal."""


@dataclass
class Extractive:
    """Quotations of the law's text, each cited; no model."""

    mode: str = "extractive"

    def rewrite(self, question: str, history: list[dict]) -> tuple[str | None, Usage | None]:
        if history and refers_back(question):
            # No model to rewrite a follow-up: search it together with the previous question. A question
            # that stands on its own is answered as asked: the same answer in a thread as outside one.
            return f"{history[-1]['question']} {question}", None
        return None, None

    def answer(self, query: Query, hits: list, profile: Profile, *, max_sentences: int) -> Answer:
        result = extractive(query, hits, profile, max_sentences=max_sentences)
        if result.outcome == "answered":
            # One sentence per followed reference may go beyond the cap (answer.extractive.followed_quotes).
            cap = max_sentences + sum(1 for h in hits if h.via) + result.listed
            verdict = verify(result.sentences, [as_data(h.provision) for h in hits], lang=profile.lang, corpus=profile.name,
                             max_sentences=cap, rule_pattern=profile.rule_pattern)
            if not verdict.ok:
                return refused(verdict.reason, verdict.detail)
        return result


@dataclass
class Generated:
    """The configured model writes the answer from the evidence; verified, revised once."""

    llm: LLM
    mode: str = "llm"

    def rewrite(self, question: str, history: list[dict]) -> tuple[str | None, Usage | None]:
        return rewrite(question, history, self.llm) if history else (None, None)

    def answer(self, query: Query, hits: list, profile: Profile, *, max_sentences: int) -> Answer:
        return generate(query, hits, self.llm, profile.lang, max_sentences=max_sentences, corpus=profile.name,
                        rule_pattern=profile.rule_pattern)


@dataclass(frozen=True)
class Context:
    """What an answerer may use besides the model: the service's tools, bound to a corpus
    language (agent mode), and the agent's budget."""

    toolbox: Callable[[str, str], Toolbox] | None = None
    budget: Budget = Budget()


ANSWERERS: dict[str, Callable[[LLM | None, Context], Answerer]] = {}


def register_answerer(mode: str, make: Callable[[LLM | None, Context], Answerer]) -> None:
    ANSWERERS[mode] = make


def _model(llm: LLM | None, mode: str) -> LLM:
    if llm is None:
        raise ConfigError(f"answer mode {mode!r} needs a model — set PINCITE_LLM (e.g. openai:gpt-4.1-mini), "
                          "or PINCITE_ANSWER_MODE=extractive")
    return llm


def _agent(llm: LLM | None, context: Context) -> Answerer:
    llm = _model(llm, "agent")
    if context.toolbox is None:
        raise ConfigError("answer mode 'agent' needs the service's tools — ask through pincite.service.Pincite")
    return Agent(llm, context.toolbox, context.budget)


register_answerer("extractive", lambda llm, context: Extractive())
register_answerer("llm", lambda llm, context: Generated(_model(llm, "llm")))
register_answerer("agent", _agent)


def answerer_for(mode: str, llm: LLM | None, context: Context | None = None) -> Answerer:
    """The answerer of `mode`; 'auto' is llm when a model is configured, else extractive."""
    if mode == "auto":
        mode = "llm" if llm is not None else "extractive"
    if mode not in ANSWERERS:
        raise ConfigError(f"unknown answer mode {mode!r} — use auto or one of: {', '.join(sorted(ANSWERERS))}")
    return ANSWERERS[mode](llm, context or Context())


def answer_question(question: str, *, answerer: Answerer, analyse: Callable[[str], Query],
                    retrieve: Callable[[Query], list], profile: Callable[[], Profile],
                    history: list[dict] | None = None, evidence_k: int = EVIDENCE_K,
                    max_sentences: int = MAX_SENTENCES, same_language: bool = True,
                    floor: float | None = None, coverage_weight: float | None = None,
                    asked_floor: float | None = None, asked_cover_floor: float | None = None) -> Answer:
    """`same_language` is False when the question is not in the corpus's language (names are
    then not compared with the corpus); `floor`, `coverage_weight`, `asked_floor` and `asked_cover_floor` are the
    gate's, as chosen for the embedding model (None: its own)."""
    started = time.perf_counter()
    question = " ".join((question or "").split())
    if not question:
        return refused("empty_question", "type the question to answer", mode=answerer.mode)
    try:
        rewritten, usage = answerer.rewrite(question, history or [])
    except ModelError as exc:
        return refused("model_error", str(exc), question=question, mode=answerer.mode, usage=exc.usage)
    query = analyse(rewritten or question)
    hits = retrieve(query)
    corpus = profile()
    gate = check(query, hits, corpus, names=same_language, floor=floor, coverage_weight=coverage_weight,
                 asked_floor=asked_floor, asked_cover_floor=asked_cover_floor)
    evidence = with_partners(hits, evidence_k)
    if not gate.ok:
        # What is so now or what happened is not in the text, but the law may say how it comes about.
        see = pointers(query, hits, [], corpus.name) if gate.reason == "outside_law" else []
        result = refused(gate.reason, gate.detail, mode=answerer.mode, see=see)
    else:
        result = answerer.answer(query, evidence, corpus, max_sentences=max_sentences)
    result.question, result.rewritten, result.hits, result.gate, result.lang = question, rewritten, hits, gate, corpus.lang
    result.mode = answerer.mode
    result.usage = add_usage(usage, result.usage) if result.usage else usage
    result.cited = _cited(result, evidence)
    if result.outcome == "answered":
        result = _typed(result, query, corpus)
    result.latency_ms = round((time.perf_counter() - started) * 1000, 1)
    return result


def with_partners(hits: list, evidence_k: int) -> list:
    """The first `evidence_k` hits, and each further hit tied by a followed reference to one of
    them (`Hit.via`: the article an annex among them names), so that the answer can cite both ends."""
    evidence = hits[:evidence_k]
    labels = {h.provision.label for h in evidence}
    return evidence + [h for h in hits[evidence_k:] if getattr(h, "via", "") in labels]


def _typed(result: Answer, query: Query, corpus: Profile) -> Answer:
    """The answer, or a `not_in_text` refusal pointing to its provisions when they cannot hold
    what the question asks for (answer.pointers)."""
    provisions = list({c.provision.id: c.provision for c in result.cited}.values())
    lacking = cannot_contain(query, provisions, corpus)
    if lacking is None:
        return result
    see = pointers(query, result.hits, provisions, corpus.name)
    refusal = refused("not_in_text", lacking, mode=result.mode, usage=result.usage, see=see)
    refusal.question, refusal.rewritten, refusal.hits, refusal.gate, refusal.lang = (
        result.question, result.rewritten, result.hits, result.gate, result.lang)
    return refusal


def _cited(result: Answer, hits: list) -> list[Cited]:
    """Each cited label once, resolved against the evidence (the hits, or what the answerer read),
    in order of first use."""
    if result.outcome != "answered":
        return []
    evidence = result.evidence if result.evidence is not None else [h.provision for h in hits]
    labels = list(dict.fromkeys(c for s in result.sentences for c in s.citations))
    return [c for c in (resolve(label, evidence) for label in labels) if c is not None]
