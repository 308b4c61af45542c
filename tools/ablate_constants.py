"""Ablation of pincite's tuned constants on the DEV split (multilingual-e5-small).

One process: a baseline dev scorecard (retrieval, abstention, multihop, answers), then for each
ablation the constant patched (where it is read: the module global), the scorecard recomputed, the
constant restored.

Skipping, proved per question: during the baseline every function that reads a constant is wrapped
by a probe that notes, for the question being evaluated, that the constant was (or could have been)
read. A question that never reached the reading code in the baseline runs identically whatever the
constant's value (the pipeline is deterministic; query vectors are cached), so only the questions a
probe marked are re-run under the ablation; the others keep their baseline rows. `--full` re-runs
every question (no skipping) to check this.

Usage (PINCITE_HOME an e5 home with the evals' corpora built; PINCITE_MIRROR for a mirror):
  python tools/ablate_constants.py                 # baseline + every ablation
  python tools/ablate_constants.py --only NAME     # baseline + one (comma-separated list ok)
  python tools/ablate_constants.py --list
Never reads the test split: questions are loaded with split="dev" only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
sys.dont_write_bytecode = True

REPO = Path(__file__).resolve().parent.parent
EVALS = REPO / "evals"
OUT = Path(os.environ.get("ABLATE_OUT", "ablation"))

RETRIEVAL_SETS = ["gdpr-en", "ai-act-en", "ai-act-it", "ai-act-fr", "pdpa-th", "pdpa-en", "dsa-en"]
ANSWER_SETS = ["first-gdpr-en", "first-ai-act-en", "first-dsa-en", "first-data-act-en"]
MULTIHOP = "multihop"

import pincite.answer.extractive as ext  # noqa: E402
import pincite.answer.gate as gate  # noqa: E402
import pincite.answer.pointers as ptr  # noqa: E402
import pincite.retrieve.follow as follow  # noqa: E402
import pincite.retrieve.search as search  # noqa: E402
from pincite.evaluate import abstention as ev_abs  # noqa: E402
from pincite.evaluate import answers as ev_ans  # noqa: E402
from pincite.evaluate import multihop as ev_mh  # noqa: E402
from pincite.evaluate import retrieval as ev_ret  # noqa: E402
from pincite.evaluate.retrieval import load_questions  # noqa: E402
from pincite.service import Pincite  # noqa: E402
from pincite.settings import load_settings  # noqa: E402

# ---------------------------------------------------------------------------------------------
# probes: which question reached the code reading each constant (recorded during the baseline)

CURRENT: list = [None]  # (unit, qid) being evaluated
RECORDING = [False]
TOUCHES: dict[str, dict[str, set]] = {}


def note(tag: str) -> None:
    if RECORDING[0] and CURRENT[0] is not None:
        unit, qid = CURRENT[0]
        TOUCHES.setdefault(unit, {}).setdefault(qid, set()).add(tag)


def replace_everywhere(original, wrapper) -> int:
    """Put `wrapper` in place of `original` in every loaded pincite module that bound it."""
    n = 0
    for name, mod in list(sys.modules.items()):
        if not name.startswith("pincite") or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            if value is original:
                setattr(mod, attr, wrapper)
                n += 1
    return n


def install_probes() -> None:
    # follow._pairs: KIND_DEPTH, INHERIT, PAIR_SHARE (read only after _pairs), PENALTY_OWN (hop penalty)
    orig_pairs = follow._pairs

    def _pairs(query, hop, graph, by_id, scores, rest):
        note("pairs")
        note(f"pairs:{hop}")
        out = orig_pairs(query, hop, graph, by_id, scores, rest)
        if out:
            note("pairs_nonempty")
        return out
    replace_everywhere(orig_pairs, _pairs)

    orig_kw = follow.kind_weight

    def kind_weight(hop, p):
        r = orig_kw(hop, p)
        if r != 1.0:
            note("text_only")  # TEXT_ONLY was returned
        return r
    replace_everywhere(orig_kw, kind_weight)


    orig_weight = follow._weight

    def _weight(hop, b, lang):
        r = orig_weight(hop, b, lang)
        if r != 1.0:
            note("not_a_duty")
        return r
    replace_everywhere(orig_weight, _weight)

    orig_gateway = follow._gateway

    def _gateway(annex, words):
        r = orig_gateway(annex, words)
        if r:
            note("gateway")
        return r
    replace_everywhere(orig_gateway, _gateway)

    orig_set_aside = follow._set_aside

    def _set_aside(p, graph, by_id):
        r = orig_set_aside(p, graph, by_id)
        if r is not None:
            note("set_aside")
        return r
    replace_everywhere(orig_set_aside, _set_aside)

    orig_terms = follow.with_terms

    def with_terms(hits, graph, k):
        common = follow._common_terms(graph)
        if any(not h.via and h.provision.kind == "definition" and h.provision.id in common for h in hits[:k]):
            note("common_term")
        return orig_terms(hits, graph, k)
    replace_everywhere(orig_terms, with_terms)

    orig_rest = search.Searcher._rest

    def _rest(self, query, mode, fusion):
        if query.rest_tokens:
            note("rest")
        return orig_rest(self, query, mode, fusion)
    search.Searcher._rest = _rest

    orig_composed = ext._composed

    def _composed(ranked, weights, lang, max_sentences, other_articles=True):
        if len(ranked) > 1:
            note("composed")
        return orig_composed(ranked, weights, lang, max_sentences, other_articles)
    replace_everywhere(orig_composed, _composed)

    orig_asks_more = ext.asks_more

    def asks_more(query):
        if query.parts <= 1:
            note(f"asks_more_tokens:{len(query.tokens)}")
        return orig_asks_more(query)
    replace_everywhere(orig_asks_more, asks_more)

    orig_fit = ext._fit

    def _fit(quote, period):
        if period:
            note("period")
        return orig_fit(quote, period)
    replace_everywhere(orig_fit, _fit)

    orig_listed = ext._listed

    def _listed(lead):
        note("listed")
        return orig_listed(lead)
    replace_everywhere(orig_listed, _listed)

    orig_extractive = ext.extractive

    def extractive(query, hits, profile, **kw):
        if any(getattr(h, "exact", False) for h in hits):
            note("exact_hit_answer")
        return orig_extractive(query, hits, profile, **kw)
    replace_everywhere(orig_extractive, extractive)

    orig_check = gate.check

    def check(query, hits, profile, **kw):
        note("gate")
        if kw.get("coverage_weight") is None:
            note("coverage_weight_default")
        if query.asks in search.TITLED_ANSWERS:
            note("titled_asks")
        return orig_check(query, hits, profile, **kw)
    replace_everywhere(orig_check, check)

    orig_relevance = gate.relevance

    def relevance(query, hits, profile, *a, **kw):
        note("gate")
        return orig_relevance(query, hits, profile, *a, **kw)
    replace_everywhere(orig_relevance, relevance)

    orig_foreign = gate.foreign_acts

    def foreign_acts(query, profile):
        for act in query.acts:
            if act.number in profile.own_numbers or gate._unprefixed(act.label) in profile.aliases:
                continue
            if bool(act.number) and act.number in profile.act_numbers and not act.mention:
                note("cited_act")
        return orig_foreign(query, profile)
    replace_everywhere(orig_foreign, foreign_acts)

    orig_known = gate._known

    def _known(token, profile):
        note("known")
        return orig_known(token, profile)
    replace_everywhere(orig_known, _known)

    orig_names = ptr.names_something

    def names_something(provision, profile):
        note("names_something")
        return orig_names(provision, profile)
    replace_everywhere(orig_names, names_something)

    orig_pointers = ptr.pointers

    def pointers(query, hits, cited, corpus):
        note("pointers")
        return orig_pointers(query, hits, cited, corpus)
    replace_everywhere(orig_pointers, pointers)

    orig_build_profile = gate.build_profile

    def build_profile(*a, **kw):
        note("build_profile")
        return orig_build_profile(*a, **kw)
    replace_everywhere(orig_build_profile, build_profile)


# ---------------------------------------------------------------------------------------------
# the scorecard

def units() -> list[tuple[str, str]]:
    """(eval, set) pairs; abstention only for sets with unanswerable dev questions (checked)."""
    out = [("retrieval", s) for s in RETRIEVAL_SETS]
    for s in RETRIEVAL_SETS:
        if any(not q["answerable"] for q in QUESTIONS[s]):
            out.append(("abstention", s))
    out.append(("multihop", MULTIHOP))
    out += [("answers", s) for s in ANSWER_SETS]
    return out


QUESTIONS: dict[str, list[dict]] = {}


def load_all() -> None:
    for s in [*RETRIEVAL_SETS, MULTIHOP, *ANSWER_SETS]:
        qs = load_questions(EVALS / f"{s}.jsonl", "dev")
        assert all(q["split"] == "dev" for q in qs)
        QUESTIONS[s] = qs


def uname(unit) -> str:
    return f"{unit[0]}:{unit[1]}"


def run_rows(pincite: Pincite, unit, questions: list[dict]) -> list[dict]:
    kind, _ = unit
    name = uname(unit)
    CURRENT[0] = (name, questions[0]["id"])

    def progress(done, total):
        CURRENT[0] = (name, questions[done]["id"]) if done < total else None

    if kind == "retrieval":
        report = ev_ret.evaluate_retrieval(questions, pincite, progress=progress)
    elif kind == "abstention":
        report = ev_abs.evaluate_abstention(questions, pincite, progress=progress)
    elif kind == "multihop":
        report = ev_mh.evaluate_multihop(questions, pincite, progress=progress)
    else:
        report = ev_ans.evaluate_answers(questions, pincite, progress=progress)
    CURRENT[0] = None
    return report["questions"]


def figures(kind: str, rows: list[dict]) -> dict:
    """The figures of one unit, and the counts behind them (for 'worse by ≥ 1 question')."""
    if kind == "retrieval":
        ans = [r for r in rows if r["answerable"]]
        m = ev_ret.metrics(ans)
        return {"n": m["n"], "hit@1": m["hit@1"], "hit@5": m["hit@5"], "mrr": m["mrr"],
                "_hit@1": sum(1 for r in ans if r["rank"] == 1),
                "_hit@5": sum(1 for r in ans if r["rank"] and r["rank"] <= 5)}
    if kind == "abstention":
        ans = [r for r in rows if r["answerable"]]
        un = [r for r in rows if not r["answerable"]]
        answered = [r for r in ans if r["outcome"] == "answered"]
        correct = sum(bool(r["correct"]) for r in answered)
        refused = sum(r["outcome"] == "refused" for r in un)
        return {"n": len(rows), "answerable": len(ans), "unanswerable": len(un),
                "answered": ev_abs._share(len(answered), len(ans)),
                "precision": ev_abs._share(correct, len(answered)),
                "refused": ev_abs._share(refused, len(un)),
                "_answered": len(answered), "_correct": correct, "_refused": refused}
    if kind == "multihop":
        ans = [r for r in rows if r["answerable"]]
        f = ev_mh._figures(ans, 10)
        return {"n": len(ans), "recall@10": f["all_gold_recall@10"], "citing_all": f["answers_citing_all_gold"],
                "answered": f["answered"], "_recall@10": sum(r["all_retrieved"] for r in ans),
                "_citing_all": sum(r["all_cited"] for r in ans),
                "_answered": sum(r["outcome"] == "answered" for r in ans)}
    ans = [r for r in rows if r["answerable"]]
    s = ev_ans.summary(ans)
    answered = [r for r in ans if r["outcome"] == "answered"]
    return {"n": s["n"], "answered": s["answered"], "lead_right": s["lead_right"],
            "citation_precision": s["citation_precision"],
            "_answered": len(answered), "_lead_right": sum(r["lead_right"] for r in ans),
            "_governing": sum(len(r["governing"]) for r in answered), "_cited": sum(len(r["cited"]) for r in answered)}


# figure → the count that moves by whole questions (None: a ratio, any drop counts)
SHOWN = {"retrieval": [("hit@1", "_hit@1"), ("hit@5", "_hit@5"), ("mrr", None)],
         "abstention": [("answered", "_answered"), ("precision", None), ("refused", "_refused")],
         "multihop": [("recall@10", "_recall@10"), ("citing_all", "_citing_all"), ("answered", "_answered")],
         "answers": [("answered", "_answered"), ("lead_right", "_lead_right"), ("citation_precision", None)]}


def outcome_key(kind: str, r: dict):
    """What the figures count of one question: a change here is a changed outcome."""
    if kind == "retrieval":
        return r["rank"]
    if kind == "abstention":
        return (r["outcome"], r["correct"])
    if kind == "multihop":
        return (r["all_retrieved"], r["all_cited"], r["outcome"])
    return (r["outcome"], r["lead_right"], len(r["governing"]), len(r["cited"]))


def detail_key(kind: str, r: dict):
    """Everything of a question's row worth comparing (citations, provisions found), beyond the outcome."""
    if kind == "retrieval":
        return tuple(r["retrieved"])
    if kind == "abstention":
        return (r["outcome"], r["correct"], tuple(r["cited"]), r["reason"])
    if kind == "multihop":
        return (r["all_retrieved"], r["all_cited"], r["outcome"], tuple(r["found"]), tuple(r["cited"]))
    return (r["outcome"], tuple(r["cited"]), r["lead_right"])


def brief(kind: str, r: dict) -> dict:
    if kind == "retrieval":
        return {"rank": r["rank"], "top3": r["retrieved"][:3]}
    if kind == "abstention":
        return {"outcome": r["outcome"], "reason": r["reason"], "answerable": r["answerable"], "correct": r["correct"],
                "cited": r["cited"]}
    if kind == "multihop":
        return {"all_retrieved": r["all_retrieved"], "all_cited": r["all_cited"], "outcome": r["outcome"],
                "found": r["found"], "cited": r["cited"]}
    return {"outcome": r["outcome"], "lead_right": r["lead_right"], "cited": r["cited"], "governing": r["governing"]}


# ---------------------------------------------------------------------------------------------
# the ablations

INF = float("inf")


def has(tag):
    return lambda touched: tag in touched


def tokens_between(lo, hi):
    """asks_more read LONG_QUESTION for a single-ask question with lo < tokens <= hi."""
    def pred(touched):
        return any(t.startswith("asks_more_tokens:") and lo < int(t.split(":")[1]) <= hi for t in touched)
    return pred


def clear_caches(pincite: Pincite) -> None:
    for cache in (follow._KINDS, follow._LINKS, follow._PROPER, follow._COMMON, follow._ACT_DATES):
        cache.clear()
    pincite._profiles.clear()


# (name, module, attribute, value, affected(touched) -> bool, note); likely removable first
# (no split or figure in their comments), then the ones whose comments cite dev figures.
ABLATIONS = [
    # follow.py, no figures in comments
    ("TEXT_ONLY", follow, "TEXT_ONLY", 1.0 - 1e-9, has("text_only"),
     "1.0 (no discount; 1-1e-9 so that titled(), which tests kind_weight == 1.0, is unchanged)"),
    ("INHERIT", follow, "INHERIT", 0.0, has("pairs"), "0: a whole-article reference inherits nothing"),
    ("NOT_A_DUTY", follow, "NOT_A_DUTY", 1.0, has("not_a_duty"), "1.0: no discount for a provision without a duty word"),
    ("KIND_DEPTH@half", follow, "KIND_DEPTH", 10, has("pairs"), "halved (a depth has no off value)"),
    ("KIND_DEPTH@double", follow, "KIND_DEPTH", 40, has("pairs"), "doubled"),
    ("RULE_DEPTH", follow, "RULE_DEPTH", 0, has("set_aside"), "0: no set-aside paragraph brought along"),
    # search.py
    ("REST_DEPTH@half", search, "REST_DEPTH", 20, has("rest"), "halved (0 would switch following off)"),
    ("REST_DEPTH@double", search, "REST_DEPTH", 80, has("rest"), "doubled"),
    ("REST_DECAY", search, "REST_DECAY", 0.0, has("rest"), "0: every one of the rest's top REST_DEPTH matches 1.0"),
    # extractive.py
    ("MIN_LIST_POINTS@half", ext, "MIN_LIST_POINTS", 1, has("listed"), "halved: a single point lists"),
    ("MIN_LIST_POINTS@double", ext, "MIN_LIST_POINTS", 4, has("listed"), "doubled"),
    ("GOVERNING_QUOTE_CHARS", ext, "GOVERNING_QUOTE_CHARS", 1200, has("exact_hit_answer"),
     "1200 = WHOLE_QUOTE_CHARS: the first named provision no longer than any other"),
    # gate.py
    ("COVERAGE_WEIGHT", gate, "COVERAGE_WEIGHT", 0.0, has("coverage_weight_default"),
     "0 (e5's tuning passes coverage_weight=0.0 to the gate; the module constant is read only when None)"),
    ("COVERAGE_HITS", gate, "COVERAGE_HITS", 1, has("gate"), "1: coverage and pair credit from the top hit only"),
    ("MIN_PHRASE_COUNT", gate, "MIN_PHRASE_COUNT", 10**9, has("known"), "inf: no phrase lends its initials"),
    ("TITLED_HITS", gate, "TITLED_HITS", 0, has("titled_asks"), "0: no titled-article bypass of the floor"),
    # pointers.py
    ("RARE_NAME_COUNT@half", ptr, "RARE_NAME_COUNT", 1.5, has("names_something"), "halved (counts are whole: <= 1)"),
    ("RARE_NAME_COUNT@double", ptr, "RARE_NAME_COUNT", 6, has("names_something"), "doubled"),
    ("MAX_POINTERS", ptr, "MAX_POINTERS", 0, has("pointers"), "0: no pointers (affects `see` only)"),
    # constants whose comments cite dev figures
    ("GATEWAY_SHARE", follow, "GATEWAY_SHARE", 0.0, has("gateway"), "0: the annex title's article gets no boost"),
    ("TERM_USERS_SHARE", follow, "TERM_USERS_SHARE", INF, has("common_term"), "inf: no term counts as common"),
    ("PENALTY_OWN", follow, "PENALTY_OWN", 0.0, has("pairs:penalty"), "0: penalty provisions proper get no floor"),
    ("PAIR_SHARE", follow, "PAIR_SHARE", 1.0, has("pairs"), "1.0: only the best pair (and exact ties)"),
    ("SECOND_QUOTE", ext, "SECOND_QUOTE", 0.0, has("composed"), "0: no strength filter on further quotes"),
    ("SECOND_QUOTE@half", ext, "SECOND_QUOTE", 0.2, has("composed"), "halved"),
    ("SECOND_QUOTE@double", ext, "SECOND_QUOTE", 0.8, has("composed"), "doubled"),
    ("PERIOD_MISS", ext, "PERIOD_MISS", 1.0, has("period"), "1.0: a quote stating no period is not marked down"),
    ("LONG_QUESTION", ext, "LONG_QUESTION", 10**9, tokens_between(11, 10**9),
     "inf: length alone never makes a question ask more"),
]
BASE = {name: getattr(mod, attr) for name, mod, attr, *_ in ABLATIONS}


# ---------------------------------------------------------------------------------------------

def scorecard(rows_by_unit: dict) -> dict:
    return {uname(u): figures(u[0], rows) for u, rows in rows_by_unit.items()}


def compare(unit, base_rows, new_rows):
    kind = unit[0]
    fb, fa = figures(kind, base_rows), figures(kind, new_rows)
    pairs = list(zip(base_rows, new_rows, strict=True))
    changed = [b["id"] for b, a in pairs if outcome_key(kind, b) != outcome_key(kind, a)]
    moved = [b["id"] for b, a in pairs if detail_key(kind, b) != detail_key(kind, a)]
    details = {b["id"]: {"baseline": brief(kind, b), "ablated": brief(kind, a)} for b, a in pairs if b["id"] in moved}
    shown = {}
    worse = better = False
    for fig, count in SHOWN[kind]:
        b, a = fb[fig], fa[fig]
        if count is not None:
            delta = fa[count] - fb[count]
        else:
            delta = (a > b) - (a < b)
        worse |= delta < 0
        better |= delta > 0
        shown[fig] = {"baseline": b, "ablated": a, "delta_questions" if count else "direction": delta}
    return {"figures": shown, "changed": len(changed), "changed_ids": changed,
            "details_changed": len(moved), "details_changed_ids": moved, "worse": worse, "better": better,
            "questions": details}


def verdict(per_unit: dict) -> str:
    worse = any(v["worse"] for v in per_unit.values())
    better = any(v["better"] for v in per_unit.values())
    if worse and not better:
        return "earns its place"
    if not worse:
        return "does not (removable)" + (" — and removing it improves a figure" if better else "")
    return "mixed"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="comma-separated ablation names (a bare NAME also runs NAME@half/@double)")
    ap.add_argument("--full", action="store_true", help="re-run every question (no skipping)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--units", help="comma-separated eval:set units to restrict to (debugging)")
    args = ap.parse_args()
    if args.list:
        for name, mod, attr, value, _, why in ABLATIONS:
            print(f"{name:26} {mod.__name__}.{attr} {BASE[name]} -> {value}  ({why})")
        return
    chosen = ABLATIONS
    if args.only:
        wanted = [w.strip() for w in args.only.split(",")]
        chosen = [a for a in ABLATIONS if a[0] in wanted or a[0].split("@")[0] in wanted]
        if not chosen:
            sys.exit(f"no ablation named {args.only}")
    OUT.mkdir(parents=True, exist_ok=True)
    assert not load_settings().cross_language
    load_all()
    install_probes()
    all_units = units()
    if args.units:
        all_units = [u for u in all_units if uname(u) in args.units.split(",")]
    started = time.perf_counter()
    with Pincite(load_settings(), llm=None) as pincite:
        # warm up: load every index, the model and the profiles outside the timed baseline
        RECORDING[0] = True
        base_rows = {}
        timing = {}
        for u in all_units:
            t = time.perf_counter()
            base_rows[u] = run_rows(pincite, u, QUESTIONS[u[1]])
            timing[uname(u)] = round(time.perf_counter() - t, 1)
            print(f"baseline {uname(u)}: {len(QUESTIONS[u[1]])} q in {timing[uname(u)]} s", flush=True)
        RECORDING[0] = False
        base_card = scorecard(base_rows)
        print(f"baseline scorecard in {time.perf_counter() - started:.0f} s", flush=True)
        (OUT / "baseline.json").write_text(json.dumps({"scorecard": base_card, "seconds": timing,
                                                       "rows": {uname(u): r for u, r in base_rows.items()},
                                                       "touches": {k: {q: sorted(t) for q, t in v.items()}
                                                                   for k, v in TOUCHES.items()}},
                                                      indent=1, default=str))
        print(json.dumps(base_card, indent=1))
        for name, mod, attr, value, affected, why in chosen:
            t0 = time.perf_counter()
            setattr(mod, attr, value)
            clear_caches(pincite)
            per_unit, reran = {}, {}
            try:
                for u in all_units:
                    qs = QUESTIONS[u[1]]
                    touched = TOUCHES.get(uname(u), {})
                    subset = qs if args.full else [q for q in qs if affected(touched.get(q["id"], set()))]
                    reran[uname(u)] = len(subset)
                    if subset:
                        new = {r["id"]: r for r in run_rows(pincite, u, subset)}
                        rows = [new.get(r["id"], r) for r in base_rows[u]]
                    else:
                        rows = base_rows[u]
                    per_unit[uname(u)] = compare(u, base_rows[u], rows)
            finally:
                setattr(mod, attr, BASE[name])
                clear_caches(pincite)
            result = {"name": name, "constant": f"{mod.__name__}.{attr}", "baseline_value": BASE[name],
                      "value": value, "why": why, "rerun_questions": reran, "units": per_unit,
                      "verdict": verdict(per_unit), "seconds": round(time.perf_counter() - t0, 1),
                      "full": args.full}
            (OUT / f"{name}{'.full' if args.full else ''}.json").write_text(json.dumps(result, indent=1, default=str))
            print(f"\n== {name}: {mod.__name__}.{attr} {BASE[name]} -> {value} ({why}); "
                  f"re-ran {sum(reran.values())} q in {result['seconds']} s; verdict: {result['verdict']}", flush=True)
            for un, v in per_unit.items():
                if v["changed"] or v["details_changed"] or v["worse"] or v["better"]:
                    figs = "; ".join(f"{k} {x['baseline']}→{x['ablated']}" for k, x in v["figures"].items()
                                     if x["baseline"] != x["ablated"])
                    print(f"   {un}: outcome changed {v['changed']} {v['changed_ids'][:12]}; rows changed "
                          f"{v['details_changed']} | {figs}", flush=True)


if __name__ == "__main__":
    main()
