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

from pincite.retrieve.graph import defined_terms
from pincite.retrieve.hits import Hit

# The question frames that ask what a term means (English, Italian and French); group "term" is the rest.
_FRAMES = [re.compile(p, re.I) for p in (
    r"^(?:so\s+)?(?:what|who)\s+(?:exactly\s+)?(?:is|are)\s+(?:meant\s+by\s+)?(?P<term>.+?)$",
    r"^(?:what|who)\s+(?:counts?|qualifies|qualify)\s+as\s+(?P<term>.+?)$",
    r"^what\s+(?:does|do)\s+(?:the\s+(?:term|word|expression)\s+)?(?P<term>.+?)\s+mean$",
    r"^what\s+is\s+the\s+(?:legal\s+)?(?:definition|meaning)\s+of\s+(?P<term>.+?)$",
    r"^how\s+(?:does|do|is|are)\s+(?:the\s+\S+(?:\s+act)?|this\s+regulation|it|the\s+law)?\s*(?:define|defined)\s+"
    r"(?P<term>.+?)$",
    r"^how\s+(?:is|are)\s+(?P<term>.+?)\s+defined$",
    r"^(?:define|definition\s+of|meaning\s+of)\s+(?P<term>.+?)$",
    r"^(?:che\s+cos['’]\s*è|cos['’]\s*è|cosa\s+(?:è|sono)|che\s+cosa\s+(?:è|sono)|chi\s+è|chi\s+sono)\s+(?P<term>.+?)$",
    r"^cosa\s+si\s+intende\s+per\s+(?P<term>.+?)$",
    r"^(?:qual\s+è\s+la\s+)?definizione\s+di\s+(?P<term>.+?)$",
    r"^qu['’]est[- ]ce\s+qu(?:e\s+|['’]\s*)(?P<term>.+?)$",
    r"^(?:qu['’]entend[- ]on|que\s+faut[- ]il\s+entendre|qu['’]est[- ]ce\s+qu['’]on\s+entend)\s+par\s+(?P<term>.+?)$",
    r"^(?:que\s+(?:signifie|désigne|recouvre)|qu['’]appelle[- ]t[- ]on)\s+(?:la\s+notion\s+d(?:e\s+|['’]\s*)|"
    r"le\s+terme\s+|l['’]expression\s+)?(?P<term>.+?)$",
    r"^(?:quelle\s+est\s+la\s+)?définition\s+(?:de\s+la\s+notion\s+)?(?:d(?:e\s+|['’]\s*)|du\s+|des\s+)(?P<term>.+?)$",
    r"^comment\s+(?:le\s+règlement\s+|la\s+loi\s+|le\s+texte\s+)?(?:définit[- ](?:il|elle)|définit|est\s+défini\w*)\s+"
    r"(?P<term>.+?)$",
)]
# What may follow the term without changing it ('under the GDPR', 'in the AI Act', 'exactly').
_TAIL = re.compile(r"\s+(?:(?:under|in|according\s+to|for\s+the\s+purposes\s+of|as\s+defined\s+in|within|by|ai\s+sensi"
                   r"\s+del|nel|secondo\s+il|au\s+sens\s+d[ue]|selon|dans\s+le|aux\s+fins\s+d[ue])\b.*|exactly|legally|here|then"
                   r"|exactement|précisément)$", re.I)
_ARTICLE = re.compile(r"^(?:(?:a|an|the|il|lo|la|i|gli|le|un|uno|una|les|une|des|du)\s+|(?:l|un)['’]\s*)", re.I)
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
    found = [by_id[pid] for term, pid in (terms() if terms is not None else defined_terms(provisions))
             if pid in by_id and normal_term(term) in _variants(wanted)]
    return [Hit(p, math.inf, exact=True, why=[f"defines: {wanted}"]) for p in found[:1]]
