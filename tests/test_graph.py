"""The reference graph in use: `pincite refs` and Pincite.references both ways, and answers that
follow one reference (a duty and its fine, a rule and its exception)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import service_for
from tests.live_server import env_for


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr", "en")


def test_an_article_gathers_the_references_of_all_its_parts(gdpr):
    document = service_for(gdpr).references("gdpr", "Article 37")
    assert document["provision"] == {"label": "Article 37", "label_local": "Article 37", "id": None,
                                     "title": "Designation of the data protection officer"}
    incoming = {row["label"]: row for row in document["cited_by"]}
    fine = incoming["Article 83(4)"]
    assert (fine["id"], fine["to"], fine["external"]) == ("gdpr/en/art-83.par-4", "Article 37(1)", False)
    assert "25 to 39" in fine["words"]
    outgoing = {row["label"] for row in document["cites"]}
    assert "Article 9" in outgoing  # 37(1)(c): "special categories of data pursuant to Article 9"
    assert not any(row["label"].startswith("Article 37") for row in document["cites"] + document["cited_by"])


def test_one_paragraph_has_its_own_id_and_external_references_carry_their_act(gdpr):
    document = service_for(gdpr).references("gdpr", "Article 94(1)")
    assert document["provision"]["id"] == "gdpr/en/art-94.par-1"
    (repeal,) = [row for row in document["cites"] if row["external"]]
    assert (repeal["act"], repeal["id"]) == ("1995/46", None) and "95/46/EC" in repeal["words"]


def test_references_by_id_are_the_references_by_label(gdpr):
    service = service_for(gdpr)
    assert service.references_by_id("gdpr/en/art-83.par-4") == service.references("gdpr", "Article 83(4)")


def test_refs_command_prints_both_directions_and_one_json_document(gdpr):
    def run(*args):
        done = subprocess.run([sys.executable, "-m", "pincite", "refs", *args], capture_output=True, text=True,
                              env=env_for(gdpr), timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    table = run("Article 37", "--corpus", "gdpr")
    assert table.splitlines()[0] == "Article 37 — Designation of the data protection officer"
    assert "cited by" in table and "Article 83(4)" in table and "25 to 39" in table
    assert json.loads(run("Article 37", "--corpus", "gdpr", "--json")) == service_for(gdpr).references("gdpr", "Article 37")


def test_refs_of_an_unknown_provision_is_one_line(gdpr):
    done = subprocess.run([sys.executable, "-m", "pincite", "refs", "Article 100", "--corpus", "gdpr"],
                          capture_output=True, text=True, env=env_for(gdpr), timeout=300)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: gdpr/en has no provision 'Article 100' — ") and done.stderr.count("\n") == 1


DPO_FINE = "What is the fine for not appointing a DPO?"


def test_the_question_says_when_it_asks_for_what_lives_elsewhere():
    from pincite.retrieve.query import analyse

    assert analyse(DPO_FINE, "en").hops == ("penalty",)
    assert analyse("Can national law derogate from the right of access?", "en").hops == ("exception",)
    assert analyse("บริษัทอาจโดนปรับเท่าไร", "th").hops == ("penalty",)
    assert analyse("How quickly must a personal data breach be notified?", "en").hops == ()
    # A time limit asked of someone who must act; how long data may be kept is no time limit to act.
    assert analyse("How long does the controller have to answer a request?", "en").hops == ("deadline",)
    assert analyse("Entro quando il titolare deve rispondere alla richiesta?", "it").hops == ("deadline",)
    assert analyse("How long can a company keep my CV?", "en").hops == ()
    assert analyse("Per quanto tempo il deployer deve conservare i log?", "it").hops == ()
    assert analyse("From what date must deployers assess the impact on fundamental rights?", "en").hops == ("date",)
    assert analyse("Were controllers bound as soon as the Regulation entered into force?", "en").hops == ("date",)


def test_a_fine_is_followed_into_the_duty_and_the_answer_cites_both_ends(gdpr):
    service = service_for(gdpr)
    hits = service.search(DPO_FINE, corpus="gdpr", k=10).hits
    labels = [h.provision.label for h in hits]
    assert "Article 37(1)" in labels and "Article 83(4)" in labels
    followed = [h for h in hits if h.via]
    assert followed and {followed[0].via, followed[0].provision.label} == {"Article 37(1)", "Article 83(4)"}
    document = service.ask(DPO_FINE, corpus="gdpr")
    assert document["outcome"] == "answered", document["reason"]
    cited = [c["label"] for c in document["citations"]]
    assert any(label.startswith("Article 37(1)") for label in cited)  # 37(1)(a): the point quoted, with its lead-in
    assert any(label.startswith("Article 83(4)") for label in cited)


def test_a_time_limit_set_for_a_range_of_rights_is_reached_from_the_right(gdpr):
    question = ("Do I have a right to a copy of the personal data a company holds on me, and how long does it have "
                "to reply to my request?")
    hits = service_for(gdpr).search(question, corpus="gdpr", k=10).hits
    (limit,) = [h for h in hits if h.provision.label == "Article 12(3)"]  # "requests under Articles 15 to 22"
    assert limit.via.startswith("Article 15(") and limit.via_hop == "deadline"


def test_when_the_regulation_applies_is_quoted_with_the_duty(gdpr):
    question = "From which date does the GDPR apply to a controller's duty to keep records of processing activities?"
    document = service_for(gdpr).ask(question, corpus="gdpr")
    assert document["outcome"] == "answered", document["reason"]
    cited = [c["label"] for c in document["citations"]]
    assert cited[0].startswith("Article 30(1)") and "Article 99(2)" in cited  # "It shall apply from 25 May 2018."


def test_without_following_the_fine_is_not_reached(gdpr):
    from pincite.service import Pincite

    with Pincite(gdpr.model_copy(update={"follow_references": False}), llm=None) as service:
        hits = service.search(DPO_FINE, corpus="gdpr", k=10).hits
        assert not any(h.via for h in hits)
        document = service.ask(DPO_FINE, corpus="gdpr")
    cited = [c["label"] for c in document["citations"]]
    assert not any(label.startswith("Article 83(4)") for label in cited)


def test_eval_multihop_reports_all_gold_recall_and_answers_citing_all_gold(gdpr, tmp_path):
    questions = tmp_path / "mh.jsonl"
    questions.write_text(json.dumps({"id": "x1", "corpus": "gdpr", "lang": "en", "question": DPO_FINE,
                                     "gold_all": ["Article 37(1)", "Article 83(4)"], "answerable": True,
                                     "hop": "penalty", "split": "dev"}) + "\n", encoding="utf-8")

    def run(*flags):
        done = subprocess.run([sys.executable, "-m", "pincite", "eval", "multihop", "--questions", str(questions),
                               "--json", *flags], capture_output=True, text=True, env=env_for(gdpr), timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    followed, plain = run(), run("--no-graph")
    assert (followed["follow_references"], plain["follow_references"]) == (True, False)
    assert (followed["n"], followed["split"], followed["by_hop"]["penalty"]["n"]) == (1, "dev", 1)
    assert followed["all_gold_recall@10"] == 1.0 and followed["answers_citing_all_gold"] == 1.0
    assert plain["answers_citing_all_gold"] == 0.0
    assert followed["questions"][0]["found"] == ["Article 37(1)", "Article 83(4)"]


def test_the_paragraphs_the_regulation_sets_aside_are_read_from_its_text(gdpr):
    from pincite.retrieve.follow import _set_aside

    searcher = service_for(gdpr).searcher("gdpr", "en")
    aside = {p.label: searcher.by_id[r].label for p in searcher.provisions
             if (r := _set_aside(p, searcher.graph, searcher.by_id))}
    # 'Paragraph 1 shall not apply if one of the following applies', 'Paragraphs 1 and 2 shall not
    # apply to the extent that processing is necessary', 'Paragraph 1 shall not apply if the decision'.
    assert {("Article 9(2)", "Article 9(1)"), ("Article 17(3)", "Article 17(1)"),
            ("Article 22(2)", "Article 22(1)")} <= set(aside.items())
    assert "Article 83(4)" not in aside and "Article 9(3)" not in aside  # they cite, they do not set aside


def test_a_quoted_annex_is_answered_with_the_article_its_title_names(indexed):
    service = service_for(indexed("ai-act", "en"))
    question = ("Which criteria decide whether a general-purpose AI model has systemic risk, such as the number of "
                "registered business users?")
    hits = service.search(question, corpus="ai-act", k=10).hits
    tied = [h for h in hits if h.via_hop == "gateway"]
    assert [(h.provision.label, h.via) for h in tied] == [("Article 51(1)", "Annex XIII")]
    document = service.ask(question, corpus="ai-act")
    assert document["outcome"] == "answered", document["reason"]
    cited = [c["label"] for c in document["citations"]]
    assert cited[0].startswith("Annex XIII") and "Article 51(1)(b)" in cited
