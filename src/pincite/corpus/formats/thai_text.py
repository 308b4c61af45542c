"""Thai text as PDF extraction gives it: Thai numerals, and the sara am that extraction splits."""

from __future__ import annotations

import re

from pincite import languages

THAI_DIGITS = languages.each("DIGITS")["th"]
_TO_ARABIC = str.maketrans(THAI_DIGITS, "0123456789")

# Royal Gazette fonts draw sara am (ำ) as nikhahit + sara aa; text extraction maps the nikhahit
# to a space or U+0E4D: "จ านวน" or "จํานวน" for "จำนวน". No Thai word starts with sara aa, so
# a consonant (with its tone mark) + space or nikhahit + sara aa is always a split sara am.
_SPLIT_SARA_AM = re.compile(r"([\u0e01-\u0e2e][\u0e48-\u0e4b]?)(?: |\u0e4d)\u0e32")


def to_arabic(text: str) -> str:
    """'มาตรา ๒๖' → 'มาตรา 26'."""
    return text.translate(_TO_ARABIC)


def repair_sara_am(text: str) -> str:
    """'จ านวน' → 'จำนวน', 'ซ้ ากับ' → 'ซ้ำกับ'."""
    return _SPLIT_SARA_AM.sub(lambda m: m.group(1) + "\u0e33", text)


def thai_number(text: str) -> str:
    """'๒๖' → '26'; Arabic digits pass through."""
    return to_arabic(text.strip())
