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
from typing import NamedTuple

from pincite import languages
from pincite.citations import joined, point_lines, point_text, strip_number, top_points
from pincite.index.analysis import STOPWORDS, fold, tokenize
from pincite.verify import signals

# Condition words, per language: those that open a sentence ('Where …,'), and those that open a
# condition inside one (', unless …', 'only if …', 'in any case where:'). A bare 'where' or 'if'
# inside a sentence counts only after a comma: elsewhere it is relative ('the State where …').
_OPENING = languages.compiled("condition_opening", "STRUCTURE")
_CONJUNCT_CONDITION = languages.compiled("conjunct_condition", "STRUCTURE")
_INSIDE = languages.compiled("condition_inside", "STRUCTURE")
# A connective before an opening condition ('However, provided that …,', 'Furthermore, where …,').
_CONNECTIVE = languages.compiled("connective", "STRUCTURE")
# A sentence that states a condition of its own (in other words, perhaps) is not read as dropping one (here and in
# verify.alignment).
OWN_CONDITION = languages.compiled("own_condition", "STRUCTURE")
# An exception ('unless', 'except where') is a condition a faithful summary may leave out; a sentence
# that says its rule never yields ('never', 'in no case') has dropped it.
_LISTED = {code: re.compile(f"^(?:{p.pattern})\\b", re.IGNORECASE)
           for code, p in languages.compiled("listed_in", "STRUCTURE").items()}
_ABSOLUTE = languages.compiled("absolute", "STRUCTURE")
_DISCRETION = languages.compiled("discretion", "STRUCTURE")
_WHETHER = languages.compiled("whether", "STRUCTURE")
_EXCEPTION = re.compile(f"^(?:{languages.cue('exception_word', 'STRUCTURE').pattern})\\b", re.IGNORECASE)
_TAIL = re.compile(f"[\\s.;,]*(?:\\b(?:{languages.cue('point_joiner', 'STRUCTURE').pattern})\\b)?[\\s.;,]*$",
                   re.IGNORECASE)  # how a point ends: '; or'
_CONCESSION = re.compile(f"\\b(?:{languages.cue('concession', 'STRUCTURE').pattern})\\s*$", re.IGNORECASE)  # 'even if' widens
_QUANTIFIER = languages.compiled("quantifier", "STRUCTURE")
_ON_REQUEST = languages.compiled("on_request", "STRUCTURE")
_ASKED = languages.compiled("asked", "STRUCTURE")
_QUALIFIER = languages.compiled("qualifier", "STRUCTURE")
_QUALIFIER_CLOSES = languages.compiled("qualifier_closes", "STRUCTURE")
_NEEDS_CLAUSE = languages.compiled("condition_needs_clause", "STRUCTURE")
_AND = {code: re.compile(f"\\s*,?\\s+(?:{p.pattern})\\s+", re.IGNORECASE)
        for code, p in languages.compiled("and_word", "STRUCTURE").items()}
_FINITE = languages.compiled("finite_verb", "STRUCTURE")
_GROUNDS = {code: re.compile(f"(?:{p.pattern})\\s*$", re.IGNORECASE)
            for code, p in languages.compiled("grounds", "STRUCTURE").items()}
_RELATIVE = languages.compiled("relative", "VERIFY")
_ADJECTIVE_AFTER = frozenset(code for code, after in languages.each("ADJECTIVE_AFTER").items() if after)
_REFERENCE = languages.compiled("listed_in", "STRUCTURE")
_PARTICIPLE = languages.compiled("participle", "STRUCTURE")
LIST_SEGMENT_WORDS = 10  # a list item after a comma inside a closing condition is at most this long
REQUEST_WORDS = 8  # the words after 'upon request' it bounds: the claim must keep one of them
QUALIFIED_WORDS = 6  # the words after a qualifier inside a sentence that it bounds (chosen on dev: 4 or 10 were worse)
ALSO_RESTATED = 3  # another sentence a claim restates holds this many of its own words (chosen on dev: 2 lost 5 faithful sentences, 4 caught one fewer)
PHRASE_GAP = 1  # content words allowed between a phrase's words in the provision's use of it (chosen on dev: 0 caught 20
# fewer; 2 and 3 one more, and lost a faithful sentence)
CONJUNCT_OWN = 3  # words of its own a dropped part of a joined condition has (2 refused a faithful batch sentence; 4
# caught 2 fewer on dev)
QUALIFIED_HELD = 2  # a claim holding this many of their content terms restates them (chosen on dev: 1 or 3 were worse)
# Words that end a quantified noun phrase: the verb or the clause after it begins.
_PHRASE_END = {code: frozenset(words.split()) for code, words in languages.each("PHRASE_END").items()}
_ARTICLE = languages.compiled("joined_article", "VERIFY")
_WORD = re.compile(r"[\w'’-]+")
_DECIMAL = re.compile(r"^\d+(?:\.\d+)+\.?\s+")  # the number of an annex's paragraph (4.3.)
_LIST_GOES_ON = {code: re.compile(f"\\b(?:{p.pattern})\\b", re.IGNORECASE)
                 for code, p in languages.compiled("point_joiner", "STRUCTURE").items()}


@dataclass(frozen=True)
class Statement:
    """One sentence of a provision: the clause it states, and the conditions that bound it."""

    text: str
    core: str
    conditions: tuple[tuple[str, str], ...]  # (the word that opens it, the condition)


@lru_cache(maxsize=1024)  # one provision is read for its conditions, for the sentence restated and for who acts there
def statements(text: str, lang: str) -> tuple[Statement, ...]:
    """The provision's sentences, each read as core and conditions. A point is read with its
    lead-in ('in any case where: (b) the core activities …'), apart from its sibling points: a
    condition inside point (f) does not bound point (e)."""
    lines = point_lines(text)
    paths = top_points(text)
    pieces = [joined(block) for block in (point_text(text, path) for path in paths) if block]
    if pieces:
        last = max(i for i, (_, marker, _) in enumerate(lines) if marker)
        # (and the numbered paragraphs of an annex's point after its list: '4.3. The technical documentation shall …')
        pieces += [_DECIMAL.sub("", line.strip()) for indent, marker, line in lines[last + 1:]
                   if marker is None and not indent and _DECIMAL.sub("", line.strip())[:1].isupper()]
    else:
        pieces = [joined(text)]
    conjunct = _CONJUNCT_CONDITION.get(lang)
    # '… confirmation as to whether …, and, where that is the case, access …': the condition bounds the conjunct it
    # opens, read as a statement of its own
    return tuple(_read(part, lang) for piece in pieces
                 for sentence in re.split(r"(?<=\.)\s+(?=[A-Z(‘“'\"])", strip_number(piece))
                 for part in (conjunct.split(sentence) if conjunct else [sentence]))


def closest(wanted: frozenset[str], text: str, lang: str, *, core: bool = True) -> tuple[Statement | None, int]:
    """The statement of `text` sharing most of the `wanted` content terms (in its core: the clause without its
    conditions; or, `core=False`, its whole sentence), and how many it shares; the first on a tie, None for none."""
    best, shared = None, 0
    for statement in statements(text, lang):
        n = len(wanted & signals.content_terms(statement.core if core else statement.text, lang))
        if n > shared:
            best, shared = statement, n
    return best, shared


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
        # the condition runs to the first comma that does not go on with a list ('Where it has been informed by
        # the provider, the deployer or a third party, it may …'; 'If …, the authority, having considered …, may')
        modal, joiner = signals.MODAL.get(lang), _LIST_GOES_ON.get(lang)
        verb = modal.search(rest, m.end()) if modal else None
        end = verb.start() if verb else len(rest)
        comma = rest.find(",", m.end(), end)
        while comma > 0:
            after = rest[comma + 1:end].split(",")[0]
            if not joiner or not joiner.search(after):
                break
            comma = rest.find(",", comma + 1, end)
        if comma < 0:
            comma = rest.find(",", m.end())
        if comma > 0:
            conditions.append((m.group(), rest[m.end():comma]))
            core = rest[comma + 1:]
    # 'reopen the proceedings: (a) where there has been …', 'reopen a market investigation … where: (a) …': a point
    # that opens with a condition, or a condition word right before the points, bounds the lead-in's clause
    # (not when the lead-in states two clauses: 'shall be limited in time and scope and shall be considered to exist
    # only in any of the following circumstances: (a) where …' bounds the second only)
    listed = re.search(r"\s*:\s*\(\w{1,4}\)\s+", core) if opening else None
    modal = signals.MODAL.get(lang)
    if listed and opening is not None and modal is not None and len(modal.findall(core[:listed.start()])) <= 1:
        point = core[listed.end():]
        word = re.search(r"\b(\w+)$", core[:listed.start()])
        # (the whole point: '(f) where possible, the envisaged time limits …' states the lead-in's content)
        if (m := opening.match(point)) and _to_the_end(_TAIL.sub("", point[m.end():]), lang):
            conditions.append((m.group(), point[m.end():]))
            core = core[:listed.start()]
        elif word and opening.fullmatch(word.group(1)):
            conditions.append((word.group(1), point))
            core = core[:word.start()]
        elif (grounds := _GROUNDS.get(lang)) is not None and (m := grounds.search(core[:listed.start()])):
            conditions.append((m.group() + ":", point))
            core = core[:m.start()]
    inside = _INSIDE.get(lang)
    for m in inside.finditer(core) if inside else ():
        if _CONCESSION.search(core[:m.start()]):
            continue
        after = core[m.end():]
        if after.lstrip().startswith(":"):  # 'in any case where:' — the points are the condition
            conditions.append((m.group(), after.lstrip()[1:]))
            core = core[:m.start()]
            break
        if _to_the_end(_TAIL.sub("", after.split(":")[0]), lang):  # it runs to the end: it bounds the clause
            # 'where applicable to the trader: (a) …' — not the list; but 'on condition that the provider: (a) does not
            # have …' — a clause whose verb is in the points
            finite, needs, lead_in = _FINITE.get(lang), _NEEDS_CLAUSE.get(lang), after.split(":")[0]
            clause = (":" in after and needs is not None and bool(needs.search(m.group())) and finite is not None
                      and not finite.search(lead_in))
            conditions.append((m.group(), after if clause else lead_in))
            core = core[:m.start()]
            break
    return Statement(sentence, " ".join(core.split()),
                     tuple((" ".join(word.split()).strip(", ").lower(), c.strip()) for word, c in conditions if c.strip()))


def dropped_condition(sentence: str, text: str, lang: str) -> str | None:
    """The condition (or exception) of the provision's sentence the claim restates, with the word that opens
    it ('where Article 3(2) applies'), when the claim keeps none of its own words and states no condition
    itself (a duty owed upon request is read first, whatever the claim states); None otherwise."""
    own, whether = OWN_CONDITION.get(lang), _WHETHER.get(lang)
    if own is None:
        return None
    wanted = signals.content_terms(sentence, lang)
    best, shared = closest(wanted, text, lang)
    if best is None or shared < 2 or len(wanted - signals.held(wanted, signals.content_terms(best.text, lang), lang)) > len(wanted) / 2:
        return None  # the claim restates no one sentence of the provision
    # A claim that restates a point of the list a rule is bound by ('il trasferimento sia necessario per importanti motivi
    # di interesse pubblico' under '… è ammesso … soltanto se si verifica una delle seguenti condizioni:') states the
    # condition, and drops none of the rule's, whichever sentence's rule shares more of its words.
    whole, whole_shared = closest(wanted, text, lang, core=False)
    if whole is not None and whole_shared > shared and ":" in whole.text:
        point = signals.content_terms(whole.text.rsplit(":", 1)[1], lang) - signals.content_terms(whole.core, lang)
        if 2 * len(signals.held(wanted, point, lang)) > len(wanted):
            return None
    # A duty owed only when asked is dropped by a claim that never says anyone asks, whatever other condition
    # it keeps ('Where a recipient considers …, the data holder must provide …' for '… upon its reasoned request').
    asked = _request(sentence, best.text, wanted, lang)
    if asked:
        return asked
    if own.search(_without_asides(whether.sub(" ", sentence) if whether else sentence, text, own, lang)):
        # the claim states a condition itself: the sentence it restates is the one closest with its conditions
        restated = closest(wanted, text, lang, core=False)[0] or best
        return _dropped_conjunct(restated, wanted, lang) or _dropped_other(restated, wanted, lang)
    found = _dropped_in(best, sentence, text, wanted, lang) or _dropped_conjunct(best, wanted, lang)
    if found:
        return found
    # A claim may restate two sentences of the provision ('… must report on it, and accompany that report with a
    # proposal', where the second sentence says 'where appropriate'): the other sentence's conditions bound it too.
    seen = signals.content_terms(best.core, lang)
    for other in statements(text, lang):
        if other is best:
            continue
        own_terms = signals.content_terms(other.core, lang) - seen
        if len(signals.held(own_terms, wanted, lang)) >= ALSO_RESTATED:
            found = _dropped_in(other, sentence, text, wanted, lang) or _dropped_qualifier(sentence, other.text, wanted, lang)
            if found:
                return found
    return _dropped_qualifier(sentence, best.text, wanted, lang)


def _dropped_conjunct(statement: Statement, wanted: frozenset[str], lang: str) -> str | None:
    """A condition of joined clauses ('where the market investigation shows that a gatekeeper has systematically
    infringed …, and has maintained, strengthened or extended its gatekeeper position …') that the claim restates in
    part, in a condition of its own or in its words: the clause of which it keeps none of the words only that clause
    has."""
    joiner = _AND.get(lang)
    if joiner is None:
        return None
    core = signals.content_terms(statement.core, lang)
    for word, condition in statement.conditions:
        if _EXCEPTION.match(word):
            continue
        clauses = _clauses(condition, joiner, lang)
        parts = [signals.content_terms(clause, lang) - core for clause in clauses]
        if len(parts) < 2 or not any(signals.held(part, wanted, lang) for part in parts):
            continue  # the claim's condition is another, or says this one in words of its own
        for at, part in enumerate(parts):
            alone = part - frozenset().union(*(other for i, other in enumerate(parts) if i != at))
            if len(alone) >= CONJUNCT_OWN and not signals.held(alone, wanted, lang):
                return f"{word} {condition}" if at == 0 else f"{word} … {clauses[at]}"
    return None


def _dropped_other(statement: Statement, wanted: frozenset[str], lang: str) -> str | None:
    """Of two conditions put on one rule ('Where a service consists of the storage of information …, the provider shall
    not be liable …, on condition that the provider: (a) does not have actual knowledge …'), a later one that a claim
    keeping another holds none of the words of: each condition must hold, as each clause of a joined one must."""
    core = signals.content_terms(statement.core, lang)
    parts = [(word, condition, signals.content_terms(condition, lang) - core) for word, condition in statement.conditions
             if not _EXCEPTION.match(word)]
    if len(parts) < 2 or not any(signals.held(terms, wanted, lang) for _, _, terms in parts):
        return None
    # (the condition opening the sentence names the situation, which a claim may say in a word: 'a hosting provider' for
    # 'where a service … consists of the storage of information')
    for at, (word, condition, terms) in enumerate(parts[1:], start=1):
        alone = terms - frozenset().union(*(other for i, (_, _, other) in enumerate(parts) if i != at))
        if len(alone) >= CONJUNCT_OWN and not signals.held(alone, wanted, lang):
            return f"{word} {condition}"
    return None


def _clauses(condition: str, joiner: re.Pattern[str], lang: str) -> list[str]:
    """A condition split at 'and' where both sides hold a verb: the clauses it joins ('a joint operation is intended
    and a supervisory authority does not comply'), not the words of a list ('evidence that this is necessary to
    maintain the protection of health, safety and fundamental rights')."""
    verb = _FINITE.get(lang)
    clauses: list[str] = []
    cut = 0
    for m in joiner.finditer(condition):
        before, after = condition[cut:m.start()], condition[m.end():]
        if verb is not None and verb.search(before) and verb.search(after):
            clauses.append(before)
            cut = m.end()
    return clauses + [condition[cut:]]


def _dropped_in(statement: Statement, sentence: str, text: str, wanted: frozenset[str], lang: str) -> str | None:
    """The condition of one of the provision's sentences that the claim (its content terms `wanted`) drops."""
    core = signals.content_terms(statement.core, lang)
    for word, condition in statement.conditions:
        if _EXCEPTION.match(word):
            # a summary may leave an exception out, but not while saying the rule never yields (read as a condition
            # instead: dev +12 caught, -6 faithful, test -1 faithful; docs/verify.md, twelfth round)
            absolute = _ABSOLUTE.get(lang)
            if absolute and absolute.search(sentence):
                return f"{word} {condition}"
            continue
        bounding = signals.content_terms(condition, lang) - core
        # Who a condition is about ('requests from a data subject are manifestly unfounded') is not what it
        # requires: a claim naming the same actor has not restated it (dev: 1 more caught, none lost).
        what = signals.content_terms(signals.without_actors(condition, lang), lang) - core
        if len(what) >= 2:
            bounding = what
        # A one-word condition ('where applicable', 'if the recipient submits …' with the rest in the clause)
        # leaves the clause as it is, but not the discretion of 'where appropriate' or 'if necessary' (dev: 1
        # more caught, none lost; every one-word condition: 2 faithful lost for 1 caught). Holding none of its
        # words is the test: holding fewer than half caught one more dev sentence (dev 1,650: +8 caught, -1
        # faithful, but on test -3 faithful, +1 caught; docs/verify.md, eighth round).
        qualified = _DISCRETION.get(lang)
        weighty = len(bounding) >= 2 or bool(bounding and qualified and qualified.search(condition))
        if weighty and not signals.held(bounding, wanted, lang):
            return f"{word} {condition}"
        # A claim may hold a condition's words for another reason: the provision uses them elsewhere ('the trader's
        # information' of the sentence before 'Where the trader fails to correct or complete that information'). The
        # words the condition alone brings to the provision are its own; a claim holding none of them dropped it
        # (dev: 5 more caught, none of the faithful lost).
        alone = bounding - signals.content_terms(text.replace(statement.text, " "), lang)
        if len(alone) >= 2 and not signals.held(alone, wanted, lang):
            return f"{word} {condition}"
        # A date the rule applies from ('From 12 January 2027, providers … shall not impose …') is a condition
        # a claim drops when it states no such year.
        years = set(re.findall(r"\b(?:19|20)\d\d\b", condition))
        if years and not years & set(re.findall(r"\b(?:19|20)\d\d\b", sentence)):
            return f"{word} {condition}"
        # A condition that negates ('If the controller has not already communicated the breach, …') is
        # dropped by a claim that negates nothing, though it keeps the condition's words (dev: 1 more caught,
        # none of the faithful lost).
        if signals.negations(condition, lang) and not signals.negations(sentence, lang):
            return f"{word} {condition}"
    return None


def _dropped_qualifier(sentence: str, text: str, wanted: frozenset[str], lang: str) -> str | None:
    """A qualifier inside the text's sentence ('…, where relevant, they facilitate cross-border cooperation',
    'to the best extent possible, free of errors') that the claim drops while restating the words it bounds."""
    qualifier = _QUALIFIER.get(lang)
    if qualifier is None or qualifier.search(sentence):
        return None
    said, closes = {w[:5] for w in _WORD.findall(fold(sentence.lower()))}, _QUALIFIER_CLOSES.get(lang)
    for m in qualifier.finditer(text):
        if any(w[:5] in said for w in _WORD.findall(fold(m.group().lower())) if len(w) >= 5 and w not in STOPWORDS.get(lang, ())):
            continue  # the claim says it in words of its own ('in urgent cases' for 'in cases of urgency')
        words = _WORD.findall(re.split(r"[;:.]", text[m.end():], maxsplit=1)[0])[:QUALIFIED_WORDS]
        # set off by commas with nothing of its own after it (the clause ends, or a purpose follows), it bounds the words
        # before it ('to amend Annex IV, where necessary, to ensure …'; not 'including, as appropriate, the use of …')
        if text[:m.start()].rstrip().endswith(",") and closes is not None and closes.match(text[m.end():]):
            words += _WORD.findall(re.split(r"[;:.]", text[:m.start()])[-1])[-QUALIFIED_WORDS:]
        bounded = signals.content_terms(" ".join(words), lang)
        if bounded and len(signals.held(bounded, wanted, lang)) >= min(QUALIFIED_HELD, len(bounded)):
            return m.group()
    return None


def _to_the_end(after: str, lang: str) -> bool:
    """Whether a condition closing a sentence runs to its end: no comma in it, or only the commas of a list
    ('… protection of health, safety and fundamental rights'; its segments short, the last joined by 'and')."""
    segments = after.split(",")
    if len(segments) == 1:
        return True
    if not segments[0].strip() and len(segments) > 2:  # 'only if, as from that date, those systems …'
        return _to_the_end(",".join(segments[2:]), lang)
    joiner, modal = _LIST_GOES_ON.get(lang), signals.MODAL.get(lang)
    rest = segments[1:]
    # ', where relevant, other Union law …': a word or two set off by commas bounds what follows it, not the clause
    return bool(joiner and modal and joiner.search(rest[-1]) and len(segments[0].split()) > 2
                and all(len(seg.split()) <= LIST_SEGMENT_WORDS and not modal.search(seg) for seg in rest))


def _without_asides(sentence: str, text: str, own: re.Pattern[str], lang: str) -> str:
    """The sentence less the conditions of one word it copies from the text and sets off by a comma ('the
    controller or, where applicable, its representative'): they qualify a word, and state no condition of the
    claim's own that could stand for the text's."""
    folded, stop = signals.folded_squash(text), STOPWORDS.get(lang, set())

    def aside(m: re.Match[str]) -> str:
        copied = signals.folded_squash(m.group(1)) in folded
        return " " if copied and fold(m.group(2)) not in stop else m.group()

    return re.sub(rf"((?:{own.pattern})\s+([\w-]+))\s*,", aside, sentence, flags=re.IGNORECASE)


def _request(sentence: str, text: str, wanted: frozenset[str], lang: str) -> str | None:
    """'upon request' in the provision's sentence, bounding words the claim keeps ('shall, upon request,
    communicate them'), when the claim never says that anyone asks: a duty owed only when asked."""
    on_request, asked = _ON_REQUEST.get(lang), _ASKED.get(lang)
    if on_request is None or asked is None or asked.search(sentence):
        return None
    for m in on_request.finditer(text):
        after = " ".join(text[m.end():].lstrip(" ,").split()[:REQUEST_WORDS])
        if not after.strip(" .;,"):
            return m.group().strip()  # at the end, it bounds the whole sentence
        # the words only the bounded part has: a claim of the part before it ('inform … of the approvals it has
        # refused, and, upon request, of those it has issued') keeps none of them
        bounded = signals.content_terms(after, lang) - signals.content_terms(text[:m.start()], lang)
        if bounded and signals.held(bounded, wanted, lang):
            return m.group().strip()
    return None


def widened(sentence: str, text: str, lang: str, said: str = "") -> tuple[str, str] | None:
    """(the claim's quantified phrase, the provision's narrower phrase) when the claim says
    'any' / 'all' / 'every' of something the provision only ever names with a restricting word. `said`: the
    claim with its quotations read in, apart from `sentence`; their words are the claim's too ('every four years, "the
    Commission shall submit …"' restricts nothing by the words it quotes)."""
    rx = _QUANTIFIER.get(lang)
    if rx is None:
        return None
    claim = f"{sentence}\n{said}"
    claim_terms = signals.terms(claim, lang)
    words = _words(text, lang)
    for m in rx.finditer(sentence):
        phrase, named = _phrase(sentence[m.end():], lang)
        if not phrase:
            continue
        narrower = _restricted(phrase, words, claim_terms, lang, said=claim)
        if narrower:
            return f"{m.group().strip()} {named}", narrower
    return None


def widened_subject(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the claim's subject, the provision's narrower phrase) when the actor the claim says must act ('Providers
    of online platforms must …') is one the provision only ever names with a restricting word ('very large')."""
    modal = signals.MODAL.get(lang)
    m = modal.search(sentence) if modal else None
    if m is None:
        return None
    start = max(sentence.rfind(mark, 0, m.start()) for mark in ".;:,()") + 1
    subject = sentence[start:m.start()]
    if not signals.actors(subject, lang):
        return None
    phrase, said = _phrase(subject, lang)
    if len(phrase) < 2:
        return None
    narrower = _restricted(phrase, _words(text, lang), signals.terms(sentence, lang), lang, inner=True)
    return (said, narrower) if narrower else None


_JOINED = languages.compiled("joined_word", "VERIFY")
_OWN_ACT = {code: re.compile(f"^(?:{p.pattern})", re.IGNORECASE)
            for code, p in languages.compiled("own_act_reference", "STRUCTURE").items()}
_ALTERNATIVES = {code: re.compile(rf"\b((?:[^\W\d][\w-]*,\s+){{0,4}}[^\W\d][\w-]*),?\s+(?:{p.pattern})\s+([^\W\d][\w-]*)"
                                rf"(?=\s+([^\W\d][\w-]*))", re.IGNORECASE)
                 for code, p in _JOINED.items() if code not in _ADJECTIVE_AFTER}


def added_alternative(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the claim's alternatives, the provision's phrase) when the claim joins to what the provision names an
    alternative it never writes: 'natural or legal person' for 'natural person', 'micro, small or medium-sized
    enterprises' for 'micro or small enterprises'."""
    rx = _ALTERNATIVES.get(lang)
    if rx is None:
        return None
    stop = STOPWORDS.get(lang, set()) | _PHRASE_END.get(lang, frozenset())
    words = _words(text, lang)
    keys = [_key(w.said, lang) for w in words]
    written = set(keys) | {stem for k in keys for stem in k.split("-")}
    pairs: dict[tuple[str, str], int] = {}
    for i in range(len(words) - 1):
        pairs.setdefault((keys[i], words[i + 1].stem), i)
    for m in rx.finditer(sentence):
        said = _alternatives(m)
        head = m.group(3)
        # an adverb ('directly or indirectly, stop or restrict') joins no noun's modifiers; names ('the Commission, ECB or
        # Union body') are actors, not a scope
        if fold(head) in stop or any(fold(w) in stop or w.lower().endswith("ly") or w[:1].isupper() for w in said):
            continue
        named = [pairs[k] for w in said if (k := (_key(w, lang), _stem(head, lang))) in pairs]
        added = [w for w in said if not {_key(w, lang), *_key(w, lang).split("-")} & written]
        # as many alternatives as the text joins there is a paraphrase ('permanent or temporary' for 'standing or
        # temporary'), not a wider scope
        if named and added and len(said) > _joined_count(text, said, head, rx, lang):
            at = named[0]
            return f"{m.group()} {head}", " ".join(w.said for w in words[max(0, at - 3):at + 2])
    return None


def _joined_count(text: str, said: list[str], head: str, rx: re.Pattern[str], lang: str) -> int:
    """How many alternatives the text joins before the claim's head noun where it names one of the claim's."""
    keys, stem = {_key(w, lang) for w in said}, _stem(head, lang)
    counts = [1]
    for m in rx.finditer(text):
        joined = _alternatives(m)
        if _stem(m.group(3), lang) == stem and keys & {_key(w, lang) for w in joined}:
            counts.append(len(joined))
    return max(counts)


def _alternatives(m: re.Match[str]) -> list[str]:
    return [*(w.strip() for w in m.group(1).split(",")), m.group(2)]


def _key(word: str, lang: str) -> str:
    """A word's stems joined: 'non-personal' is 'non-person', never 'personal'."""
    return "-".join(tokenize(word, lang)) or fold(word)


def _phrase(after: str, lang: str) -> tuple[list[str], str]:
    """The content stems of the noun phrase a quantifier opens, and its words as written."""
    stop, end = STOPWORDS.get(lang, set()), _PHRASE_END.get(lang, frozenset())
    article = _ARTICLE.get(lang)
    stems: list[str] = []
    said: list[str] = []
    for m in _WORD.finditer(after):
        word = fold(m.group())
        if word in end:
            break
        # an article right after a noun opens a clause of its own: 'any AI system the importers have placed'
        # (after two content words: 'every year the Commission' is a time, not a scope)
        if article and len(stems) >= 2 and fold(said[-1]) not in stop and article.fullmatch(word + " "):
            break
        said.append(m.group())
        if word not in stop and not word[:1].isdigit():
            stems.append(_stem(word, lang))
        if after[m.end():m.end() + 1] in ",;.:":
            break
    while said and fold(said[-1]) in stop:
        said.pop()
    return stems, " ".join(said)


def _restricted(phrase: list[str], words: list[Word], claim_terms: frozenset[str], lang: str,
                inner: bool = False, said: str = "") -> str:
    """The provision's phrase for the same thing, when every use of it carries a content word the
    claim lacks (before it, or between its words; `inner`: between its words only, and no clause there);
    '' when some use is unrestricted, or none. `said`: the claim's words, a reference after the phrase among them
    restricting it no more than the text does."""
    found = []
    for start, (stem, *_) in enumerate(words):
        if stem != phrase[0]:
            continue
        extra, pos, matched = [], start, True
        for want in phrase[1:]:
            step, between = pos + 1, 0
            while (step < len(words) and between <= PHRASE_GAP and words[step].stem != want
                   and not words[step].opens):
                between += words[step].content  # function words ('of the') do not count: 'provider of the very large …'
                step += 1
            if step < len(words) and words[step].opens:
                matched = False  # a phrase never runs on into the next sentence
                break
            if step >= len(words) or words[step].stem != want:
                matched = False
                break
            span = words[pos + 1:step]
            # 'other requirements or obligations' for the claim's 'other obligations': an alternative joined before the
            # phrase's word restricts nothing
            if not (span and _JOINED.get(lang) and _JOINED[lang].fullmatch(span[-1].said)):
                extra += [w for w in span if w.content and w.stem not in claim_terms]
            pos = step
        if not matched:
            continue
        # inner: the whole span ('platform allowing consumers to conclude'); else the words between the phrase's own
        # ('systematic monitoring of', where 'monitoring' is the claim's word too)
        inside = words[start:pos + 1] if inner else [w for w in words[start:pos + 1] if w.stem not in phrase]
        if _clause_inside(" ".join(w.said for w in inside), lang):
            continue  # 'platform allowing consumers to conclude …', 'controller shall implement …': not a modifier
        before = words[start - 1] if start else None
        if not inner and before and before.content and before.stem not in claim_terms and not before.stem[:1].isdigit():
            extra.insert(0, before)
        # 'high-risk AI systems referred to in point 1(a) of Annex III': a reference after the phrase restricts
        # it as a word before it does (dev: 1 more caught, none of the faithful lost; any relative clause
        # after it, 'that', 'which', lost two faithful sentences).
        listed = _LISTED.get(lang)
        after = " ".join(w.said for w in words[pos + 1:pos + 6])
        own = _OWN_ACT.get(lang)
        tail = 4 if not inner and listed and listed.match(after) and not (own and own.match(after)) else 0
        if tail and said and " ".join(after.split()[:tail]).lower() in " ".join(said.split()).lower():
            tail = 0  # the claim says the reference too ('"… a gatekeeper, pursuant to Article 3 …"')
        if not tail and not inner and lang in _ADJECTIVE_AFTER:
            tail = _modifier_after(words[pos + 1:pos + 4], claim_terms, lang)
        if not extra and not tail:
            return ""  # the provision uses the phrase as the claim does
        first = start - 1 if extra and extra[0] is before else start
        found.append(" ".join(w.said for w in words[first:pos + 1 + tail]))
    return found[0] if found else ""


def _modifier_after(after: list[Word], claim_terms: frozenset[str], lang: str) -> int:
    """How many words after a phrase restrict it, in a language whose adjectives follow the noun ('sistemi di IA
    ad alto rischio', 'autorità giudiziaria'): a content word the claim lacks, right after it or after one short
    function word; 0 for none, or for a verb ('un sistema immesso sul mercato')."""
    for at, word in enumerate(after[:2]):
        if word.opens:
            return 0
        if at == 0 and len(word.said) <= 2:
            continue  # 'ad', 'di'
        if word.content:
            verb = _PARTICIPLE.get(lang)
            if word.stem in claim_terms or (verb is not None and verb.fullmatch(word.said)):
                return 0
            return 1 if at == 0 else 3  # 'autorità giudiziaria'; 'ad alto rischio' shown whole
        return 0
    return 0


def _clause_inside(span: str, lang: str) -> bool:
    """Whether the words between a phrase's words hold a verb (a modal, a participle, a relative pronoun, 'laid
    down in'): a clause, not a modifier ('operations which is performed on data', 'obligations laid down in this
    Article')."""
    modal, participle, relative = signals.MODAL.get(lang), _PARTICIPLE.get(lang), _RELATIVE.get(lang)
    return any(rx is not None and rx.search(span) for rx in (modal, participle, relative, _REFERENCE.get(lang)))


class Word(NamedTuple):
    """One word of a provision, as the phrase readers see it."""

    stem: str
    said: str  # as written
    content: bool  # a content word, not a function word, a number or a point's marker
    opens: bool  # the first word of a sentence (after '.', ';' or ':')


@lru_cache(maxsize=1024)
def _words(text: str, lang: str) -> list[Word]:
    """Each word of a text, in order."""
    stop, frame = STOPWORDS.get(lang, set()) | _PHRASE_END.get(lang, frozenset()), signals.frame_stems(lang)
    out = []
    for m in _WORD.finditer(text):
        word, stem = fold(m.group()), _stem(m.group(), lang)
        marker = text[m.start() - 1:m.start()] == "(" and text[m.end():m.end() + 1] == ")"  # a point's '(b)'
        before = m.start() - 1
        while before >= 0 and text[before].isspace():
            before -= 1
        opens = before >= 0 and text[before] in ".;:"
        out.append(Word(stem, m.group(), word not in stop and stem not in frame and not word[:1].isdigit() and not marker,
                        opens))
    return out


def _stem(word: str, lang: str) -> str:
    stems = tokenize(word, lang)
    return stems[0] if stems else fold(word)


_SCOPE_QUALIFIERS = {code: [(re.compile(head, re.IGNORECASE), re.compile(qualified, re.IGNORECASE))
                            for head, qualified in table.items()]
                     for code, table in languages.each("SCOPE_QUALIFIERS").items()}
_BACK_REFERENCE = languages.compiled("back_reference", "VERIFY")


def dropped_qualifier(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the sentence's bare head, the text's qualified form) when the sentence names a regime's head noun without
    the qualifier the cited text always puts on it ('AI systems' where every mention is 'high-risk AI systems')."""
    back = _BACK_REFERENCE.get(lang)
    for head, qualified in _SCOPE_QUALIFIERS.get(lang, []):
        if qualified.search(sentence):
            continue
        has = [m.span() for m in qualified.finditer(text)]
        if not has or any(not _inside(m.span(), has) for m in head.finditer(text)):
            continue
        for m in head.finditer(sentence):
            if not (back and back.search(sentence[:m.start()])):
                return m.group(), text[has[0][0]:has[0][1]]
    return None


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] and span[1] <= b for a, b in spans)
