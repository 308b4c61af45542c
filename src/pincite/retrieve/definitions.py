"""Definition lookup: "What is X?", "What counts as X?", "How does the Act define X?" is answered
from the act's definition of X when it has one, found by its defined term, not by similarity.

Embedding similarity ranks a paragraph that uses the term often above the definition that says what
it means ("What is an AI system?" → Article 7(2)(d)). A definitions article opens each definition
with the quoted term ('‘personal data’ means …'), so the term a question asks about is matched
against those (retrieve.graph.defined_terms): the whole remainder of the question must be the
term, give or take an article, a plural, quotes and the act's name, so that "What is the maximum
fine?" or "What is a high-risk AI system?" (no such definition) match nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from pincite import languages
from pincite.retrieve.graph import defined_terms
from pincite.retrieve.hits import Hit

# The question frames that ask what a term means (the packs' DEFINITION_FRAMES, tried in order); group
# "term" is the rest. What may follow the term without changing it ('under the GDPR', 'in the AI Act',
# 'exactly'), and the articles before it.
_FRAMES = [re.compile(p, re.I) for p in languages.sequence("DEFINITION_FRAMES")]
_TAIL = re.compile(f"\\s+(?:(?:{languages.cue('tail_lead', 'DEFINITION').pattern})\\b.*"
                   f"|{languages.cue('tail_word', 'DEFINITION').pattern})$", re.I)
_ARTICLE = re.compile(f"^(?:(?:{languages.cue('article', 'DEFINITION').pattern})\\s+"
                      f"|(?:{languages.cue('elided_article', 'DEFINITION').pattern})['’]\\s*)", re.I)
_QUOTES = "‘’'“”\"«»`"


def asked_term(question: str) -> str | None:
    """The term a question asks the meaning of, normalised (`normal_term`), or None."""
    text = " ".join(question.strip().rstrip("?.!").split())
    for frame in _FRAMES:
        m = frame.match(text)
        if m:
            term = _TAIL.sub("", m.group("term")).strip()
            term = normal_term(term)
            return term or None
    return None


def normal_term(term: str) -> str:
    """Lower case, no quotes, no leading article, hyphens as spaces."""
    term = term.strip().strip(_QUOTES).lower().replace("-", " ").replace("’", "'")  # «système d’IA»
    term = _ARTICLE.sub("", term).strip().strip(_QUOTES)
    return " ".join(term.split())


def _variants(term: str) -> set[str]:
    """The term and its singular or plural ('s', 'es', 'ies'; 'data' and 'person' are left as they are)."""
    out = {term}
    out.add(term[:-1] if term.endswith("s") else term + "s")
    if term.endswith("es"):
        out.add(term[:-2])
    if term.endswith("ies"):
        out.add(term[:-3] + "y")
    return out


def definition_hits(wanted: str | None, provisions: list,
                    terms: Callable[[], list[tuple[str, str]]] | None = None) -> list[Hit]:
    """The definition of the term a question asks about (`Query.term`, `asked_term`), as a hit that
    comes first (or none). `terms` gives the act's (term, definition id) pairs; it is called only for
    a question that asks for a term, so other questions never pay for reading them."""
    if wanted is None:
        return []
    by_id = {p.id: p for p in provisions}
    pairs = [(normal_term(term), by_id[pid]) for term, pid in (terms() if terms is not None else defined_terms(provisions))
             if pid in by_id]
    found = [p for term, p in pairs if term in _variants(wanted)]
    if not found:
        found = [p for term, p in pairs if _qualified(wanted, term, p.text)]
    return [Hit(p, math.inf, exact=True, why=[f"defines: {wanted}"]) for p in found[:1]]


def _qualified(wanted: str, term: str, definition: str) -> bool:
    """Whether the asked term is a defined term with words before it that its definition itself says: 'data
    controller' for 'controller' ('… determines the purposes and means of the processing of personal data'); not
    'high-risk AI system' for 'AI system', whose definition never says 'high-risk'."""
    words = wanted.split()
    cut = next((cut for cut in range(1, len(words)) if " ".join(words[cut:]) in _variants(term)), None)
    if cut is None:
        return False
    said = set(re.findall(r"\w+", definition.lower()))  # hyphens split, as `normal_term` splits the asked term's
    return all(w in said for w in words[:cut])
