"""What a parser returns: the provisions of one act in one language, and what the checks need."""

from __future__ import annotations

from dataclasses import dataclass, field

from pincite.provisions import Provision


@dataclass(frozen=True)
class Act:
    """What every provision of one act shares."""

    instrument: str
    lang: str
    celex: str
    url: str  # EUR-Lex page; anchors are appended
    source_sha256: str


@dataclass
class ParseResult:
    provisions: list[Provision]
    version: str
    title: str
    article_count: int
    annex_count: int
    recital_count: int
    # Text that must never end up inside a provision (signatures, footnotes, scripts).
    foreign_texts: list[str] = field(default_factory=list)
    # (provision id, source text) pairs for the coverage check.
    source_texts: dict[str, str] = field(default_factory=dict)
