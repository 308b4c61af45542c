"""Following references on a small graph written here: several pairs per kind asked for, and a
duty that mentions an offence is still the duty a fine punishes."""

from __future__ import annotations

from pincite.index.store.base import Edge
from pincite.provisions import Provision
from pincite.retrieve.follow import PAIR_SHARE, follow
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
    scores = {DUTY.id: 1.0, OTHER.id: 0.5, "Section 86": 0.6, "Section 83": 0.05, FAR.id: 0.05}
    hits = run(scores, {DUTY.id: 1.0, OTHER.id: 0.2})
    pairs = {(h.via, h.provision.label) for h in hits if h.via}
    assert pairs == {("Section 37", "Section 86")}


def test_a_prohibition_that_mentions_a_punishable_offence_is_still_the_duty_end():
    ban = prov("Article 5(1)", "1. The following practices shall be prohibited: (h) identification for an offence "
                               "punishable by a custodial sentence of at least four years.", "Prohibited practices")
    fine = prov("Article 99(3)", "3. Non-compliance with the prohibition of the practices referred to in Article 5 "
                                 "shall be subject to administrative fines of up to EUR 35 000 000.", "Penalties")
    graph = Graph([Edge(fine.id, ban.id, "Article 5", "Article 5")], [ban, fine])
    hits = run({ban.id: 1.0, fine.id: 0.8}, {ban.id: 1.0}, [ban, fine], graph)
    assert [(h.provision.label, h.via) for h in hits] == [("Article 5(1)", ""), ("Article 99(3)", "Article 5(1)")]
