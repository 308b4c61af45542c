"""The support check against the law's own sentences, changed by rule: no question set, every provision.

    python -m benchmarks.verify_properties

For the first sentence of every provision (recitals aside) of the English GDPR, AI Act, DSA, Data Act and DMA and
the Italian AI Act and GDPR (indexed corpora only), it checks, in English:
- the sentence quoted and cited ('"…" [Article 4(1)]', and 'Article 4(1) provides that "…" [Article 4(1)]'), and its
  rule in its own modal with the rest quoted ('The data subject must "have the right to …"'): must be verified;
- 'shall' read as 'must', a condition opening the sentence moved to its end, 'at least' as 'no less than': must be
  verified;
- a part of it quoted and the rest left in the text's own words (its first half, its middle, its last two thirds): must
  be verified;
- a negation added ('shall' → 'shall not'), dropped ('shall not' → 'shall'), 'may' → 'must', 'shall' → 'may', 'at
  least' → 'at most', 'not later than' → 'not earlier than', 'within N days' → 'only after N days' and → 'after N
  days', 'at the latest' → 'at the earliest', 'only if' → 'if', any other 'only' (not 'not only') dropped, 'until' → 'once', a condition opening the sentence
  dropped ('Where X, the controller shall …'), a regime's qualifier dropped ('high-risk', 'very large', 'with systemic
  risk', 'general-purpose', 'serious' incidents), an actor swapped for another the act names ('the Commission' for
  'the Board', 'the controller' for 'the processor', 'providers' for 'deployers'), 'before' → 'after' and back: must be
  refused ('shall' → 'may' is counted apart, since 'may have the right' or 'may be lawful only if' can still be read
  as the text).
In Italian, where most duties are in the present tense, the same changes where the text has the words: the quotations;
'deve' / 'può' negated, turned into each other; 'almeno' as 'al massimo' (refused) and as 'non meno di' or 'come minimo'
(verified); an opening 'Se / Qualora / Ove …,' moved (verified) or dropped; 'entro N giorni' as 'dopo N giorni'; 'solo
se' as 'se'; 'ad alto rischio', 'per finalità generali', 'con rischio sistemico' dropped; an actor swapped; 'prima' as
'dopo' (refused).
It prints, per language and rule, how many sentences it changed and how many verdicts were right.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from pincite.service import Pincite

CORPORA = [("gdpr", "en"), ("ai-act", "en"), ("dsa", "en"), ("data-act", "en"), ("dma", "en"), ("ai-act", "it"),
           ("gdpr", "it")]
_SHALL = re.compile(r"\bshall\b(?!\s+not)")


Rule = tuple[bool, Callable[[str], str | None]]  # whether the changed sentence is faithful, the change (None: n/a)


def _sub(pattern: str, new: str | Callable[[re.Match[str]], str], unless: str | None = None
         ) -> Callable[[str], str | None]:
    def change(sentence: str) -> str | None:
        if not re.search(pattern, sentence) or (unless and re.search(unless, sentence)):
            return None
        return re.sub(pattern, new, sentence, count=1)
    return change


# 'Where X, the controller shall …' → X and the rule: a condition opening the sentence with no comma inside it, the rule a
# duty or permission within its first words, and not a pronoun pointing back into the condition ('Where …, it shall')
_LEAD_CONDITION = re.compile(r"(Where|If)\b([^,;()]{5,200}), (?!(?:it|they|this|that|those|these|such|he|she)\b)"
                             r"(?=(?:\S+\s+){0,8}?(?:shall|may)\b)(?!(?:where|if|unless|in|by|on|for|without|as)\b)",
                             re.IGNORECASE)


# 'The data subject shall have the right to …' → 'The data subject must "have the right to …"' (an active 'shall' after at
# least a word, with at least four words after it)
_ACTIVE_SHALL = re.compile(r"\bshall\b(?!\s+not)(?!\s+be\b)\s+(?:\w+ly\s+)?")


# the qualifiers that set a regime apart ('high-risk AI systems', 'very large online platforms'), dropped everywhere in
# the sentence: the rule said of every AI system, every platform
_QUALIFIER = re.compile(r"\b(?:high-risk|general-purpose) (?=AI (?:systems?|models?)\b)|\bvery large (?=online\b)"
                        r"| with systemic risks?\b|\bserious (?=incidents?\b)")


# pairs of actors one act names side by side: the first one the sentence names, where it does not name the other, is
# swapped for the other ('provide the Commission with an opinion' → 'provide the Board with an opinion')
_ACTOR_PAIRS = [("the Commission", "the Board"), ("the controller", "the processor"), ("providers", "deployers"),
                ("the data holder", "the user"), ("the supervisory authority", "the Board")]


def _actor_swapped(sentence: str, pairs: list[tuple[str, str]] = _ACTOR_PAIRS) -> str | None:
    for one, other in pairs:
        for said, instead in ((one, other), (other, one)):
            if re.search(rf"\b{said}\b", sentence, re.IGNORECASE) and not re.search(rf"\b{instead.split()[-1]}", sentence,
                                                                                      re.IGNORECASE):
                return re.sub(rf"\b{said}\b", instead, sentence, count=1, flags=re.IGNORECASE)
    return None


def _modal_then_quote(sentence: str) -> str | None:
    m = _ACTIVE_SHALL.search(sentence)
    if not m or m.start() < 5 or len(sentence[m.end():].split()) < 4:
        return None
    return f'{sentence[:m.start()].strip()} must "{sentence[m.end():]}"'


def _condition_dropped(lead: re.Pattern[str]) -> Callable[[str], str | None]:
    def change(sentence: str) -> str | None:
        m = lead.match(sentence)
        return sentence[m.end()].upper() + sentence[m.end() + 1:] if m else None
    return change


def _condition_moved(lead: re.Pattern[str]) -> Callable[[str], str | None]:
    def change(sentence: str) -> str | None:
        m = lead.match(sentence)
        return f"{sentence[m.end()].upper()}{sentence[m.end() + 1:]}, {m.group(1).lower()}{m.group(2)}" if m else None
    return change


# A part of the sentence in quotation marks, the rest in the text's own words ('The Board shall "be composed of one
# representative per Member State"'): the quotation's edge at a word near the given share of the sentence, never next to
# a number or a reference word (a quotation does not split 'Article 6(1)'), and not in a point ('(b) …' is no sentence).
_NOT_AN_EDGE = re.compile(r"\d|^(?:Articles?|paragraphs?|points?|Annex|Section|Chapter|to|and|of)$")


def _edge(words: list[str], share: float) -> int | None:
    k = int(len(words) * share)
    return next((k + d for d in (0, 1, -1, 2, -2, 3, -3) if 0 < k + d < len(words)
                 and not any(_NOT_AN_EDGE.search(w) for w in words[max(0, k + d - 2):k + d + 2])), None)


def _part_quoted(start: float | None, end: float | None) -> Callable[[str], str | None]:
    def change(sentence: str) -> str | None:
        words = sentence.split()
        if re.match(r"\(\w{1,4}\)", sentence):
            return None
        a = 0 if start is None else _edge(words, start)
        b = len(words) if end is None else _edge(words, end)
        if a is None or b is None or b <= a:
            return None
        return " ".join([*words[:a], '"' + " ".join(words[a:b]) + '"', *words[b:]]).strip()
    return change


LABEL, SAYS = "<label>", "<says>"  # where a change names the provision and its verb ('Article 36(2) provides that "…"')
PROVIDES = {"en": "provides that", "it": "prevede che"}


# rule name → (whether the changed sentence is faithful, the change; None when it does not apply)
ENGLISH: dict[str, Rule] = {
    "quoted": (True, lambda s: f'"{s}"'),
    "quoted after its label": (True, lambda s: f'{LABEL} {SAYS} "{s[0].lower()}{s[1:]}"'),
    "own modal, the rest quoted": (True, lambda s: _modal_then_quote(s)),
    "must for shall": (True, lambda s: _SHALL.sub("must", s) if _SHALL.search(s) else None),
    "negation added": (False, _sub(r"\bshall\b(?!\s+not)", "shall not", unless=r"\b(?:not|no)\b")),
    "negation dropped": (False, lambda s: re.sub(r"\bshall not\b", "shall", s) if len(re.findall(r"\bshall not\b", s)) == 1
                         else None),
    "may to must": (False, _sub(r"\bmay\b", "must", unless=r"\b(?:shall|must|not)\b")),
    "at least to at most": (False, _sub(r"\bat least\b", "at most")),
    "not later to not earlier": (False, _sub(r"\bnot later than\b", "not earlier than")),
    "shall to may": (False, _sub(r"\bshall\b(?!\s+not)", "may", unless=r"\b(?:may|not)\b")),
    "condition moved": (True, _condition_moved(_LEAD_CONDITION)),
    "at least to no less than": (True, _sub(r"\bat least\b", "no less than")),
    "condition dropped": (False, _condition_dropped(_LEAD_CONDITION)),
    "within to only after": (False, _sub(r"\bwithin (?=(?:a period of )?\w+ (?:days|months|hours|years|working days|weeks)\b)",
                                         "only after ")),
    "at the latest to at the earliest": (False, _sub(r"\bat the latest\b", "at the earliest")),
    "its first half quoted": (True, _part_quoted(None, 0.5)),
    "its middle quoted": (True, _part_quoted(0.25, 0.75)),
    "its last two thirds quoted": (True, _part_quoted(1 / 3, None)),
    "only if to if": (False, _sub(r"\bonly (if|where|when)\b", r"\1")),
    "only dropped": (False, _sub(r"(?<!\bnot )\bonly (?!(?:if|where|when)\b)", "")),
    "within to after": (False, _sub(r"\bwithin (?=(?:a period of )?\w+ (?:days|months|hours|years|working days|weeks)\b)",
                                    "after ")),
    "until to once": (False, _sub(r"\buntil\b", "once")),
    "a regime's qualifier dropped": (False, lambda s: re.sub(_QUALIFIER, "", s) if re.search(_QUALIFIER, s) else None),
    "an actor swapped": (False, lambda s: _actor_swapped(s)),
    "before to after": (False, _sub(r"\b(?:before|prior to)\b", "after")),
    "after to before": (False, _sub(r"\bafter\b", "before")),
}


# The Italian text states most duties in the present tense ('Il fornitore garantisce'), so the rules turn the modals it
# does write ('deve', 'può'), the words of time and bound, the opening condition, a regime's qualifier and the actors.
_IT_MODAL = r"\b(?:deve|devono|può|possono)\b"
_IT_LEAD_CONDITION = re.compile(r"(Se|Qualora|Ove|Laddove)\b([^,;()]{5,200}), "
                                r"(?!(?:esso|essa|essi|esse|ciò|questo|questa|tale|tali|egli|essa)\b)", re.IGNORECASE)
_IT_QUALIFIER = re.compile(r"(?<=\bIA) ad alto rischio\b|(?<=\bIA) per finalità generali\b| con rischio sistemico\b"
                           r"|(?<=\bincidenti) gravi\b|(?<=\bincidente) grave\b")
_IT_ACTOR_PAIRS = [("la Commissione", "il comitato"), ("il titolare del trattamento", "il responsabile del trattamento"),
                   ("i fornitori", "i deployer"), ("il fornitore", "il deployer"), ("l'autorità di controllo", "il comitato")]
_IT_BEFORE = {"prima di": "dopo", "prima del": "dopo il", "prima della": "dopo la", "prima dello": "dopo lo",
              "prima dell'": "dopo l'", "prima dei": "dopo i", "prima delle": "dopo le", "prima degli": "dopo gli",
              "prima che": "dopo che"}
_IT_PERIOD = r"(?=(?:un termine di |un periodo di )?\S+ (?:giorni|mesi|ore|anni|settimane)\b)"


def _it_before_to_after(sentence: str) -> str | None:
    m = re.search(r"\bprima (?:d(?:i|el|ella|ello|ell'|ei|elle|egli)|che)\b'?", sentence, re.IGNORECASE)
    if not m:
        return None
    said = m.group().lower()
    return sentence[:m.start()] + _IT_BEFORE[said] + sentence[m.end():] if said in _IT_BEFORE else None


ITALIAN: dict[str, Rule] = {
    "quoted": ENGLISH["quoted"],
    "quoted after its label": ENGLISH["quoted after its label"],
    "negation added": (False, _sub(_IT_MODAL, lambda m: f"non {m.group()}", unless=r"\b(?:non|né|mai)\b")),
    "negation dropped": (False, lambda s: re.sub(rf"\bnon ({_IT_MODAL})", r"\1", s)
                         if len(re.findall(rf"\bnon {_IT_MODAL}", s)) == 1 else None),
    "may to must": (False, lambda s: None if re.search(r"\b(?:deve|devono|non)\b", s) else
                    _sub(r"\b(?:può|possono)\b", lambda m: {"può": "deve", "possono": "devono"}[m.group()])(s)),
    "must to may": (False, lambda s: None if re.search(r"\b(?:può|possono|non)\b", s) else
                    _sub(r"\b(?:deve|devono)\b", lambda m: {"deve": "può", "devono": "possono"}[m.group()])(s)),
    "at least to at most": (False, _sub(r"\balmeno\b", "al massimo")),
    "condition moved": (True, _condition_moved(_IT_LEAD_CONDITION)),
    # 'non meno di' before a number ('almeno due persone'), 'come minimo' before what is listed ('almeno i dati seguenti')
    "at least to no less than": (True, lambda s: _sub(r"\balmeno\b(?= (?:\d|un[oa']?\b|due|tre|quattro|cinque|sei|dieci))",
                                                      "non meno di")(s) or _sub(r"\balmeno\b", "come minimo")(s)),
    "condition dropped": (False, _condition_dropped(_IT_LEAD_CONDITION)),
    "within to after": (False, _sub(rf"\bentro {_IT_PERIOD}", "dopo ")),
    "its first half quoted": ENGLISH["its first half quoted"],
    "its middle quoted": ENGLISH["its middle quoted"],
    "its last two thirds quoted": ENGLISH["its last two thirds quoted"],
    "only if to if": (False, _sub(r"\b(?:solo|soltanto|unicamente) (se|qualora|ove|quando)\b", r"\1")),
    "a regime's qualifier dropped": (False, lambda s: re.sub(_IT_QUALIFIER, "", s) if re.search(_IT_QUALIFIER, s) else None),
    "an actor swapped": (False, lambda s: _actor_swapped(s, _IT_ACTOR_PAIRS)),
    "before to after": (False, _it_before_to_after),
}
RULES = {"en": ENGLISH, "it": ITALIAN}


def first_sentence(text: str) -> str | None:
    text = re.sub(r"^\(?\d+\)?\.?\s+", "", " ".join(text.split()))
    sentences = [s for s in re.split(r"(?<=[.;:])\s+", text) if 8 <= len(s.split()) <= 60 and '"' not in s]
    return sentences[0].rstrip(".;:") if sentences else None


def main() -> None:
    changed: Counter[tuple[str, str]] = Counter()
    right: Counter[tuple[str, str]] = Counter()
    with Pincite() as service:
        for corpus, lang in CORPORA:
            provisions, _ = service.provisions(corpus, lang)
            for provision in provisions:
                sentence = first_sentence(provision.text) if provision.kind != "recital" else None
                if sentence is None:
                    continue
                for name, (faithful, change) in RULES[lang].items():
                    claim = change(sentence)
                    if claim is None or claim == sentence:
                        continue
                    claim = claim.replace(LABEL, provision.label).replace(SAYS, PROVIDES[lang])
                    verdict = service.verify(f"{claim} [{provision.label}].", corpus=corpus, lang=lang)["verified"]
                    changed[lang, name] += 1
                    right[lang, name] += verdict == faithful
    for lang, rules in RULES.items():
        print(f"{'rule (' + lang + ')':28} {'changed':>8} {'right':>8} {'share':>7}")
        for name, (faithful, _) in rules.items():
            if changed[lang, name]:
                print(f"{name:28} {changed[lang, name]:8} {right[lang, name]:8} "
                      f"{right[lang, name] / changed[lang, name]:7.1%}  ({'must pass' if faithful else 'must be refused'})")


if __name__ == "__main__":
    main()
