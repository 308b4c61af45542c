"""The corpus stage on the real EUR-Lex files in ../shared/corpora, read through the mirror."""

from __future__ import annotations

import hashlib
import json

import pytest

from pincite.corpus import build as corpus
from pincite.corpus.checks import check_parse, corpus_counts
from pincite.corpus.formats.eurlex import parse_eurlex
from pincite.corpus.result import Act
from pincite.errors import NotFoundError, ParseError, SourceError
from pincite.settings import load_settings

EXPECTED = {
    ("gdpr", "en"): dict(enacting=414, definitions=26, recitals=173, articles=99, annexes=0),
    ("gdpr", "it"): dict(enacting=414, definitions=26, recitals=173, articles=99, annexes=0),
    ("ai-act", "en"): dict(articles=113, annexes=13, recitals=180, definitions=68),
    ("ai-act", "it"): dict(articles=113, annexes=13, recitals=180, definitions=68),
    ("ai-act", "fr"): dict(articles=113, annexes=13, recitals=180, definitions=68),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Build each corpus once for the module (parsing the AI Act takes a second)."""
    from tests.conftest import CORPORA, need_shared

    need_shared(CORPORA)
    settings = load_settings(home=tmp_path_factory.mktemp("home"), mirror=CORPORA)
    cache = {}

    def get(name: str, lang: str):
        if (name, lang) not in cache:
            info = corpus.build_corpus(name, lang, settings)
            cache[(name, lang)] = (info, corpus.load_provisions(name, lang, settings))
        return cache[(name, lang)]

    get.settings = settings
    return get


@pytest.mark.parametrize("name,lang", list(EXPECTED))
def test_counts_match_the_expected_shape(built, name, lang):
    info, _ = built(name, lang)
    assert {k: info.counts[k] for k in EXPECTED[(name, lang)]} == EXPECTED[(name, lang)]


def test_gdpr_has_389_paragraphs_and_unnumbered_articles_before_definitions_split(built):
    info, _ = built("gdpr", "en")
    c = info.counts
    assert c["paragraphs"] + c["unnumbered_articles"] + 1 == 389


def label(provisions, wanted):
    return next(p for p in provisions if p.label == wanted)


def test_closing_article_ends_at_its_last_sentence(built):
    _, provisions = built("gdpr", "en")
    assert label(provisions, "Article 99(2)").text == "2. It shall apply from 25 May 2018."


@pytest.mark.parametrize("definition", ["Article 4(16)", "Article 4(22)", "Article 4(23)"])
def test_nested_definitions_keep_both_limbs(built, definition):
    _, provisions = built("gdpr", "en")
    text = label(provisions, definition).text
    limbs = [line.strip()[:3] for line in text.splitlines()[2:]]  # after lead-in and definition
    assert limbs[:2] == ["(a)", "(b)"] and text.rstrip()[-1] in ";."


def test_gdpr_4_23_b_keeps_its_full_text(built):
    _, provisions = built("gdpr", "en")
    text = label(provisions, "Article 4(23)").text
    assert "substantially affects or is likely to substantially affect data subjects in more than one Member State" in text


def test_superscript_keeps_its_meaning(built):
    _, provisions = built("ai-act", "en")
    assert "greater than 10^25." in label(provisions, "Article 51(2)").text


@pytest.mark.parametrize("name,lang", list(EXPECTED))
def test_no_footnote_calls_or_no_break_spaces_in_text(built, name, lang):
    _, provisions = built(name, lang)
    assert [p.label for p in provisions if "\u00a0" in p.text or "(^" in p.text] == []


def test_italian_labels_in_the_language_style(built):
    _, provisions = built("gdpr", "it")
    p = label(provisions, "Article 33(1)")
    assert (p.label_local, p.title) == ("Articolo 33, paragrafo 1", "Notifica di una violazione dei dati personali all'autorità di controllo")


def test_provision_fields_follow_the_design(built):
    info, provisions = built("gdpr", "en")
    p = label(provisions, "Article 33(1)")
    assert (p.id, p.kind, p.path, p.version) == ("gdpr/en/art-33.par-1", "paragraph", ["Chapter IV", "Section 2"], "OJ L 119, 4.5.2016")
    assert p.url.endswith("uri=CELEX:32016R0679#033.001")
    assert p.source_sha256 == info.source_sha256


def test_ai_act_version_is_the_new_oj_reference(built):
    info, _ = built("ai-act", "en")
    assert info.version == "OJ L, 2024/1689, 12.7.2024"


def test_annex_items_carry_the_annex_title(built):
    _, provisions = built("ai-act", "en")
    p = label(provisions, "Annex III, point 4")
    assert p.title == "High-risk AI systems referred to in Article 6(2)" and "Employment" in p.text


def test_rebuild_from_the_same_bytes_is_byte_identical(built, tmp_path):
    info, _ = built("gdpr", "en")
    first = info.path.read_bytes()
    corpus.build_corpus("gdpr", "en", built.settings, out=tmp_path / "again.jsonl")
    assert hashlib.sha256((tmp_path / "again.jsonl").read_bytes()).hexdigest() == hashlib.sha256(first).hexdigest()


def test_check_reparses_offline_and_reports_identical(built):
    built("gdpr", "en")
    ok, message = corpus.check_corpus("gdpr", "en", built.settings)
    assert ok, message


def test_check_notices_a_tampered_corpus(built, tmp_path):
    settings = load_settings(home=tmp_path / "h", mirror=built.settings.mirror)
    info = corpus.build_corpus("gdpr", "en", settings)
    lines = info.path.read_text(encoding="utf-8").splitlines(keepends=True)
    row = json.loads(lines[200])
    row["text"] = row["text"][:20]
    lines[200] = json.dumps(row, ensure_ascii=False) + "\n"
    info.path.write_text("".join(lines), encoding="utf-8")
    ok, message = corpus.check_corpus("gdpr", "en", settings)
    assert not ok and "1 changed" in message


def test_jsonl_lines_carry_the_design_keys(built):
    info, _ = built("gdpr", "en")
    first = json.loads(info.path.read_text(encoding="utf-8").splitlines()[0])
    assert {"id", "label", "label_local", "kind", "instrument", "lang", "title", "path", "text", "url",
            "source_sha256", "version"} <= set(first)


def test_find_article_gives_its_paragraphs(built):
    _, provisions = built("gdpr", "en")
    assert [p.label for p in corpus.find_provisions(provisions, "Art. 33")] == [
        "Article 33(1)", "Article 33(2)", "Article 33(3)", "Article 33(4)", "Article 33(5)"]


def test_find_point_gives_its_paragraph(built):
    _, provisions = built("gdpr", "en")
    assert [p.label for p in corpus.find_provisions(provisions, "Article 5(1)(f)")] == ["Article 5(1)"]


def test_find_does_not_confuse_article_6_with_60(built):
    _, provisions = built("gdpr", "en")
    assert {p.label.split("(")[0] for p in corpus.find_provisions(provisions, "Article 6")} == {"Article 6"}


EXTRA = [
    "32022R2065/en.html", "32022R1925/en.html", "32023R2854/en.html", "32022R0868/en.html", "32024R2847/en.html",
    "eurlex-extra/32022R2065.dsa.en.cellar.xhtml", "eurlex-extra/32022R1925.dma.en.cellar.xhtml",
    "eurlex-extra/32023R2854.data-act.en.cellar.xhtml", "eurlex-extra/32022R0868.dga.en.html",
    "eurlex-extra/32024R2847.cra.en.html", "eurlex-extra/da/32022R2554.dora.da.html",
    "eurlex-extra/da/32022L2555.nis2.da.html", "eurlex-extra/da/32024R2690.nis2-cir.da.html",
    "eurlex-extra/da/32024R1366.eucs-dr.da.html", "eurlex-extra/da/32025R1272.elan.da.html",
    "eurlex-extra/da/32025R1420.reg-sandkasser.da.html", "eurlex-extra/da/32025R2540.eucs-cir.da.html",
    "eurlex-extra/da/32025R2653.rearm-europe.da.html", "eurlex-extra/da/32023R2854.data-act.da.html",
    "eurlex-extra/da/32024R2847.cra.da.html", "ai-act/nl.html", "ai-act/da.html", "ai-act/en.cellar.xhtml",
    "gdpr/en.cellar.xhtml", "gdpr/da.cellar.html",
]


@pytest.mark.parametrize("relpath", EXTRA)
def test_other_eurlex_acts_parse_with_checks_passing(corpora, relpath):
    data = (corpora / relpath).read_bytes()
    lang = "da" if "/da" in relpath or relpath.endswith("da.html") else relpath.split("/")[-1][:2]
    result = parse_eurlex(data, Act("x", lang, "X", "https://eur-lex.example", hashlib.sha256(data).hexdigest()))
    check_parse(result)
    counts = corpus_counts(result.provisions)
    assert counts["articles"] == result.article_count > 0 and counts["recitals"] == result.recital_count


def test_unknown_corpus_is_a_clear_error(mirrored_home):
    with pytest.raises(NotFoundError, match="unknown corpus 'gpdr' — use one of"):
        corpus.build_corpus("gpdr", "en", load_settings())


def test_unknown_language_is_a_clear_error(mirrored_home):
    with pytest.raises(NotFoundError, match="no language 'xx'"):
        corpus.build_corpus("gdpr", "xx", load_settings())


def test_corrupt_source_writes_nothing(home, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    (mirror / "gdpr").mkdir(parents=True)
    # Looks like an act to the fetcher, but its articles are gone.
    (mirror / "gdpr" / "en.html").write_bytes(
        b'<html><body><div class="eli-container"><p class="oj-doc-ti">X</p></div></body></html>')
    monkeypatch.setenv("PINCITE_MIRROR", str(mirror))
    with pytest.raises((ParseError, SourceError)):
        corpus.build_corpus("gdpr", "en", load_settings())
    assert not (home / "corpora").exists() or not any((home / "corpora").rglob("*.jsonl"))


def test_a_corpus_written_by_an_older_parser_is_rebuilt_on_first_use(built, tmp_path):
    """A corpus built before references were extracted has no `refs`: it is built again from
    the cached source when next loaded, not read as if it were current."""
    settings = load_settings(home=tmp_path / "h", mirror=built.settings.mirror)
    info = corpus.build_corpus("gdpr", "en", settings)
    rows = [json.loads(line) for line in info.path.read_text(encoding="utf-8").splitlines()]
    assert any(row["refs"] for row in rows)
    info.path.write_text("".join(json.dumps({**row, "refs": []}, ensure_ascii=False) + "\n" for row in rows),
                         encoding="utf-8")
    meta = info.path.with_name("en.meta.json")
    old = json.loads(meta.read_text(encoding="utf-8"))
    del old["format"]
    meta.write_text(json.dumps(old), encoding="utf-8")
    assert corpus.corpus_info("gdpr", "en", settings) is None
    provisions = corpus.load_provisions("gdpr", "en", settings)
    assert sum(len(p.refs) for p in provisions) == sum(len(r["refs"]) for r in rows) > 0
    assert corpus.corpus_info("gdpr", "en", settings).format == corpus.CORPUS_FORMAT
