"""Answers the cited provisions cannot contain, and where the law deals with the matter instead.

A question asks for a kind of thing (its answer type, `Query.asks`). Some kinds a statute never
states: it creates the mechanism for adequacy decisions but names no country, creates an office
but names no one who holds it, provides for harmonised standards but lists none. When a question
asks for such named things and the provisions an answer would cite name none, quoting them would
answer a neighbouring question, and the reader would trust the citation. So the answer becomes
a refusal (`not_in_text`) that points to those provisions as where the law deals with the matter:
pointers in their own field (`see`), never quoted as an answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pincite import languages
from pincite.answer.gate import Profile
from pincite.citations import strip_number
from pincite.index.analysis import tokenize
from pincite.provisions import Provision
from pincite.retrieve.cues import COMMON_ACRONYMS
from pincite.retrieve.query import Query
from pincite.verify.check import split_sentences

# A proper name in a provision is a word written with a capital (not opening a sentence) that the
# corpus uses at most this often: a country, a company, a standard's number, a person.
# The law's own capitalised vocabulary (Commission, Member State, Board) recurs far more often.
RARE_NAME_COUNT = 3
WHY_CHARS = 140  # a pointer's `why`: the start of its best-matching sentence, cut at a word
MAX_POINTERS = 2  # the provisions that say most about how the named things come about
NAMED_TYPES = ("names", "person")  # answer types a provision answers only if it names something

# How a statute deals with named things it does not list (the packs' QUOTES "mechanism").
_MECHANISM = languages.cue("mechanism", "QUOTES")
_CAPITALISED = re.compile(r"(?<![\w'’-])([A-Z][\w’'-]*)")
_OPENS_SENTENCE = re.compile(r"(?:^|[.;:!?(]\s*|\(\w{1,4}\)\s*|\d+\.\s*)$")


@dataclass(frozen=True)
class Pointer:
    """Where a corpus deals with what a refused question asks (`see`)."""

    corpus: str
    label: str
    url: str
    why: str


def names_something(provision: Provision, profile: Profile) -> bool:
    """Whether the provision names a particular thing of the world: a capitalised word, not at a
    sentence's start, that the corpus rarely uses ('Denmark', 'Estonia', a company, 'EN 301')."""
    text = f"{provision.text}"
    for m in _CAPITALISED.finditer(text):
        word = m.group(1)
        if _OPENS_SENTENCE.search(text[max(0, m.start() - 8):m.start()]) or word.upper() in COMMON_ACRONYMS:
            continue
        if profile.counts.get(word.lower(), 0) <= RARE_NAME_COUNT:
            return True
    return False


def cannot_contain(query: Query, provisions: list[Provision], profile: Profile) -> str | None:
    """What the answer would lack, when the question asks for named things (countries, companies,
    standards, an office holder) and none of the provisions names any; else None."""
    if query.asks not in NAMED_TYPES or not provisions or query.names_provision:
        return None
    if any(names_something(p, profile) for p in provisions):
        return None
    return "names no office holder" if query.asks == "person" else "does not list them"


def pointers(query: Query, hits: list, cited: list[Provision], corpus: str) -> list[Pointer]:
    """Where the law deals with what it does not list: the retrieved provisions, sharing a word
    with the question, that set up the mechanism (who decides, designates or appoints; where the
    list is published) — those of the first article the answer would have cited that has any, else
    those of any retrieved article — in the law's order; else the provisions the answer would have
    cited."""
    terms = set(query.terms)
    found = [h.provision for h in hits if not h.exact and _MECHANISM.search(h.provision.text)
             and terms & set(tokenize(h.provision.text, h.provision.lang))]
    # The answer's own article sets up the mechanism ('Article 45(3)', '45(8)'); a neighbour it also
    # quoted ('Article 49(1): in the absence of an adequacy decision …') only mentions it.
    for article in dict.fromkeys(_article(p) for p in cited):
        if any(_article(p) == article for p in found):
            found = [p for p in found if _article(p) == article]
            break
    found = sorted(found, key=lambda p: -len({m.lower() for m in _MECHANISM.findall(p.text)}))  # stable: rank breaks ties
    chosen = list({p.id: p for p in (found or cited)}.values())[:MAX_POINTERS]
    return [pointer(p, corpus, query) for p in sorted(chosen, key=_order)]


def _article(provision: Provision) -> str:
    return provision.label.split("(")[0]


def _order(provision: Provision) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", provision.label)) or (0,)


def pointer(provision: Provision, corpus: str, query: Query) -> Pointer:
    """A pointer to a provision, its `why` the start of the sentence that shares most words with
    the question."""
    terms = set(query.terms)
    sentences = split_sentences(strip_number(" ".join(provision.text.split()))) or [provision.text]
    best = max(sentences, key=lambda s: len(terms & set(tokenize(s, provision.lang))))
    return Pointer(corpus, provision.label, provision.url, clip(best))


def clip(text: str, limit: int = WHY_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
