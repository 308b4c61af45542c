"""Extractive answers and refusals on the real GDPR and AI Act indexes (shared corpora, no model)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from pincite.answer.extractive import followed_quotes, quotes
from pincite.citations import top_points
from pincite.evaluate.abstention import risk_coverage
from pincite.provisions import Provision
from pincite.service import history
from pincite.verify.check import quoted_faithfully
from tests.conftest import CORPORA, MODEL, service_for

SHAPE = {"outcome", "reason", "answer", "heading", "sentences", "citations", "corpus", "notice", "thread", "run"}


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr")


@pytest.fixture(scope="module")
def ai_act_it(indexed):
    return indexed("ai-act", "it")


@pytest.fixture(scope="module")
def breach(gdpr):
    return service_for(gdpr).ask("How quickly must a controller notify a personal data breach to the supervisory authority?", corpus="gdpr")


def cited(document: dict) -> list[str]:
    return [c["label"] for c in document["citations"]]


# -- answers -------------------------------------------------------------------------------

def test_breach_deadline_is_answered(breach):
    assert breach["outcome"] == "answered"


def test_breach_deadline_cites_article_33_1(breach):
    assert "Article 33(1)" in cited(breach)


def test_the_72_hours_are_quoted(breach):
    assert any("72 hours" in s["text"] for s in breach["sentences"])


def test_every_sentence_is_the_cited_provisions_own_words(breach):
    texts = {c["label"]: c["text"] for c in breach["citations"]}
    assert all(quoted_faithfully(s["text"], [texts[c] for c in s["citations"]]) for s in breach["sentences"])


def test_every_sentence_carries_a_citation(breach):
    assert all(s["citations"] for s in breach["sentences"])


def test_at_most_four_sentences(breach):
    assert 1 <= len(breach["sentences"]) <= 4


def test_the_answer_names_the_version_it_rests_on(breach):
    assert breach["corpus"] == {"name": "gdpr", "lang": "en", "version": "OJ L 119, 4.5.2016"}


def test_citations_link_to_the_source(breach):
    assert all(c["url"].startswith("https://eur-lex.europa.eu/") for c in breach["citations"])


def test_the_answer_has_the_agreed_shape(breach):
    assert set(breach) == SHAPE


def test_the_answer_carries_the_notice(breach):
    assert breach["notice"].startswith("Not legal advice")


def test_answer_text_ends_each_sentence_with_its_citation(breach):
    assert breach["answer"].count("[Article") == len(breach["sentences"])


def test_a_definition_is_answered_from_its_own_provision(gdpr):
    document = service_for(gdpr).ask("What does 'pseudonymisation' mean?", corpus="gdpr")
    assert cited(document)[0] == "Article 4(5)"


def test_a_named_provision_is_quoted(gdpr):
    document = service_for(gdpr).ask("What does Article 17(1) provide?", corpus="gdpr")
    assert cited(document)[0] == "Article 17(1)"


def test_a_point_is_quoted_with_its_lead_in_and_cited_as_a_point(gdpr):
    document = service_for(gdpr).ask("Which principle requires personal data to be processed with appropriate security, "
                           "including protection against accidental loss, destruction or damage?", corpus="gdpr")
    first = document["sentences"][0]
    assert (first["citations"], first["text"][:23]) == (["Article 5(1)(f)"], "Personal data shall be:")


def test_an_italian_question_is_answered_from_the_italian_text(ai_act_it):
    document = service_for(ai_act_it).ask("Entro quanti giorni il fornitore deve segnalare un incidente grave alle autorità?", corpus="ai-act", lang="it")
    assert document["outcome"] == "answered" and document["citations"][0]["id"].startswith("ai-act/it/")


def test_italian_citations_are_written_in_the_instruments_style(ai_act_it):
    document = service_for(ai_act_it).ask("Quali pratiche di IA sono vietate?", corpus="ai-act", lang="it")
    assert document["citations"][0]["label_local"].startswith("Articolo ")


# -- refusals -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def other_act(ai_act_it):
    return service_for(ai_act_it).ask("Cosa prevede il GDPR sul consenso dei minori?", corpus="ai-act", lang="it")


def test_a_question_about_another_act_is_refused(other_act):
    assert (other_act["outcome"], other_act["reason"]) == ("refused", "outside_corpus")


def test_a_refusal_ships_no_sources(other_act):
    assert (other_act["sentences"], other_act["citations"]) == ([], [])


def test_a_refusal_says_what_the_corpus_covers(other_act):
    assert "no case law" in other_act["covers"] and "OJ L, 2024/1689" in other_act["covers"]


def test_a_refusal_names_what_was_outside(other_act):
    assert "GDPR" in other_act["answer"]


def test_a_question_about_an_enforcement_event_is_refused(gdpr):
    document = service_for(gdpr).ask("How much did the Dutch authority fine Uber for late breach notification?", corpus="gdpr")
    assert document["reason"] in ("outside_corpus", "outside_law")


def test_a_question_about_who_holds_an_office_now_is_refused(gdpr):
    document = service_for(gdpr).ask("Who is currently the chair of the board of supervisory authorities?", corpus="gdpr")
    assert document["reason"] == "outside_law"


def test_an_off_topic_question_is_below_the_floor(gdpr):
    document = service_for(gdpr).ask("What is the best oven temperature for baking sourdough bread?", corpus="gdpr")
    assert document["reason"] == "below_floor"


def test_the_relevance_floor_is_a_setting(gdpr):
    from pincite.settings import load_settings

    question = "What is the best oven temperature for baking sourdough bread?"
    no_floor = load_settings(home=gdpr.home, mirror=gdpr.mirror, embed_model_path=gdpr.embed_model_path,
                             relevance_floor=-1.0)
    assert service_for(gdpr).ask(question, corpus="gdpr")["reason"] == "below_floor"
    assert service_for(no_floor).ask(question, corpus="gdpr")["reason"] != "below_floor"


def test_an_empty_question_is_refused(gdpr):
    assert service_for(gdpr).ask("   ", corpus="gdpr")["reason"] == "empty_question"


def test_a_refusal_has_the_agreed_shape_plus_coverage_and_pointers(other_act):
    assert set(other_act) == SHAPE | {"covers", "see"}


# -- the ask log and threads -----------------------------------------------------------------

def test_the_ask_log_records_question_hits_and_outcome(gdpr, breach):
    row = next(r for r in history.recent(gdpr, 50) if r["question"].startswith("How quickly must a controller"))
    scores = {hit["id"]: hit["score"] for hit in row["retrieved"]}
    assert (row["outcome"], row["mode"], scores["gdpr/en/art-33.par-1"] > 0) == ("answered", "extractive", True)


def test_old_log_rows_are_pruned_on_the_next_write(gdpr):
    db = history.connect(gdpr)
    old = (datetime.now(UTC) - timedelta(days=gdpr.ask_log_days + 1)).isoformat(timespec="seconds")
    with db:
        db.execute("INSERT INTO asks (at, corpus, lang, question, retrieved, outcome, mode) "
                   "VALUES (?, 'gdpr', 'en', 'an old question', '[]', 'refused', 'extractive')", (old,))
    db.close()
    service_for(gdpr).ask("Who may lodge a complaint with a supervisory authority?", corpus="gdpr")
    assert not [r for r in history.recent(gdpr, 500) if r["question"] == "an old question"]


def test_logging_can_be_turned_off(gdpr):
    quiet = gdpr.model_copy(update={"ask_log": False})
    service_for(quiet).ask("Does the right to erasure apply to archiving in the public interest?", corpus="gdpr")
    assert not [r for r in history.recent(gdpr, 500) if r["question"].startswith("Does the right to erasure apply")]


def test_with_logging_off_no_thread_is_started(gdpr):
    quiet = gdpr.model_copy(update={"ask_log": False})
    assert service_for(quiet).ask("Who is a controller?", corpus="gdpr")["thread"] is None


def test_a_thread_keeps_its_turns(gdpr):
    first = service_for(gdpr).ask("When must a controller carry out a data protection impact assessment?", corpus="gdpr", thread="dpia-thread")
    service_for(gdpr).ask("And who must it consult?", corpus="gdpr", thread=first["thread"])
    assert [t["question"] for t in history.history(gdpr, "dpia-thread")] == [
        "When must a controller carry out a data protection impact assessment?", "And who must it consult?"]


def test_a_short_follow_up_without_a_model_is_searched_with_the_previous_question(gdpr):
    service_for(gdpr).ask("What must a processing agreement with a processor contain?", corpus="gdpr", thread="dpa-t")
    follow = service_for(gdpr).ask("And sub-processors?", corpus="gdpr", thread="dpa-t")
    assert follow["run"]["rewritten"] == "What must a processing agreement with a processor contain? And sub-processors?"


def test_a_bad_thread_id_is_a_clear_error(gdpr):
    with pytest.raises(Exception, match="thread id"):
        service_for(gdpr).ask("What is consent?", corpus="gdpr", thread="../../etc")


def test_log_database_has_the_migrations_table(gdpr):
    db = sqlite3.connect(history.log_path(gdpr))
    assert [r[0] for r in db.execute("SELECT name FROM migrations ORDER BY name")] == ["001_threads", "002_asks", "003_limits"]


# -- quoting pieces -------------------------------------------------------------------------

def _provision(text: str, kind: str = "paragraph", label: str = "Article 5(1)") -> Provision:
    return Provision(id="x", label=label, label_local=label, kind=kind, instrument="t", lang="en", title="",
                     path=[], text=text, url="", source_sha256="", version="")


def test_a_lead_in_is_never_quoted_alone():
    pieces = quotes(_provision("1. Personal data shall be:\n(a) lawful;\n(b) fair."), 0)
    assert [q.text for q in pieces] == ["Personal data shall be: (a) lawful;", "Personal data shall be: (b) fair."]


def test_points_are_cited_as_points():
    pieces = quotes(_provision("1. Personal data shall be:\n(a) lawful;\n(b) fair."), 0)
    assert [q.label for q in pieces] == ["Article 5(1)(a)", "Article 5(1)(b)"]


def test_an_annex_item_quotes_its_points_with_both_lead_ins():
    annex = _provision("High-risk systems are:\n4. Employment:\n  (a) recruitment;\n  (b) promotion.", "annex",
                       "Annex III, point 4")
    assert quotes(annex, 0)[0].text == "High-risk systems are: 4. Employment: (a) recruitment;"


def test_an_annex_item_without_points_is_quoted_whole():
    assert top_points("The declaration contains:\n5. A statement of conformity.") == []


def test_sentences_after_the_points_are_quoted_when_they_start_a_sentence():
    pieces = quotes(_provision("2. The controller shall:\n(a) act;\n(b) record.\nThe processor shall assist."), 0)
    assert pieces[0].text == "The processor shall assist."


# -- the command ----------------------------------------------------------------------------

def run(settings, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PINCITE_", "OPENAI_", "ANTHROPIC_"))}
    env.update(PINCITE_HOME=str(settings.home), PINCITE_MIRROR=str(CORPORA), PINCITE_EMBED_MODEL_PATH=str(MODEL))
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_cli_json_is_one_document_on_stdout(gdpr):
    result = run(gdpr, "ask", "What must a controller do when a personal data breach occurs?", "--json")
    assert json.loads(result.stdout)["outcome"] == "answered"


def test_cli_refusal_exits_0(gdpr):
    result = run(gdpr, "ask", "What is the VAT rate on cloud services in Belgium?", "--json")
    assert (result.returncode, json.loads(result.stdout)["outcome"]) == (0, "refused")


def test_cli_prints_citations_and_sources(gdpr):
    result = run(gdpr, "ask", "How quickly must a controller notify a personal data breach?")
    assert "[Article 33(1)]" in result.stdout and "Sources" in result.stdout


def test_cli_tells_the_thread_on_stderr(gdpr):
    result = run(gdpr, "ask", "What is a personal data breach?", "--thread", "cli-thread")
    assert "thread cli-thread" in result.stderr


def test_cli_eval_abstention_reports_both_rates(gdpr, tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text("\n".join(json.dumps(q) for q in [
        {"id": "t1", "corpus": "gdpr", "lang": "en", "question": "Within how many hours must a controller notify "
         "a personal data breach to the supervisory authority?", "gold": ["Article 33(1)"], "answerable": True},
        {"id": "t2", "corpus": "gdpr", "lang": "en", "question": "What is the capital of Australia?", "gold": [],
         "answerable": False}]), encoding="utf-8")
    report = json.loads(run(gdpr, "eval", "abstention", "--questions", str(questions), "--json").stdout)
    assert (report["n"], report["answerable_answered_rate"], report["unanswerable_refused_rate"],
            report["answerable_answered_correct_rate"], [q["outcome"] for q in report["questions"]]) == (
        2, 1.0, 1.0, 1.0, ["answered", "refused"])
    assert (report["answered_precision"], report["coverage"]) == (1.0, 0.5)
    assert [(r["answered"], r["coverage"], r["unanswerable_refused_rate"]) for r in report["risk_coverage"]] == [
        (1, 0.5, 1.0)]


def test_risk_coverage_withdraws_answers_below_each_floor():
    def row(answerable, correct, relevance, outcome="answered", exact=False):
        return {"answerable": answerable, "correct": correct if answerable else None, "outcome": outcome,
                "signals": {"relevance": relevance, "exact": exact}}

    rows = [row(True, True, 0.9), row(True, False, 0.8), row(False, None, 0.85), row(True, True, 0.1, exact=True),
            row(True, None, 0.5, outcome="refused"), row(False, None, 0.4, outcome="refused")]
    table = risk_coverage(rows)
    assert [r["floor"] for r in table] == [0.8, 0.85, 0.9]
    # at 0.8 everything answered stays: 2 of 3 answered answerable are right; 1 of 2 unanswerable refused
    assert (table[0]["answered"], table[0]["answered_precision"], table[0]["unanswerable_refused_rate"]) == (
        4, round(2 / 3, 4), 0.5)
    # at 0.85 the wrong answer goes; at 0.9 the answered unanswerable one goes too (the exact one stays)
    assert (table[1]["answered_precision"], table[2]["answered"], table[2]["unanswerable_refused_rate"]) == (
        1.0, 2, 1.0)


def test_a_quoted_annex_brings_the_article_its_title_names_but_not_the_other_way():
    from dataclasses import replace

    from pincite.retrieve.hits import Hit

    annex = replace(_provision("The criteria:\n(a) the number of registered business users;\n(b) the number of parameters.", "annex", "Annex XIII"),
                    id="annex")
    article = replace(_provision("1. A model shall be classified as having systemic risk if:\n(a) it has high impact capabilities;\n(b) the Commission so "
                                 "decides having regard to the criteria set out in Annex XIII.", label="Article 51(1)"),
                      id="article")
    hits = [Hit(annex, 1.0), Hit(article, 0.5, via="Annex XIII", via_words="Annex XIII", via_hop="gateway")]
    annex_quote, article_quote = quotes(annex, 0)[0], quotes(article, 1)[0]
    assert [q.label for q in followed_quotes(hits, [annex_quote], {}, "en")] == ["Article 51(1)(b)"]
    # The article names its annex itself: quoting it brings no annex point.
    assert followed_quotes(hits, [article_quote], {}, "en") == []


def test_the_evidence_takes_a_further_hit_tied_to_one_of_its_own():
    from dataclasses import replace

    from pincite.answer.pipeline import with_partners
    from pincite.retrieve.hits import Hit

    hits = [Hit(replace(_provision("text", label=f"Article {n}(1)"), id=str(n)), 1.0 - n / 10) for n in range(1, 6)]
    hits[4] = replace(hits[4], via="Article 1(1)", via_hop="gateway")  # tied to the first
    hits[3] = replace(hits[3], via="Article 5(1)", via_hop="gateway")  # tied to a hit left out
    assert [h.provision.label for h in with_partners(hits, 2)] == ["Article 1(1)", "Article 2(1)", "Article 5(1)"]


def test_a_quoted_rule_brings_the_definition_of_its_term_but_not_the_other_way():
    from dataclasses import replace

    from pincite.retrieve.hits import Hit

    rule = replace(_provision("4. AI systems shall undergo a new conformity assessment procedure in the event of a "
                              "substantial modification.", label="Article 43(4)"), id="rule")
    term = replace(_provision("(23) ‘substantial modification’ means a change to an AI system which is not planned.",
                              "definition", "Article 3(23)"), id="term")
    hits = [Hit(rule, 1.0), Hit(term, 0.5, via="Article 43(4)", via_words="substantial modification", via_hop="term")]
    rule_quote, term_quote = quotes(rule, 0)[0], quotes(term, 1)[0]
    assert [q.label for q in followed_quotes(hits, [rule_quote], {}, "en")] == ["Article 3(23)"]
    # A quoted definition (the question asked what the term means) brings no rule that uses it.
    assert followed_quotes(hits, [term_quote], {}, "en") == []


def test_risk_coverage_keeps_an_answer_the_written_questions_answer_for_at_every_floor():
    def row(answerable, relevance, bypass):
        return {"answerable": answerable, "correct": True if answerable else None, "outcome": "answered",
                "signals": {"relevance": relevance, "exact": False, "bypass": bypass}}

    # the gate let the second in below its floor through a written question: no floor withdraws it
    table = risk_coverage([row(True, 0.9, False), row(True, 0.6, True), row(True, 0.7, False)])
    assert [(r["floor"], r["answered"]) for r in table] == [(0.7, 3), (0.9, 2)]
