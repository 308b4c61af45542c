"""Thai text: numerals, the sara am that PDF extraction splits, and word segmentation for BM25.

Thai is written without spaces between words, so the keyword index needs a segmenter
(pythainlp's dictionary-based `newmm`, imported only when Thai text is analysed).
"""

from __future__ import annotations

import re
from functools import lru_cache

THAI_DIGITS = "๐๑๒๓๔๕๖๗๘๙"
_TO_ARABIC = str.maketrans(THAI_DIGITS, "0123456789")

# Royal Gazette fonts draw sara am (ำ) as nikhahit + sara aa; text extraction maps the nikhahit
# to a space or U+0E4D: "จ านวน" or "จํานวน" for "จำนวน". No Thai word starts with sara aa, so
# a consonant (with its tone mark) + space or nikhahit + sara aa is always a split sara am.
_SPLIT_SARA_AM = re.compile(r"([\u0e01-\u0e2e][\u0e48-\u0e4b]?)(?: |\u0e4d)\u0e32")
_THAI_RUN = re.compile(r"[\u0e01-\u0e3a\u0e40-\u0e4e]+")

# Function words only; legal words ("ต้อง" must, "ไม่" not, "ปรับ" fine) stay, unlike in
# pythainlp's general-purpose list, which drops them.
STOPWORDS = frozenset("""
การ ความ ที่ และ หรือ ของ ใน ให้ ได้ ซึ่ง โดย เป็น แก่ จะ ไว้ นั้น นี้ กับ แต่ ก็ ว่า อยู่ ไป มา
อัน ต่อ จาก ด้วย เพื่อ แห่ง ตาม แล้ว ถ้า หาก เมื่อ ทั้ง อย่าง ใด ๆ
""".split())


def to_arabic(text: str) -> str:
    """'มาตรา ๒๖' → 'มาตรา 26'."""
    return text.translate(_TO_ARABIC)


def repair_sara_am(text: str) -> str:
    """'จ านวน' → 'จำนวน', 'ซ้ ากับ' → 'ซ้ำกับ'."""
    return _SPLIT_SARA_AM.sub(lambda m: m.group(1) + "\u0e33", text)


def thai_number(text: str) -> str:
    """'๒๖' → '26'; Arabic digits pass through."""
    return to_arabic(text.strip())


@lru_cache(maxsize=1)
def _segmenter():
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError as exc:  # pragma: no cover - pythainlp is a dependency
        from .errors import ConfigError

        raise ConfigError("Thai word segmentation needs pythainlp — pip install pythainlp") from exc
    return word_tokenize


def segment(text: str) -> list[str]:
    """Thai words of `text` (dictionary-based maximal matching, pythainlp newmm)."""
    words = _segmenter()(text, engine="newmm", keep_whitespace=False)
    return [w for w in (w.strip() for w in words) if w]


def tokenize_thai(text: str) -> list[str]:
    """BM25 tokens of Thai text: Thai runs segmented into words (function words dropped), the
    rest analysed as English, so 'มาตรา ๒๖', 'Article 6(1)' and '5,000,000' keep their tokens."""
    from .analysis import tokenize

    text = to_arabic(repair_sara_am(text))
    tokens: list[str] = []
    pos = 0
    for m in _THAI_RUN.finditer(text):
        tokens += tokenize(text[pos:m.start()], "en")
        tokens += [w for w in segment(m.group(0)) if w not in STOPWORDS]
        pos = m.end()
    tokens += tokenize(text[pos:], "en")
    return tokens
