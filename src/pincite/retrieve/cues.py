"""What a question's words say it asks, read once when the question is analysed (retrieve.query).

The gate, the extractive answerer and reference following read these answers from the `Query`,
never from the question's text: whether it asks for a number, a rate, a list, a period or the day a
rule starts to apply; how many things it asks; whether it asks for facts of the world rather than
of the law (what is so now, what happened); which acts it names and which words in it look like
names (an organisation, a country, a product, a year), for the gate to compare with the corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pincite import languages
from pincite.citations import find_citations


def question_sentence(question: str) -> str:
    """The sentence that asks: the last one ending in '?', else the last one. A scenario told
    before it ('We are a company in Brazil. Does…?') is not what is asked."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", question.strip()) if s]
    asked = [s for s in sentences if s.endswith("?")]
    return (asked or sentences or [""])[-1]


# -- what it asks for ----------------------------------------------------------------------
# The words are the language packs' (pincite.languages); a cue matches in any language that has it.

_ASKS_NUMBER = languages.cue("asks_number")
# The answer type `amount` (retrieve.query): a number, or a fine ('What is the maximum fine…?'), read by
# the same words, so that the analysis and the gate never disagree on whether a number is asked for.
ASKS_AMOUNT = re.compile(f"{_ASKS_NUMBER.pattern}|{languages.cue('asks_fine').pattern}", re.IGNORECASE)
# A rate is a percentage: a provision that states only a period or a count does not say one.
_ASKS_RATE = languages.cue("asks_rate")
# A list ('What are the lawful bases…?', 'What must the contract contain?'): a provision's points answer.
_ASKS_LIST = languages.cue("asks_list")
_ASKS_PERIOD = languages.cue("asks_period")
_FROM_WHEN = languages.cue("asks_from_when")


def asks_for_number(question: str) -> bool:
    return bool(_ASKS_NUMBER.search(question_sentence(question)))


def asks_for_rate(question: str) -> bool:
    return bool(_ASKS_RATE.search(question_sentence(question)))


def asks_for_list(question: str) -> bool:
    return bool(_ASKS_LIST.search(question.strip()))


def asks_for_period(question: str) -> bool:
    return bool(_ASKS_PERIOD.search(question))


def asks_from_when(question: str) -> bool:
    return bool(_FROM_WHEN.search(question))


# A second thing asked in the question sentence: a question word or an auxiliary after a comma and a
# conjunction ('…, and what fine could we face?', '…, and by when?', '…, e quando si applica?'), or a
# question word right after 'and' in its own language ('what must it do and how quickly?', '… e chi deve
# informare?'), or 'and' with an auxiliary and its subject ('… and can it be renewed?'). A comma alone is
# no sign: 'If a user cannot access the data, what must the data holder do?' asks one thing.
def _second_ask() -> re.Pattern[str]:
    def any_of(name: str) -> str:
        return languages.cue(name).pattern

    prep = f"(?:(?:{any_of('preposition')})\\s+)?"
    packs = [languages.words(code, "QUESTION") for code in languages.CODES]
    own = [f"\\s(?:{w['joiner']})\\s+{prep}(?:{w['ask_word']})\\b" for w in packs if "joiner" in w]
    own += [f"\\s(?:{w['joiner']})\\s+(?:{any_of('auxiliary')})\\s+(?:{w['subject']})\\b" for w in packs if "subject" in w]
    return re.compile(
        f"[,;]\\s*(?:{any_of('conjunction')})\\s+{prep}(?:{any_of('ask_word')}|{any_of('auxiliary')}|{any_of('if')})\\b"
        f"|{'|'.join(own)}", re.IGNORECASE)


_SECOND_ASK = _second_ask()


def question_parts(text: str) -> int:
    """How many things a question asks: its question marks, or 1 + the second asks of its question sentence."""
    marks = len(re.findall(r"\?(?=\s|$)", text))
    return max(1, marks, 1 + len(_SECOND_ASK.findall(question_sentence(text))))


# -- facts a statute never contains -------------------------------------------------------

# What is so now: statutes say what the rule is, not who holds an office or what exists today.
_NOW = languages.cue("now")
_LAW_NOW = languages.cue("law_now")
_LAW_ACTS = languages.cue("law_acts")
# What happened: a question about a past event (a fine imposed, a ruling, a designation), asked with a
# past or perfect auxiliary right after a question word (in any language's words: a pack's auxiliary
# after any pack's question word, as before the packs).
_LEAD = (f"^(?:(?:{languages.cue('past_preposition').pattern})\\s+)?(?:{languages.cue('past_question_word').pattern})"
         r"\b(?:\s+[\w'’-]+){0,4}?\s+")
_PAST = {code: re.compile(_LEAD + w["past_auxiliary"], re.IGNORECASE)
         for code in languages.CODES if "past_auxiliary" in (w := languages.words(code, "QUESTION"))}
_ALREADY = languages.cue("already")
_MODAL_PERFECT = languages.cue("modal_perfect")


def outside_law(question: str, lang: str, *, asks: str | None = None) -> str | None:
    """'about now' or 'about a past event' when the question asks for such facts, else None.
    Only the question sentence counts: a scenario told in the past ('my loan was refused. Can
    I…?') is no sign. English patterns apply to every question; French 'a' only to French.
    A definition asked 'currently' is still the law's ('the current definition of personal
    data'), and what an act did to other acts is in its text ('which directive did the GDPR
    repeal?')."""
    asked = question_sentence(question)
    now = _NOW.search(asked)
    if now and asks != "definition" and not _LAW_NOW.search(asked):
        return f"about now ({now.group()!r})"
    if _LAW_ACTS.search(asked):
        return None
    for code, rx in _PAST.items():
        if code in ("en", "it", lang):
            m = rx.search(asked)
            if m and not _MODAL_PERFECT.search(m.group()):
                return f"about a past event ({m.group()!r})"
    m = _ALREADY.search(asked)
    if m:
        return f"about a past event ({m.group()!r})"
    return None


# -- acts and names ------------------------------------------------------------------------

# Acts by the names people use for them (the packs' ACT_NAMES, written with capitals or as acronyms, and
# ACT_PHRASES, written in lower case as French does). A question that asks what one of these says is not
# answered by another act, even by one that cites it.
KNOWN_ACTS = languages.table("ACT_NAMES")
_PHRASED_ACTS = languages.table("ACT_PHRASES")
_PHRASED_ACT = re.compile(r"\b(?:" + "|".join(re.escape(n).replace("'", "['’]") for n in _PHRASED_ACTS) + r")(?![\w'’])",
                          re.IGNORECASE)
_ACT_BY_SUBJECT = languages.cue("act_by_subject", "ACTS")
# Written in capitals but common nouns, not names of anything outside a corpus.
COMMON_ACRONYMS = languages.word_set("ACRONYMS")
_ACT_NUMBER_NAMED = re.compile(
    f"\\b(?:{languages.cue('act_kind', 'ACTS').pattern})\\s*"
    f"(?:\\((?:{languages.cue('union', 'REFERENCES').pattern})\\)\\s*)?(?:No\\.?\\s*|n\\.\\s*)?((?:19|20)?\\d{{2}})/(\\d{{1,4}})",
    re.IGNORECASE)
# A number with the Official Journal's series after it ('95/46/EC', '2008/977/JHA') is an act's.
_ACT_NUMBER_BARE = re.compile(rf"\b((?:19|20)?\d{{2}})/(\d{{1,4}})/(?:{languages.cue('series', 'REFERENCES').pattern})\b")
_ACT_TITLE = re.compile(f"((?:[A-Z][\\w-]*\\s+){{1,5}})({languages.cue('act_title_kind', 'ACTS', 0).pattern})\\b")
_MENTION_BEFORE = re.compile(f"(?:\\b(?:{languages.cue('mention_word', 'ACTS').pattern})\\s+"
                             f"(?:{languages.cue('mention_article', 'ACTS').pattern})?)$", re.IGNORECASE)
_TITLE_SKIP = languages.cue("title_skip", "ACTS")
_TOKEN = re.compile(r"(?<![\w'’])[^\W_][\w]*(?:-[\w]+)*")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s+)[\"'‘“«(]*$")


@dataclass(frozen=True)
class NamedAct:
    start: int
    end: int
    label: str  # as written: 'the GDPR', 'Regulation (EU) 2022/2065', 'Digital Services Act'
    number: str | None  # 'year/number' when known
    mention: bool  # named as an object ('complies with the GDPR'), not as the source asked about


@dataclass(frozen=True)
class Name:
    """A word of the question that looks like a name: an acronym, camel case, a capitalised word
    that does not open a sentence, a year."""
    token: str
    plain: bool  # capitalised and otherwise lower case ('Brazil'): in a scenario, a fact of the case
    year: bool = False


def named_acts(question: str) -> tuple[NamedAct, ...]:
    return tuple(NamedAct(start, end, label, number, bool(_MENTION_BEFORE.search(question[:start])))
                 for start, end, label, number in _acts_named(question))


def names(question: str, acts: tuple[NamedAct, ...]) -> tuple[Name, ...]:
    """The words that look like names, outside the acts it names and the provisions it cites
    ('Article 26(1)' is no name)."""
    spans = [(a.start, a.end) for a in acts] + [(start, end) for start, end, _ in find_citations(question)]

    def free(m: re.Match[str]) -> bool:
        return not any(start <= m.start() < end for start, end in spans)

    found = []
    for m in filter(free, _TOKEN.finditer(question)):
        token = m.group()
        initial = bool(_SENTENCE_START.search(question[:m.start()]))
        if _name_like(token, initial):
            found.append(Name(token, token[:1].isupper() and token[1:].islower() and token.isalpha()))
    found += [Name(m.group(), False, year=True) for m in filter(free, _YEAR.finditer(question))]
    return tuple(found)


def act_key(m: re.Match[str]) -> str:
    year = m[1] if len(m[1]) == 4 else ("19" if int(m[1]) > 50 else "20") + m[1]
    return f"{year}/{int(m[2])}"


def _acts_named(question: str):
    for rx in (_ACT_NUMBER_NAMED, _ACT_NUMBER_BARE):
        for m in rx.finditer(question):
            yield m.start(), m.end(), m.group(), act_key(m)
    for m in _ACT_TITLE.finditer(question):
        words = m.group(1).split()
        while words and _TITLE_SKIP.fullmatch(words[0]):
            words = words[1:]  # a capitalised question word is not part of the act's name
        if words:
            label = " ".join([*words, m.group(2)])
            yield m.end() - len(label), m.end(), label, KNOWN_ACTS.get(label.lower())
    for m in re.finditer(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*)(?![\w-])", question):
        word = m.group(1)
        if word.lower() in KNOWN_ACTS and any(c.isupper() for c in word) and word.upper() not in COMMON_ACRONYMS:
            yield m.start(), m.end(), word, KNOWN_ACTS[word.lower()]
    named = []
    for m in _PHRASED_ACT.finditer(question):
        named.append((m.start(), m.end()))
        yield m.start(), m.end(), m.group(), _PHRASED_ACTS[m.group().lower().replace("’", "'")]
    for m in _ACT_BY_SUBJECT.finditer(question):
        if not any(start <= m.start() < end for start, end in named):
            yield m.start(), m.end(), m.group(), None


def _name_like(token: str, initial: bool) -> bool:
    """Acronyms and camel case ('CNIL', 'TikTok', 'GPT-4'), and capitalised words that do
    not open a sentence ('Meta', 'Italy', 'Schrems')."""
    inner = token[1:]
    if any(c.isupper() for c in inner) or (any(c.isdigit() for c in token) and token[:1].isupper()):
        return True
    return token[:1].isupper() and not initial
