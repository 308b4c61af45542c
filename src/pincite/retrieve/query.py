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


@dataclass(frozen=True)
class Query:
    text: str  # the question, whitespace collapsed, at most MAX_QUERY_CHARS
    lang: str  # the language it is searched in (the corpus language)
    tokens: tuple[str, ...]  # analysed as the keyword index analyses `lang`
    terms: tuple[str, ...]  # the tokens without the provisions the question names
    citations: tuple[Citation, ...]  # provisions the question names ('Article 17', 'Art. 83(5)')
    spans: tuple[tuple[int, int], ...]  # where they are named in `text`
    intent: str | None  # definition, penalty, date, exception, or None

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
                 tuple(c for _, _, c in found), tuple((s, e) for s, e, _ in found), intent)
