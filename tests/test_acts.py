"""Adding instruments: EUR-Lex acts by CELEX (named, new, consolidated) and PDFs."""

from __future__ import annotations

import shutil

import pytest

from pincite.corpus.acts import add_act, add_pdf
from pincite.errors import ConfigError, ParseError, SourceError
from pincite.settings import load_settings
from pincite.sources.catalog import corpus_spec, registered
from tests.conftest import MODEL, need_shared
from tests.pdf_fixtures import RULE_IDS, paged_pdf, rulebook_pdf, scanned_pdf


@pytest.fixture
def mirror(tmp_path, corpora, monkeypatch):
    """A mirror holding acts by CELEX that the shared corpora keep under other names."""
    folder = tmp_path / "mirror"
    for celex, lang, relative in [("02016R0679-20160504", "en", "gdpr/en.consolidated-20160504.xhtml"),
                                  ("32022R2554", "da", "eurlex-extra/da/32022R2554.dora.da.html"),
                                  ("32022R2065", "en", "32022R2065/en.html")]:
        (folder / celex).mkdir(parents=True)
        shutil.copy(corpora / relative, folder / celex / f"{lang}.html")
    monkeypatch.setenv("PINCITE_MIRROR", str(folder))
    return folder


@pytest.fixture
def pdfs(tmp_path):
    return {"rulebook": rulebook_pdf(tmp_path / "FC Module.pdf"), "handbook": paged_pdf(tmp_path / "handbook.pdf"),
            "scan": scanned_pdf(tmp_path / "scan.pdf")}


@pytest.mark.parametrize("name, celex, articles, recitals", [
    ("dsa", "32022R2065", 93, 156), ("dma", "32022R1925", 54, 109), ("data-act", "32023R2854", 50, 120),
    ("dga", "32022R0868", 38, 63), ("cra", "32024R2847", 71, 130)])
def test_named_eu_acts_build_with_their_shape(mirrored_home, name, celex, articles, recitals):
    added = add_act(celex, "en", load_settings())
    counts = added.info.counts
    assert (added.spec.name, added.new, counts["articles"], counts["recitals"]) == (name, False, articles, recitals)


def test_a_new_act_is_registered_under_its_name_and_found_later(home, mirror):
    added = add_act("32022R2554", "da", load_settings(), name="dora")
    assert (added.new, added.info.counts["articles"]) == (True, 64)
    spec = corpus_spec("dora", load_settings())
    assert (spec.celex, spec.eli) == ("32022R2554", "http://data.europa.eu/eli/reg/2022/2554/oj")
    assert corpus_spec("32022R2554", load_settings()).name == "dora"


def test_adding_an_act_again_is_not_an_error(home, mirror):
    add_act("32022R2554", "da", load_settings(), name="dora")
    again = add_act("32022R2554", "da", load_settings())
    assert (again.spec.name, again.new, list(registered(home))) == ("dora", False, ["dora"])


def test_a_consolidated_version_is_its_own_corpus(home, mirror):
    added = add_act("32016R0679", "en", load_settings(), consolidated="2016-05-04", name="gdpr-2016")
    assert (added.spec.celex, added.info.version, added.info.counts["enacting"]) == (
        "02016R0679-20160504", "Consolidated text 04.05.2016", 414)


def test_an_act_known_under_a_name_cannot_take_another(home, mirror):
    with pytest.raises(ConfigError, match="32022R2065 is already known as dsa — use that name"):
        add_act("32022R2065", "en", load_settings(), name="digital-services")


def test_a_taken_name_is_refused(home, mirror):
    with pytest.raises(ConfigError, match="the name 'gdpr' is taken"):
        add_act("32022R2554", "da", load_settings(), name="gdpr")


def test_a_bad_celex_says_what_one_looks_like(home):
    with pytest.raises(ConfigError, match="'2022/2065' is not a CELEX number — use one like 32022R2065"):
        add_act("2022/2065", "en", load_settings())


def test_a_failed_add_registers_nothing(home, mirror):
    with pytest.raises(SourceError, match="is not in the mirror"):
        add_act("32019R1150", "en", load_settings())
    assert registered(home) == {} and not list(home.rglob("*.jsonl"))


def test_a_rulebook_pdf_is_recognised_and_cited_by_rule(home, pdfs):
    added = add_pdf(pdfs["rulebook"], load_settings(), name="fc")
    assert (added.spec.format, added.spec.document, added.info.counts["rules"]) == ("rulebook", "FC-Module.pdf", 7)
    assert corpus_spec("fc", load_settings()).rule_pattern


def test_a_plain_pdf_is_cited_by_page(home, pdfs):
    added = add_pdf(pdfs["handbook"], load_settings())
    assert (added.spec.name, added.spec.format, added.info.counts["pages"]) == ("handbook", "pages", 6)


def test_a_rulebook_can_be_read_by_page_on_request(home, pdfs):
    added = add_pdf(pdfs["rulebook"], load_settings(), name="fc-pages", structure="pages")
    assert added.spec.format == "pages"


def test_adding_the_same_pdf_again_is_not_an_error(home, pdfs):
    add_pdf(pdfs["handbook"], load_settings())
    assert add_pdf(pdfs["handbook"], load_settings()).info.counts["pages"] == 6


def test_a_scanned_pdf_is_refused_and_nothing_is_written(home, pdfs):
    with pytest.raises(ParseError, match="has no text layer"):
        add_pdf(pdfs["scan"], load_settings())
    assert not home.exists() or not [p for p in home.rglob("*") if p.is_file() and p.name != ".lock"]  # the lock is no data


def test_a_file_that_is_no_pdf_is_refused(home, tmp_path):
    fake = tmp_path / "notes.pdf"
    fake.write_text("just text", encoding="utf-8")
    with pytest.raises(SourceError, match="is not a PDF"):
        add_pdf(fake, load_settings())


def test_a_missing_file_says_so(home, tmp_path):
    with pytest.raises(SourceError, match="does not exist — check the path"):
        add_pdf(tmp_path / "nowhere.pdf", load_settings())


def test_search_across_instruments_labels_each_hit(home, pdfs, monkeypatch):
    from pincite.service import Pincite

    monkeypatch.setenv("PINCITE_EMBED_MODEL_PATH", str(need_shared(MODEL)))
    pincite = Pincite(load_settings())
    pincite.add_pdf(pdfs["rulebook"], name="fc")
    pincite.add_pdf(pdfs["handbook"])
    hits = pincite.search_document("How long is CCTV footage kept?", corpus=["fc", "handbook"], k=4)["hits"]
    assert (hits[0]["corpus"], hits[0]["label"]) == ("handbook", "handbook.pdf, p. 2")
    named = pincite.search_document("What does FC-1.1.2 require?", corpus=["handbook", "fc"], k=4)["hits"]
    assert named[0]["citation"] == "fc FC-1.1.2" and named[0]["score"] is None
    assert [h["label"] for h in named].count("FC-1.1.2") == 1 and set(RULE_IDS) >= {
        h["label"] for h in named if h["corpus"] == "fc"}
