"""Cross-language search: an Italian question also searched in the English text of the same act.

The shipped embedding model reads English only, so an Italian question is embedded poorly. The
act's English version has the same provision ids; the question's stems, translated word by word
with a table the law taught itself (`tools/train_translation.py`: IBM Model 1 over the aligned
Italian and English texts), are searched there, and the two rankings of the Italian candidates
are fused by reciprocal rank. The answer still quotes the Italian text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query

TABLES = Path(__file__).with_name("translation")
MIN_P = 0.15  # translations less likely than this add more noise than words
PER_STEM = 2
RRF_K = 20
WEIGHT = 1.5  # the English ranking's weight against the question's own (dev split of ai-act-it + gdpr-it)


@lru_cache(maxsize=4)
def load_table(lang: str) -> dict[str, list[tuple[str, float]]] | None:
    """The `lang` → English table, or None when pincite ships none for that language."""
    path = TABLES / f"{lang}-en.json"
    if not path.is_file():
        return None
    return {stem: [(w, p) for w, p in pairs] for stem, pairs in json.loads(path.read_text("utf-8"))["table"].items()}


def translate(query: Query, table: dict[str, list[tuple[str, float]]]) -> str:
    """The question as English words: each stem's likeliest translations."""
    return " ".join(w for stem in query.tokens for w, p in table.get(stem, ())[:PER_STEM] if p >= MIN_P)


class _EnglishSearch(Protocol):
    """What a Twin needs of its searcher (search.Searcher: not imported, search.py imports us)."""

    def search(self, query: str, k: int = ..., mode: str = ...) -> list[Hit]: ...


@dataclass
class Twin:
    """The English version of the act a searcher searches, and the table into English."""

    searcher: _EnglishSearch  # a Searcher over the English index
    table: dict[str, list[tuple[str, float]]]
    lang: str

    def rerank(self, query: Query, hits: list[Hit], mode: str) -> list[Hit]:
        english = translate(query, self.table)
        if not english or not hits:
            return hits
        found = self.searcher.search(english, k=len(hits) * 2, mode=mode)
        rank = {h.provision.id.replace("/en/", f"/{self.lang}/", 1): i for i, h in enumerate(found)}
        fused = {}
        for i, hit in enumerate(hits):
            other = rank.get(hit.provision.id)
            fused[hit.provision.id] = 1 / (RRF_K + i) + (WEIGHT / (RRF_K + other) if other is not None else 0.0)
        order = sorted(hits, key=lambda h: -fused[h.provision.id])
        for hit in order:
            hit.score = fused[hit.provision.id]
        return order
