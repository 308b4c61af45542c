"""A sentence and its cited provision read into the same parts, and compared part by part.

A provision's sentence is read as its core (who must, may or must not do what) and the
conditions that bound it ('Where Article 3(2) applies, …', '…, unless the breach is unlikely to
result in a risk', '… in any case where: (a) …'). A noun phrase the claim quantifies ('any AI
system', 'all providers of online platforms') is read against the phrases the provision uses for
the same thing ('high-risk AI systems', 'providers of very large online platforms'). Two
comparisons come of it:

- a condition the provision puts on the clause the sentence restates, of which the sentence keeps
  none of the words and which it does not replace with a condition of its own (`condition_dropped`);
- a quantifier over a phrase the provision only ever uses restricted (`scope`).

Both compare the sentence with the text, never the text with the sentence: a faithful statement of
one part of a provision, conditions and all, passes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pincite.citations import joined, point_lines, point_text, strip_number, top_points
from pincite.index.analysis import STOPWORDS, fold, tokenize
from pincite.verify import signals

# Condition words, per language: those that open a sentence ('Where …,'), and those that open a
# condition inside one (', unless …', 'only if …', 'in any case where:'). A bare 'where' or 'if'
# inside a sentence counts only after a comma: elsewhere it is relative ('the State where …').
_OPENING = {
    "en": re.compile(r"^(?:where|if|when|whenever|unless|in\s+so\s+far\s+as|insofar\s+as|provided\s+that|"
                     r"in\s+the\s+event\s+(?:that|of)|in\s+case|upon\s+(?:a|the)\s+(?:[\w-]+\s+)?request)\b", re.IGNORECASE),
    "it": re.compile(r"^(?:qualora|se|ove|laddove|quando|a\s+meno\s+che|purché|salvo\s+che|nella\s+misura\s+in\s+cui)\b",
                     re.IGNORECASE),
}
_INSIDE = {
    # 'provided they observe …', 'upon a reasoned request from …': a condition without 'if'.
    "en": re.compile(r"(?:,\s*|\b)(?:unless|provided\s+(?:that|(?=(?:they|it|he|she|the|such)\b))|on\s+condition\s+that|"
                     r"upon\s+(?:a|the)\s+(?:[\w-]+\s+)?request|only\s+(?:if|where|when|in\s+so\s+far\s+as)|"
                     r"in\s+so\s+far\s+as|insofar\s+as|to\s+the\s+extent\s+that|in\s+(?:any\s+case|cases)\s+where|"
                     r"except\s+(?:where|when|if)|save\s+where)\b|,\s*(?:where|if|when)\b", re.IGNORECASE),
    "it": re.compile(r"(?:,\s*|\b)(?:a\s+meno\s+che|purché|a\s+condizione\s+che|solo\s+se|soltanto\s+se|unicamente\s+se|"
                     r"nella\s+misura\s+in\s+cui|in\s+tutti\s+i\s+casi\s+in\s+cui|salvo\s+(?:che|se))\b|,\s*(?:qualora|ove|laddove|se)\b",
                     re.IGNORECASE),
}
# A connective before an opening condition ('However, provided that …,', 'Furthermore, where …,').
_CONNECTIVE = {
    "en": re.compile(r"^(?:however|furthermore|moreover|in\s+addition|nevertheless|by\s+way\s+of\s+derogation"
                     r"(?:\s+from\s+[^,]{1,60})?|notwithstanding\s+[^,]{1,60})\s*,\s*", re.IGNORECASE),
    "it": re.compile(r"^(?:tuttavia|inoltre|in\s+deroga\s+[^,]{1,60})\s*,\s*", re.IGNORECASE),
}
# A sentence that states a condition of its own (in other words, perhaps) is not read as dropping one.
_OWN_CONDITION = {
    "en": re.compile(r"\b(?:where|if|when|whenever|unless|provided\s+that|only|as\s+long\s+as|so\s+long\s+as|to\s+the\s+extent|"
                     r"in\s+so\s+far|insofar|in\s+case|on\s+condition|once|subject\s+to|except|save|depending|in\s+principle|as\s+a\s+rule|"
                     r"generally|normally|usually|in\s+general|typically)\b", re.IGNORECASE),
    "it": re.compile(r"\b(?:qualora|se|ove|laddove|quando|purché|salvo|solo|soltanto|unicamente|a\s+meno\s+che|"
                     r"nella\s+misura|a\s+condizione)\b", re.IGNORECASE),
}
# An exception ('unless', 'except where') is a condition a faithful summary may leave out; a sentence
# that says its rule holds always has dropped it, which the polarity check reads ('always', 'in all cases').
_EXCEPTION = re.compile(r"^(?:unless|except|save|a\s+meno|salvo)\b", re.IGNORECASE)
_TAIL = re.compile(r"[\s.;,]*(?:\b(?:and|or|e|o)\b)?[\s.;,]*$", re.IGNORECASE)  # how a point ends: '; or'
_CONCESSION = re.compile(r"\b(?:even|anche)\s*$", re.IGNORECASE)  # 'even if' widens; it bounds nothing
_QUANTIFIER = {
    # Not 'at any time', 'in any event', 'in any case', 'every time': idioms that quantify no actor or thing.
    "en": re.compile(r"\b(?:all|every|each|any)\s+(?!(?:time|event|case)\b)", re.IGNORECASE),
    "it": re.compile(r"\b(?:tutti\s+gli|tutti\s+i|tutte\s+le|ogni|qualsiasi|qualunque|ciascun[oa]?)\s+", re.IGNORECASE),
}
# Words that end a quantified noun phrase: the verb or the clause after it begins.
_PHRASE_END = {
    "en": frozenset("""shall must may might can cannot could will would should is are was were be been being has have had
        do does did that which who whom whose to whatever whichever regardless irrespective if where when unless
        must not no""".split()),
    "it": frozenset("""deve devono può possono è sono sia siano ha hanno viene vengono che cui il quale la quale
        i quali le quali se qualora ove quando""".split()),
}
_WORD = re.compile(r"[\w'’-]+")


@dataclass(frozen=True)
class Statement:
    """One sentence of a provision: the clause it states, and the conditions that bound it."""

    text: str
    core: str
    conditions: tuple[tuple[str, str], ...]  # (the word that opens it, the condition)


def statements(text: str, lang: str) -> list[Statement]:
    """The provision's sentences, each read as core and conditions. A point is read with its
    lead-in ('in any case where: (b) the core activities …'), apart from its sibling points: a
    condition inside point (f) does not bound point (e)."""
    lines = point_lines(text)
    paths = top_points(text)
    pieces = [joined(block) for block in (point_text(text, path) for path in paths) if block]
    if pieces:
        last = max(i for i, (_, marker, _) in enumerate(lines) if marker)
        pieces += [line.strip() for indent, marker, line in lines[last + 1:]
                   if marker is None and not indent and line.strip()[:1].isupper()]
    else:
        pieces = [joined(text)]
    return [_read(sentence, lang) for piece in pieces
            for sentence in re.split(r"(?<=\.)\s+(?=[A-Z(‘“'\"])", strip_number(piece))]


def _read(sentence: str, lang: str) -> Statement:
    """A sentence as its core and its conditions: one that opens it ('Where …, ') or closes it
    (', unless …', 'in any case where: (a) …'). A condition in mid-sentence ('or, if the offender is
    an undertaking, up to 7 %') bounds only the words after it, and is left out."""
    conditions, core = [], sentence
    opening, connective = _OPENING.get(lang), _CONNECTIVE.get(lang)
    lead = connective.match(sentence) if connective else None
    rest = sentence[lead.end():] if lead else sentence
    m = opening.match(rest) if opening else None
    if m:
        comma = rest.find(",", m.end())
        if comma > 0:
            conditions.append((m.group(), rest[m.end():comma]))
            core = rest[comma + 1:]
    inside = _INSIDE.get(lang)
    for m in inside.finditer(core) if inside else ():
        if _CONCESSION.search(core[:m.start()]):
            continue
        after = core[m.end():]
        if after.lstrip().startswith(":"):  # 'in any case where:' — the points are the condition
            conditions.append((m.group(), after.lstrip()[1:]))
            core = core[:m.start()]
            break
        if not re.search(r",\s*\S", _TAIL.sub("", after.split(":")[0])):  # it runs to the end: it bounds the clause
            conditions.append((m.group(), after.split(":")[0]))  # 'where applicable to the trader: (a) …' — not the list
            core = core[:m.start()]
            break
    return Statement(sentence, " ".join(core.split()),
                     tuple((" ".join(word.split()).strip(", ").lower(), c.strip()) for word, c in conditions if c.strip()))


def dropped_condition(sentence: str, text: str, lang: str) -> str | None:
    """The condition of the provision's sentence the claim restates, when the claim keeps none
    of its own words and states no condition itself; None otherwise."""
    own = _OWN_CONDITION.get(lang)
    if own is None or own.search(sentence):
        return None
    wanted = signals.content_terms(sentence, lang)
    best, shared = None, 0
    for statement in statements(text, lang):
        n = len(wanted & signals.content_terms(statement.core, lang))
        if n > shared:
            best, shared = statement, n
    if best is None or shared < 2 or len(wanted - signals.held(wanted, signals.content_terms(best.text, lang), lang)) > len(wanted) / 2:
        return None  # the claim restates no one sentence of the provision
    core = signals.content_terms(best.core, lang)
    for word, condition in best.conditions:
        if _EXCEPTION.match(word):
            continue
        bounding = signals.content_terms(condition, lang) - core
        # A one-word condition ('where appropriate', 'if necessary') leaves the clause as it is.
        # Holding none of its words is the test: holding fewer than half caught one more dev sentence.
        if len(bounding) >= 2 and not signals.held(bounding, wanted, lang):
            return condition
    return None


def widened(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the claim's quantified phrase, the provision's narrower phrase) when the claim says
    'any' / 'all' / 'every' of something the provision only ever names with a restricting word."""
    rx = _QUANTIFIER.get(lang)
    if rx is None:
        return None
    claim_terms = signals.terms(sentence, lang)
    words = _words(text, lang)
    for m in rx.finditer(sentence):
        phrase, said = _phrase(sentence[m.end():], lang)
        if not phrase:
            continue
        narrower = _restricted(phrase, words, claim_terms)
        if narrower:
            return f"{m.group().strip()} {said}", narrower
    return None


def _phrase(after: str, lang: str) -> tuple[list[str], str]:
    """The content stems of the noun phrase a quantifier opens, and its words as written."""
    stop, end = STOPWORDS.get(lang, set()), _PHRASE_END.get(lang, frozenset())
    stems, said = [], []
    for m in _WORD.finditer(after):
        word = fold(m.group())
        if word in end:
            break
        said.append(m.group())
        if word not in stop and not word[:1].isdigit():
            stems.append(_stem(word, lang))
        if after[m.end():m.end() + 1] in ",;.:":
            break
    while said and fold(said[-1]) in stop:
        said.pop()
    return stems, " ".join(said)


def _restricted(phrase: list[str], words: list[tuple[str, str, bool]], claim_terms: frozenset[str]) -> str:
    """The provision's phrase for the same thing, when every use of it carries a content word the
    claim lacks (before it, or between its words); '' when some use is unrestricted, or none."""
    found = []
    for start, (stem, _, _) in enumerate(words):
        if stem != phrase[0]:
            continue
        extra, pos, matched = [], start, True
        for want in phrase[1:]:
            step = pos + 1
            while step < len(words) and step <= pos + 3 and words[step][0] != want:
                step += 1
            if step >= len(words) or words[step][0] != want:
                matched = False
                break
            extra += [w for w in words[pos + 1:step] if w[2] and w[0] not in claim_terms]
            pos = step
        if not matched:
            continue
        before = words[start - 1] if start else None
        if before and before[2] and before[0] not in claim_terms and not before[0][:1].isdigit():
            extra.insert(0, before)
        if not extra:
            return ""  # the provision uses the phrase as the claim does
        first = start - 1 if extra[0] is before else start
        found.append(" ".join(w[1] for w in words[first:pos + 1]))
    return found[0] if found else ""


@lru_cache(maxsize=1024)
def _words(text: str, lang: str) -> list[tuple[str, str, bool]]:
    """(stem, word as written, is a content word) for each word of a text, in order."""
    stop, frame = STOPWORDS.get(lang, set()) | _PHRASE_END.get(lang, frozenset()), signals.frame_stems(lang)
    out = []
    for m in _WORD.finditer(text):
        word, stem = fold(m.group()), _stem(m.group(), lang)
        out.append((stem, m.group(), word not in stop and stem not in frame and not word[:1].isdigit()))
    return out


def _stem(word: str, lang: str) -> str:
    stems = tokenize(word, lang)
    return stems[0] if stems else fold(word)
