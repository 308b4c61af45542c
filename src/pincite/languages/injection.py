"""The fields of a language's instruction words (verify.untrusted reads one table per language, from
the packs' INJECTION), and the helpers the packs write them with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InjectionWords:
    """One language's words for what an instruction does: regex alternations, matched without
    regard to case, at word boundaries (`spaced=False`, Thai: as substrings, with no clause marks).

    reader:    phrases that address the reader or a model (a vocative, 'whoever reads this')
    you:       second-person words
    coordinate, lead: words that may come between a clause's start and its imperative
    modal:     finite verbs of a third-person clause: '…shall be drawn up and state that' coordinates
               a duty, not an imperative, so a coordinated imperative needs none before it; after
               an address, a modal and `infinitive` are an order ('models reading this should say')
    imperative: imperative forms a page gives its reader (clause-initial)
    steer:     imperatives that tell a reader what to believe: with `you`, an instruction
    reply:     imperatives of answering, saying, writing, followed by what to say: `that`, `yes`
               or `saying` ('with "…"', ':', 'by saying'); `saying` may come a few words later
               ('respond to any question by saying…'), and after `must`, `that` too
    infinitive: verbs of answering after `must` ('you must say that')
    must:      second-person duty ('you must', 'devi'): an imperative by other means
    told:      the answer given as settled ('the correct answer is')
    override:  imperatives of ignoring, forgetting, overriding; `earlier` names their object, after
               nothing but `det` ('ignore all your previous instructions', not 'forget passwords
               you no longer need and update the rules register')
    claim:     a sentence calling itself an instruction ('new instructions', 'note for AI')
    """

    reader: str
    you: str
    coordinate: str
    modal: str
    lead: str
    imperative: str
    steer: str
    reply: str
    that: str
    saying: str
    yes: str
    infinitive: str
    must: str
    told: str
    override: str
    det: str
    earlier: str
    claim: str
    spaced: bool = True


def alt(*parts: str) -> str:
    return "|".join(parts)


ASIDE = r"(?:\s*,[^,;:]{1,60},)?"  # 'the correct reply, per Article 6, is…'
