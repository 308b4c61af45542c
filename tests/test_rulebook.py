"""A rulebook module PDF in the CBB Rulebook's shape → one provision per rule id."""

from __future__ import annotations

import pytest

from pincite.corpus.formats.rulebook import parse_rulebook
from pincite.errors import ConfigError, ParseError
from pincite.index.build import provision_units
from pincite.settings import load_settings
from pincite.sources.catalog import CorpusSpec
from pincite.testing import keyword_searcher
from tests.pdf_fixtures import RULE_IDS, rulebook_pdf, scanned_pdf

SPEC = CorpusSpec("fc", "", "FC module", "", langs=frozenset({"en"}), format="rulebook", document="fc.pdf")


@pytest.fixture(scope="module")
def pdf(tmp_path_factory):
    return rulebook_pdf(tmp_path_factory.mktemp("rulebook") / "fc.pdf").read_bytes()


@pytest.fixture(scope="module")
def parsed(pdf):
    return parse_rulebook(pdf, SPEC, "en", "sha", "file:///fc.pdf")


@pytest.fixture(scope="module")
def rules(parsed):
    return {p.label: p for p in parsed.provisions}


def test_every_rule_id_round_trips_once_in_order(parsed):
    assert [p.label for p in parsed.provisions] == RULE_IDS


def test_the_deleted_stub_is_dropped(parsed):
    assert "FC-1.2.2" not in [p.label for p in parsed.provisions] and parsed.deleted == ["FC-1.2.2"]


def test_rules_are_cited_by_their_id(rules):
    r = rules["FC-1.1.2"]
    assert (r.id, r.kind, r.label_local) == ("fc/en/rule-FC-1.1.2", "rule", "FC-1.1.2")


def test_module_chapter_and_section_form_the_path(rules):
    r = rules["FC-2.1.1"]
    assert r.path == ["Module FC", "Chapter FC-2", "Section FC-2.1"]
    assert r.path_titles == ["Financial Crime", "Suspicious Transaction Reporting", "Reporting Requirements"]


def test_a_rule_is_titled_by_the_heading_it_falls_under(rules):
    assert (rules["FC-1.1.2"].title, rules["FC-1.1.3"].title) == ("Verification of identity", "Timing of verification")


def test_each_rule_carries_the_edition_date_of_its_page(rules, parsed):
    assert (rules["FC-1.1.1"].version, rules["FC-2.1.1"].version, parsed.version) == (
        "January 2024", "October 2023", "January 2024")


def test_rules_link_to_their_page(rules):
    assert rules["FC-2.1.1"].url == "file:///fc.pdf#page=6"


def test_sub_items_keep_a_line_each_and_nested_items_are_indented(rules):
    assert rules["FC-1.1.2"].text.splitlines()[1:] == [
        "(a) a valid passport or national identity card;",
        "(b) confirmation of the customer's permanent residential address; and",
        "(c) for a legal person, its commercial registration and the identity of:",
        "  (i) each authorised signatory; and",
        "  (ii) each ultimate beneficial owner holding 10% or more of the capital.",
    ]


def test_a_reference_that_opens_a_line_stays_in_its_rule(rules):
    assert rules["FC-1.1.3"].text.endswith("in accordance with Paragraph FC-2.1.1 and inform the Money "
                                           "Laundering Reporting Officer.")


def test_a_rule_runs_on_across_a_page_break_without_the_furniture(rules):
    text = rules["FC-1.2.1"].text
    assert text.splitlines()[-1].startswith("(d) reviewing the relationship at least annually")
    assert "Page 2 of 2" not in text and "MODULE FC" not in text and "Central Bank of Bahrain Rulebook" not in text


def test_contents_and_history_rows_make_no_rules(rules):
    assert not any("Jan 2024" in r.text or "Amended the reporting deadline" in r.text for r in rules.values())


def test_a_long_rule_is_indexed_item_by_item_under_its_id(rules):
    units = provision_units(rules["FC-1.2.1"], load_settings())
    assert len(units) == 5 and {u.provision_id for u in units} == {"fc/en/rule-FC-1.2.1"}
    assert units[2].text.startswith("Enhanced Due Diligence: Licensees must apply enhanced due diligence")


def test_a_rule_id_typed_in_the_question_is_retrieved_first(parsed):
    searcher = keyword_searcher(parsed.provisions, load_settings(), "en")
    hits = searcher.search("How long must records under FC-1.2.3 be kept?", k=3, mode="bm25")
    assert (hits[0].provision.label, hits[0].exact) == ("FC-1.2.3", True)


def test_another_id_pattern_is_a_setting(pdf):
    spec = CorpusSpec("fc", "", "", "", langs=frozenset({"en"}), format="rulebook", rule_pattern=r"FC-2\.\d+\.\d+")
    assert [p.label for p in parse_rulebook(pdf, spec, "en", "sha", "u").provisions] == ["FC-2.1.1", "FC-2.1.2"]


def test_a_pattern_that_matches_nothing_says_what_to_do(pdf):
    spec = CorpusSpec("fc", "", "", "", langs=frozenset({"en"}), format="rulebook", rule_pattern=r"XX-\d+\.\d+")
    with pytest.raises(ParseError, match="no rule ids matching .* pass --rule-pattern, or add it with --as pages"):
        parse_rulebook(pdf, spec, "en", "sha", "u")


def test_a_broken_pattern_is_a_config_error(pdf):
    spec = CorpusSpec("fc", "", "", "", langs=frozenset({"en"}), format="rulebook", rule_pattern="FC-(")
    with pytest.raises(ConfigError, match="is not a valid regular expression"):
        parse_rulebook(pdf, spec, "en", "sha", "u")


def test_a_scanned_rulebook_is_refused(tmp_path):
    with pytest.raises(ParseError, match="has no text layer"):
        parse_rulebook(scanned_pdf(tmp_path / "s.pdf").read_bytes(), SPEC, "en", "sha", "u")
