"""The question analysed once: what retrieval, the gate, the answer and the checks all read.

A question becomes one `Query` — its text, the language it is written in and the language it
is searched in, its analysed tokens (as the keyword index analyses text), the provisions it
names, and its intent — instead of each stage re-tokenising the string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pincite.citations import Citation, find_citations
from pincite.citations.grammar import TEXT_RULE_PATTERN
from pincite.errors import ConfigError
from pincite.index.analysis import tokenize

MAX_QUERY_CHARS = 2000

# What a question asks for, when its words say so plainly (an English or Italian cue).
_INTENTS = (
    ("definition", re.compile(r"\b(?:what (?:is|are|does)\b.*\b(?:mean|defin)|defin(?:e|es|ed|ition)|"
                              r"what counts as|meaning of|che cos['’]?è|cosa si intende|definizione)\b", re.I)),
    ("penalty", re.compile(r"\b(?:fines?|penalt(?:y|ies)|sanctions?|punish|sanzion[ei]|ammend[ae])\b", re.I)),
    ("date", re.compile(r"\b(?:from when|since when|when does|when do|apply from|applies from|enter into force|"
                        r"entry into force|da quando|entra in vigore)\b", re.I)),
    ("exception", re.compile(r"\b(?:exceptions?|exempt(?:ed|ion)?|derogat(?:e|ion)s?|unless|does not apply|"
                             r"deroga|eccezion[ei])\b", re.I)),
)


# What kind of thing the answer is (DESIGN.md §2, "answer type"), from the question sentence.
# `names` asks for named things of the world — countries, companies, standards, products — which
# a statute creates the mechanism for but does not list; `person` for who holds an office.
# Order matters: the first that matches wins.
_NAMED_KINDS = (r"(?:third\s+)?countr(?:y|ies)|states?|territor(?:y|ies)|companies|company|firms?|businesses"
                r"|platforms|gatekeepers|providers|organi[sz]ations|standards?|codes?\s+of\s+(?:practice|conduct)"
                r"|tools?|products?|paesi|stati|aziende|societ[àa]|imprese|piattaforme|fornitori|norme|standard")
_ANSWER_TYPES = (
    ("person", re.compile(r"^(?:and\s+)?who\s+(?:is|are|was|were)\s+(?:(?:currently|now|presently)\s+)?(?:the\s+)?"
                          r"(?:(?:current|present|new|first)\s+)?(?:chair|head|president|director|"
                          r"executive\s+director|supervisor|commissioner|members?)\b|"
                          r"^who\s+(?:currently\s+)?(?:chairs|heads|leads|runs|directs)\b|"
                          r"^chi\s+(?:è|sono|presiede|dirige|guida)\b|\bname\s+of\s+the\s+(?:person|chair|head)\b",
                          re.I)),
    ("names", re.compile(rf"^(?:(?:so|and|but)\s+)?(?:which|what|quali|quale|quelle?s?)\s+(?:[\w'’-]+\s+){{0,3}}?"
                         rf"(?:{_NAMED_KINDS})\b(?!\s+(?:must|shall|may|can|should|have\s+to|need|are\s+required|"
                         rf"devono|possono))|\blist\s+of\s+(?:the\s+)?(?:{_NAMED_KINDS})\b", re.I)),
    ("amount", re.compile(r"\bhow\s+(?:many|much)\b|\b(?:what|which)\b(?:\s+[\w'’-]+){0,3}?\s+"
                          r"(?:rate|percentage|amount|sum|figure|number|fine)\b|\bquant[aeio]\b", re.I)),
    ("date", re.compile(r"^(?:from\s+|since\s+|by\s+|until\s+)?when\b|\b(?:what|which)\s+date\b|"
                        r"^(?:da|entro|fino\s+a)?\s*quando\b", re.I)),
    ("definition", _INTENTS[0][1]),
    ("duty", re.compile(r"\b(?:must|shall|have\s+to|has\s+to|need\s+to|obliged|obligations?|duty|duties|"
                        r"required|devono|deve|obblighi|obbligo)\b", re.I)),
    ("yes_no", re.compile(r"^(?:is|are|does|do|can|may|must|could|should|will|am|was|has|have|è|sono|può|possono|"
                          r"devo|deve)\b", re.I)),
)


def answer_type(question: str) -> str | None:
    """What the question asks for: person, names (countries, companies, standards…), amount,
    date, definition, duty, yes_no; None when its words do not say. Only the question sentence
    counts: a scenario told before it ('We are a company in Brazil. Does…?') is no sign."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", question.strip()) if s]
    asked = ([s for s in sentences if s.endswith("?")] or sentences or [""])[-1]
    asked = re.sub(r"^(?:under|according\s+to|in)\s+[^,]{1,60},\s*", "", asked, flags=re.I)
    return next((name for name, rx in _ANSWER_TYPES if rx.search(asked)), None)


@dataclass(frozen=True)
class Query:
    text: str  # the question, whitespace collapsed, at most MAX_QUERY_CHARS
    lang: str  # the language it is searched in (the corpus language)
    tokens: tuple[str, ...]  # analysed as the keyword index analyses `lang`
    terms: tuple[str, ...]  # the tokens without the provisions the question names
    citations: tuple[Citation, ...]  # provisions the question names ('Article 17', 'Art. 83(5)')
    spans: tuple[tuple[int, int], ...]  # where they are named in `text`
    intent: str | None  # definition, penalty, date, exception, or None
    asks: str | None = None  # the answer type (`answer_type`): person, names, amount, date, definition, duty, yes_no

    @property
    def names_provision(self) -> bool:
        return bool(self.citations)


def check_query(text: str) -> str:
    """The question as searched: whitespace collapsed; long pasted text is cut, not refused
    (its start carries the question)."""
    # Lone surrogates (JSON allows "\ud800") are no text: the tokenisers refuse them.
    cleaned = " ".join(str(text).encode("utf-8", "replace").decode("utf-8").split())
    if not cleaned:
        raise ConfigError("the question is empty — type what you want to find")
    return cleaned[:MAX_QUERY_CHARS]


def analyse(text: str, lang: str, *, rule_pattern: str | None = None) -> Query:
    """One question, analysed for a corpus in `lang` (rule ids by the corpus's own pattern)."""
    cleaned = check_query(text)
    found = find_citations(cleaned, rule_pattern=rule_pattern or TEXT_RULE_PATTERN)
    without = cleaned
    for start, end, _ in reversed(found):
        without = without[:start] + " " + without[end:]
    intent = next((name for name, rx in _INTENTS if rx.search(cleaned)), None)
    return Query(cleaned, lang, tuple(tokenize(cleaned, lang)), tuple(tokenize(without, lang)),
                 tuple(c for _, _, c in found), tuple((s, e) for s, e, _ in found), intent, answer_type(cleaned))
