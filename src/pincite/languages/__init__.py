"""What pincite knows of each language, one pack per language.

A pack is a module of this package named by its language code (`en.py`, `it.py`, `fr.py`, `da.py`, `th.py`;
`de.py` … `cs.py`, which hold only what parsing, checking and stemming an act of theirs reads) holding the
words a stage reads, as regular-expression sources or word lists keyed by what they mean, in kinds named in
capitals: the question's cues (QUESTION, HOPS, ANSWER, ACTS …), search's (ANSWER_TITLES, SEARCHED_AS,
STOPWORDS, STEMMER …), the answers' (QUOTES, MONTHS, PHRASE_STOP), the support check's (VERIFY, STRUCTURE,
NUMBER_WORDS, QUANTITY_UNITS …), the instruction filter's (INJECTION), the citation grammar's (CITATION_HEADS,
CITATION, LABELS, REFERENCES) and the parsers' (EURLEX, CHECKS, STATUTE, DIGITS …). The question analysis asks
for a cue by name and gets one pattern matching it in any language with a pack (`cue`), because a question
is often asked in another language than the corpus's; the support check reads the corpus's own language
(`words`, `compiled`). Adding a language is adding a module here and its code to `CODES`; docs/languages.md
lists every kind, says how, and what is not in packs (messages and the answer's frame, English in every
language).
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from types import ModuleType
from typing import Any

# The packs, in the order their alternatives are tried. The last seven hold only what parsing, checking and
# stemming an act of theirs from EUR-Lex reads.
CODES = ("en", "it", "fr", "da", "th", "de", "nl", "pl", "es", "pt", "sk", "cs")


@cache
def pack(code: str) -> ModuleType | None:
    """The pack of a language, or None when pincite has none for it."""
    if code not in CODES:
        return None
    return importlib.import_module(f"pincite.languages.{code}")


def words(code: str, kind: str) -> dict[str, str]:
    """A pack's entries of one kind: name → regex source ('QUESTION', 'INTENTS', 'HOPS', 'ANSWER', 'ACTS'), or
    name → value ('ACT_NAMES', 'ACT_PHRASES')."""
    module = pack(code)
    return dict(getattr(module, kind, {})) if module else {}


@cache
def cue(name: str, kind: str = "QUESTION", flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """One pattern for a cue in every language that has it: the packs' alternatives joined. A cue no
    pack has matches nothing."""
    parts = [w[name] for w in (words(code, kind) for code in CODES) if name in w]
    return re.compile("|".join(f"(?:{p})" for p in parts) if parts else r"(?!)", flags)


def compiled(name: str, kind: str, flags: int = re.IGNORECASE) -> dict[str, re.Pattern[str]]:
    """One pattern per language that has it: language code → compiled pattern (for a stage that reads the
    text's own language, as the support check reads the corpus's)."""
    return {code: re.compile(w[name], flags) for code in CODES if name in (w := words(code, kind))}


def each(attribute: str) -> dict[str, Any]:
    """A pack attribute of every language that has it: language code → value ('ACTORS', 'FRAME_WORDS')."""
    return {code: getattr(module, attribute) for code in CODES
            if (module := pack(code)) is not None and hasattr(module, attribute)}


def word_set(kind: str) -> frozenset[str]:
    """The words of every pack's word list of a kind ('PHRASE_STOP', 'ACRONYMS'), as one set."""
    return frozenset(w for words in each(kind).values() for w in words.split())


def table(kind: str) -> dict[str, str]:
    """Every pack's entries of a table ('ACT_NAMES': a name → the act's number), merged."""
    merged: dict[str, str] = {}
    for code in CODES:
        merged.update(words(code, kind))
    return merged


def sequence(kind: str) -> tuple[str, ...]:
    """Every pack's entries of an ordered kind ('DEFINITION_FRAMES'), in the packs' order."""
    return tuple(item for code in CODES for item in getattr(pack(code), kind, ()))


def names(kind: str) -> tuple[str, ...]:
    """The cue names of a kind, in the order of the first pack that lists them (intents and hops
    are tried in that order)."""
    seen: dict[str, None] = {}
    for code in CODES:
        seen.update(dict.fromkeys(words(code, kind)))
    return tuple(seen)
