"""The verify stage: an answer is checked in code against the provisions retrieved for it.

Both answer modes go through `verify`: every sentence carries a citation, every citation
resolves to a retrieved provision at exact granularity (`Article 6` is not `Article 60(1)`;
`Article 5(1)(a)` only when point (a) is in the retrieved 5(1)), numbers, amounts and
deadlines appear in the provision the sentence cites, and the answer is short. A failed
check names its reason; the caller turns it into a refusal that ships no sources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from pincite import languages
from pincite.citations import (
    RULE_PATTERN,
    Citation,
    contains,
    find_citations,
    parse_label,
    point_text,
    same,
    squash,
)
from pincite.errors import CitationError
from pincite.provisions import Provision

MAX_SENTENCES = 4

# Every refusal names one of these; the text is what a reader is told.
REASONS = {
    "empty_question": "the question is empty",
    "no_hits": "nothing in the corpus matched the question",
    "below_floor": "the closest provisions are too weak a match to answer from",
    "outside_corpus": "the question names something this corpus never mentions "
                      "(another act, a case, an organisation, a country or a product)",
    "outside_law": "the question asks for facts a statute does not contain "
                   "(who holds an office now, what happened, what was decided or imposed)",
    "no_quote": "no sentence of the closest provisions answers the question",
    "unsupported_citation": "a citation does not resolve to a retrieved provision at that granularity",
    "no_citation": "the answer cites nothing",
    "uncited_sentence": "a sentence carries no citation",
    "number_mismatch": "a number, amount or deadline is not in the provision it cites",
    "misquote": "a quotation is not the provision's text",
    "too_long": f"the answer has more than {MAX_SENTENCES} sentences",
    "model_declined": "the model found no answer in the retrieved provisions",
    "model_error": "the model could not be reached or gave no usable answer",
    "tool_budget": "the model wanted more tool calls than the budget allows",
    "token_budget": "the model spent its token budget before it answered",
    "no_value": "the provisions state no value for what the question asks",
    "unknown_provision": "a citation names no provision of this corpus",
    "empty": "the sentence says nothing",
    "polarity": "the sentence negates what its provision affirms, or the reverse",
    "modality": "the sentence makes an obligation of a permission, or the reverse",
    "role": "the sentence gives a duty or right to someone its provision does not",
    "comparator": "the sentence changes a comparator or the scope of its provision "
                  "('whichever is lower' for 'higher', 'at least' for 'at most', 'only', 'all')",
    "not_in_text": "the sentence says what its provision does not",
    "scope": "the sentence widens its provision's scope ('any AI system' where it says 'high-risk AI systems')",
    "wrong_provision": "another provision of the act says what the sentence says; the one it cites does not",
    "condition_dropped": "the sentence states a duty or permission without the condition its provision puts on it",
    "recital_as_obligation": "a recital is cited for an obligation; recitals bind no one",
    "model_disagrees": "the rules pass the sentence, but the model asked for a second opinion finds its "
                       "provision does not say it",
}


@dataclass
class Sentence:
    """One sentence of an answer and the labels it cites. `quote` marks extractive sentences:
    their text must be the provision's own words (fragments joined by a space)."""

    text: str
    citations: list[str] = field(default_factory=list)
    quote: bool = False


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class Cited:
    """A citation resolved against the evidence: the provision, and the text the label
    denotes inside it (the whole provision, or one point with its lead-in)."""

    label: str
    provision: Provision
    text: str


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- citations at exact granularity ------------------------------------------------------

def resolve(label: str, evidence: list[Provision], rule_pattern: str = RULE_PATTERN) -> Cited | None:
    """The retrieved provision a label denotes, at exactly that granularity, or None.

    The same provision resolves; a point inside a retrieved provision resolves only when the
    provision's text holds that point. A whole article does not resolve to one of its
    paragraphs: the answer would claim more than was retrieved.
    """
    try:
        wanted = parse_label(label, rule_pattern)
    except CitationError:
        return None
    for p in evidence:
        have = _label_of(p, rule_pattern)
        if have is not None and same(have, wanted):
            return Cited(label, p, p.text)
    for p in evidence:
        have = _label_of(p, rule_pattern)
        if have is None or not contains(have, wanted):
            continue
        found = point_text(p.text, _extra_points(have, wanted))
        if found is not None:
            return Cited(label, p, found)
    return None


def _label_of(p: Provision, rule_pattern: str = RULE_PATTERN) -> Citation | None:
    try:
        return parse_label(p.label, rule_pattern)
    except CitationError:
        return None


def _extra_points(outer: Citation, inner: Citation) -> tuple[str, ...]:
    """The point levels inner adds to outer (Article 5(1) → 5(1)(a)(ii): ('a', 'ii'))."""
    if inner.paragraph is not None and outer.paragraph is None:
        return (inner.paragraph, *inner.points)  # definitions are written 4(11): a level of their own
    return inner.points[len(outer.points):]


# -- quotations ----------------------------------------------------------------------------

def quoted_faithfully(sentence: str, texts: list[str], *, min_piece: int = 12) -> bool:
    """Whether every fragment of a quoted sentence is the cited text's own words, in the text's
    order. Fragments are the pieces extractive answers join with ' … ' (a lead-in and its
    point); with several, each is at least `min_piece` characters ('shall … not … notify' is no
    quotation)."""
    pieces = [squash(piece) for piece in sentence.split(" … ") if piece.strip()]
    if len(pieces) > 1 and any(len(piece) < min_piece for piece in pieces):
        return False
    return any(_in_order(pieces, squash(text)) for text in [*texts, "\n".join(texts)])


def _in_order(pieces: list[str], haystack: str) -> bool:
    pos = 0
    for piece in pieces:
        pos = haystack.find(piece, pos)
        if pos < 0:
            return False
        pos += len(piece)
    return True


# -- numbers, amounts, percentages, deadlines ------------------------------------------------

_SUPERSCRIPT = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_SUPER_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# Digits of other scripts, each pack's in order 0 to 9: a Thai statute writes ๗๒ for 72.
_DIGITS = "".join(languages.each("DIGITS").values())
_SCRIPT_DIGITS = str.maketrans(_DIGITS, "0123456789" * (len(_DIGITS) // 10))
# Number words read as a count before a unit of time ('one month', 'trois mois'), and scale words after a number.
_WORD_NUMBERS = {word: value for table in languages.each("UNIT_NUMBERS").values() for word, value in table.items()}
_MULTIPLIERS = {word: value for table in languages.each("MULTIPLIERS").values() for word, value in table.items()}
# Units by name, each the packs' words for it; the symbols are every language's.
_UNITS = {name: languages.cue(name, "QUANTITY_UNITS").pattern for name in languages.names("QUANTITY_UNITS")}
_UNITS["percent"] = "%|" + _UNITS["percent"]
_UNITS["eur"] += "|€"
_UNIT_RX = "|".join(f"(?P<u_{k.replace(' ', '_')}>{v})" for k, v in _UNITS.items())
_QUANTITY = re.compile(
    rf"""(?P<cur>\b(?:{languages.cue('eur', 'QUANTITY_UNITS').pattern})\s*|€\s*)?
    (?<![\d.,])(?P<num>\d+\s*\^\s*\d+|\d{{1,3}}(?:[\s.,\u00a0\u202f]\d{{3}})+(?!\d)|\d+(?:[.,]\d+)?
        |\b(?:{'|'.join(_WORD_NUMBERS)})\b(?=\s+(?:[^\W\d_]+\s+)?(?:{_UNITS['hour']}|{_UNITS['day']}|{_UNITS['week']}|{_UNITS['month']}|{_UNITS['year']})\b))
    (?:\s*(?P<mult>{'|'.join(_MULTIPLIERS)})\b)?
    (?:\s*(?:{_UNIT_RX})(?![^\W\d_]))?""",
    re.IGNORECASE | re.VERBOSE)
# References to structure are not quantities: 'paragraph 2', 'point 4', 'Chapter IV',
# 'Regulation (EU) 2016/679', 'Directive 95/46/EC', 'OJ L 119'.
_STRUCTURE = re.compile(
    rf"\b(?:{languages.cue('part', 'NOT_QUANTITIES').pattern})\s+(?:L\s+)?\(?\d+[a-z]?\)?"
    rf"(?:\s*(?:,|{languages.cue('joined', 'NOT_QUANTITIES').pattern})\s*\(?\d+\)?)*"
    rf"|\(?(?:{languages.cue('series', 'NOT_QUANTITIES').pattern})\)?\s*(?:(?:{languages.cue('number_sign', 'NOT_QUANTITIES').pattern})\s*)?"
    rf"\d+/\d+(?:/\w+)?|\b\d{{2,4}}/\d{{1,4}}(?:/[A-Z]+)?\b",
    re.IGNORECASE)
# Point and item markers: at a line start, or after the end of a quoted lead-in
# ('… following areas: 4. Employment …', Italian '… di seguito. 5. Accesso …').
# (a point's marker opens a quotation of it too: '"(c) the purposes of the processing …"')
_LINE_MARKER = re.compile(r"(?:^|(?<=[.:;]\s)|(?<=[\"“«]))\s*(?:\(?(?:[a-z]{1,5}|\d{1,3})\)|\d{1,3}\.)\s",
                          re.IGNORECASE | re.MULTILINE)


def _value(num: str, mult: str | None) -> str:
    num = re.sub(r"\s+", "", num)
    if "^" in num:
        return num
    if num.lower() in _WORD_NUMBERS:
        value: float = _WORD_NUMBERS[num.lower()]
    elif re.fullmatch(r"\d{1,3}(?:[\s.,\u00a0\u202f]\d{3})+", num):
        value = int(re.sub(r"\D", "", num))
    else:
        value = float(num.replace(",", "."))
    if mult:
        value *= _MULTIPLIERS[mult.lower()]
    return str(int(value)) if value == int(value) else repr(float(value))


# A calendar date as the law writes one ('25 May 2018', '2 août 2026').
CALENDAR_DATE = re.compile(rf"\b\d{{1,2}}\s+(?:{'|'.join(languages.each('MONTHS').values())})\s+\d{{4}}\b", re.I)


@lru_cache(maxsize=4096)
def quantities(text: str) -> frozenset[tuple[str, str | None]]:
    """(value, unit) for each number in text, written the same whatever the style:
    '20 000 000' = '20,000,000' = 'EUR 20 000 000' → ('20000000', 'eur'); '4 %' = '4%';
    'one month' = '1 month'; '10^25' = '10²⁵'. Citations, structure references and point
    markers are left out: they are not claims about amounts."""
    text = _SUPERSCRIPT.sub(lambda m: "^" + m.group().translate(_SUPER_DIGITS), text).translate(_SCRIPT_DIGITS)
    text = _without_spans(text, [(start, end) for start, end, _ in find_citations(text)])
    text = _LINE_MARKER.sub(" ", _STRUCTURE.sub(" ", text))
    found = set()
    for m in _QUANTITY.finditer(text):
        unit = next((k[2:].replace("_", " ") for k, v in m.groupdict().items() if k.startswith("u_") and v), None)
        if m["cur"]:
            unit = "eur"
        found.add((_value(m["num"], m["mult"]), unit))
    return frozenset(found)


def _without_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Text with each span blanked; spans may overlap ('Articles 28 to 39' is one span per
    article, all from the same start), so they are merged first."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    for start, end in reversed(merged):
        text = text[:start] + " " + text[end:]
    return text


def missing_quantities(sentence: str, texts: list[str]) -> list[str]:
    """Quantities of the sentence that none of the cited texts states. A unit must match
    when both sides give one ('72 days' is not '72 hours'); a bare number matches any."""
    have = set().union(*(quantities(t) for t in texts)) if texts else set()
    values = {v for v, _ in have}
    missing = []
    for value, unit in sorted(quantities(sentence), key=str):
        if (value, unit) in have or (value in values and (unit is None or (value, None) in have)):
            continue
        missing.append(value + (f" {unit}" if unit else ""))
    return missing


# -- sentences of model output ---------------------------------------------------------------

_ABBREVIATIONS = re.compile(rf"(?:\b(?:{languages.cue('abbreviation', 'SENTENCE_SPLIT').pattern})|\b[A-Z])\.$", re.IGNORECASE)
_BOUNDARY = re.compile(r"(?<=[.!?…])[\"'’”»)]*\s+(?=[\"'‘“«(]*[A-ZÀ-ÖØ-Þ0-9])")


def split_sentences(text: str) -> list[str]:
    """Sentences of prose, conservatively: a full stop after an abbreviation ('Art.', 'e.g.',
    'No.') or a single capital does not end a sentence."""
    pieces, start = [], 0
    text = " ".join(text.split())
    for m in _BOUNDARY.finditer(text):
        before = text[start:m.start()].rstrip("\"'’”»)")
        if _ABBREVIATIONS.search(before):
            continue
        pieces.append(text[start:m.start()].strip())
        start = m.end()
    pieces.append(text[start:].strip())
    return [p for p in pieces if p]
