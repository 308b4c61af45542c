"""Search several corpora at once; every hit says which instrument it comes from.

"How do the AI Act's transparency duties relate to the GDPR's information obligations?" needs
`Article 50(1)` of one act and `Article 13(1)` of the other: labels alone are ambiguous across
instruments, so each hit carries its instrument.

Each corpus keeps its own language, analysis and fusion; their candidates are asked of the store
together (`search.search_together`: one query on PostgreSQL, each index in turn on SQLite), then
the lists are merged here. Fused scores are normalised per corpus, so a corpus's best hit always scores near 1;
to keep an unrelated corpus from interleaving its best guesses with real answers, each corpus's
scores are weighted by how close its best dense match comes to the best one overall (same
embedding model, so cosines compare across corpora). Every corpus asked for keeps its best hits
in the list; provisions named in the question come first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pincite.errors import ConfigError
from pincite.retrieve.hits import Hit


@dataclass(frozen=True)
class CorpusHit:
    corpus: str
    lang: str
    hit: Hit
    score: float  # comparable across corpora; inf for a provision named in the question

    @property
    def citation(self) -> str:
        """'gdpr Article 13(1)': the label qualified by its instrument."""
        return f"{self.corpus} {self.hit.provision.label}"


def search_corpora(corpora: list[str], search_one: Callable[[str], tuple[str, list[Hit]]],
                   k: int = 10) -> list[CorpusHit]:
    """`search_one(corpus)` gives (the language searched, its hits) for one corpus."""
    names = list(dict.fromkeys(c.strip() for c in corpora if c.strip()))
    if not names:
        raise ConfigError("no corpus to search — name one or more, e.g. --corpus gdpr --corpus ai-act")
    results = []
    for name in names:
        corpus_lang, hits = search_one(name)
        results.append((name, corpus_lang, hits))
    best = {name: max((h.dense for h in hits if h.dense is not None and not h.exact), default=None)
            for name, _, hits in results}
    top = max((b for b in best.values() if b is not None), default=None)
    merged: list[CorpusHit] = []
    for name, corpus_lang, hits in results:
        weight = best[name] / top if top and best[name] is not None and best[name] > 0 else 1.0
        merged += [CorpusHit(name, corpus_lang, h, float("inf") if h.exact else h.score * weight) for h in hits]
    order = {name: i for i, name in enumerate(names)}
    merged.sort(key=lambda c: (-c.score, order[c.corpus]))
    return _with_each_corpus(merged, names, k)


def _with_each_corpus(merged: list[CorpusHit], names: list[str], k: int) -> list[CorpusHit]:
    """The top k, except that every corpus asked for keeps its best hits in the list (k / 2 shared
    among the corpora): a question about two acts wants both."""
    each = max(1, k // (2 * len(names)))
    reserved = [c for n in names for c in [x for x in merged if x.corpus == n][:each]]
    taken = {id(c) for c in reserved}
    rest = [c for c in merged if id(c) not in taken][: max(0, k - len(reserved))]
    chosen = taken | {id(c) for c in rest}
    return [c for c in merged if id(c) in chosen]
