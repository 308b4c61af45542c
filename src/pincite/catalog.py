"""Named corpora: short names for acts users ask about, and how to find them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import NotFoundError

CELEX_RE = re.compile(r"^[0-9][0-9]{4}[A-Z]{1,2}[0-9]{4}(?:\([0-9]+\))?$")

# EUR-Lex language codes the publisher serves.
EU_LANGS = frozenset(
    "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv".split()
)


@dataclass(frozen=True)
class Expected:
    """The shape of an act known in advance; a parse that differs is refused."""

    enacting: int | None = None  # paragraphs + unnumbered articles + definitions
    articles: int | None = None
    annexes: int | None = None
    recitals: int | None = None


@dataclass(frozen=True)
class CorpusSpec:
    name: str
    celex: str
    title: str
    eli: str  # ELI of the act
    langs: frozenset[str] = EU_LANGS
    expected: Expected | None = None


NAMED = {
    "gdpr": CorpusSpec(
        "gdpr", "32016R0679", "General Data Protection Regulation (EU) 2016/679",
        "http://data.europa.eu/eli/reg/2016/679/oj",
        expected=Expected(enacting=414, articles=99, annexes=0, recitals=173),
    ),
    "ai-act": CorpusSpec(
        "ai-act", "32024R1689", "Artificial Intelligence Act (EU) 2024/1689",
        "http://data.europa.eu/eli/reg/2024/1689/oj",
        expected=Expected(articles=113, annexes=13, recitals=180),
    ),
}


def corpus_spec(name: str) -> CorpusSpec:
    """Look a corpus up by short name or CELEX number."""
    key = name.strip()
    if key.lower() in NAMED:
        return NAMED[key.lower()]
    for spec in NAMED.values():
        if spec.celex == key.upper():
            return spec
    known = ", ".join(sorted(NAMED))
    raise NotFoundError(f"unknown corpus {name!r} — use one of: {known}")


def check_lang(spec: CorpusSpec, lang: str) -> str:
    code = lang.strip().lower()
    if code not in spec.langs:
        raise NotFoundError(
            f"{spec.name} has no language {lang!r} — use a two-letter EU language code such as en, it, fr"
        )
    return code


def eurlex_page(celex: str, lang: str) -> str:
    """The human-readable EUR-Lex page of an act; provision anchors (#art_33, #033.001) work on it."""
    return f"https://eur-lex.europa.eu/legal-content/{lang.upper()}/TXT/HTML/?uri=CELEX:{celex}"
