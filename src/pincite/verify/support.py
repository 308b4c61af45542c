"""Whether a sentence says what the provisions it cites say: the support check, in code.

A sentence is supported when each signal agrees with the cited text: its quotations are the
text's words in order, its numbers and comparators are the text's, a recital is not cited for
an obligation, the actors it names are actors of the text, its modality and polarity match the
clause it rests on (the clause of the cited text sharing most of its terms), and enough of its
content terms are in the cited text. A faithful statement of one part of the provision passes:
every signal is compared with the cited text, never the cited text with the sentence.

The thresholds were chosen on the dev split of evals/verify-adversarial.jsonl
(`python -m benchmarks.verify_support --split dev`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from pincite import languages
from pincite.verify import alignment, signals, structure
from pincite.verify.check import CALENDAR_DATE, Cited, Verdict, missing_quantities, quantities

MIN_QUOTE = 12          # characters: a shorter "…" fragment is a word in quotes, not a quotation
QUOTED_CLAUSE_WORDS = 6  # words: a quotation this long carries its clause, and its dates are not read again
MIN_COVERAGE = 0.6      # share of the sentence's content terms the cited text must hold
MIN_UNCOVERED = 3       # ... unless fewer than this many terms are missing
CLAUSE_MIN_SHARED = 2   # a clause the sentence rests on shares at least this many terms
RESTATED_MIN_SHARED = 3  # the sentence a claim restates, for who acts in it, shares this many terms (set, not tuned)

_QUOTE = re.compile(r"[\"“”«»]([^\"“”«»]+)[\"“”«»]")
# What states an obligation (a recital states none), and the words that report a recital rather than
# state a rule ('the recitals explain that providers must…').
_OBLIGATION_CLAIM = languages.compiled("obligation", "RECITAL_CLAIMS")
# 'and' before a second verb of the sentence ('… and has to make sure …'): where its second part begins
_CLAUSE_JOINER = languages.compiled("clause_joiner", "VERIFY")
_GRANTED_NOUN = languages.compiled("granted_noun", "VERIFY")
_REPORTED = languages.cue("reported", "RECITAL_CLAIMS")
_SAYS = languages.compiled("says", "VERIFY")  # the verb reporting a provision after its label ('provides that')
_POINT = re.compile(r"\(?\w{1,4}\)\s")  # a clause that is a point: '(b) refuse to act …', French 'f) l'utilisation …'


@dataclass(frozen=True)
class Claim:
    """A sentence to check: its text without citations, the language, and what it cites."""

    body: str
    lang: str
    cited: list[Cited]


def support(claim: Claim) -> Verdict:
    """The first signal on which the sentence and its cited text disagree, or ok."""
    claim = Claim(signals.expanded(claim.body, claim.lang), claim.lang, claim.cited)
    for check in (_recital, _quotes, _numbers, _dates, _periods, _comparators, _scope, _roles, _content, _modality, _polarity, _conditions):
        verdict = check(claim)
        if verdict is not None:
            return verdict
    return Verdict(True)


def without_own_label(body: str, cited: list[Cited], lang: str) -> str:
    """The sentence less a cited provision's own label with the verb that reports it ('Article 36(2) provides that …',
    'Annex III, point 1 lists …'): the frame is the sentence's, not the text's ('provides' where the text says 'does not
    provide'; 'Annex', 'III', which the annex does not write). A label named alone is left to be read."""
    says = _SAYS.get(lang)
    if says is None:
        return body
    for found in cited:
        label = re.escape(found.label).replace(r"\ ", r"\s+")
        body = re.sub(rf"\b{label}(?![\w(])\s*(?:{says.pattern})\b", " ", body, flags=re.IGNORECASE)
    return body


def _labels(claim: Claim) -> str:
    return ", ".join(c.label for c in claim.cited)


def _text(claim: Claim) -> str:
    return "\n".join(c.text for c in claim.cited)


def _titles(claim: Claim) -> str:
    """The cited provisions' headings: "Records of processing activities" names what Article
    30(5) exempts from, though the paragraph says only "the obligations referred to"."""
    return "\n".join(c.provision.title or "" for c in claim.cited)


def _recital(claim: Claim) -> Verdict | None:
    if not claim.cited or any(c.provision.kind != "recital" for c in claim.cited):
        return None
    rx = _OBLIGATION_CLAIM.get(claim.lang)
    m = rx.search(claim.body) if rx else None
    if m is None or _REPORTED.search(claim.body[:m.start()]):
        return None
    return Verdict(False, "recital_as_obligation",
                   f"the sentence states an obligation ('{m.group()}'); {_labels(claim)} is a recital, which binds no one")


def _quotes(claim: Claim) -> Verdict | None:
    fragments = [m.group(1) for m in _QUOTE.finditer(claim.body)]
    if not fragments:
        return None
    haystack = signals.folded_squash(_text(claim))
    for fragment in fragments:
        if not in_order(fragment, haystack):
            return Verdict(False, "misquote", f"'{_short(fragment)}' is not the text of {_labels(claim)}")
    return None


def in_order(fragment: str, haystack: str, *, min_length: int = MIN_QUOTE) -> bool:
    """Whether a quoted fragment's pieces (split at '…' or '...') are the text's words, in order.
    A piece shorter than min_length characters must be part of a longer piece's match."""
    pos = 0
    pieces = [signals.folded_squash(p) for p in re.split(r"…|\.\.\.|\[\s*\.\.\.\s*\]", fragment)]
    pieces = [p for p in pieces if p]
    if not pieces:
        return True
    if len(pieces) > 1 and any(len(p) < min_length for p in pieces):
        return False
    for piece in pieces:
        found = haystack.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    return True


def _numbers(claim: Claim) -> Verdict | None:
    texts = [signals.words_to_digits(c.text, claim.lang) for c in claim.cited]
    body = signals.words_to_digits(claim.body, claim.lang)
    missing = missing_quantities(body, texts)
    if missing:
        return Verdict(False, "number_mismatch", f"{', '.join(missing)} not in {_labels(claim)}")
    bound = signals.bound_quantities("\n".join(texts), claim.lang)
    for value, unit, qualifier in sorted(signals.bound_quantities(body, claim.lang)):
        seen = {q for v, u, q in bound if (v, u) == (value, unit)}
        if seen and qualifier not in seen:
            said = " ".join(w for w in (value, qualifier, unit) if w)
            return Verdict(False, "number_mismatch", f"the sentence says '{said}'; {_labels(claim)} says "
                                                     f"'{' or '.join(' '.join(w for w in (value, q, unit) if w) for q in sorted(seen))}'")
    return None


def _dates(claim: Claim) -> Verdict | None:
    """A date the text gives to something else: each part of the sentence that holds a date rests (by its
    other words) on a clause of the text; when that clause holds another date and not the sentence's,
    the sentence has moved it ("Chapters I and II apply from 2 August 2026" where Article 113(a) says
    2 February 2025, though the article holds both dates)."""
    for part in _parts(claim, unquoted(claim.body, QUOTED_CLAUSE_WORDS)):
        for m in CALENDAR_DATE.finditer(part):
            clause = _clause_holding(CALENDAR_DATE.sub(" ", part), _text(claim), claim.lang)
            said = " ".join(m.group().split()).lower()
            dates = [" ".join(d.split()) for d in CALENDAR_DATE.findall(clause)]
            if dates and said not in (d.lower() for d in dates):
                return Verdict(False, "number_mismatch", f"the sentence says '{m.group()}'; {_labels(claim)} says "
                                                         f"'{dates[0]}' of '{_short(clause)}'")
    return None


_PERIOD = re.compile(rf"\b(\d+)\s+(?:\w+\s+)?({languages.cue('period_unit', 'VERIFY').pattern})\b", re.IGNORECASE)


def _periods(claim: Claim) -> Verdict | None:
    """A period the text gives to something else, as `_dates` reads dates: 'conclude the investigation within 6
    months' where the clause on concluding says 12 months (the 6 months of another clause is no support)."""
    text = signals.words_to_digits(_text(claim), claim.lang)
    for part in _parts(claim, signals.words_to_digits(unquoted(claim.body, QUOTED_CLAUSE_WORDS), claim.lang)):
        for m in _PERIOD.finditer(part):
            unit = _unit(m.group(2))
            clause = _clause_holding(_PERIOD.sub(" ", part), text, claim.lang, partial(_holds_period, unit=unit))
            values = [v for v, u in _PERIOD.findall(clause) if _unit(u) == unit]
            if values and m.group(1) not in values:
                return Verdict(False, "number_mismatch", f"the sentence says '{m.group()}'; {_labels(claim)} says "
                                                         f"'{values[0]} {m.group(2)}' of '{_short(clause)}'")
    return None


def _unit(word: str) -> str:
    return word.lower().rstrip("s")


def _holds_period(clause: str, unit: str) -> bool:
    return any(_unit(found) == unit for _, found in _PERIOD.findall(clause))


def _clause_holding(words: str, text: str, lang: str, holds: Callable[[str], object] | None = None) -> str:
    """The one clause of the text holding a date (or what `holds` finds: a period, a bound) that shares the most words
    with the part (its words less the function words, so 'Chapter V' is told from 'Chapters I and II'); '' when none
    shares two or two share as many."""
    # every word but the function words ('the', 'of': they tied a sentence's 'The Regulation … applicable' to a point
    # on another date), by its first five letters ('applicable' and 'apply' alike)
    said = signals.word_prefixes(words, lang)
    scored = sorted(((len(said & signals.word_prefixes(c, lang)), c) for c in signals.clauses(text)
                     if (holds or CALENDAR_DATE.search)(c)), key=lambda x: -x[0])
    if not scored or scored[0][0] < 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return ""
    return scored[0][1]


def _comparators(claim: Claim) -> Verdict | None:
    """A comparator or scope the cited text does not have: 'whichever is lower' for 'higher',
    'at least' where the text only sets ceilings, 'only' or 'all' where it has no such word."""
    body = signals.words_to_digits(unquoted(_quotations_read_in(claim.body, claim.lang)), claim.lang)
    text = signals.words_to_digits(_text(claim), claim.lang)
    have = signals.comparators(text)
    for name in ("higher", "lower", "shorter", "longer"):
        if name in signals.comparators(body) and name not in have:
            return Verdict(False, "comparator", f"the sentence says 'the {name}'; {_labels(claim)} does not")
    said, bound = signals.bounds(body), signals.bounds(text)
    for name, other in (("floor", "ceiling"), ("ceiling", "floor")):
        if name in said and other in bound and name not in bound:
            return Verdict(False, "comparator", f"the sentence sets a {name}; {_labels(claim)} sets a {other}")
    # a part of the sentence bounds what a clause lists the other way from that clause, whatever other bounds the
    # provision sets elsewhere ('shall contain at most the following' for 'at least the following', beside a point's
    # 'maximum size')
    for part in _parts(claim, body):
        said = signals.unnumbered_bounds(part)
        clause = _clause_holding(part, text, claim.lang, signals.unnumbered_bounds) if said else ""
        for name in sorted(said):
            other = "floor" if name == "ceiling" else "ceiling"
            if clause and other in signals.unnumbered_bounds(clause) and name not in signals.unnumbered_bounds(clause):
                return Verdict(False, "comparator", f"the sentence sets a {name}; {_labels(claim)} sets a {other}: "
                                                    f"'{_short(clause)}'")
    bounded = signals.bound_values(text, claim.lang)
    for value, name in sorted(signals.bound_values(body, claim.lang)):
        other = "floor" if name == "ceiling" else "ceiling"
        if (value, other) in bounded and (value, name) not in bounded:
            return Verdict(False, "comparator", f"the sentence sets a {name} on {value}; {_labels(claim)} sets a {other}")
    strict = signals.strict_bounds(text, claim.lang)
    for value, kind in sorted(signals.strict_bounds(body, claim.lang)):
        other = "inclusive" if kind == "strict" else "strict"
        if (value, other) in strict and (value, kind) not in strict:
            said_it, has_it = ("excludes", "includes") if kind == "strict" else ("includes", "excludes")
            return Verdict(False, "comparator", f"the sentence {said_it} {value} itself; {_labels(claim)} {has_it} it")
    swap = alignment.swapped_opposite(body, text, claim.lang)
    if swap:
        return Verdict(False, "comparator", f"the sentence says '{swap[0]}' where {_labels(claim)} says '{swap[1]}'")
    word = signals.widened_scope(body, text, claim.lang)
    if word:
        return Verdict(False, "comparator", f"the sentence says '{word}'; {_labels(claim)} has no such limit")
    left_out = alignment.dropped_only(claim.body, text, claim.lang)
    limit = signals.only_dropped(body, text, claim.lang) or (left_out[1] if left_out and left_out[0] == "condition" else None)
    if limit:
        return Verdict(False, "comparator", f"the sentence states a plain condition; {_labels(claim)} says "
                                            f"'{_short(limit)}'")
    if left_out:
        return Verdict(False, "comparator", f"the sentence leaves out a limit; {_labels(claim)} says '{_short(left_out[1])}'")
    lifted = signals.lifted_limit(body, text, claim.lang)
    if lifted:
        return Verdict(False, "comparator", f"the sentence says '{lifted[0]}'; {_labels(claim)} limits it: "
                                            f"'{_short(lifted[1])}'")
    return None


def _scope(claim: Claim) -> Verdict | None:
    """'any AI system' (or 'Providers of online platforms must') where the provision only ever says 'high-risk AI
    systems' ('Providers of very large online platforms shall')."""
    read_in = _quotations_read_in(claim.body, claim.lang)
    body, text = unquoted(read_in), _text(claim)
    found = (structure.widened(body, text, claim.lang, said=read_in) or structure.widened_subject(body, text, claim.lang)
             or structure.added_alternative(body, text, claim.lang)
             or structure.dropped_qualifier(body, text, claim.lang))
    if found:
        return Verdict(False, "scope", f"the sentence says '{found[0]}'; {_labels(claim)} says '{_short(found[1])}'")
    return None


def _conditions(claim: Claim) -> Verdict | None:
    """A duty or permission stated without the condition the provision puts on it. A quotation states only what the
    text says ('Under the GDPR, "…"', 'The provision says that "…"'): a claim whose own words, outside its quotations,
    restate too little of the text to state a rule is not read for a dropped condition."""
    own = signals.held(signals.content_terms(unquoted(claim.body), claim.lang), signals.terms(_text(claim), claim.lang),
                       claim.lang)
    if _QUOTE.search(claim.body) and len(own) < CLAUSE_MIN_SHARED:
        return None
    condition = (structure.dropped_condition(claim.body, _text(claim), claim.lang)
                 or alignment.dropped_aligned_condition(claim.body, _text(claim), claim.lang))
    if condition:
        return Verdict(False, "condition_dropped", f"{_labels(claim)} states it only on a condition the sentence "
                                                   f"drops: '{_short(condition)}'")
    return None


def _roles(claim: Claim) -> Verdict | None:
    act = _act(claim)
    have = signals.actors(_text(claim), claim.lang, act)
    body = _quotations_read_in(claim.body, claim.lang)  # 'the controller "or processor shall …"' names both as one
    # 'the user's right shall not …' says whose right the subject is, not that the user acts: an actor named before the
    # modal or negated verb only as the owner of what is not an actor names no role to find in the text ('at the
    # Commission's expense' after the verb, or 'the processor's representative', still does)
    verbs = [m.start() for rx in (signals.MODAL.get(claim.lang), signals.NEGATED_VERB.get(claim.lang)) if rx
             for m in [rx.search(body)] if m]
    cut = min(verbs, default=0)
    owned = signals.owners(body[:cut], claim.lang, act) - signals.actors(body[cut:], claim.lang, act)
    extra = sorted(signals.actors(body, claim.lang, act) - have - owned)
    if extra:
        return Verdict(False, "role", f"the sentence names the {extra[0]}; {_labels(claim)} does not give it that role")
    qualified = signals.unqualified_actor(unquoted(body), _text(claim), claim.lang)
    if qualified:
        return Verdict(False, "role", f"the sentence names '{qualified}'; {_labels(claim)} does not")
    swap = alignment.swapped_actor(unquoted(body), _text(claim), claim.lang, act)
    if swap:
        return Verdict(False, "role", f"the sentence says '{swap[0]}' where {_labels(claim)} says '{swap[1]}'")
    said = signals.doers(unquoted(body), claim.lang, act)
    if not said:
        return None
    # Who acts anywhere in the provision, then in the sentence the claim restates: both actors may act somewhere
    # ('Digital Services Coordinators shall notify to the Commission the bodies they have certified. The
    # Commission shall publish …').
    for does in (signals.doers(_text(claim), claim.lang, act), signals.doers(_restated(claim), claim.lang, act)):
        if does and not said & does:
            return Verdict(False, "role", f"the sentence has the {sorted(said)[0]} act; in {_labels(claim)} "
                                          f"the {' or '.join(sorted(does))} does")
    return None


def _act(claim: Claim) -> str:
    """The act the cited provisions belong to, when they belong to one ('' otherwise)."""
    acts = {c.provision.instrument for c in claim.cited}
    return acts.pop() if len(acts) == 1 else ""


def _restated(claim: Claim) -> str:
    """The sentence of the cited text (a point with its lead-in) sharing most of the claim's content terms,
    when it shares at least RESTATED_MIN_SHARED; else ''."""
    best, shared = structure.closest(signals.content_terms(claim.body, claim.lang), _text(claim), claim.lang, core=False)
    return best.text if best is not None and shared >= RESTATED_MIN_SHARED else ""


def content_of(claim: Claim) -> Verdict | None:
    """The content signal alone: a citation written in the prose ('Under Article 99, …') claims
    that its provision says what the sentence says, as a bracketed one does."""
    return _content(claim)


def _content(claim: Claim) -> Verdict | None:
    wanted = signals.content_terms(claim.body, claim.lang)
    if not wanted:
        return None
    missing = _missing(claim, wanted, signals.terms(_text(claim) + "\n" + _titles(claim), claim.lang))
    coverage = 1 - len(missing) / len(wanted)
    # A long sentence may word up to MIN_UNCOVERED - 1 terms its own way; a claim of at most MIN_UNCOVERED
    # terms could never miss that many, so it must hold MIN_COVERAGE of them (its numbers, found in the text
    # by the number check, count as held). 3, 4 and 5 as that bound score alike on dev. Every term held was
    # tried for a claim of at most 8 words: 2 more dev sentences caught ("Platforms must monitor uploads."),
    # but faithful ones refused for a verb of their own ("Fines reach EUR 20 million."). A product's name
    # the text lacks is refused however short the claim ("ChatGPT is high-risk.").
    numbers = len(quantities(signals.words_to_digits(claim.body, claim.lang)))
    short = len(wanted) + numbers <= MIN_UNCOVERED and 1 - len(missing) / (len(wanted) + numbers) < MIN_COVERAGE
    name = _unnamed(claim)
    if name:
        return Verdict(False, "not_in_text", f"the sentence names '{name}'; {_labels(claim)} does not")
    if short or (coverage < MIN_COVERAGE and len(missing) >= MIN_UNCOVERED):
        return Verdict(False, "not_in_text", f"{len(missing)} of the sentence's {len(wanted)} terms are not in "
                                             f"{_labels(claim)} ({', '.join(missing[:5])})")
    return None


_NAME = re.compile(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b")  # a capital inside a word: 'ChatGPT', 'YouTube', 'iPhone'


def _unnamed(claim: Claim) -> str:
    """A product's or a company's name the sentence gives ('ChatGPT', 'YouTube': a capital inside the word)
    that neither the cited text nor its heading holds: the law names no product, so a sentence that does
    claims what no provision says, however few its other words."""
    text = (_text(claim) + "\n" + _titles(claim)).lower()
    frame = signals.frame_stems(claim.lang)
    for m in _NAME.finditer(unquoted(claim.body)):
        word = m.group()
        if word.lower() not in text and not signals.terms(word, claim.lang) <= frame:
            return word
    return ""


def _missing(claim: Claim, wanted: frozenset[str], have: frozenset[str]) -> list[str]:
    return sorted(wanted - signals.held(wanted, have, claim.lang))


def elsewhere(claim: Claim, act: list) -> Verdict | None:
    """`wrong_provision` when the cited provisions lack terms of the sentence that another
    provision of the act (not a recital) holds with all the others: 'the right to rectification'
    cited to the right to erasure. One term worded its own way is a paraphrase (on dev, a
    one-term rule lost four faithful sentences for five caught); the most specific provision
    holding them all, the shortest, is named."""
    wanted = signals.content_terms(claim.body, claim.lang)
    missing = _missing(claim, wanted, signals.terms(_text(claim) + "\n" + _titles(claim), claim.lang))
    if len(missing) < 2:
        return None
    cited = {c.provision.id for c in claim.cited}
    holding = [p for p in act if p.id not in cited and p.kind != "recital"
               and not _missing(claim, wanted, signals.terms(f"{p.title or ''}\n{p.text}", claim.lang))]
    if not holding:
        return None
    other = min(holding, key=lambda p: len(p.text))
    return Verdict(False, "wrong_provision", f"{other.label} has every term of the sentence; {_labels(claim)} does "
                                             f"not have {', '.join(missing[:5])}")


def rests_on(claim: Claim) -> str:
    """The clause of the cited text the sentence rests on: the one sharing most content terms."""
    wanted = signals.content_terms(claim.body, claim.lang)
    best, score = "", 0
    for clause in signals.clauses(_text(claim)):
        shared = len(wanted & signals.terms(clause, claim.lang))
        if shared > score:
            best, score = clause, shared
    # a short claim ('Systemic-risk models are banned.') has too few terms to share two with a clause
    return best if score >= (1 if len(wanted) <= MIN_UNCOVERED + 1 else CLAUSE_MIN_SHARED) else ""


def _modality(claim: Claim) -> Verdict | None:
    """An obligation where the clauses the sentence rests on (the best-matching ones, with the
    lead-in of their point) only permit, a permission where they only oblige or prohibit, advice
    ('should') where a provision (not a recital) obliges."""
    clause = rests_on(claim)
    if not clause:
        return None
    body = unquoted(_quotations_read_in(claim.body, claim.lang))
    said = signals.modality(body, claim.lang)
    # a lead-in's modal is a point's ('The Board may in particular: (i) advise …'), not that of a sentence beside it
    best = best_clauses(claim)
    leads = signals.lead_ins(_text(claim)) if any(_POINT.match(c) for c in best) else []
    has = set().union(*(signals.modality(c, claim.lang) for c in [*best, *leads]))
    should = signals.SHOULD.get(claim.lang)
    if (should and should.search(body) and not should.search(_text(claim)) and "obligation" in has
            and all(c.provision.kind != "recital" for c in claim.cited)):
        return Verdict(False, "modality", f"the sentence gives advice ('should'); {_labels(claim)} says '{_short(clause)}'")
    flipped = _verb_modality(body, claim)
    if flipped:
        return Verdict(False, "modality", flipped)
    swap = alignment.swapped_modal(body, _text(claim), claim.lang)
    if swap:
        return Verdict(False, "modality", f"the sentence says '{swap[0]}' where {_labels(claim)} says '{swap[1]}'")
    if not has:
        return None
    granted = _GRANTED_NOUN.get(claim.lang)
    # A sentence joining two of the text's sentences ('may adopt delegated acts …, which must be based on …')
    # may take its modals from either: one the best clauses lack is the text's if another clause it could
    # rest on has it.
    joined = set().union(*(signals.modality(c, claim.lang) for c in candidates(claim))) \
        if len(_parts(claim, body)) > 1 else set()
    if ("obligation" in said and not (has | joined) & {"obligation", "prohibition"}
            and not (has == {"permission"} and granted and granted.search(body))):
        return Verdict(False, "modality", f"the sentence states an obligation; {_labels(claim)} says '{_short(clause)}'")
    if ("permission" in said and has & {"obligation", "prohibition"} and "permission" not in has | joined
            and "prohibition" not in said):
        return Verdict(False, "modality", f"the sentence states a permission; {_labels(claim)} says '{_short(clause)}'")
    return None


def _quotations_read_in(body: str, lang: str) -> str:
    """The sentence with each quotation inside one of its clauses read as its words: one that opens right after a word
    of the sentence ('The Board shall "be composed of …"', 'shall have "the right to object …"': the modal and the
    quoted words make one statement, 'must have the right' grants a right) or that the sentence's words go on from
    ('"Paragraph 1 shall not" apply if …'). A quotation set off by a comma, a colon or its citation ('The GDPR adds:
    "…" [Article 7(3)]') is the text's, checked word for word, and read apart. A language whose sentences are not read
    for modals reads every quotation apart."""
    if signals.MODAL.get(lang) is None:
        return body

    def read(m: re.Match[str]) -> str:
        inside = re.search(r"\w$", body[:m.start()].rstrip()) or re.match(r"\s*\w", body[m.end():])
        return m.group(1) if inside else m.group()

    return _QUOTE.sub(read, body)


def _verb_modality(body: str, claim: Claim) -> str:
    """A verb the sentence and the text both put under a modal, with a modal of another class
    in the sentence ("Member States must provide" where the text says "may provide")."""
    text = signals.modal_verbs(_text(claim), claim.lang)
    for verb, kinds in signals.modal_verbs(body, claim.lang).items():
        if verb in text and not kinds & text[verb]:
            said, has = "/".join(sorted(kinds)), "/".join(sorted(text[verb]))
            return f"the sentence makes '{verb}…' {_a(said)}; in {_labels(claim)} it is {_a(has)}"
    return ""


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def best_clauses(claim: Claim) -> list[str]:
    """The clauses of the cited text sharing the most content terms with the sentence, or
    at least half as many (a sentence joining two clauses rests on both)."""
    wanted = signals.content_terms(claim.body, claim.lang)
    scored = [(len(wanted & signals.terms(c, claim.lang)), c) for c in signals.clauses(_text(claim))]
    top = max((n for n, _ in scored), default=0)
    return [c for n, c in scored if 2 * n >= top and n >= CLAUSE_MIN_SHARED]


def candidates(claim: Claim) -> list[str]:
    """The clauses of the cited text sharing enough terms with the sentence to rest it on."""
    wanted = signals.content_terms(claim.body, claim.lang)
    return [c for c in signals.clauses(_text(claim)) if len(wanted & signals.terms(c, claim.lang)) >= CLAUSE_MIN_SHARED]


def _polarity(claim: Claim) -> Verdict | None:
    """A negation the clause lacks ('shall not notify' against 'shall notify'), or an exception
    turned around ('even where' against 'except where'). A sentence may state a negated clause
    positively ('are excluded' for 'shall not include'): only the sentence's negations count. The
    clause is read with its lead-in and the other clauses the sentence could rest on."""
    clause = rests_on(claim)
    if not clause:
        return None
    body = signals.without_saving(signals.without_idle_negations(unquoted(_quotations_read_in(claim.body, claim.lang)),
                                                                 claim.lang), _text(claim), claim.lang)
    flipped = signals.ANTI_EXCEPTION.get(claim.lang)
    if (flipped and (said := flipped.search(body)) and not flipped.search(_text(claim))
            and not signals.CONCESSION_TEXT.search(_text(claim))):
        return Verdict(False, "polarity", f"the sentence says '{said.group()}'; "
                                          f"{_labels(claim)} says '{_short(clause)}'")
    lifted = signals.lifted_duty(body, _text(claim), claim.lang)
    if lifted:
        return Verdict(False, "polarity", f"the sentence says '{lifted}'; {_labels(claim)} says '{_short(clause)}'")
    pieces = _part_clauses(claim, body, clause) or [(body, clause)]
    context = "\n".join(dict.fromkeys([clause, *(on for _, on in pieces), *signals.lead_ins(_text(claim))]))
    added = alignment.inserted_negation(body, _text(claim), claim.lang)
    if added:
        return Verdict(False, "polarity", f"the sentence says '{added}'; {_labels(claim)} says '{_short(clause)}'")
    for piece, on in pieces:
        ctx = "\n".join(dict.fromkeys([on, *signals.lead_ins(_text(claim))]))
        if signals.negated_verb(piece, claim.lang) and not _negation_explained(claim, piece, ctx):
            return Verdict(False, "polarity", f"the sentence negates; {_labels(claim)} says '{_short(on)}'")
    # A negation the text writes with the same word after it ('without bias', 'without undue delay') is the
    # text's, wherever in the provision it stands.
    written = not signals.unwritten_negations(body, _text(claim), claim.lang)
    idle = signals.without_idle_negations(context, claim.lang)  # 'without prejudice to …' negates nothing
    if (signals.negations(body, claim.lang) > 0 and signals.negations(idle, claim.lang) == 0 and not written
            and not signals.negation_restated(body, context, claim.lang)):
        return Verdict(False, "polarity", f"the sentence negates; {_labels(claim)} says '{_short(clause)}'")
    dropped = next((d for lead in ["", *signals.lead_ins(_text(claim))]
                    if (d := signals.dropped_negation(body, f"{lead}\n{clause}" if lead else clause, claim.lang))), "")
    if dropped:
        return Verdict(False, "polarity", f"the sentence drops the negation; {_labels(claim)} says '{dropped}'")
    # 'is not prohibited from having' permits what 'shall not have' prohibits
    if signals.denies_prohibition(body) and signals.modality(clause, claim.lang) == {"prohibition"}:
        return Verdict(False, "polarity", f"the sentence denies a prohibition; {_labels(claim)} says '{_short(clause)}'")
    blocked = signals.saving_turned(body, clause, claim.lang)
    if blocked:
        return Verdict(False, "polarity", f"the sentence says '{blocked}'; {_labels(claim)} says '{_short(clause)}'")
    denied = signals.denied_words(clause, body, claim.lang)
    if denied and not signals.negations(signals.without_denied(body, clause, claim.lang), claim.lang):
        return Verdict(False, "polarity", f"the sentence says '{denied[0][1]}'; {_labels(claim)} says '{denied[0][0]}'")
    # The clause too: a provision may keep data in one point and delete it in another (dev: 1 more caught,
    # none of the faithful lost).
    turned = (signals.opposite(body, _text(claim), claim.lang) or signals.opposite(body, clause, claim.lang)
              or signals.prefixed_opposite(body, _text(claim), claim.lang)
              or signals.turned_in_time(body, _text(claim), claim.lang) or signals.turned_in_time(body, clause, claim.lang))
    if turned:
        return Verdict(False, "polarity", f"the sentence says '{turned[0]}'; {_labels(claim)} says '{turned[1]}'")
    return None


def _parts(claim: Claim, body: str) -> list[str]:
    """A sentence split at commas, semicolons and an 'and' before a verb."""
    joiner = _CLAUSE_JOINER.get(claim.lang)
    return [p for p in re.split(f"[,;]|{joiner.pattern}" if joiner else "[,;]", body, flags=re.IGNORECASE) if p and p.strip()]


def _part_clauses(claim: Claim, body: str, clause: str) -> list[tuple[str, str]]:
    """Each negating part of a sentence with the clause it rests on: in 'every Member State casts a single
    vote, the Commission casts none, and …' the part 'the Commission casts none' rests on 'The Commission
    shall not have voting rights'. A part too short to rest on anything rests where the whole sentence
    does (`clause`). [] for a sentence of one part."""
    parts = _parts(claim, body)
    if len(parts) < 2:
        return []
    return [(part, rests_on(Claim(part, claim.lang, claim.cited)) or clause) for part in parts
            if signals.negations(part, claim.lang) or signals.negated_verb(part, claim.lang)]


def _negation_explained(claim: Claim, body: str, context: str) -> bool:
    """A negated verb of the sentence is the text's when the clause (with its lead-in) negates,
    or another clause the sentence could rest on holds the same negated words ('no longer')."""
    # A sentence negating more verbs than the clauses it could rest on ('… is not high-risk does not have to
    # document …' for '… is not high-risk shall document …') must have each negation explained.
    if signals.negation_restated(body, context, claim.lang):
        return True
    clauses = "\n".join(dict.fromkeys([*context.split("\n"), *candidates(claim)]))
    more = signals.negated_verbs(body, claim.lang) > max(1, signals.negated_verbs(clauses, claim.lang))
    if not more and signals.negative(context, claim.lang, prohibitions=not signals.denies_prohibition(body)):
        return True
    others = [signals.folded_squash(c) for c in candidates(claim)]
    phrases = signals.negated_phrases(body, claim.lang)
    found = [any(phrase in other or signals.prohibited_phrase(phrase, other, claim.lang) for other in others)
             for phrase in phrases]
    return all(found) if more and phrases else any(found)


def unquoted(text: str, min_words: int = 0) -> str:
    """The sentence less its quotations (checked word for word already); with `min_words`, only those that long, which
    carry their own clause (a short fragment, 'from "2 August 2026"', is the sentence's claim about what it attaches it
    to, and is read with it)."""
    return _QUOTE.sub(lambda m: " " if len(m.group(1).split()) >= min_words else m.group(), text)


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
