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

from pincite.citations import find_citations


def question_sentence(question: str) -> str:
    """The sentence that asks: the last one ending in '?', else the last one. A scenario told
    before it ('We are a company in Brazil. Does…?') is not what is asked."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", question.strip()) if s]
    asked = [s for s in sentences if s.endswith("?")]
    return (asked or sentences or [""])[-1]


# -- what it asks for ----------------------------------------------------------------------

# 'How long' and 'what period' are left out: the law often answers them without a number
# ('no longer than is necessary', 'without undue delay'), and so is French 'combien de temps' (how
# long). Italian 'in quanto' (as, since), 'per quanto' (as far as) and 'quanto prima' (as soon as
# possible) ask for none.
_ASKS_NUMBER = re.compile(
    r"\bhow\s+(?:many|much)\b|\b(?:what|which)\b(?:\s+[\w'’-]+){0,3}?\s+(?:rate|percentage|amount|sum|figure|number)\b"
    r"|(?<!\bin )(?<!\bper )\bquanto\b(?!\s+prima)|\bquant[aei]\b|\b(?:qual|quale|quali)\b(?:\s*[\w'’-]+){0,3}?\s*\b(?:aliquota|percentuale|importo|tasso|numero|cifra)\b"
    r"|\bcombien\b(?!\s+de\s+temps\b)|\bquel(?:le)?s?\b(?:\s+[\w'’-]+){0,3}?\s+(?:taux|pourcentage|montant|nombre|chiffre)\b",
    re.IGNORECASE)


# The answer type `amount` (retrieve.query): a number, or a fine ('What is the maximum fine…?'), read by
# the same words, so that the analysis and the gate never disagree on whether a number is asked for.
ASKS_AMOUNT = re.compile(_ASKS_NUMBER.pattern + r"|\b(?:what|which)\b(?:\s+[\w'’-]+){0,3}?\s+fines?\b", re.IGNORECASE)


def asks_for_number(question: str) -> bool:
    return bool(_ASKS_NUMBER.search(question_sentence(question)))


# A rate is a percentage: a provision that states only a period or a count does not say one.
_ASKS_RATE = re.compile(r"\b(?:rates?|percentages?|aliquot[ae]|percentual[ei]|tass[oi]|taux|pourcentages?)\b",
                        re.IGNORECASE)


def asks_for_rate(question: str) -> bool:
    return bool(_ASKS_RATE.search(question_sentence(question)))


# A question for a list ('What are the lawful bases…?', 'Which AI practices are prohibited?', 'What
# rights do I have?', 'What must the contract contain?'): answered by a provision's points, all of them.
_ASKS_LIST = re.compile(
    r"^(?:(?:so|and)\s+)?(?:which|what)\s+(?:are|were)\b|^(?:(?:so|and)\s+)?which\s+[\w'’-]+s\b|"
    r"^(?:(?:so|and)\s+)?what\s+(?:[\w'’-]+\s+){0,3}?(?:rights|bases|grounds|conditions|practices|obligations|"
    r"duties|requirements|information|elements|criteria|principles|measures|categories|types|kinds|details|"
    r"things|steps|cases|situations|exceptions|tasks|powers)\b|"
    r"\bwhat\s+(?:must|should|does|do|shall)\s+(?:[\w'’-]+\s+){1,6}?(?:contain|include|cover|list|set\s+out|"
    r"state|specify)\b|\blist\s+(?:of\s+)?(?:the|all)\b|^list\b|^quali\b|\bquali\s+sono\b|\belenc",
    re.IGNORECASE)


def asks_for_list(question: str) -> bool:
    return bool(_ASKS_LIST.search(question.strip()))


# A question for a period or deadline ('how quickly', 'by when', 'entro quanti giorni').
# 'When' alone is left out: it asks for a condition as often as for a time ('When is a controller
# required to consult…?').
_ASKS_PERIOD = re.compile(
    r"\bhow\s+(?:quickly|soon|fast|long|promptly)\b|\bby\s+when\b|\bwithin\s+(?:what|which|how)\b"
    r"|\b(?:what|which)\s+(?:deadline|time\s+limit|period|time\s+frame)\b|\bdeadline\b|\btime\s+limit\b"
    r"|\bhow\s+many\s+(?:hours|days|weeks|months|years)\b|\bentro\s+(?:quant[oiae]|quando|che\s+termine)\b"
    r"|\bquanto\s+tempo\b|\bin\s+quanto\s+tempo\b|\bquant[ie]\s+(?:ore|giorni|settimane|mesi|anni)\b"
    r"|\bdans\s+quel\s+délai\b|\bcombien\s+de\s+temps\b", re.IGNORECASE)


def asks_for_period(question: str) -> bool:
    return bool(_ASKS_PERIOD.search(question))


# A question for the day a rule starts to apply, not only one opening with 'when' ('When does a
# controller have to consult the authority?' asks for the condition): only then is the whole act's date
# one reference away.
_FROM_WHEN = re.compile(r"\b(?:(?:from|since|as\s+of|starting)\s+(?:when|what\s+date|which\s+date)|appl(?:y|ies)\s+from|"
                        r"start(?:s|ed)?\s+to\s+apply|in\s+force|entry\s+into\s+force|enter(?:s|ed)?\s+into\s+force|came\s+into\s+force|"
                        r"da\s+quando|da\s+quale\s+data|a\s+decorrere|a\s+partire\s+da\s+quando|(?:entra|entrano)\s+in\s+vigore|"
                        r"à\s+partir\s+de\s+quand|entre(?:nt)?\s+en\s+vigueur)\b|เริ่มมีผล|มีผลใช้บังคับ|ใช้บังคับเมื่อ", re.I)


def asks_from_when(question: str) -> bool:
    return bool(_FROM_WHEN.search(question))


# A second thing asked in the question sentence: a question word or an auxiliary after a comma and a
# conjunction ('…, and what fine could we face?', '…, and by when?', '…, e quando si applica?'), or a
# question word right after 'and' ('what must it do and how quickly?', '… e chi deve informare?'), or
# 'and' with an auxiliary and its subject ('… and can it be renewed?'). A comma alone is no sign: 'If a
# user cannot access the data, what must the data holder do?' asks one thing.
_ASK_WORDS_EN_IT = (r"what|which|how|when|who|whom|whose|where|why|whether|cosa|che\s+cosa|quale|quali|come|quando|chi|dove|"
                    r"perché")
_ASK_WORDS_FR = r"comment|quand|qui|où|quel(?:le)?s?|pourquoi|que"
_ASK_WORDS = f"{_ASK_WORDS_EN_IT}|{_ASK_WORDS_FR}"
_AUX = (r"can|could|do|does|did|is|are|was|were|will|would|must|should|shall|may|might|has|have|"
        r"può|possono|deve|devono|è|sono|peut|peuvent|doit|doivent|est|sont")
_PREP = r"(?:(?:by|to|for|from|in|on|with|a|da|per|di|à|de|pour)\s+)?"
_SECOND_ASK = re.compile(
    rf"[,;]\s*(?:and|or|but|e|o|ed|ma|et|ou|mais)\s+{_PREP}(?:{_ASK_WORDS}|{_AUX}|if|se|si)\b"
    rf"|\s(?:and|e|ed)\s+{_PREP}(?:{_ASK_WORDS_EN_IT})\b|\set\s+{_PREP}(?:{_ASK_WORDS_FR})\b"
    rf"|\sand\s+(?:{_AUX})\s+(?:it|they|we|i|you|he|she|there)\b", re.IGNORECASE)


def question_parts(text: str) -> int:
    """How many things a question asks: its question marks, or 1 + the second asks of its question sentence."""
    marks = len(re.findall(r"\?(?=\s|$)", text))
    return max(1, marks, 1 + len(_SECOND_ASK.findall(question_sentence(text))))


# -- facts a statute never contains -------------------------------------------------------

# What is so now: statutes say what the rule is, not who holds an office or what exists today.
_NOW = re.compile(
    r"\b(?:current(?:ly)?|presently|at present|right now|today|to date|so far|as of now"
    r"|attual(?:e|i|mente)|oggi|ad oggi|finora|al momento|actuel(?:le)?s?|actuellement|aujourd['’]hui"
    r"|à ce jour|jusqu['’]à présent)\b", re.IGNORECASE)
# 'When' and 'where' are left out: they open subordinate clauses too ('When data were obtained
# from a third party, by when must…'), and 'When did the Regulation start to apply?' is a law question.
_WH = (r"(?:what|which|who|whom|how\s+(?:much|many|long|often)|why|quale|quali|quanto|quanta"
       r"|quanti|quante|chi|cosa|che|quel(?:le)?s?|qui|que|combien)")
# What happened: a question about a past event (a fine imposed, a ruling, a designation),
# asked with a past or perfect auxiliary right after the question word.
_LEAD = r"^(?:(?:in|within|by|for|from|under|to|entro|per|da|dans|pour|en)\s+)?" + _WH + r"\b(?:\s+[\w'’-]+){0,4}?\s+"
_W = r"[\w'’-]+"
_PAST = {
    "en": re.compile(_LEAD + rf"(?:did\b|(?:was|were)\s+(?:{_W}\s+){{0,3}}?{_W}(?:ed|en|wn|ht|un|id)\b"
                     rf"|(?:has|have)\s+(?!to\b)(?:{_W}\s+){{0,2}}?{_W}(?:ed|en|wn|ht|un|id)\b)", re.IGNORECASE),
    "it": re.compile(_LEAD + rf"(?:ha|hanno)\s+(?:{_W}\s+){{0,2}}?{_W}(?:at[oaie]|it[oaie]|ut[oaie])\b",
                     re.IGNORECASE),
    "fr": re.compile(_LEAD + rf"(?:a|ont)\s+(?:{_W}\s+){{0,2}}?{_W}(?:é|ée|és|ées|i|is|u|us)\b", re.IGNORECASE),
}


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


# A perfect asked with 'already' or 'yet' ('Has the Commission already published its
# guidelines?', 'Have any providers been fined yet?', 'La Commissione ha già adottato…?') asks
# whether something has happened by now. Only as the question itself: 'if it has already
# notified, must it…' and 'se ha già notificato' tell the facts of a case.
_ALREADY = re.compile(
    r"^(?:(?:and|so|but|e|ma)\s+)?(?:has|have|hasn['’]t|haven['’]t)\b(?:\s+[\w'’-]+){0,6}?\s+(?:already|(?<!not\s)yet)\b"
    r"|^(?!.*\b(?:se|qualora|quando|che|chi|if|when|where)\b.*\b(?:ha|hanno)\s+già\b).*\b(?:ha|hanno)\s+già\s+"
    r"[\w'’-]+(?:at|it|ut)[oaie]\b",
    re.IGNORECASE)


# A modal perfect ('what should that contract have covered') asks what the law required.
_MODAL_PERFECT = re.compile(r"\b(?:should|would|could|must|might|ought)\b(?:\s+[\w'’-]+){0,3}?\s+have\b", re.IGNORECASE)
# 'Current' of the law's own text ('the current rules', 'the current wording') is no fact of the world.
_LAW_NOW = re.compile(r"\bcurrent(?:ly)?\s+(?:definition|rules?|wording|text|law|requirements?|obligations?)\b",
                      re.IGNORECASE)
# What an act does to other acts, which its final provisions state.
_LAW_ACTS = re.compile(r"\b(?:repeal(?:ed|s)?|amend(?:ed|s)?|replac(?:e|ed|es)|supersed(?:e|ed|es)|abrogat\w*|"
                       r"modificat\w*|sostituit\w*)\b", re.IGNORECASE)


# -- acts and names ------------------------------------------------------------------------

# Acts by the names people use for them. A question that asks what one of these says is not
# answered by another act, even by one that cites it.
KNOWN_ACTS = {
    "general data protection regulation": "2016/679", "digital services act": "2022/2065",
    "digital markets act": "2022/1925", "data governance act": "2022/868", "cyber resilience act": "2024/2847",
    "artificial intelligence act": "2024/1689", "law enforcement directive": "2016/680",
    "gdpr": "2016/679", "rgpd": "2016/679", "dsgvo": "2016/679", "led": "2016/680", "eudpr": "2018/1725",
    "eprivacy": "2002/58", "dsa": "2022/2065", "dma": "2022/1925", "dga": "2022/868", "data act": "2023/2854",
    "nis2": "2022/2555", "nis": "2016/1148", "dora": "2022/2554", "cra": "2024/2847", "mica": "2023/1114",
    "ai act": "2024/1689", "eidas": "2014/910", "psd2": "2015/2366", "ehds": "2025/327",
}
# French writes acts' names in lower case ('le règlement sur les services numériques'), so they are
# read as phrases, not by their capitals; and a directive named by its subject ('la directive sur la
# responsabilité du fait des produits défectueux') as one whose number is not known.
FRENCH_ACTS = {
    "règlement général sur la protection des données": "2016/679",
    "règlement sur les services numériques": "2022/2065", "législation sur les services numériques": "2022/2065",
    "règlement sur les marchés numériques": "2022/1925", "législation sur les marchés numériques": "2022/1925",
    "règlement sur la gouvernance des données": "2022/868", "règlement sur les données": "2023/2854",
    "règlement sur la cyberrésilience": "2024/2847", "règlement sur la résilience opérationnelle numérique": "2022/2554",
    "règlement sur l'intelligence artificielle": "2024/1689", "règlement sur l'ia": "2024/1689", "règlement ia": "2024/1689",
    "directive vie privée et communications électroniques": "2002/58", "directive police-justice": "2016/680",
}
_FRENCH_ACT = re.compile(r"\b(?:" + "|".join(re.escape(n).replace("'", "['’]") for n in FRENCH_ACTS) + r")(?![\w'’])",
                         re.IGNORECASE)
_FRENCH_DIRECTIVE = re.compile(r"\bdirective\s+(?:européenne\s+)?(?:sur|relative?s?\s+(?:à|aux?)|concernant)\s+"
                               r"[\w'’-]+(?:\s+[\w'’-]+){0,6}", re.IGNORECASE)
# Written in capitals but common nouns, not names of anything outside a corpus.
COMMON_ACRONYMS = frozenset(
    "AI IA KI IT HR CV ID IP CCTV SMS URL API CEO SME PME PMI FAQ PDF USB GPS DNA PIN OK TV PC EU UE "
    "LLM GPU CPU QR RFID NGO ONG".split())
_ACT_NUMBER_NAMED = re.compile(
    r"\b(?:Regulation|Directive|Decision|Regolamento|Direttiva|Decisione|Règlement|Décision)\s*"
    r"(?:\((?:EU|EC|EEC|UE|CE|CEE|Euratom)\)\s*)?(?:No\.?\s*|n\.\s*)?((?:19|20)?\d{2})/(\d{1,4})", re.IGNORECASE)
_ACT_NUMBER_BARE = re.compile(r"\b((?:19|20)?\d{2})/(\d{1,4})/(?:EC|EU|EEC|CE|UE|CEE)\b")
_ACT_TITLE = re.compile(r"((?:[A-Z][\w-]*\s+){1,5})(Directive|Regulation|Act|Convention)\b")
_MENTION_BEFORE = re.compile(
    r"(?:\b(?:with|to|than|and|or|e|ed|con|et|avec|ou)\s+(?:the\s+|il\s+|la\s+|lo\s+|le\s+|l['’]\s*)?)$",
    re.IGNORECASE)
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
        while words and words[0].lower() in ("the", "what", "which", "under", "does", "how", "is", "are"):
            words = words[1:]  # a capitalised question word is not part of the act's name
        if words:
            label = " ".join([*words, m.group(2)])
            yield m.end() - len(label), m.end(), label, KNOWN_ACTS.get(label.lower())
    for m in re.finditer(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*)(?![\w-])", question):
        word = m.group(1)
        if word.lower() in KNOWN_ACTS and any(c.isupper() for c in word) and word.upper() not in COMMON_ACRONYMS:
            yield m.start(), m.end(), word, KNOWN_ACTS[word.lower()]
    named = []
    for m in _FRENCH_ACT.finditer(question):
        named.append((m.start(), m.end()))
        yield m.start(), m.end(), m.group(), FRENCH_ACTS[m.group().lower().replace("’", "'")]
    for m in _FRENCH_DIRECTIVE.finditer(question):
        if not any(start <= m.start() < end for start, end in named):
            yield m.start(), m.end(), m.group(), None


def _name_like(token: str, initial: bool) -> bool:
    """Acronyms and camel case ('CNIL', 'TikTok', 'GPT-4'), and capitalised words that do
    not open a sentence ('Meta', 'Italy', 'Schrems')."""
    inner = token[1:]
    if any(c.isupper() for c in inner) or (any(c.isdigit() for c in token) and token[:1].isupper()):
        return True
    return token[:1].isupper() and not initial
