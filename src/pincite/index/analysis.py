"""Text analysis for the keyword index: legal tokens kept whole, accents folded, Snowball stems;
Thai segmented into words first.

`6(1)(a)`, `FC-5.2.6`, `20 000 000`, `10^25` and `2016/679` survive as single tokens, so a
question that types them finds the provision that contains them. Thai is written without
spaces between words, so it is segmented with pythainlp's dictionary-based `newmm` (imported
only when Thai text is analysed).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from pincite import languages
from pincite.citations import TEXT_RULE_PATTERN
from pincite.corpus.formats.thai_text import repair_sara_am, to_arabic
from pincite.errors import ConfigError

# Order matters: the first alternative that matches at a position wins.
_TOKEN = re.compile(
    "(?P<rule>" + TEXT_RULE_PATTERN + ")"  # rulebook ids: FC-5.2.6
    + r"""
  | (?P<ref>\d+[a-z]?(?:\(\d+[a-z]?\))+(?:\([a-z]{1,4}\))*)      # 6(1)(a), 83(5)
  | (?P<power>\d+\^\d+)                                          # 10^25
  | (?P<amount>\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+(?![\d]))        # 20 000 000, 35.000.000
  | (?P<act>\d{2,4}/\d{1,4}(?:/[A-Z]{2,4})?)                     # 2016/679, 95/46/EC
  | (?P<word>\w+)
    """,
    re.VERBOSE,
)

# The Snowball stemmer of each language: a pack names its own (STEMMER); the Union's languages that have no
# pack yet are stemmed by the algorithm Snowball has for them, so a Swedish act is searched stemmed.
STEMMER_LANGS = {
    "sv": "swedish", "fi": "finnish", "ro": "romanian", "hu": "hungarian", "el": "greek", "lt": "lithuanian",
} | languages.each("STEMMER")

# Function words only, from the language packs; legal words ("shall", "may", "not") carry meaning and stay.
STOPWORDS = {code: set(words.split()) for code, words in languages.each("STOPWORDS").items()}


def fold(text: str) -> str:
    """Lower-case and strip accents: 'Società' and 'societa' are the same token."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=16)
def _stemmer(lang: str):
    name = STEMMER_LANGS.get(lang)
    if name is None:
        return None
    import Stemmer  # PyStemmer: Snowball in C

    return Stemmer.Stemmer(name)


def tokenize(text: str, lang: str) -> list[str]:
    """Tokens for BM25, in text order."""
    if lang == "th":  # no spaces between words: segment first
        return tokenize_thai(text)
    stemmer = _stemmer(lang)
    stop = STOPWORDS.get(lang, set())
    tokens: list[str] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        token = m.group(0)
        if kind == "amount":
            tokens.append(re.sub(r"[ \u00a0\u202f.,]", "", token))
        elif kind != "word":
            tokens.append(token.lower())
        else:
            word = fold(token)
            if word in stop or (len(word) == 1 and not word.isdigit()):
                continue
            tokens.append(stemmer.stemWord(word) if stemmer else word)
    return tokens


@lru_cache(maxsize=65536)
def token_set(text: str, lang: str) -> frozenset[str]:
    """The distinct tokens of a text. Cached: the gate, the follower and the ranker read the same
    provision texts for every question that ranks them."""
    return frozenset(tokenize(text, lang))


_THAI_RUN = re.compile(r"[\u0e01-\u0e3a\u0e40-\u0e4e]+")
# Thai function words only; legal words ("ต้อง" must, "ไม่" not, "ปรับ" fine) stay, unlike in
# pythainlp's general-purpose list, which drops them.
THAI_STOPWORDS = frozenset(STOPWORDS.get("th", ()))


@lru_cache(maxsize=1)
def _segmenter():
    try:  # imported here: loading pythainlp's dictionary costs a second that non-Thai work should not pay
        from pythainlp.tokenize import word_tokenize
    except ImportError as exc:  # pragma: no cover - pythainlp is a dependency
        raise ConfigError("Thai word segmentation needs pythainlp — pip install pythainlp") from exc
    return word_tokenize


def segment(text: str) -> list[str]:
    """Thai words of `text` (dictionary-based maximal matching, pythainlp newmm)."""
    words = _segmenter()(text, engine="newmm", keep_whitespace=False)
    return [w for w in (w.strip() for w in words) if w]


def tokenize_thai(text: str) -> list[str]:
    """BM25 tokens of Thai text: Thai runs segmented into words (function words dropped), the
    rest analysed as English, so 'มาตรา ๒๖', 'Article 6(1)' and '5,000,000' keep their tokens."""
    text = to_arabic(repair_sara_am(text))
    tokens: list[str] = []
    pos = 0
    for m in _THAI_RUN.finditer(text):
        tokens += tokenize(text[pos:m.start()], "en")
        tokens += [w for w in segment(m.group(0)) if w not in THAI_STOPWORDS]
        pos = m.end()
    tokens += tokenize(text[pos:], "en")
    return tokens
