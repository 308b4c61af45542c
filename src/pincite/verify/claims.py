"""Sentences with citations, checked one by one: the same check for pincite's own answers
and for any text a reader pastes (`pincite verify`).

A sentence carries bracketed citations (`… within 72 hours. [Article 33(1)]`, `… [Art. 33(1)].`,
several per sentence); citations written in the prose ("Under Article 99") resolve and are
checked like bracketed ones. A `Lookup` turns a label into the cited text: the retrieved
evidence for an answer, the corpus itself for `verify`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from pincite import languages
from pincite.citations import (
    RULE_PATTERN,
    TEXT_RULE_PATTERN,
    Citation,
    contains,
    find_citations,
    format_label,
    parse_label,
    same,
)
from pincite.errors import CitationError
from pincite.provisions import Provision
from pincite.verify.check import (
    MAX_SENTENCES,
    Cited,
    Sentence,
    Verdict,
    quoted_faithfully,
    resolve,
    split_sentences,
)
from pincite.verify.support import Claim, content_of, elsewhere, support, without_own_label

Lookup = Callable[[str], "Cited | None"]

_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_AFTER_STOP = re.compile(r"([.!?…])(\s*(?:\[[^\[\]]*\]\s*)+)(?=\s|$)")

# Names of acts, by the corpus that is that act (every pack's names of it, case as written); a sentence
# naming another act is not supported by a provision of this one.
_ACTS = {name: re.compile(rf"(?<![\w-])(?:{languages.cue(name, 'ACT_MENTIONS', 0).pattern})(?![\w-])")
         for name in languages.names("ACT_MENTIONS")}
# A citation the prose makes of another instrument: 'Article 4 of Directive 95/46/EC'.
_OF_ANOTHER = re.compile(rf"[^,;.]{{0,40}}?(?:{languages.cue('cited_of', 'OTHER_INSTRUMENTS', 0).pattern})")


@dataclass
class Checked:
    """One sentence's result, as `verify` reports it."""

    text: str
    citations: list[str] = field(default_factory=list)
    supported: bool = False
    reason: str | None = None
    detail: str = ""


def split_cited(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, labels) for each sentence of a text with bracketed citations. A bracket
    after a full stop belongs to the sentence before it."""
    moved = _AFTER_STOP.sub(lambda m: f" {m[2].strip()}{m[1]}", text)
    out = []
    pieces = [s for part in re.split(r"(?<=[.!?…])\s+(?=\[)", moved) for s in split_sentences(part)]
    for sentence in pieces:
        labels = []
        for group in _BRACKETS.findall(sentence):
            labels += [label for label in (p.strip() for p in re.split(r";", group)) if label]
        out.append((sentence, labels))
    return out


def body_of(sentence: str) -> str:
    return " ".join(_BRACKETS.sub(" ", sentence).split())


def verify(sentences: list[Sentence], evidence: list[Provision], *, lang: str = "en", corpus: str | None = None,
           max_sentences: int = MAX_SENTENCES, rule_pattern: str = RULE_PATTERN) -> Verdict:
    """Check an answer pincite wrote against the provisions it was written from: the same check
    as `pincite verify`, with the citations looked up in the evidence only, and a length cap.
    Order matters: the first failed check is the reason reported."""
    if not sentences or not any(s.citations for s in sentences):
        return Verdict(False, "no_citation", "no sentence cites a provision")
    if len(sentences) > max_sentences:
        return Verdict(False, "too_long", f"{len(sentences)} sentences, at most {max_sentences}")
    for number, sentence in enumerate(sentences, start=1):
        verdict = _answer_sentence(sentence, evidence, lang, corpus, rule_pattern)
        if not verdict.ok:
            return replace(verdict, detail=f"sentence {number}: {verdict.detail}")
    return Verdict(True)


def _answer_sentence(sentence: Sentence, evidence: list[Provision], lang: str, corpus: str | None,
                     rule_pattern: str) -> Verdict:
    if not sentence.citations:
        return Verdict(False, "uncited_sentence", repr(sentence.text[:80]))
    for label in sentence.citations:
        if resolve(label, evidence, rule_pattern) is None:
            return Verdict(False, "unsupported_citation", f"{label!r} is not among the retrieved provisions")
    return check_claim(sentence.text, sentence.citations, lambda label: resolve(label, evidence, rule_pattern),
                       lang, corpus=corpus, quote=sentence.quote, unknown="unsupported_citation",
                       rule_pattern=rule_pattern)


def check_claim(sentence: str, labels: list[str], lookup: Lookup, lang: str, *,
                corpus: str | None = None, quote: bool = False, unknown: str = "unknown_provision",
                rule_pattern: str = RULE_PATTERN, act: list[Provision] | None = None) -> Verdict:
    """Check one sentence against what its labels denote. Order matters: the first failed
    check is the reason reported. `unknown` names a label the lookup cannot find (for an
    answer: not among the retrieved provisions). With the whole `act`, a sentence its cited
    provision does not hold but another provision does is `wrong_provision`, that one named."""
    body = body_of(sentence)
    if not re.search(r"\w", body):
        return Verdict(False, "empty", "the sentence says nothing")
    if not labels:
        return Verdict(False, "no_citation", "the sentence cites no provision")
    cited = []
    for label in _expand(labels, lang, rule_pattern):
        found = lookup(label)
        if found is None:
            return Verdict(False, unknown, f"{label!r} is not a provision of this corpus")
        cited.append(found)
    if quote:
        if not quoted_faithfully(body, [c.text for c in cited]):
            return Verdict(False, "misquote", repr(body[:80]))
        return Verdict(True)
    prose = _prose_citations(body, cited, lookup, lang, unknown, rule_pattern)
    if isinstance(prose, Verdict):
        return prose
    for found in prose:
        verdict = content_of(Claim(body, lang, [found]))
        if verdict is not None:
            return Verdict(False, "not_in_text", f"the sentence cites {found.label} in its prose; {verdict.detail}")
    other = _other_act(body, cited, corpus)
    if other:
        return Verdict(False, "not_in_text", f"the sentence names the {other}; "
                                             f"{', '.join(c.label for c in cited)} is not a provision of it")
    claim = Claim(without_own_label(body, cited + prose, lang), lang, cited + prose)
    verdict = support(claim)
    if act and (verdict.ok or verdict.reason == "not_in_text"):
        return elsewhere(claim, act) or verdict
    return verdict


def _expand(labels: list[str], lang: str, rule_pattern: str = RULE_PATTERN) -> list[str]:
    """Labels as written in a bracket: one each, or several ('Articles 13 and 14')."""
    out = []
    for label in labels:
        found = find_citations(label, lang, rule_pattern=_in_text(rule_pattern))
        if len(found) > 1:
            out += [format_label(c) for _, _, c in found]
        else:
            out.append(label)
    return list(dict.fromkeys(out))


def _in_text(rule_pattern: str) -> str:
    """The rule ids to find in running text: the corpus's own, or by default only dotted ids."""
    return TEXT_RULE_PATTERN if rule_pattern == RULE_PATTERN else rule_pattern


def _prose_citations(body: str, cited: list[Cited], lookup: Lookup, lang: str, unknown: str,
                     rule_pattern: str = RULE_PATTERN) -> list[Cited] | Verdict:
    """Provisions the prose cites ('Under Article 99'): each must resolve; a reference the cited
    text itself makes is part of its content, not a further citation."""
    have = [c for c in (_parsed(c.label, rule_pattern) for c in cited) if c is not None]
    refs = {r.get("label") for c in cited for r in c.provision.refs}
    refs |= {format_label(found) for c in cited
             for _, _, found in find_citations(c.text, lang, rule_pattern=_in_text(rule_pattern))}
    out = []
    for start, _, citation in find_citations(body, lang, rule_pattern=_in_text(rule_pattern)):
        label = format_label(citation)
        if label in refs or _named_in(body, start) or _bracketed(citation, have):
            continue
        found = lookup(label)
        if found is None:
            return Verdict(False, unknown, f"{label!r}, cited in the sentence, is not a provision of this corpus")
        out.append(found)
    return out


def _parsed(label: str, rule_pattern: str = RULE_PATTERN) -> Citation | None:
    try:
        return parse_label(label, rule_pattern)
    except CitationError:
        return None


def _bracketed(citation: Citation, have: list[Citation]) -> bool:
    """Whether the prose names a bracketed citation, a part of one or the whole it is part of
    ('Under Article 6, … [Article 6(1)(a)]'): its text is checked already."""
    return any(same(citation, c) or contains(citation, c) or contains(c, citation) for c in have)


def _named_in(body: str, start: int) -> bool:
    """Whether a citation in the prose is of another act ('Article 4 of Directive 95/46/EC')."""
    return bool(_OF_ANOTHER.match(body[start:start + 80]))


def _other_act(body: str, cited: list[Cited], corpus: str | None) -> str | None:
    text = "\n".join(c.text for c in cited)
    for name, rx in _ACTS.items():
        if name == corpus or corpus is None and name == "gdpr":
            continue
        m = rx.search(body)
        if m and not rx.search(text):
            return m.group()
    return None


def check_text(text: str, lookup: Lookup, lang: str, *, corpus: str | None = None,
               rule_pattern: str = RULE_PATTERN, act: list[Provision] | None = None) -> list[Checked]:
    """Every sentence of a text, in order, each with its result (`act`: the corpus's provisions,
    to name the one that says what a sentence says when its citation is wrong)."""
    out = []
    for sentence, labels in split_cited(text):
        verdict = check_claim(sentence, labels, lookup, lang, corpus=corpus, rule_pattern=rule_pattern, act=act)
        out.append(Checked(sentence, labels, verdict.ok, verdict.reason, verdict.detail))
    return out


def lookup_label(label: str, provisions: list[Provision], rule_pattern: str = RULE_PATTERN) -> Cited | None:
    """What a label denotes in a whole corpus: the provision itself, one point of it (with its
    lead-in), or every provision of a cited article joined; None when the corpus has none."""
    key = (id(provisions), rule_pattern)
    _labelled(provisions, rule_pattern)
    memo = _LOOKED_UP.setdefault(key, {})
    if label not in memo:
        memo[label] = _lookup(label, provisions, rule_pattern)
    return memo[label]


_LOOKED_UP: dict[tuple[int, str], dict[str, Cited | None]] = {}


def _lookup(label: str, provisions: list[Provision], rule_pattern: str) -> Cited | None:
    try:
        wanted = parse_label(label, rule_pattern)
    except CitationError:
        return None
    labelled = _labelled(provisions, rule_pattern)
    exact = [p for p, c in labelled if same(c, wanted)]
    if exact:
        return Cited(label, exact[0], exact[0].text)
    inside = [p for p, c in labelled if contains(wanted, c)]
    if inside:
        return Cited(label, inside[0], "\n".join(p.text for p in inside))
    return resolve(label, [p for p, c in labelled if contains(c, wanted)], rule_pattern)


_LABELLED: dict[tuple[int, str], tuple[list[Provision], list[tuple[Provision, Citation]]]] = {}


def _labelled(provisions: list[Provision], rule_pattern: str) -> list[tuple[Provision, Citation]]:
    """Each provision with its parsed label, once per loaded corpus list (parsing every label
    is most of a lookup's time)."""
    key = (id(provisions), rule_pattern)
    cached = _LABELLED.get(key)
    if cached is not None and cached[0] is provisions:
        return cached[1]
    if len(_LABELLED) > 16:
        _LABELLED.clear()
    _LOOKED_UP.pop(key, None)  # a new list at a reused id: its lookups are stale
    out = []
    for p in provisions:
        try:
            out.append((p, parse_label(p.label, rule_pattern)))
        except CitationError:
            continue
    _LABELLED[key] = (provisions, out)
    return out
