"""French (the AI Act's French text, ../shared/corpora/ai-act/fr.html read through the mirror):
defined terms with an apostrophe, definition questions asked in French, the support check's
polarity and modality in French, and the question cues the gate reads (a scenario, a period, an act
named in French words)."""

from __future__ import annotations

import pytest

from pincite.corpus import build as corpus
from pincite.retrieve.cues import asks_for_number, asks_for_period, named_acts
from pincite.retrieve.definitions import asked_term, definition_hits
from pincite.retrieve.graph import defined_terms
from pincite.retrieve.query import analyse
from pincite.settings import load_settings
from pincite.verify.claims import check_claim, lookup_label


@pytest.fixture(scope="module")
def ai_act_fr(tmp_path_factory):
    from tests.conftest import CORPORA, need_shared

    need_shared(CORPORA / "ai-act" / "fr.html")
    settings = load_settings(home=tmp_path_factory.mktemp("home"), mirror=CORPORA)
    corpus.build_corpus("ai-act", "fr", settings)
    return corpus.load_provisions("ai-act", "fr", settings)


def test_a_defined_term_keeps_its_apostrophe(ai_act_fr):
    label_of = {p.id: p.label for p in ai_act_fr}
    labelled = {label_of[pid]: term for term, pid in defined_terms(ai_act_fr)}
    assert labelled["Article 3(1)"] == "système d’ia"
    assert labelled["Article 3(63)"] == "modèle d’ia à usage général"
    assert labelled["Article 3(29)"] != labelled["Article 3(33)"]  # «données d’entraînement», «données d’entrée»
    assert len(labelled) == 68 and not any(t.endswith((" d", " l", " de l")) for t in labelled.values())


@pytest.mark.parametrize("question,label", [
    ("Qu'est-ce qu'un fournisseur en aval ?", "Article 3(68)"),
    ("Que faut-il entendre par «système d'IA» au sens du règlement ?", "Article 3(1)"),
    ("Qu’entend-on par maîtrise de l’IA ?", "Article 3(56)"),
    ("Quelle est la définition d'un hypertrucage ?", "Article 3(60)"),
])
def test_a_definition_asked_in_french_is_found_by_its_term(ai_act_fr, question, label):
    (hit,) = definition_hits(asked_term(question), ai_act_fr)
    assert hit.provision.label == label


def _verdict(ai_act_fr, sentence: str, label: str):
    return check_claim(sentence, [label], lambda wanted: lookup_label(wanted, ai_act_fr), "fr", corpus="ai-act")


@pytest.mark.parametrize("sentence,label", [
    ("Le non-respect de l'interdiction des pratiques d'IA visées à l'article 5 peut entraîner une amende "
     "administrative allant jusqu'à 35 000 000 EUR ou 7 % du chiffre d'affaires annuel mondial total, le montant "
     "le plus élevé étant retenu.", "Article 99, paragraphe 3"),
    ("Les déployeurs de systèmes d'IA à haut risque conservent les journaux générés automatiquement pendant au "
     "moins six mois.", "Article 26, paragraphe 6"),
    ("Le règlement ne s'applique pas aux systèmes d'IA développés et mis en service uniquement à des fins de "
     "recherche et développement scientifiques.", "Article 2, paragraphe 6"),
    ("Les PME, y compris les jeunes pousses, peuvent fournir les éléments de la documentation technique de "
     "manière simplifiée.", "Article 11, paragraphe 1"),
])
def test_faithful_french_sentences_are_supported(ai_act_fr, sentence, label):
    assert _verdict(ai_act_fr, sentence, label).ok


@pytest.mark.parametrize("sentence,label,reason", [
    ("L'utilisation de systèmes d'IA pour inférer les émotions d'une personne physique sur le lieu de travail "
     "est autorisée.", "Article 5, paragraphe 1, point f)", "modality"),
    ("La création de bases de données de reconnaissance faciale par moissonnage non ciblé d'images sur internet "
     "n'est pas interdite.", "Article 5, paragraphe 1, point e)", "polarity"),
    ("Les déployeurs qui sont des employeurs ne sont pas tenus d'informer les représentants des travailleurs.",
     "Article 26, paragraphe 7", "polarity"),
    ("Les déployeurs d'un système de reconnaissance des émotions peuvent choisir de ne pas informer les personnes "
     "exposées.", "Article 50, paragraphe 3", "modality"),
])
def test_a_french_sentence_that_turns_the_rule_around_is_not_supported(ai_act_fr, sentence, label, reason):
    verdict = _verdict(ai_act_fr, sentence, label)
    assert not verdict.ok and verdict.reason == reason


def test_a_french_scenario_is_a_scenario_and_how_long_asks_for_no_number():
    scope = analyse("Mon entreprise basée au Canada vend un logiciel de recrutement en Europe : le règlement "
                    "s'applique-t-il à elle ?", "fr")
    assert scope.asks == "scope"  # so the gate reads 'Canada' as a fact of the case, as it reads 'Brazil'
    assert analyse("Mon entreprise utilise un chatbot, doit-elle le dire aux clients ?", "fr").asks == "duty"
    assert analyse("Un employeur peut-il utiliser ce système ?", "fr").asks == "yes_no"
    assert analyse("À partir de quand le règlement s'applique-t-il ?", "fr").asks != "scope"
    assert not asks_for_number("Combien de temps devons-nous garder les journaux ?")
    assert asks_for_period("Combien de temps devons-nous garder les journaux ?")
    assert asks_for_number("Combien coûte une évaluation de la conformité ?")


def test_acts_named_in_french_words_are_acts():
    assert [(a.label, a.number) for a in named_acts("Selon le règlement sur les services numériques, que doit "
                                                    "faire une plateforme ?")] == [
        ("règlement sur les services numériques", "2022/2065")]
    assert [a.number for a in named_acts("Le règlement sur l’IA s'applique-t-il aux PME ?")] == ["2024/1689"]
    (directive,) = named_acts("Selon la directive sur la responsabilité du fait des produits défectueux, qui paie ?")
    assert directive.label == "directive sur la responsabilité du fait des produits défectueux"
    assert directive.number is None
