"""The documents the surfaces return, as pydantic models.

They describe what the service layer already returns (plain dicts); the HTTP API publishes them
in its OpenAPI schema and the MCP server as its tools' input and output schemas. The answer shape
is the same across surfaces; extra fields the service adds later pass through unchanged.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pincite.citations.grammar import MAX_LABEL
from pincite.errors import ConfigError
from pincite.retrieve.query import MAX_QUERY_CHARS as MAX_QUESTION
from pincite.service.history import THREAD_ID as _THREAD_ID
from pincite.settings import SearchMode

CORPUS_NAME = r"^[A-Za-z0-9][A-Za-z0-9_()-]{0,63}$"
LANG_CODE = r"^[A-Za-z]{2,3}$"
THREAD_ID = _THREAD_ID.pattern
__all__ = ["MAX_LABEL", "MAX_QUESTION", "SearchMode"]


def corpus_names(values: list[str]) -> list[str]:
    """Corpus names from a request, each checked against CORPUS_NAME (at most 20)."""
    names = list(dict.fromkeys(v.strip() for v in values if v.strip()))
    bad = next((n for n in names if not re.match(CORPUS_NAME, n)), None)
    if not names or bad is not None or len(names) > 20:
        raise ConfigError(f"corpus {bad!r} is not a corpus name — use e.g. gdpr, ai-act or a CELEX number"
                          if bad else "name between 1 and 20 corpora, e.g. corpus=gdpr&corpus=ai-act")
    return names


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Sentence(BaseModel):
    text: str = Field(description="One sentence of the answer: the law's own words in extractive mode.")
    citations: list[str] = Field(description="Labels of the provisions the sentence rests on, e.g. 'Article 33(1)'.")


class Citation(_Open):
    label: str = Field(description="English-style pinpoint label, e.g. 'Article 5(1)(f)'.")
    label_local: str = Field(description="The label in the instrument's language, e.g. 'Articolo 5, paragrafo 1, lettera f)'.")
    id: str = Field(description="Id of the cited provision (GET /provisions/{id}).")
    url: str = Field(description="Deep link to the authoritative text (EUR-Lex).")
    title: str = Field(description="Title of the article or annex.")
    text: str = Field(description="The text the label denotes: the provision, or one point with its lead-in.")


class CorpusRef(BaseModel):
    name: str
    lang: str
    version: str = Field(description="The edition of the text the answer rests on, e.g. 'OJ L 119, 4.5.2016'.")


class Run(_Open):
    mode: str = Field(description="'extractive' (no model), 'llm' or 'agent' (the model read through tools).")
    model: str | None = None
    rewritten: str | None = Field(None, description="A follow-up question as it was searched.")
    detail: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    latency_ms: float = 0.0


class Pointer(_Open):
    corpus: str = Field(description="The corpus, as passed to --corpus / `corpus`.")
    label: str = Field(description="The provision, e.g. 'Article 45(3)'.")
    url: str
    why: str = Field(description="What the provision says on the matter (the start of its closest sentence).")


class Answer(_Open):
    """A verified answer, every sentence cited, or a refusal with its reason and no sources."""

    outcome: Literal["answered", "refused"]
    reason: str | None = Field(description="Why the question was refused (e.g. 'below_floor', 'outside_corpus'); null when answered.")
    answer: str = Field(description="The answer as one paragraph with its citations, or the refusal said plainly.")
    heading: str | None = Field(None, description="Where the answer comes from, shown above it: the lead provision's "
                                "article and title ('Article 6 — Lawfulness of processing'); a heading, not a citation.")
    sentences: list[Sentence] = Field(description="The answer's sentences; empty for a refusal.")
    citations: list[Citation] = Field(description="Each cited provision once; empty for a refusal.")
    corpus: CorpusRef
    notice: str = ""
    thread: str | None = Field(None, description="Pass it back as `thread` to ask a follow-up.")
    run: Run | None = None
    covers: str | None = Field(None, description="For a refusal: what the corpus holds, so the reader knows where else to look.")
    see: list[Pointer] = Field(default_factory=list, description="For a refusal: where the law deals with the matter "
                               "(this corpus, or another that matches the question far better); pointers, not an answer.")


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=MAX_QUESTION, description="The question, in the corpus's language or English.")
    corpus: str = Field("gdpr", pattern=CORPUS_NAME, description="Corpus name (gdpr, ai-act, …) or CELEX number.")
    lang: str | None = Field(None, pattern=LANG_CODE, description="Language of the question; default: the corpus's first (en).")
    thread: str | None = Field(None, pattern=THREAD_ID, description="Continue this conversation (the `thread` of an earlier answer).")


MAX_VERIFY = 100_000  # characters of text to verify in one request


class VerifyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=MAX_VERIFY, description="Sentences carrying bracketed citations, e.g. "
                                                        "'… within 72 hours [Article 33(1)].'")
    corpus: str = Field("gdpr", pattern=CORPUS_NAME, description="Corpus the citations are to (gdpr, ai-act, …).")
    lang: str | None = Field(None, pattern=LANG_CODE, description="Language of the text and its labels; default: the corpus's first (en).")
    second_opinion: bool | None = Field(None, description="Also ask the server's model whether each cited text entails "
                                                          "its sentence; default: when the server has a model.")


class CheckedSentence(BaseModel):
    text: str = Field(description="The sentence as written, its citations included.")
    citations: list[str] = Field(description="The labels it cites, as written.")
    supported: bool = Field(description="Whether the cited provisions support what the sentence says.")
    reason: str | None = Field(description="Why not (e.g. 'polarity', 'not_in_text', 'unknown_provision'); null when supported.")
    detail: str | None = Field(None, description="What disagreed, in words.")
    opinion: dict | None = Field(None, description="The model's second opinion: {supported, reason}, or {error} when "
                                                   "it gave none; null when no model was asked.")


class Verification(BaseModel):
    """Each sentence of a text, in order, checked against the provisions it cites."""

    verified: bool = Field(description="True when every sentence is supported.")
    corpus: CorpusRef
    sentences: list[CheckedSentence]


class Hit(_Open):
    label: str
    label_local: str
    id: str
    kind: str
    instrument: str
    lang: str
    title: str
    score: float | None = Field(description="Relevance; null when the query named the provision (exact lookup).")
    exact: bool
    snippet: str
    url: str
    version: str


class SearchResults(BaseModel):
    query: str
    corpus: str | list[str] = Field(description="The corpus searched, or the corpora when several were.")
    lang: str | None = Field(description="The language searched (of the corpus; with several corpora, as asked).")
    mode: str
    hits: list[Hit]


class Provision(_Open):
    id: str
    label: str
    label_local: str
    kind: str = Field(description="paragraph, article, definition, annex, recital, section, rule or page.")
    instrument: str
    lang: str
    title: str
    path: list[str] = Field(description="Chapter / section path, e.g. ['Chapter IV', 'Section 2'].")
    text: str = Field(description="Full text, one block per line (points on their own lines).")
    url: str = Field(description="Deep link to the authoritative text.")
    version: str
    celex: str = ""
    source_sha256: str = ""


class Provisions(BaseModel):
    provisions: list[Provision]


class OutlinePoint(BaseModel):
    label: str
    text: str = Field(description="The point's first line, shortened.")


class OutlinePart(BaseModel):
    id: str
    label: str
    label_local: str
    kind: str
    lead: str = Field(description="The part's first line (its sentence or lead-in), shortened.")
    chars: int = Field(description="Length of the part's full text.")
    points: list[OutlinePoint]


class Outline(BaseModel):
    corpus: str
    lang: str
    label: str
    label_local: str
    title: str
    path: list[str]
    version: str
    url: str
    parts: list[OutlinePart]


class Reference(BaseModel):
    label: str = Field(description="cites: the label the text cites; cited_by: the citing provision's label.")
    label_local: str
    id: str | None = Field(description="The other end's provision id here; null for a reference to another act.")
    words: str = Field(description="The referencing words, as the text has them.")
    external: bool = Field(description="A reference to another act (never an edge into this corpus).")
    act: str | None = Field(description="That act's number ('2016/680'), for an external reference.")
    from_: str | None = Field(default=None, alias="from", description="cites: the part that makes the reference.")
    to: str | None = Field(default=None, description="cited_by: the part referred to.")


class ReferencedProvision(BaseModel):
    label: str
    label_local: str
    id: str | None = Field(description="The provision's id; null for a whole article or annex (several parts).")
    title: str


class References(BaseModel):
    corpus: str
    lang: str
    provision: ReferencedProvision
    cites: list[Reference]
    cited_by: list[Reference]


class CorpusLanguage(BaseModel):
    lang: str
    version: str
    provisions: int
    indexed: bool = Field(description="Whether its search index is built here with the current embedding model.")


class Corpus(BaseModel):
    name: str
    title: str
    celex: str
    format: str
    langs: list[str] = Field(description="Languages the corpus exists in; any of them is built on first use.")
    default_lang: str
    built: list[CorpusLanguage] = Field(description="Languages already fetched and parsed here.")
    available: list[str] = Field(description="Languages a question can be answered in here: with a mirror (offline), "
                                             "those the mirror holds plus those built; otherwise all of `langs`.")


class Corpora(BaseModel):
    corpora: list[Corpus]


class Error(BaseModel):
    error: str = Field(description="Typed error: unknown_corpus, unknown_language, unknown_provision, bad_label, "
                                   "invalid_request, unauthorized, rate_limited, question_cap, too_large, …")
    message: str = Field(description="What went wrong — how to fix it.")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    answers: str = Field(description="'extractive' or the configured model.")
    auth: bool = Field(description="Whether API requests need a key.")
