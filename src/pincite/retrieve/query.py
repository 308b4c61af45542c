"""The question analysed once: what retrieval, the gate, the answer and the checks all read.

A question becomes one `Query` — its text, the language it is written in and the language it
is searched in, its analysed tokens (as the keyword index analyses text), the provisions it
names, and its intent — instead of each stage re-tokenising the string.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pincite import languages
from pincite.citations import Citation, find_citations
from pincite.citations.grammar import TEXT_RULE_PATTERN
from pincite.errors import ConfigError
from pincite.index.analysis import tokenize
from pincite.index.vocabulary import expansions
from pincite.retrieve import cues
from pincite.retrieve.definitions import asked_term

MAX_QUERY_CHARS = 2000

# What a question asks for, when its words say so plainly (the language packs' INTENTS), and what it asks
# for that a provision usually leaves to another one it cites or that cites it (their HOPS): its
# consequence (a fine lives in the penalties article, which cites the duty), an exception or derogation,
# a remedy, a time limit, the definition of a term it uses, the annex it points to, the date its chapter
# starts to apply; retrieval follows one reference of each kind asked (retrieve.follow). Tried in order.
_INTENTS = tuple((name, languages.cue(name, "INTENTS")) for name in languages.names("INTENTS"))
_HOPS = tuple((name, languages.cue(name, "HOPS")) for name in languages.names("HOPS"))


# What kind of thing the answer is ("answer type"), from the question sentence, by the language packs'
# ANSWER words. `names` asks for named things of the world — countries, companies, standards, products —
# which a statute creates the mechanism for but does not list; `person` for who holds an office; `amount`
# a number or a fine (retrieve.cues); `application` from when the act applies (its final article
# answers); `amendments` which acts it amends (its amending articles); `scope` whether it applies to a
# case (its scope article; not 'When does the GDPR apply?', which asks the date). Order matters: the
# first that matches wins.
def _answer(name: str) -> str:
    return languages.cue(name, "ANSWER").pattern


def _names() -> re.Pattern[str]:
    """The question word, up to three words that are not a verb ('What must providers do…?' asks a duty),
    a kind of named thing, and no duty after it; or 'list of' and the kind."""
    not_verb = f"(?!(?:{_answer('names_verb')})\\b)"
    kinds = _answer("named_kind")
    return re.compile(
        f"^(?:(?:{_answer('names_opening')})\\s+)?(?:{_answer('names_question_word')})\\s+"
        f"(?:{not_verb}[\\w'’-]+\\s+){{0,3}}?(?:{kinds})\\b(?!\\s+(?:{_answer('names_duty')}))"
        f"|(?:{_answer('names_list')})(?:{kinds})\\b", re.I)


# The frame a question may open with ('Under the GDPR, …'): not what it asks.
_FRAME = languages.cue("frame", "ANSWER")
_ANSWER_TYPES = (
    ("person", languages.cue("person", "ANSWER")),
    ("names", _names()),
    ("amount", cues.ASKS_AMOUNT),
    ("application", languages.cue("application", "ANSWER")),
    ("amendments", languages.cue("amendments", "ANSWER")),
    ("scope", re.compile(f"^(?!{_answer('scope_not_opening')}).*?(?:{_answer('scope')})", re.I)),
    ("date", languages.cue("date", "ANSWER")),
    ("definition", languages.cue("definition", "INTENTS")),
    ("duty", languages.cue("duty", "ANSWER")),
    ("yes_no", languages.cue("yes_no", "ANSWER")),
)


def answer_type(question: str) -> str | None:
    """What the question asks for: person, names (countries, companies, standards…), amount,
    application (from when the act applies), amendments (which acts it amends), scope (whether the
    act applies to a case), date, definition, duty, yes_no (the first that matches); None when its words do not say. Only the
    question sentence counts: a scenario told before it ('We are a company in Brazil. Does…?') is no sign."""
    asked = _FRAME.sub("", cues.question_sentence(question))
    return next((name for name, rx in _ANSWER_TYPES if rx.search(asked)), None)


@dataclass(frozen=True)
class Query:
    text: str  # the question, whitespace collapsed, at most MAX_QUERY_CHARS
    lang: str  # the language it is searched in (the corpus language)
    tokens: tuple[str, ...]  # analysed as the keyword index analyses `lang`
    terms: tuple[str, ...]  # the tokens without the provisions the question names
    citations: tuple[Citation, ...]  # provisions the question names ('Article 17', 'Art. 83(5)')
    spans: tuple[tuple[int, int], ...]  # where they are named in `text`
    intent: str | None  # definition, penalty, date, exception, or None
    hops: tuple[str, ...] = ()  # what it asks for that lives elsewhere: penalty, exception, remedy, deadline, definition, annex, date
    rest: str = ""  # the question without the words that ask for it: what the other end must match
    rest_tokens: tuple[str, ...] = ()
    asks: str | None = None  # the answer type (`answer_type`): person, names, amount, date, definition, duty, yes_no
    expansions: tuple[str, ...] = ()  # the statute's stems for its plain words (index.vocabulary), searched down-weighted
    parts: int = 1  # how many things it asks ('Am I entitled to it, and how long do they have?' asks two)
    # What its words say it asks (retrieve.cues), read here once so that no stage re-reads the text:
    asks_number: bool = False  # a number ('how many days', 'what rate', 'quanti giorni')
    asks_rate: bool = False  # a percentage
    asks_list: bool = False  # a list ('What are the lawful bases…?'): a provision's points answer
    asks_period: bool = False  # a period or deadline ('how quickly', 'entro quanti giorni')
    asks_from_when: bool = False  # the day a rule starts to apply: the act's dates answer
    outside_law: str | None = None  # facts a statute never holds: 'about now (…)', 'about a past event (…)'
    term: str | None = None  # the term a definition question asks about ('personal data')
    acts: tuple[cues.NamedAct, ...] = ()  # the acts it names
    names: tuple[cues.Name, ...] = ()  # words that look like names of things outside any act

    @property
    def names_provision(self) -> bool:
        return bool(self.citations)


# A short question that refers back to the conversation: it opens with a connective ("and what about
# processors?", "e per i fornitori?") or leans on a pronoun for its subject ("how long do they have?").
# Any other question is self-contained and is answered as asked, whatever came before it in the thread.
_FOLLOW_UP_OPENING = languages.cue("follow_up_opening", "ANSWER")
_REFERS_BACK = languages.cue("refers_back", "ANSWER")
FOLLOW_UP_WORDS = 8  # longer questions carry their own subject


def refers_back(question: str) -> bool:
    """Whether a question is a follow-up that needs the previous turn to be understood."""
    if len(question.split()) > FOLLOW_UP_WORDS:
        return False
    return bool(_FOLLOW_UP_OPENING.search(question) or _REFERS_BACK.search(question))


def check_query(text: str) -> str:
    """The question as searched: whitespace collapsed; long pasted text is cut, not refused
    (its start carries the question)."""
    # Lone surrogates (JSON allows "\ud800") are no text: the tokenisers refuse them.
    cleaned = " ".join(str(text).encode("utf-8", "replace").decode("utf-8").split())
    if not cleaned:
        raise ConfigError("the question is empty — type what you want to find")
    return cleaned[:MAX_QUERY_CHARS]


def analyse(text: str, lang: str, *, rule_pattern: str | None = None,
            acronyms: dict[str, str] | None = None) -> Query:
    """One question, analysed for a corpus in `lang` (rule ids by the corpus's own pattern). An
    acronym the corpus never writes but spells out (`acronyms`: DPO → data protection officer) is
    searched spelled out too."""
    cleaned = check_query(text)
    named = dict.fromkeys(m.group(1) for m in re.finditer(r"\b([A-Z]{3,8})s?\b", cleaned))
    spelled = [acronyms[word] for word in named if acronyms and word in acronyms]
    if spelled:
        cleaned = check_query(f"{cleaned} ({'; '.join(spelled)})")
    found = find_citations(cleaned, rule_pattern=rule_pattern or TEXT_RULE_PATTERN)
    without = cleaned
    for start, end, _ in reversed(found):
        without = without[:start] + " " + without[end:]
    intent = next((name for name, rx in _INTENTS if rx.search(cleaned)), None)
    hops = tuple(name for name, rx in _HOPS if rx.search(without))
    rest = without
    for name, rx in _HOPS:
        rest = rx.sub(" ", rest) if name in hops else rest
    tokens = tuple(tokenize(cleaned, lang))
    asks = answer_type(cleaned)
    acts = cues.named_acts(cleaned)
    return Query(cleaned, lang, tokens, tuple(tokenize(without, lang)),
                 tuple(c for _, _, c in found), tuple((s, e) for s, e, _ in found), intent, hops,
                 " ".join(rest.split()), tuple(tokenize(rest, lang)) if hops else (),
                 asks, expansions(tokens, lang), cues.question_parts(cleaned),
                 asks_number=cues.asks_for_number(cleaned), asks_rate=cues.asks_for_rate(cleaned),
                 asks_list=cues.asks_for_list(cleaned), asks_period=cues.asks_for_period(cleaned),
                 asks_from_when=cues.asks_from_when(cleaned),
                 outside_law=cues.outside_law(cleaned, lang, asks=asks), term=asked_term(cleaned),
                 acts=acts, names=cues.names(cleaned, acts))


_WORD = re.compile(r"[^\W\d_]+")
# The words left out of a phrase before its initials are read: the English pack's, in every corpus. (Every
# pack's, as the gate's corpus profile reads them, finds Italian phrases whose initials make 'DSA' and
# answered an Italian dev question about the DSA that is refused; acronyms are the Union's English ones.)
_PHRASE_STOP = frozenset(languages.each("PHRASE_STOP")["en"].split())


def acronym_phrases(texts: list[str], min_count: int = 3) -> dict[str, str]:
    """Acronyms a corpus never writes, mapped to the phrase of 2–4 content words it writes often
    whose initials they are ('data protection officer' → DPO), the commonest phrase first."""
    written: set[str] = set()
    phrases: Counter[tuple[str, ...]] = Counter()
    for text in texts:
        words = _WORD.findall(text)
        written.update(w for w in words if w.isupper())
        content = [w.lower() for w in words if w.lower() not in _PHRASE_STOP]
        for size in (2, 3, 4):
            phrases.update(tuple(content[i:i + size]) for i in range(len(content) - size + 1))
    out: dict[str, str] = {}
    for phrase, count in phrases.most_common():
        if count < min_count:
            break
        acronym = "".join(w[0] for w in phrase).upper()
        if acronym not in written and acronym not in out and len(acronym) >= 3 and acronym.isascii():
            out[acronym] = " ".join(phrase)
    return out
