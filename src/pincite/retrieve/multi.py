"""Search several corpora at once; every hit says which instrument it comes from.

"How do the AI Act's transparency duties relate to the GDPR's information obligations?" needs
`Article 50(1)` of one act and `Article 13(1)` of the other: labels alone are ambiguous across
instruments, so each hit carries its instrument.

Each corpus keeps its own language, analysis and fusion; their candidates are asked of the store
together (`search.search_together`: one query on PostgreSQL, each index in turn on SQLite), then
the lists are merged here on one scale. A corpus's fused (and reranked) scores do not compare with
another's: BM25 scores depend on each index's statistics, and each list is normalised on its own,
so a corpus's best hit always scores near 1. What does compare are the relevance gate's signals
(answer.gate.relevance): the best dense similarity of the corpus's hits (one embedding model for
every corpus), and the idf-weighted share of the question's terms its best hits contain. A
corpus's relevance is the first plus COVERAGE_WEIGHT × the second (the second alone in bm25 mode,
where there is no first). So:

- a corpus the question names ('Article 85(2) of the GDPR', 'under the AI Act') gains NAMED_BONUS
  of relevance, and when the question names any of the corpora, provisions it names (exact
  lookup) are read in those only: 'Article 85(2) of the GDPR' is not the DSA's Article 85(2);
- a corpus is kept when its relevance comes within KEEP_MARGIN of the best corpus's, or when the
  question names one of its provisions (exact lookup); the others are dropped, not interleaved;
- the kept corpora's hits are merged by their corpus's relevance less RANK_STEP for every place
  down that corpus's own ranking, so each corpus keeps its own order and a less relevant corpus's
  first hit comes after the best corpus's first few;
- provisions named in the question come first.

KEEP_MARGIN, RANK_STEP, NAMED_BONUS and COVERAGE_WEIGHT were chosen on the development questions
of five acts searched together with the DGA and the CRA (`python tools/tune_corpora.py`; the
figures: `pincite eval retrieval --across …`, docs/retrieval.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from pincite.errors import ConfigError
from pincite.retrieve.hits import Hit

KEEP_MARGIN = 0.1  # a corpus this far below the best corpus's relevance is dropped
RANK_STEP = 0.01  # what a place down a corpus's own ranking costs on the shared scale
NAMED_BONUS = 0.1  # relevance added to a corpus the question names
# A corpus's relevance: dense top-1 + this × coverage (the gate weighs coverage 0.5; across corpora
# dense alone ranked best on the dev split, MRR 0.689 against 0.679 at 0.5). Coverage alone when
# there is no dense score (bm25 mode).
COVERAGE_WEIGHT = 0.0


@dataclass(frozen=True)
class CorpusResult:
    """One corpus's hits for the question, and how relevant the corpus is to it (the relevance
    gate's signal, comparable across corpora)."""

    name: str
    lang: str
    hits: list[Hit]
    dense: float | None  # the best dense similarity of its hits (the gate's signal); None in bm25 mode
    coverage: float  # the idf-weighted share of the question's terms its best hits contain (the same)
    named: bool = False  # the question names this corpus (answer.gate.names_corpus)

    def relevance(self, coverage_weight: float = COVERAGE_WEIGHT) -> float:
        return self.coverage if self.dense is None else self.dense + coverage_weight * self.coverage


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


def search_corpora(results: list[CorpusResult], k: int = 10, *, keep_margin: float = KEEP_MARGIN,
                   rank_step: float = RANK_STEP, named_bonus: float = NAMED_BONUS,
                   coverage_weight: float = COVERAGE_WEIGHT) -> list[CorpusHit]:
    """The best k hits of the relevant corpora, on one scale, best first."""
    if not results:
        raise ConfigError("no corpus to search — name one or more, e.g. --corpus gdpr --corpus ai-act")
    score = {r.name: r.relevance(coverage_weight) + (named_bonus if r.named else 0.0) for r in results}
    best = max(score.values())
    any_named = any(r.named for r in results)
    merged: list[CorpusHit] = []
    for r in results:
        if r.named or not any_named:
            merged += [CorpusHit(r.name, r.lang, h, float("inf")) for h in r.hits if h.exact]
        if score[r.name] >= best - keep_margin:
            ranked = [h for h in r.hits if not h.exact]
            merged += [CorpusHit(r.name, r.lang, h, score[r.name] - rank_step * place) for place, h in enumerate(ranked)]
    order = {r.name: i for i, r in enumerate(results)}
    merged.sort(key=lambda c: (-c.score, order[c.corpus]))
    return merged[:k]
