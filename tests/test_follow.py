"""Following references on a small graph written here: several pairs per kind asked for, and a
duty that mentions an offence is still the duty a fine punishes."""

from __future__ import annotations

from pincite.index.store.base import Edge
from pincite.provisions import Provision
from pincite.retrieve.follow import PAIR_SHARE, follow, with_gateways, with_rules, with_terms
from pincite.retrieve.graph import Graph
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import analyse


def prov(label: str, text: str, title: str = "") -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="section", instrument="act", lang="en",
                     title=title, path=[], text=text, url="", source_sha256="0" * 64, version="")


DUTY = prov("Section 37", "The controller shall notify a breach to the Office within 72 hours.", "Duties")
OTHER = prov("Section 40", "The processor shall act only on the instructions of the controller.", "Duties")
FINES = [prov(f"Section {n}", f"Whoever violates Section 37 shall be liable to an administrative fine of {n} baht.",
              "Penalties") for n in (83, 86)]
FAR = prov("Section 89", "Whoever violates Section 40 shall be liable to an administrative fine.", "Penalties")
ALL = [DUTY, OTHER, *FINES, FAR]
GRAPH = Graph([Edge(f.id, DUTY.id, "Section 37", "Section 37") for f in FINES]
              + [Edge(FAR.id, OTHER.id, "Section 40", "Section 40")], ALL)
QUESTION = analyse("What fine applies when the controller does not notify a breach?", "en")


def run(scores: dict[str, float], rest: dict[str, float], provisions=ALL, graph=GRAPH) -> list[Hit]:
    by_id = {p.id: p for p in provisions}
    hits = [Hit(by_id[pid], s) for pid, s in sorted(scores.items(), key=lambda item: -item[1])]
    return follow(QUESTION, hits, graph, by_id, scores, rest)


def test_every_fine_of_the_duty_close_to_the_best_pair_is_followed():
    # Section 86 scores a little better than Section 83: both punish the duty, both are followed.
    scores = {DUTY.id: 1.0, OTHER.id: 0.5, "Section 86": 0.6, "Section 83": 0.6 * PAIR_SHARE, FAR.id: 0.1}
    hits = run(scores, {DUTY.id: 1.0, OTHER.id: 0.5})
    assert [(h.provision.label, h.via) for h in hits] == [
        ("Section 37", ""), ("Section 86", "Section 37"), ("Section 83", "Section 37"), ("Section 40", ""),
        ("Section 89", "")]


def test_a_pair_far_below_the_best_is_not_followed():
    # Section 89 is a penalty provision proper, so it matches the question's 'what fine' as well as
    # Section 86 does; the duty it names (Section 40) matches the rest of the question far less.
    scores = {DUTY.id: 1.0, OTHER.id: 0.5, "Section 86": 0.6, "Section 83": 0.6, FAR.id: 0.6}
    hits = run(scores, {DUTY.id: 1.0, OTHER.id: 0.2})
    pairs = {(h.via, h.provision.label) for h in hits if h.via}
    assert pairs == {("Section 37", "Section 86"), ("Section 37", "Section 83")}


def test_a_fine_the_question_scores_low_is_followed_from_the_duty_it_names():
    # A lay question scores the penalty sections low ('…and what could happen to us?' is a few words of
    # a long story), and a procedure that mentions a fine high; the penalty section proper that names the
    # duty best matching the rest of the question is still the one followed, and before the mention.
    mention = prov("Section 70", "Where the Office finds that a processor breached Section 40, it may impose a fine.",
                   "Procedure")
    provisions = [*ALL, mention]
    graph = Graph([*GRAPH.edges, Edge(mention.id, OTHER.id, "Section 40", "Section 40")], provisions)
    scores = {mention.id: 1.0, DUTY.id: 0.9, OTHER.id: 0.5, "Section 86": 0.02, "Section 83": 0.01, FAR.id: 0.01}
    hits = run(scores, {DUTY.id: 1.0, OTHER.id: 0.5}, provisions, graph)
    assert [(h.provision.label, h.via) for h in hits[:4]] == [
        ("Section 70", ""), ("Section 37", ""), ("Section 86", "Section 37"), ("Section 83", "Section 37")]
    assert FAR.id not in {h.provision.id for h in hits if h.via}


def test_a_prohibition_that_mentions_a_punishable_offence_is_still_the_duty_end():
    ban = prov("Article 5(1)", "1. The following practices shall be prohibited: (h) identification for an offence "
                               "punishable by a custodial sentence of at least four years.", "Prohibited practices")
    fine = prov("Article 99(3)", "3. Non-compliance with the prohibition of the practices referred to in Article 5 "
                                 "shall be subject to administrative fines of up to EUR 35 000 000.", "Penalties")
    graph = Graph([Edge(fine.id, ban.id, "Article 5", "Article 5")], [ban, fine])
    hits = run({ban.id: 1.0, fine.id: 0.8}, {ban.id: 1.0}, [ban, fine], graph)
    assert [(h.provision.label, h.via) for h in hits] == [("Article 5(1)", ""), ("Article 99(3)", "Article 5(1)")]


def test_a_time_limit_in_another_provision_is_followed_when_the_best_hit_states_none():
    access = prov("Article 15(1)", "1. The data subject shall have the right to obtain from the controller access "
                                   "to the personal data.", "Right of access by the data subject")
    limit = prov("Article 12(3)", "3. The controller shall provide information on action taken on a request under "
                                  "Articles 15 to 22 to the data subject without undue delay and in any event within "
                                  "one month of receipt of the request.", "Modalities for the exercise of the rights")
    graph = Graph([Edge(limit.id, access.id, "Articles 15 to 22", "Article 15(1)")], [access, limit])
    question = analyse("Can I get a copy of my data, and how long do they have to respond to my request?", "en")
    assert "deadline" in question.hops
    by_id = {p.id: p for p in (access, limit)}
    scores, rest = {access.id: 1.0, limit.id: 0.3}, {access.id: 1.0, limit.id: 0.4}
    hits = follow(question, [Hit(access, 1.0), Hit(limit, 0.3)], graph, by_id, scores, rest)
    assert [(h.provision.label, h.via, h.via_hop) for h in hits] == [
        ("Article 15(1)", "", ""), ("Article 12(3)", "Article 15(1)", "deadline")]
    # The best hit states the month itself: there is nothing to look for elsewhere.
    hits = follow(question, [Hit(limit, 1.0), Hit(access, 0.3)], graph, by_id, {limit.id: 1.0, access.id: 0.3}, rest)
    assert not any(h.via for h in hits)


def test_when_the_whole_act_applies_is_followed_without_an_edge():
    duty = prov("Article 27(1)", "1. Deployers that are bodies governed by public law shall perform an assessment of "
                                 "the impact on fundamental rights.", "Fundamental rights impact assessment")
    other = prov("Article 40(1)", "1. High-risk AI systems in conformity with harmonised standards shall be presumed "
                                  "to be in conformity.", "Harmonised standards")
    final = prov("Article 113", "This Regulation shall enter into force on the twentieth day following that of its "
                                "publication. It shall apply from 2 August 2026.", "Entry into force and application")
    provisions = [duty, other, final]
    question = analyse("From what date must public bodies perform a fundamental rights impact assessment?", "en")
    assert "date" in question.hops
    by_id = {p.id: p for p in provisions}
    scores = {duty.id: 1.0, other.id: 0.4, final.id: 0.2}
    hits = follow(question, [Hit(by_id[pid], s) for pid, s in scores.items()], Graph([], provisions), by_id, scores,
                  {duty.id: 1.0, other.id: 0.2})
    assert [(h.provision.label, h.via) for h in hits[:2]] == [("Article 27(1)", ""), ("Article 113", "Article 27(1)")]


def test_an_annex_point_is_paired_with_the_article_its_annex_title_names():
    point = Provision(id="Annex III, point 6", label="Annex III, point 6", label_local="Annex III, point 6",
                      kind="annex", instrument="act", lang="en", title="High-risk AI systems referred to in Article 6(2)",
                      path=[], text="High-risk AI systems pursuant to Article 6(2) are the AI systems listed in any of the "
                                    "following areas: 6. Law enforcement: (c) AI systems intended to evaluate the "
                                    "reliability of evidence.", url="", source_sha256="0" * 64, version="")
    rule = prov("Article 6(2)", "2. In addition to the high-risk AI systems referred to in paragraph 1, AI systems "
                                "referred to in Annex III shall be considered to be high-risk.", "Classification rules")
    log = prov("Article 26(11)", "11. Deployers of high-risk AI systems referred to in Annex III that make decisions "
                                 "related to natural persons shall inform them.", "Obligations of deployers")
    provisions = [point, rule, log]
    graph = Graph([Edge(point.id, rule.id, "Article 6(2)", "Article 6(2)"),
                   Edge(log.id, point.id, "Annex III, point 6", "Annex III")], provisions)
    question = analyse("Is an AI system used by the police to evaluate the reliability of evidence high-risk?", "en")
    assert "annex" in question.hops
    by_id = {p.id: p for p in provisions}
    scores = {point.id: 1.0, log.id: 0.5, rule.id: 0.3}
    # The rest of the question matches the deployer's duty better than the classification rule.
    hits = follow(question, [Hit(by_id[pid], s) for pid, s in scores.items()], graph, by_id, scores,
                  {log.id: 1.0, rule.id: 0.2})
    assert [(h.provision.label, h.via) for h in hits[:2]] == [("Annex III, point 6", ""),
                                                            ("Article 6(2)", "Annex III, point 6")]


def _article(label: str, text: str) -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="paragraph", instrument="act", lang="en",
                     title="Processing of special categories of personal data", path=[], text=text, url="",
                     source_sha256="0" * 64, version="")


RULE = _article("Article 9(1)", "1. Processing of data concerning health shall be prohibited.")
EXCEPTION = _article("Article 9(2)", "2. Paragraph 1 shall not apply if one of the following applies: (a) consent;")
NEIGHBOUR = _article("Article 9(3)", "3. Personal data referred to in paragraph 1 may be processed by professionals.")
ELSEWHERE = prov("Article 88(1)", "1. Member States may provide for more specific rules in the employment context.")
NINE = [RULE, EXCEPTION, NEIGHBOUR, ELSEWHERE]
NINE_GRAPH = Graph([Edge(EXCEPTION.id, RULE.id, "Article 9(1)", "Paragraph 1"),
                    Edge(NEIGHBOUR.id, RULE.id, "Article 9(1)", "paragraph 1")], NINE)


def ranked(*provisions: Provision) -> list[Hit]:
    return [Hit(p, 1.0 - i / 10) for i, p in enumerate(provisions)]


def test_an_exception_ranked_first_brings_the_rule_it_sets_aside():
    hits = with_rules(ranked(EXCEPTION, ELSEWHERE, NEIGHBOUR), NINE_GRAPH, {p.id: p for p in NINE}, k=3)
    assert [(h.provision.label, h.via) for h in hits] == [
        ("Article 9(2)", ""), ("Article 9(1)", "Article 9(2)"), ("Article 88(1)", ""), ("Article 9(3)", "")]


def test_a_mere_mention_of_a_paragraph_or_a_rule_already_found_brings_nothing():
    by_id = {p.id: p for p in NINE}
    # Article 9(3) cites paragraph 1 without setting it aside.
    assert with_rules(ranked(NEIGHBOUR, ELSEWHERE), NINE_GRAPH, by_id, k=2) == ranked(NEIGHBOUR, ELSEWHERE)
    # The rule is among the first k already: nothing moves.
    assert with_rules(ranked(EXCEPTION, ELSEWHERE, RULE), NINE_GRAPH, by_id, k=3) == ranked(EXCEPTION, ELSEWHERE, RULE)


def _annex(label: str, title: str, lang: str = "en") -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="annex", instrument="act", lang=lang, title=title,
                     path=[], text="The following criteria: (a) the number of parameters;", url="",
                     source_sha256="0" * 64, version="")


CRITERIA = _annex("Annex XIII", "Criteria for the designation of general-purpose AI models with systemic risk "
                                "referred to in Article 51")
SIBLING = prov("Article 52(1)", "1. The provider shall notify the Commission without delay.", "Procedure")
DESIGNATION = [prov(f"Article 51({n})", f"{n}. A general-purpose AI model shall be classified …", "Classification")
               for n in (1, 2)]
TITLED = Graph([], [CRITERIA, SIBLING, *DESIGNATION])


def test_an_annex_is_tied_to_the_first_part_found_of_the_article_its_title_names():
    hits = with_gateways(ranked(CRITERIA, SIBLING, DESIGNATION[1], DESIGNATION[0]), TITLED, k=4)
    assert [h.provision.label for h in hits] == ["Annex XIII", "Article 52(1)", "Article 51(2)", "Article 51(1)"]
    assert [(h.via, h.via_hop) for h in hits] == [("", ""), ("", ""), ("Annex XIII", "gateway"), ("", "")]


def test_an_annex_title_naming_a_paragraph_ties_that_paragraph_only_in_any_language():
    paragraphs = [_article(f"Article 53({n})", f"{n}. I fornitori di modelli di IA per finalità generali …") for n in (1, 2)]
    italian = _annex("Annex XII, point 2", "Informazioni sulla trasparenza di cui all'articolo 53, paragrafo 1, "
                                           "lettera b)", "it")
    graph = Graph([], [italian, *paragraphs])
    hits = with_gateways(ranked(italian, paragraphs[1], paragraphs[0]), graph, k=3)
    assert [(h.provision.label, h.via) for h in hits] == [("Annex XII, point 2", ""), ("Article 53(2)", ""),
                                                        ("Article 53(1)", "Annex XII, point 2")]
    # Only its second paragraph found: nothing is tied.
    assert with_gateways(ranked(italian, paragraphs[1]), graph, k=2) == ranked(italian, paragraphs[1])


def test_an_annex_whose_article_is_not_among_the_first_k_ties_nothing():
    hits = ranked(CRITERIA, SIBLING, DESIGNATION[0])
    assert with_gateways(list(hits), TITLED, k=2) == hits


def _definition(label: str, text: str) -> Provision:
    return Provision(id=label, label=label, label_local=label, kind="definition", instrument="act", lang="en",
                     title="Definitions", path=[], text=text, url="", source_sha256="0" * 64, version="")


MODIFICATION = _definition("Article 3(23)", "(23) ‘substantial modification’ means a change to an AI system after its "
                                            "placing on the market which is not planned in the initial conformity assessment;")
SYSTEM = _definition("Article 3(1)", "(1) ‘AI system’ means a machine-based system designed to operate with autonomy;")
NEW_ASSESSMENT = prov("Article 43(4)", "4. AI systems shall undergo a new conformity assessment procedure in the "
                                       "event of a substantial modification.", "Conformity assessment")
PLAIN = [prov(f"Article {n}(1)", f"{n}. The provider of an AI system shall keep records.", "Obligations")
         for n in (16, 17, 18)]
TERMS = Graph([], [MODIFICATION, SYSTEM, NEW_ASSESSMENT, *PLAIN])


def test_a_definition_found_with_a_rule_using_its_term_is_tied_to_that_rule_and_nothing_moves():
    found = ranked(NEW_ASSESSMENT, PLAIN[0], MODIFICATION)
    hits = with_terms(found, TERMS, k=3)
    assert [h.provision.label for h in hits] == ["Article 43(4)", "Article 16(1)", "Article 3(23)"]
    assert [(h.via, h.via_hop, h.via_words) for h in hits] == [
        ("", "", ""), ("", "", ""), ("Article 43(4)", "term", "substantial modification")]


def test_a_term_the_act_uses_everywhere_or_a_definition_beyond_k_is_not_tied():
    # 'AI system' is used by four of the five rules: its definition tells the reader nothing new.
    assert with_terms(ranked(NEW_ASSESSMENT, SYSTEM, PLAIN[0]), TERMS, k=3) == ranked(NEW_ASSESSMENT, SYSTEM, PLAIN[0])
    found = ranked(NEW_ASSESSMENT, PLAIN[0], MODIFICATION)
    assert with_terms(found, TERMS, k=2) == found
    # No rule among the first k uses the term.
    assert with_terms(ranked(MODIFICATION, *PLAIN), TERMS, k=4) == ranked(MODIFICATION, *PLAIN)


def test_a_thai_question_without_consent_asks_for_the_exceptions_the_act_writes_with_wen_tae():
    from pincite.retrieve.follow import of_kind

    question = analyse("บริษัทจะเปิดเผยข้อมูลส่วนบุคคลของลูกค้าโดยไม่ได้รับความยินยอมได้ในกรณีใดบ้าง", "th")
    assert "exception" in question.hops
    assert "exception" not in analyse("บริษัทต้องขอความยินยอมจากลูกค้าอย่างไร", "th").hops
    grounds = Provision(id="s24", label="Section 24", label_local="มาตรา 24", kind="section", instrument="act", lang="th",
                        title="", path=[], text="ห้ามมิให้ผู้ควบคุมข้อมูลส่วนบุคคลทำการเก็บรวบรวมข้อมูลส่วนบุคคลโดยไม่ได้รับความ"
                                                 "ยินยอมจากเจ้าของข้อมูลส่วนบุคคล เว้นแต่ (๑) เพื่อป้องกันอันตรายต่อชีวิต",
                        url="", source_sha256="0" * 64, version="")
    assert of_kind("exception", grounds)
