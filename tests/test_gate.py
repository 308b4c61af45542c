"""The relevance gate: each signal on a small corpus written here, and the whole gate on real hits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pincite.answer.gate import (
    PAIR_CREDIT,
    build_profile,
    check,
    outside_names,
    own_act_number,
    own_aliases,
    relevance,
)
from pincite.provisions import Provision
from pincite.retrieve.cues import asks_for_number, outside_law
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import analyse


def prov(label: str, text: str, title: str = "") -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="paragraph", instrument="ai-act", lang="en",
                     title=title, path=[], text=text, url="", source_sha256="0" * 64, version="")


def names_in(question: str, profile, **kw) -> list[str]:
    """outside_names on the question as analysed for the profile's language."""
    return outside_names(analyse(question, profile.lang), profile, **kw)


CORPUS = [
    prov("Article 2(7)", "7. This Regulation shall not affect Regulation (EU) 2016/679 or Directive 2002/58/EC.",
         "Scope"),
    prov("Article 26(1)", "1. Deployers of high-risk AI systems shall take appropriate technical measures. "
                          "The data protection officer shall be informed. The data protection officer may act."),
    prov("Article 43(1)", "1. The provider shall follow a conformity assessment with CEN and CENELEC standards. "
                          "The Commission shall publish guidelines. The European Data Protection Supervisor "
                          "shall be consulted.", "Conformity assessment"),
    prov("Article 99(3)", "3. Non-compliance shall be subject to fines of up to EUR 35 000 000 or 7 % of the "
                          "turnover for the preceding financial year, from 2 August 2025.", "Penalties"),
]
PROFILE = build_profile("ai-act", "en", CORPUS, own_act_number("32024R1689"),
                        own_aliases("ai-act", "Artificial Intelligence Act (EU) 2024/1689"))


def q(text: str, lang: str = "en"):
    return analyse(text, lang)


def hit(p: Provision, dense: float, exact: bool = False) -> Hit:
    return Hit(p, float("inf") if exact else dense, None if exact else dense, None if exact else 5.0, exact)


# -- names the corpus never mentions -------------------------------------------------------

def test_another_act_named_as_the_source_is_outside():
    assert names_in("What does the GDPR say about consent?", PROFILE) == ["GDPR"]


def test_another_act_named_as_an_object_the_corpus_cites_is_fine():
    assert names_in("Must the declaration state that the system complies with the GDPR?", PROFILE) == []


def test_an_act_the_corpus_never_cites_is_outside_even_as_an_object():
    assert names_in("Must the system comply with the DSA?", PROFILE) == ["DSA"]


def test_an_act_by_number_is_outside():
    assert names_in("What does Regulation (EU) 2022/2065 require of platforms?", PROFILE) == [
        "Regulation (EU) 2022/2065"]


def test_the_corpus_own_number_is_not_outside():
    assert names_in("What does Regulation (EU) 2024/1689 say about deployers?", PROFILE) == []


def test_the_corpus_own_name_is_not_outside():
    assert names_in("What does the AI Act require of deployers?", PROFILE) == []
    assert names_in("What does the EU AI Act require of deployers?", PROFILE) == []  # the Union's act


def test_the_facts_of_a_case_the_act_may_govern_are_no_source():
    question = "I put an image classifier on GitHub under the MIT licence. Does the AI Act apply to it?"
    assert names_in(question, PROFILE, scenario=True) == ["GitHub", "MIT"]  # a scenario: still names
    assert names_in(question, PROFILE, scenario=True, case=True) == []  # whether the act applies to them
    other = "I run a platform in Portugal. Does the Digital Services Act apply to it?"
    assert names_in(other, PROFILE, scenario=True, case=True) == ["Digital Services Act"]


def test_a_titled_act_the_corpus_does_not_name_is_outside():
    assert names_in("Under the AI Liability Directive, who bears the burden of proof?", PROFILE) == [
        "AI Liability Directive"]


def test_an_organisation_the_corpus_never_mentions_is_outside():
    assert names_in("What fine did the regulator impose on OpenAI?", PROFILE) == ["OpenAI"]


def test_a_country_the_corpus_never_mentions_is_outside():
    assert names_in("Which authority supervises AI in Portugal?", PROFILE) == ["Portugal"]


def test_a_year_the_corpus_never_mentions_is_outside():
    assert names_in("What changed for deployers in 2031?", PROFILE) == ["2031"]


def test_a_year_the_corpus_mentions_is_not_outside():
    assert names_in("What applies from 2025 to deployers?", PROFILE) == []


def test_capitalised_first_word_is_not_a_name():
    assert names_in("Deployers must inform whom?", PROFILE) == []


def test_an_acronym_the_corpus_writes_is_known():
    assert names_in("Which CEN standards apply?", PROFILE) == []


def test_a_hyphenated_pair_of_known_acronyms_is_known():
    assert names_in("Do CEN-CENELEC standards apply?", PROFILE) == []


def test_the_initials_of_a_recurring_phrase_are_known():
    assert names_in("Must the DPO be informed?", PROFILE) == []


def test_common_acronyms_are_not_names():
    assert names_in("Can a deployer use AI to read a CV?", PROFILE) == []


def test_a_product_with_a_version_is_outside():
    assert names_in("How much compute was used for GPT-4?", PROFILE) == ["GPT-4"]


# -- facts a statute never contains -------------------------------------------------------

@pytest.mark.parametrize("question", [
    "Who is the current chair of the Board?",
    "How many sandboxes are operating today?",
    "What did the Court of Justice decide about scoring?",
    "How much was the company fined?",
    "Which companies have signed the code of practice?",
    "Quale autorità ha designato il governo?",
    "Qui a désigné l'autorité?",
])
def test_facts_about_now_or_past_events_are_outside_the_law(question):
    assert outside_law(question, "fr" if question.startswith("Qui") else "en") is not None


@pytest.mark.parametrize("question", [
    "When did the Regulation start to apply?",
    "Which deployers have to carry out an assessment?",
    "Who has the power to supervise providers?",
    "My loan was refused by an algorithm. Can I ask for a human?",
    "When personal data were obtained from a third party, by when must the controller inform?",
    "Chi ha il potere di vigilanza?",
    "We had no written contract with our vendor. What should that contract have covered?",
    "Which safeguards would the provider have to document?",
])
def test_law_questions_in_the_past_tense_are_not_outside_the_law(question):
    assert outside_law(question, "en") is None


@pytest.mark.parametrize("question", [
    "Has the Commission already published its guidelines on the definition?",
    "Have any providers been fined yet?",
    "And has the Court of Justice already interpreted the definition in a judgment?",
    "La Commissione ha già adottato gli orientamenti sulla definizione?",
])
def test_a_perfect_with_already_or_yet_asks_what_happened(question):
    assert outside_law(question, "it" if "già" in question else "en").startswith("about a past event")


@pytest.mark.parametrize("question", [
    "Must a controller notify the data subjects if it has already told the authority?",
    "Do we have to notify if the breach has not yet been confirmed?",
    "Have we to notify when the breach has not yet been confirmed?",
    "Se il fornitore ha già notificato l'incidente, deve farlo di nuovo?",
])
def test_already_in_the_facts_of_a_case_is_no_past_event(question):
    assert outside_law(question, "it" if "già" in question else "en") is None


def test_french_a_is_not_read_as_a_verb_in_english():
    assert outside_law("What is a high-risk system designed for?", "en") is None


def test_how_many_asks_for_a_number():
    assert asks_for_number("How many days does a provider have?")


def test_what_rate_asks_for_a_number():
    assert asks_for_number("What royalty rate applies?")


def test_italian_aliquota_asks_for_a_number():
    assert asks_for_number("Qual è l'aliquota applicabile?")


def test_italian_in_quanto_is_no_question_for_a_number():
    assert asks_for_number("Quanto può arrivare la sanzione?")
    assert asks_for_number("Quanti giorni ha il fornitore per notificare l'incidente?")
    assert not asks_for_number("In quanto deployer, dobbiamo effettuare una valutazione d'impatto?")
    assert not asks_for_number("Per quanto riguarda i dati biometrici, cosa vale?")
    assert not asks_for_number("Dobbiamo informare l'autorità quanto prima?")


def test_how_long_does_not_ask_for_a_number():
    assert not asks_for_number("How long may data be kept?")


# -- the gate -----------------------------------------------------------------------------

def test_no_hits_is_refused():
    assert check(q("Anything?"), [], PROFILE).reason == "no_hits"


def test_a_close_match_passes():
    assert check(q("What fines apply to non-compliance for the preceding financial year?"),
                 [hit(CORPUS[3], 0.8)], PROFILE).ok


def test_a_weak_match_is_below_the_floor():
    assert check(q("What notice period applies to employment contracts?"), [hit(CORPUS[1], 0.3)],
                 PROFILE).reason == "below_floor"


def test_the_floor_is_the_one_given():
    question, hits = q("What notice period applies to employment contracts?"), [hit(CORPUS[1], 0.3)]
    relevance = check(question, hits, PROFILE).signals["relevance"]
    assert check(question, hits, PROFILE, floor=relevance).ok
    assert check(question, hits, PROFILE, floor=relevance + 0.01).reason == "below_floor"


def test_a_named_provision_skips_the_floor():
    assert check(q("What does Article 26(1) say?"), [hit(CORPUS[1], 0.0, exact=True)], PROFILE).ok


def test_names_are_checked_before_the_floor():
    assert check(q("What fines did OpenAI pay for non-compliance?"), [hit(CORPUS[3], 0.9)],
                 PROFILE).reason == "outside_corpus"


def test_a_number_question_without_numbers_in_the_evidence_is_refused():
    assert check(q("How many technical measures must deployers of high-risk AI systems take?"),
                 [hit(CORPUS[1], 0.9)], PROFILE).reason == "no_value"


def test_a_number_question_with_numbers_in_the_evidence_passes():
    assert check(q("How much can the fines for non-compliance reach?"), [hit(CORPUS[3], 0.9)], PROFILE).ok


def test_a_rate_question_needs_a_percentage_in_the_evidence():
    # Article 99(3) states an amount, a percentage and a date; Article 26(1) nothing: a period or
    # a count is no rate, so only a percentage answers 'what rate'.
    period = prov("Article 65(3)", "3. The members of the Board shall be appointed for a term of three years.")
    assert check(q("What rate applies to the term of the members?"), [hit(period, 0.9)],
                 PROFILE).reason == "no_value"
    assert check(q("What percentage of the turnover can the fines for non-compliance reach?"),
                 [hit(CORPUS[3], 0.9)], PROFILE).ok


def test_names_are_not_compared_across_languages():
    assert check(q("What fines did OpenAI pay for non-compliance?"), [hit(CORPUS[3], 0.9)], PROFILE,
                 names=False).reason != "outside_corpus"


def test_a_followed_reference_is_evidence_the_corpus_answers_but_not_one_to_an_annex():
    question = q("Our chatbot never told users they talk to a machine. How big a fine could we get?")
    duty, fine = hit(CORPUS[1], 0.45), hit(CORPUS[3], 0.4)
    plain = relevance(question, [duty, fine], PROFILE)
    followed = relevance(question, [duty, replace(fine, via=duty.provision.label, via_hop="penalty")], PROFILE)
    annex = relevance(question, [duty, replace(fine, via=duty.provision.label, via_hop="annex")], PROFILE)
    assert (plain["followed"], followed["followed"], annex["followed"]) == (False, True, False)
    assert followed["relevance"] == pytest.approx(annex["relevance"] + PAIR_CREDIT)
    assert annex["relevance"] >= plain["relevance"]  # both ends together cover at least what one does
    mention = hit(prov("Article 70(4)", "4. The authority shall report on the fines it imposed.", "Procedure"), 0.4)
    mentioned = relevance(question, [duty, replace(mention, via=duty.provision.label, via_hop="penalty")], PROFILE)
    assert not mentioned["followed"]  # of the kind by a mention only: a procedure that reports fines


def test_a_latin_acronym_is_no_sign_against_a_corpus_in_another_script_but_a_named_act_is():
    thai = [Provision(id="s41", label="Section 41", label_local="มาตรา ๔๑", kind="section", instrument="pdpa", lang="th",
                      title="", path=[], text="ผู้ควบคุมข้อมูลส่วนบุคคลต้องจัดให้มีเจ้าหน้าที่คุ้มครองข้อมูลส่วนบุคคล",
                      url="", source_sha256="0" * 64, version="")]
    profile = build_profile("pdpa", "th", thai, frozenset(), frozenset())
    assert names_in("บริษัทไม่ได้แต่งตั้ง DPO ต้องถูกปรับเท่าไร", profile) == []
    assert names_in("ตาม GDPR บริษัทต้องแต่งตั้ง DPO หรือไม่", profile) == ["GDPR"]
    assert names_in("Must we register the system with the CNIL?", PROFILE) == ["CNIL"]  # a Latin corpus: a sign


def test_a_definition_tied_to_a_rule_using_its_term_is_no_evidence():
    # retrieve.follow.with_terms ties it for the answer's sake; the question did not ask for it.
    question = q("We retrained our high-risk system after launch. Do we need a new conformity assessment?")
    rule = hit(CORPUS[2], 0.5)
    term = hit(prov("Article 3(23)", "(23) ‘substantial modification’ means a change to an AI system after its placing "
                                     "on the market which affects its compliance or modifies its intended purpose."), 0.4)
    plain = relevance(question, [rule, term], PROFILE)
    tied = relevance(question, [rule, replace(term, via=rule.provision.label, via_hop="term")], PROFILE)
    read_together = relevance(question, [rule, replace(term, via=rule.provision.label, via_hop="exception")], PROFILE)
    assert tied == plain
    assert read_together["coverage"] > plain["coverage"]  # a followed pair is read together; a tie is not


def test_a_question_asking_two_things_has_a_lower_floor():
    from pincite.answer.gate import TWO_PART_ALLOWANCE

    two = q("Must deployers take technical measures, and must the data protection officer be informed?")
    one = q("Must deployers take technical measures and inform the data protection officer?")
    assert two.parts == 2 and one.parts == 1
    assert q("Il deployer deve informare i lavoratori, e quale sanzione rischia?").parts == 2
    assert q("Am I entitled to it? How long do they have?").parts == 2
    hits = [hit(CORPUS[1], 0.5)]
    for question in (two, one):
        at = relevance(question, hits, PROFILE)["relevance"]
        above = at + TWO_PART_ALLOWANCE / 2  # a floor just above this question's relevance
        assert check(question, hits, PROFILE, floor=above).ok == (question is two)
        assert check(question, hits, PROFILE, floor=at + TWO_PART_ALLOWANCE * 2).reason == "below_floor"


def test_a_question_close_to_one_written_for_a_hit_is_answered_below_the_floor():
    question = q("Who must assess conformity before an AI system is sold?")
    hits = [hit(CORPUS[2], 0.60), hit(CORPUS[1], 0.50)]
    relevance = check(question, hits, PROFILE, floor=0.0).signals["relevance"]
    floor = relevance + 0.1
    assert check(question, hits, PROFILE, floor=floor, asked_floor=0.9).reason == "below_floor"  # no questions read
    hits[1].asked = 0.95
    assert check(question, hits, PROFILE, floor=floor, asked_floor=0.9).ok
    assert check(question, hits, PROFILE, floor=floor, asked_floor=0.96).reason == "below_floor"
    assert check(question, hits, PROFILE, floor=floor).reason == "below_floor"  # a model without the asked floor
    assert check(question, hits, PROFILE, floor=floor, asked_floor=0.9).signals["asked"] == 0.95


def test_a_question_in_the_words_of_those_written_for_the_first_hit_is_answered_below_the_floor():
    # "sold" and "check" are in no sentence of Article 43(1); the questions written for it say them.
    question = q("Who must check an AI system before it is sold?")
    hits = [hit(CORPUS[2], 0.60), hit(CORPUS[1], 0.50)]
    floor = check(question, hits, PROFILE, floor=0.0).signals["relevance"] + 0.1
    result = check(question, hits, PROFILE, floor=floor, asked_cover_floor=0.6)
    assert result.reason == "below_floor" and result.signals["asked_cover"] is None  # no questions written for it
    hits[0].asked_words = frozenset(analyse("Who must check that an AI system conforms before it is sold?", "en").terms)
    assert check(question, hits, PROFILE, floor=floor, asked_cover_floor=0.6).ok
    assert check(question, hits, PROFILE, floor=floor, asked_cover_floor=0.6).signals["bypass"] is True
    assert check(question, hits, PROFILE, floor=0.0, asked_cover_floor=0.6).signals["bypass"] is True  # any floor
    assert check(question, hits, PROFILE, floor=floor).reason == "below_floor"  # a model without this floor
    # words written for another hit than the first do not count
    hits[0].asked_words, hits[1].asked_words = frozenset(), hits[0].asked_words
    assert check(question, hits, PROFILE, floor=floor, asked_cover_floor=0.6).reason == "below_floor"
