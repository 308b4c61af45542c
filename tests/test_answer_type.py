"""Answer types: a question asks for a kind of thing, and an answer whose provisions cannot hold
that kind is a refusal that points to where the law deals with the matter (`see`). Also the
false refusals the answer type and the gate fixed, and the qualifiers extractive quotes keep."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from contextlib import closing

import pytest

from pincite.retrieve.query import analyse, answer_type
from tests.conftest import service_for
from tests.test_answer import run

ADEQUACY = "Which countries have an adequacy decision?"


@pytest.mark.parametrize(("question", "kind"), [
    (ADEQUACY, "names"),
    ("Quali paesi hanno una decisione di adeguatezza?", "names"),
    ("Which companies have signed the General-Purpose AI Code of Practice?", "names"),
    ("Who currently chairs the European Artificial Intelligence Board?", "person"),
    ("Who is the head of the AI Office?", "person"),
    ("Who must appoint a data protection officer?", "duty"),
    ("Which providers must register in the EU database?", "duty"),
    ("What must providers and deployers do to ensure AI literacy of their staff?", "duty"),
    ("What obligations do providers of general-purpose AI models have?", "duty"),
    ("Which standards have been published?", "names"),
    ("When must a breach be notified?", "date"),
    ("How much can the fine be?", "amount"),
    ("What is the definition of personal data?", "definition"),
    ("We are a company in Brazil. Does the GDPR apply to us?", "scope"),
    ("When the police use the data in their investigation, is that covered by the GDPR?", "scope"),
    ("Il regolamento si applica ai sistemi di IA utilizzati per scopi militari?", "scope"),
    ("When does the GDPR apply?", "application"),
    ("Da quando si applica il regolamento?", "application"),
    ("When does the DSA apply?", "application"),
    ("From what date do the bans on prohibited AI practices apply?", "date"),  # one rule's date, not the act's
    ("Does every controller that falls under the GDPR need a representative?", "yes_no"),  # no scope question
    ("Is a chatbot high-risk?", "yes_no"),
    ("Which directive did the GDPR repeal?", None),
    ("Which regulations does the AI Act amend?", "amendments"),
    ("Quali regolamenti modifica il regolamento sull'IA?", "amendments"),
])
def test_the_answer_type_is_read_from_the_question_sentence(question, kind):
    assert answer_type(question) == kind


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr")


@pytest.fixture(scope="module")
def adequacy(gdpr):
    return service_for(gdpr).ask(ADEQUACY, corpus="gdpr")


def test_a_list_the_law_does_not_hold_is_refused_not_in_text(adequacy):
    assert (adequacy["outcome"], adequacy["reason"], adequacy["sentences"], adequacy["citations"]) == (
        "refused", "not_in_text", [], [])


def test_the_refusal_points_to_where_the_law_deals_with_it(adequacy):
    labels = [p["label"] for p in adequacy["see"]]
    assert labels[:2] == ["Article 45(3)", "Article 45(8)"]
    assert "does not list them" in adequacy["answer"] and "Article 45(3) and Article 45(8)" in adequacy["answer"]
    assert all(p["corpus"] == "gdpr" and p["url"].startswith("https://eur-lex.europa.eu/") for p in adequacy["see"])
    assert "publish" in adequacy["see"][1]["why"]


def test_the_cli_shows_where_the_law_deals_with_this(gdpr):
    result = run(gdpr, "ask", ADEQUACY)
    assert "Where the law deals with this" in result.stdout and "Article 45(8)" in result.stdout
    assert json.loads(run(gdpr, "ask", ADEQUACY, "--json").stdout)["see"][0]["label"] == "Article 45(3)"


def test_an_answer_is_no_pointer(gdpr):
    assert "see" not in service_for(gdpr).ask("How quickly must a controller notify a personal data breach to "
                                              "the supervisory authority?", corpus="gdpr")


@pytest.mark.parametrize(("question", "label"), [
    ("Does the GDPR apply to a company in Brazil offering services to people in the EU?", "Article 3(2)(a)"),
    ("What is the current definition of personal data?", "Article 4(1)"),
    ("Which directive did the GDPR repeal?", "Article 94(1)"),
])
def test_questions_that_only_look_outside_the_law_are_answered(gdpr, question, label):
    document = service_for(gdpr).ask(question, corpus="gdpr")
    assert document["outcome"] == "answered" and label in [c["label"] for c in document["citations"]]


def test_a_quoted_point_keeps_the_qualifier_that_governs_it(gdpr):
    document = service_for(gdpr).ask("Is the processing lawful if it is necessary for the legitimate interests "
                                     "pursued by the controller?", corpus="gdpr")
    texts = [s["text"] for s in document["sentences"]]
    at = next(i for i, t in enumerate(texts) if "(f) processing is necessary for the purposes of the legitimate" in t)
    assert texts[at + 1].startswith("Point (f) of the first subparagraph shall not apply to processing carried "
                                    "out by public authorities")


def test_a_named_article_opens_with_its_governing_paragraph(gdpr):
    document = service_for(gdpr).ask("what about art 6?", corpus="gdpr")
    first = document["sentences"][0]
    assert first["citations"] == ["Article 6(1)"]
    assert all(f"({p})" in first["text"] for p in "abcdef")


def test_a_refusal_names_the_indexed_corpus_that_matches_far_better(indexed):
    # A GDPR question asked of the AI Act (both indexed by other tests already: no third build).
    indexed("gdpr")
    settings = indexed("ai-act")
    document = service_for(settings).ask("When must a controller notify a personal data breach to the "
                                         "supervisory authority?", corpus="ai-act")
    assert (document["outcome"], document["sentences"], document["citations"]) == ("refused", [], [])
    elsewhere = [p for p in document["see"] if p["corpus"] == "gdpr"]
    assert len(elsewhere) == 1 and elsewhere[0]["label"].startswith("Article 33(")
    assert f"The gdpr corpus has a close match: {elsewhere[0]['label']} — ask with --corpus gdpr." in document["answer"]


def test_an_answer_looks_at_no_other_corpus(indexed):
    indexed("gdpr")
    document = service_for(indexed("ai-act")).ask("Which AI practices are prohibited?", corpus="ai-act")
    assert document["outcome"] == "answered" and "see" not in document


def test_a_question_for_a_period_is_answered_by_quotes_that_state_one(gdpr):
    # Article 14(2)(a) (the identity of the controller) shares the question's words but states no
    # period; Article 14(3)(a) says 'within a reasonable period … at the latest within one month'.
    document = service_for(gdpr).ask("Where the personal data have not been obtained from the data subject, "
                                     "within what period must the controller give the information?", corpus="gdpr")
    assert document["sentences"][0]["citations"] == ["Article 14(3)(a)"]
    assert all(re.search(r"\bwithin\b|\bmonths?\b|\bdays?\b|\bhours?\b|without undue delay", s["text"])
               for s in document["sentences"])


@pytest.mark.parametrize(("question", "sibling", "answer"), [
    # 36(5) and 36(2) rank first; 36(1) (where a DPIA indicates a high risk) states the condition.
    ("When does a controller have to consult the supervisory authority prior to a processing operation?",
     "Article 36(5)", "Article 36(1)"),
    # 9(2)(h) names the purposes; 9(3) sets the professional secrecy condition.
    ("Under which condition of professional secrecy may health data be processed for medical diagnosis or "
     "health care?", "Article 9(2)(h)", "Article 9(3)"),
])
def test_the_better_matching_sibling_among_the_hits_is_quoted_too(gdpr, question, sibling, answer):
    labels = [c["label"] for c in service_for(gdpr).ask(question, corpus="gdpr")["citations"]]
    assert labels[0] == sibling and answer in labels


def test_a_refusal_passes_over_an_index_that_is_not_current(indexed, tmp_path):
    # The GDPR corpus of a copied home marked as written by an older parser: it is rebuilt on its
    # own first use, not by a refusal of another corpus looking for a better match.
    indexed("gdpr")
    settings = indexed("ai-act")
    home = tmp_path / "home"
    # The live index is copied through SQLite's backup, never as a file: opening and closing the
    # file in this process would drop the locks the session's own connections hold on it.
    shutil.copytree(settings.home, home, ignore=shutil.ignore_patterns("index.sqlite*"))
    copied = settings.model_copy(update={"home": home})
    with closing(sqlite3.connect(settings.index_path)) as source, closing(sqlite3.connect(copied.index_path)) as target:
        source.backup(target)
    meta = copied.corpora_dir / "gdpr" / "en.meta.json"
    stale = {**json.loads(meta.read_text(encoding="utf-8")), "format": 0}
    meta.write_text(json.dumps(stale), encoding="utf-8")
    corpus = (copied.corpora_dir / "gdpr" / "en.jsonl").read_bytes()
    with service_for(copied, llm=None) as pincite:
        document = pincite.ask("When must a controller notify a personal data breach to the "
                               "supervisory authority?", corpus="ai-act")
    assert document["outcome"] == "refused"
    assert [p for p in document.get("see", []) if p["corpus"] == "gdpr"] == []
    assert json.loads(meta.read_text(encoding="utf-8")) == stale
    assert (copied.corpora_dir / "gdpr" / "en.jsonl").read_bytes() == corpus


def test_a_paragraph_that_sets_the_quoted_one_aside_in_points_is_quoted_with_them(gdpr):
    # 22(2): "Paragraph 1 shall not apply if the decision: (a) … (c) …" — its lead-in alone is half
    # a sentence, so the paragraph is quoted whole.
    document = service_for(gdpr).ask("When may a decision based solely on automated processing that produces legal "
                                     "effects be taken despite the right not to be subject to it?", corpus="gdpr")
    sentences = {s["citations"][0]: s["text"] for s in document["sentences"]}
    assert "Article 22(1)" in sentences
    assert sentences["Article 22(2)"].startswith("Paragraph 1 shall not apply if the decision: (a) is necessary")


def test_which_acts_the_act_amends_is_answered_by_its_amending_articles(indexed):
    document = service_for(indexed("ai-act", "en")).ask("Which regulations does the AI Act amend?", corpus="ai-act")
    assert document["outcome"] == "answered", document["reason"]
    numbers = [int(re.fullmatch(r"Article (\d+)", c["label"]).group(1)) for c in document["citations"]]
    assert numbers and all(102 <= n <= 110 for n in numbers)  # 'Amendment to Regulation (EC) No 300/2008' …
    # Each sentence is the amending instruction, which names the act amended, not the text it inserts.
    assert all(re.search(r"(?:Regulation|Directive) \((?:EC|EU)\)", s["text"]) for s in document["sentences"])


def test_from_when_the_act_applies_is_every_date_its_final_article_states(gdpr, indexed):
    document = service_for(gdpr).ask("When does the GDPR apply?", corpus="gdpr")
    assert document["outcome"] == "answered", document["reason"]
    assert [c["label"] for c in document["citations"]] == ["Article 99(2)"]  # 'It shall apply from 25 May 2018.'
    document = service_for(indexed("ai-act", "en")).ask("From when does the AI Act apply?", corpus="ai-act")
    text = " ".join(s["text"] for s in document["sentences"])
    for date in ("2 August 2026", "2 February 2025", "2 August 2025", "2 August 2027"):
        assert date in text  # the act's date and the chapters that apply before and after it


def test_the_pointers_come_from_the_article_the_answer_quoted_first():
    from dataclasses import replace

    from pincite.answer.pointers import pointers
    from pincite.retrieve.hits import Hit
    from pincite.retrieve.query import analyse
    from tests.test_answer import _provision

    def paragraph(label: str, text: str):
        return replace(_provision(text, label=label), id=label)  # pointers tell provisions apart by id

    monitoring = paragraph("Article 45(4)", "4. The Commission shall monitor developments in third countries.")
    decides = paragraph("Article 45(3)", "3. The Commission may decide, by means of implementing act, that a third "
                                         "country ensures an adequate level of protection.")
    publishes = paragraph("Article 45(8)", "8. The Commission shall publish in the Official Journal a list of the "
                                           "third countries for which it has decided that an adequate level of "
                                           "protection is ensured.")
    # A neighbour the answer also quoted, which only mentions the mechanism (and names it more often).
    neighbour = paragraph("Article 49(1)", "1. In the absence of an adequacy decision, or of appropriate safeguards, "
                                           "including binding corporate rules, a transfer to a third country shall "
                                           "take place only where the data are taken from a register which is "
                                           "intended to provide information to the public and the Commission may "
                                           "decide by implementing acts.")
    hits = [Hit(p, 1.0) for p in (monitoring, neighbour, decides, publishes)]
    query = analyse(ADEQUACY, "en")
    labels = [p.label for p in pointers(query, hits, [monitoring, neighbour], "gdpr")]
    assert labels == ["Article 45(3)", "Article 45(8)"]
    # With nothing quoted from Article 45, the mechanism is looked for in every retrieved article.
    assert "Article 49(1)" in [p.label for p in pointers(query, hits, [neighbour], "gdpr")]


@pytest.mark.parametrize(("question", "number"), [
    ("How many days does a provider have?", True),
    ("Qual è l'aliquota applicabile?", True),
    ("Per quanti anni il fornitore deve tenere la documentazione?", True),
    ("Per quanto riguarda i dati biometrici, cosa vale?", False),
    ("In quanto deployer, dobbiamo effettuare una valutazione d'impatto?", False),
])
def test_the_analysis_and_the_gate_read_a_number_asked_for_alike(question, number):
    # One reading of the question (retrieve.cues): the answer type and the gate's number check agree.
    query = analyse(question, "it" if "quant" in question or "Qual" in question else "en")
    assert query.asks_number is number
    assert (query.asks == "amount") is number


def test_a_fine_asked_for_is_an_amount():
    assert answer_type("What is the maximum fine for a gatekeeper?") == "amount"
