"""The support check: does a sentence say what the provision it cites says? One signal a test,
on provisions written out here; then `pincite verify` on the issue's examples over the GDPR."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from pincite.provisions import Provision
from pincite.verify.check import Sentence, quantities, quoted_faithfully
from pincite.verify.claims import check_claim, lookup_label, split_cited, verify
from pincite.verify.signals import modal_verbs, widened_scope, words_to_digits


def prov(label: str, text: str, kind: str = "paragraph", title: str = "") -> Provision:
    return Provision(id=label, label=label, label_local=label, kind=kind, instrument="test", lang="en",
                     title=title, path=[], text=text, url="https://example.test/", source_sha256="0" * 64,
                     version="OJ L 1, 1.1.2000")


CORPUS = [
    prov("Article 33(1)", "1. In the case of a personal data breach, the controller shall without undue delay and, "
                          "where feasible, not later than 72 hours after having become aware of it, notify the personal "
                          "data breach to the supervisory authority, unless the personal data breach is unlikely to "
                          "result in a risk to the rights and freedoms of natural persons."),
    prov("Article 12(3)", "3. The controller shall provide information on action taken to the data subject without "
                          "undue delay and in any event within one month of receipt of the request. That period may "
                          "be extended by two further months where necessary."),
    prov("Article 83(5)", "5. Infringements shall be subject to administrative fines up to 20 000 000 EUR, or up to "
                          "4 % of the total worldwide annual turnover, whichever is higher."),
    prov("Article 12(5)", "5. Where requests are manifestly unfounded or excessive, the controller may refuse to act on the request."),
    prov("Article 5(1)", "1. The following AI practices shall be prohibited:\n(a) the placing on the market of an AI "
                         "system that deploys subliminal techniques beyond a person's consciousness;\n(b) the use of "
                         "an AI system that exploits the vulnerabilities of a natural person due to their age."),
    prov("Article 16(1)", "1. Providers of hosting services shall put mechanisms in place to allow any individual or "
                          "entity to notify them of the presence on their service of specific items of information "
                          "that the individual or entity considers to be illegal content."),
    prov("Article 30(1)", "1. Providers of online platforms allowing consumers to conclude distance contracts with "
                          "traders shall ensure that traders can only use those online platforms to promote messages "
                          "on or to offer products or services to consumers located in the Union if they have "
                          "obtained the name, address, telephone number and email address of the trader."),
    prov("Article 8(1)", "1. The processing of the personal data of a child shall be lawful where the child is at "
                         "least 16 years old. Member States may provide by law for a lower age for those purposes "
                         "provided that such lower age is not below 13 years."),
    prov("Article 9(2)(d)", "(d) processing is carried out by a foundation with a political aim on condition that "
                            "the processing relates solely to the members or to former members of the body."),
    prov("Article 30(5)", "5. The obligations referred to in paragraphs 1 and 2 shall not apply to an enterprise "
                          "employing fewer than 250 persons unless the processing is not occasional.",
         title="Records of processing activities"),
    prov("Recital 133", "(133) It is appropriate to require providers of those systems to embed technical solutions "
                        "that enable marking in a machine readable format, so that deployers and the public can "
                        "detect the content.", kind="recital"),
    prov("Recital 47", "(47) The legitimate interests of a controller may provide a legal basis for processing, "
                       "taking into consideration the reasonable expectations of data subjects.", kind="recital"),
]


def reason(text: str) -> str | None:
    ((sentence, labels),) = split_cited(text)
    verdict = check_claim(sentence, labels, lambda label: lookup_label(label, CORPUS), "en", corpus="gdpr")
    return verdict.reason


@pytest.mark.parametrize("text", [
    "The controller must notify a personal data breach to the supervisory authority within 72 hours [Article 33(1)].",
    "A controller has to report a breach to the supervisory authority within seventy-two hours of becoming aware of it [Art. 33(1)].",
    "No notification is needed where the breach is unlikely to result in a risk to the rights and freedoms of natural persons [Article 33(1)].",
    "The controller must reply within one month, extendable by two further months [Article 12(3)].",
    "Fines reach EUR 20 000 000 or 4 % of worldwide annual turnover, whichever is higher [Article 83(5)].",
    'The controller "shall provide information on action taken to the data subject" [Article 12(3)].',
    "An AI system that exploits the vulnerabilities of a person due to their age cannot be used [Article 5(1)(b)].",
    "Hosting providers must let any individual or entity notify them of illegal content [Article 16(1)].",
    "Fines cannot exceed EUR 20 000 000 or 4 % of total worldwide annual turnover, whichever is higher [Article 83(5)].",
    "Recital 47 explains that the legitimate interests of a controller may provide a legal basis for processing [Recital 47].",
    # plain words for the statute's, the heading of the cited article, amounts in words
    "A company with fewer than 250 staff need not keep records unless its processing is not occasional [Article 30(5)].",
    "Breaching these rules can cost a company up to twenty million euros or four per cent of its worldwide annual "
    "turnover, whichever is higher [Article 83(5)].",
    "Recital 133 considers it appropriate to require providers to embed technical solutions for marking [Recital 133].",
])
def test_faithful_sentences_are_supported(text):
    assert reason(text) is None


@pytest.mark.parametrize(("text", "why"), [
    ("Roses are red and violets are blue. [Article 33(1)]", "not_in_text"),
    ("The controller shall not notify the personal data breach to the supervisory authority [Article 33(1)].", "polarity"),
    ("Fines reach EUR 20 000 000 or 4 % of turnover, whichever is lower [Article 83(5)].", "comparator"),
    ("Fines reach at least EUR 20 000 000 [Article 83(5)].", "comparator"),
    ("The controller may only refuse to act on requests that are manifestly unfounded [Article 12(5)].", "comparator"),
    ("All controllers may refuse to act on any request [Article 12(5)].", "comparator"),
    ("The supervisory authority shall notify the personal data breach to the controller within 72 hours [Article 33(1)].", "role"),
    ("The processor must notify a personal data breach to the supervisory authority within 72 hours [Article 33(1)].", "role"),
    ("Controllers must take into consideration the reasonable expectations of data subjects [Recital 47].", "recital_as_obligation"),
    ("Under the AI Act, providers must notify the breach within 72 hours [Article 33(1)].", "not_in_text"),
    ("Under Article 99, the controller shall notify the breach within 72 hours [Article 33(1)].", "unknown_provision"),
    ("Within two months, extendable by one further month, the controller shall provide information [Article 12(3)].",
     "number_mismatch"),
    ("The controller must notify the breach within 48 hours [Article 33(1)].", "number_mismatch"),
    ("Providers of online search engines must let anyone notify them of illegal content [Article 16(1)].", "role"),
    ("Consumers must give their name, address and telephone number to traders [Article 30(1)].", "role"),
    ("The Act does not prohibit AI systems that deploy subliminal techniques [Article 5(1)(a)].", "polarity"),
    ("Where requests are manifestly unfounded, the controller must refuse to act on the request [Article 12(5)].", "modality"),
    ('The controller "shall notify the data subject of the breach" [Article 33(1)].', "misquote"),
    # the modal of a verb both keep; the one required to act; a limit lifted; discretion added
    ("Member States must provide by law for a lower age, not below 13 years [Article 8(1)].", "modality"),
    ("Recital 133 considers it appropriate to require deployers to embed technical solutions for marking [Recital 133].",
     "role"),
    ("A political foundation may process the data of anyone, not only of its members or former members [Article 9(2)(d)].",
     "comparator"),
    ("Where requests are manifestly unfounded, the controller may refuse to act on the request as it sees fit [Article 12(5)].",
     "comparator"),
    ("The controller must notify the breach [Article 34(1)].", "unknown_provision"),
    ("The controller must notify the breach within 72 hours.", "no_citation"),
    ("[Article 33(1)].", "empty"),
])
def test_unsupported_sentences_are_refused_with_their_reason(text, why):
    assert reason(text) == why


def test_quoted_fragments_must_be_in_order_and_long_enough():
    text = CORPUS[0].text
    assert quoted_faithfully("the controller shall without undue delay … notify the personal data breach", [text])
    assert not quoted_faithfully("notify the personal data breach … the controller shall without undue delay", [text])
    assert not quoted_faithfully("shall … not … notify", [text])


def test_a_verb_keeps_the_class_of_its_modal():
    text = "Member States may provide by law for a lower age. The controller shall not disclose the data."
    assert modal_verbs(text, "en") == {"provid": {"permission"}, "disclos": {"prohibition"}}
    assert modal_verbs("Member States must provide by law", "en") == {"provid": {"obligation"}}
    assert modal_verbs("Gli Stati membri possono stabilire per legge un'età inferiore", "it") == {"stabil": {"permission"}}


def test_discretion_and_lifted_limits_are_scope_changes():
    text = "Where requests are manifestly unfounded, the controller may charge a reasonable fee."
    assert widened_scope("the controller may charge any fee it chooses", text) == "it chooses"
    assert widened_scope("the controller may charge a reasonable fee", text) is None
    solely = "processing based solely on the profiling of a natural person"
    assert widened_scope("processing based even partly on profiling", solely) == "even partly"
    # a limit on something else in the text is not lifted
    assert widened_scope("not only trusted flaggers may notify illegal content", solely) is None


def test_number_words_are_read_as_numbers():
    assert words_to_digits("seventy-two hours, two hundred and fifty persons, ten million") == "72 hours, 250 persons, 10 million"
    assert words_to_digits("no one of them") == "no one of them"


def test_citations_after_the_full_stop_belong_to_the_sentence_before():
    assert split_cited("It is so. [Article 1] Also this [Art. 2; Article 3(1)].") == [
        ("It is so [Article 1].", ["Article 1"]), ("Also this [Art. 2; Article 3(1)].", ["Art. 2", "Article 3(1)"])]


# -- pincite verify, a real subprocess over the GDPR ------------------------------------------

ISSUE_EXAMPLES = """Roses are red and violets are blue. [Article 5(1)]
The controller shall not notify the personal data breach to the supervisory authority [Article 33(1)].
Fines for these infringements go up to EUR 20 000 000 or 4 % of turnover, whichever is lower [Article 83(5)].
The supervisory authority shall notify the personal data breach to the controller within 72 hours [Article 33(1)].
Controllers must carry out a balancing test before relying on legitimate interests [Recital 47].
Under the AI Act, providers must notify the breach within 72 hours [Article 33(1)].
Within two months, extendable by one further month, the controller shall provide information on action taken [Article 12(3)].
"""
EXPECTED = ["not_in_text", "polarity", "comparator", "role", "recital_as_obligation", "not_in_text",
            "number_mismatch"]


def run(*args: str, env: dict, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pincite", *args], capture_output=True, text=True, input=stdin,
                          env={**os.environ, **env}, timeout=300)


@pytest.fixture
def env(mirrored_home):
    return {"PINCITE_HOME": str(mirrored_home), "PINCITE_MIRROR": os.environ["PINCITE_MIRROR"]}


def test_verify_refuses_each_issue_example_with_its_reason(env, tmp_path):
    path = tmp_path / "memo.txt"
    path.write_text(ISSUE_EXAMPLES, encoding="utf-8")
    result = run("verify", str(path), "--corpus", "gdpr", "--json", env=env)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert document["verified"] is False
    assert document["corpus"] == {"name": "gdpr", "lang": "en", "version": "OJ L 119, 4.5.2016"}
    assert [s["reason"] for s in document["sentences"]] == EXPECTED
    assert not any(s["supported"] for s in document["sentences"])


def test_verify_accepts_a_faithful_text_from_stdin(env):
    text = ("In the case of a personal data breach, the controller shall notify it to the supervisory authority "
            "within 72 hours where feasible. [Article 33(1)] The processor shall notify the controller without "
            "undue delay after becoming aware of a personal data breach [Art. 33(2)].")
    result = run("verify", "-", "--corpus", "gdpr", env=env, stdin=text)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("supported") == 2 and "not supported" not in result.stdout


@pytest.mark.parametrize(("args", "says"), [
    (("verify", "/nonexistent/memo.txt"), "cannot read"),
    (("verify", "-", "--corpus", "gpdr"), "unknown corpus"),
])
def test_verify_usage_errors_exit_2_in_one_line(env, args, says):
    result = run(*args, env=env, stdin="x [Article 1].")
    assert result.returncode == 2
    assert says in result.stderr and "Traceback" not in result.stderr


def test_an_article_range_hides_no_amount_after_it():
    assert quantities("Breaches of Articles 28 to 39 are fined up to EUR 40 000 000 or 4 %") == {
        ("40000000", "eur"), ("4", "percent")}


# -- a citation written in the prose, over the real GDPR (which has an Article 99) ------------

UNDER_99 = ("Under Article 99, the controller shall notify a personal data breach to the supervisory authority "
            "within 72 hours [Article 33(1)].")


@pytest.fixture
def gdpr_service(mirrored_home):
    from pincite.service import Pincite

    with Pincite() as service:
        yield service


def test_a_prose_citation_that_resolves_is_checked_like_a_bracketed_one(gdpr_service):
    # Article 99 exists (entry into force and application) but says nothing of breaches.
    assert gdpr_service.find("gdpr", "Article 99")
    (sentence,) = gdpr_service.verify(UNDER_99, corpus="gdpr")["sentences"]
    assert (sentence["supported"], sentence["reason"]) == (False, "not_in_text")
    assert "Article 99" in sentence["detail"]
    faithful = UNDER_99.replace("Under Article 99", "Under Article 33(1)")
    assert gdpr_service.verify(faithful, corpus="gdpr")["verified"] is True


def test_a_prose_citation_outside_the_evidence_refuses_an_answer(gdpr_service):
    evidence = gdpr_service.find("gdpr", "Article 33(1)")
    sentences = [Sentence(UNDER_99, ["Article 33(1)"])]
    assert verify(sentences, evidence, corpus="gdpr").reason == "unsupported_citation"
    assert verify([Sentence(UNDER_99.replace("Under Article 99, t", "T"), ["Article 33(1)"])], evidence,
                  corpus="gdpr").ok
