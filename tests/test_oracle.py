"""Our parse of DORA (Danish) against eurlex-unit-parser's English units (docs/dora-oracle.md)."""

from __future__ import annotations

import json

import dora_oracle as oracle
import pytest
from dora_oracle import Unit, compare_with_oracle, label, numbers, oracle_units

from pincite.provisions import Provision
from tests.conftest import CORPORA, need_shared

ORACLE = CORPORA / "eurlex-unit-parser-oracle" / "examples" / "DORA.json"
SOURCE = CORPORA / "eurlex-extra" / "da" / "32022R2554.dora.da.html"

# Matched units whose digits differ, each a translation difference, not a parsing one:
# English writes "first paragraph", "every 3 years", "6 weeks", "Article 39(1) and (2)" where
# Danish writes "stk. 1", "hvert tredje år", "seks uger", "artikel 39, stk. 1, og artikel 39,
# stk. 2"; the Danish Article 15 keeps a drafting placeholder "[12 måneder efter …]".
DIGITS_DIFFER = {
    "paragraph": {"Article 15", "Article 19(4)", "Article 19(6)", "Article 20", "Article 26(1)",
                  "Article 31(5)", "Article 36(1)", "Article 58(2)"},
    "subparagraph": {"Article 15, subparagraph 3", "Article 15, subparagraph 4",
                     "Article 20, subparagraph 2", "Article 20, subparagraph 3",
                     "Article 20, subparagraph 4", "Article 58(2), subparagraph 2"},
    "point": {"Article 19(6)(d)", "Article 36(1)(b)"},
    "definition": set(),
    "recital": set(),
}


@pytest.fixture(scope="module")
def report() -> dict:
    need_shared(ORACLE)
    need_shared(SOURCE)
    return compare_with_oracle(ORACLE, SOURCE, "da")


@pytest.mark.parametrize("kind, count", [("article", 64), ("subparagraph", 95), ("definition", 65),
                                         ("recital", 106)])
def test_units_agree_one_for_one(report, kind, count):
    r = report[kind]
    assert (r["oracle"], r["ours"], r["matched"]) == (count, count, count)


def test_every_paragraph_matches_but_the_definitions_lead_in(report):
    # The oracle's art-3.par-1 is the lead-in "For the purposes of this Regulation, …"; we split
    # Article 3 into its 65 definitions and the lead-in belongs to none of them.
    r = report["paragraph"]
    assert (r["oracle"], r["ours"], r["matched"]) == (267, 266, 266)
    assert (r["only_oracle"], r["only_ours"]) == (["Article 3"], [])


def test_every_oracle_point_is_ours_and_ours_extra_are_its_unlabelled_quoted_blocks(report):
    # Quoted replacement paragraphs ("»3. En CCP …") in Articles 60-62 are points "3" to us and
    # unlabelled div-N blocks to the oracle, one for one.
    r = report["point"]
    assert r["recall"] == 1.0 and r["only_oracle"] == []
    assert len(r["only_ours"]) == report["not_compared"]["unlabelled block (div-N)"] == 13
    assert {x.split(",")[0] for x in r["only_ours"]} == {"Article 60", "Article 61", "Article 62"}


def test_digits_of_matched_units_agree_except_known_translation_differences(report):
    floors = {"paragraph": 0.96, "subparagraph": 0.92, "point": 0.99, "definition": 1.0, "recital": 1.0}
    for kind, floor in floors.items():
        r = report[kind]
        assert r["numbers_agree"] / r["matched"] >= floor, kind
        assert {d["unit"] for d in r["numbers_differ"]} == DIGITS_DIFFER[kind], kind


def test_module_prints_the_table_and_json(report, capsys, monkeypatch):
    monkeypatch.setattr(oracle, "compare_with_oracle", lambda *args: report)  # parsed once is enough
    assert oracle.main([]) == 0
    assert "| point | 381 | 394 | 381 | 0 | 13 | 379/381 |" in capsys.readouterr().out
    assert oracle.main(["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["article"]["matched"] == 64


def test_module_names_the_missing_shared_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(oracle, "ORACLE_JSON", tmp_path / "DORA.json")
    assert oracle.main([]) == 1
    assert capsys.readouterr().err.startswith(f"error: {tmp_path / 'DORA.json'} not found")


# --- the key derivation, on made-up input (runs without ../shared) -----------------------


def _provision(label: str, kind: str, text: str) -> Provision:
    return Provision(id="x", label=label, label_local=label, kind=kind, instrument="dora", lang="da",
                     title="", path=[], text=text, url="", source_sha256="", version="")


def _keys(units: list[Unit], kind: str) -> list[str]:
    return [label(kind, u.key) for u in units if u.kind == kind]


def test_points_and_subparagraphs_come_from_the_text_layout():
    text = ("2. Ledelsesorganet fastlægger rammerne.\nMed henblik på første afsnit skal det:\n"
            "a) have ansvaret\nb) underrettes om følgende:\n  i) ordninger\n  ii) ændringer, når:\n"
            "    — det første\n    — det andet\n  »3. En CCP opretholder …«\nDet tredje afsnit.")
    units = oracle.our_units([_provision("Article 5(2)", "paragraph", text)])
    assert _keys(units, "point") == [
        "Article 5(2)(a)", "Article 5(2)(b)", "Article 5(2)(b)(i)", "Article 5(2)(b)(ii)",
        "Article 5(2)(b)(ii)(—)", "Article 5(2)(b)(ii)(—#2)", "Article 5(2)(b)(3)"]
    assert _keys(units, "subparagraph") == ["Article 5(2), subparagraph 2", "Article 5(2), subparagraph 3"]
    assert _keys(units, "article") == ["Article 5"]


def test_definitions_are_points_of_the_unnumbered_body():
    units = oracle.our_units([_provision("Article 3(7)", "definition", "7) »x«: y, jf. artikel 6, nr. 1)")])
    assert [(u.kind, u.key) for u in units] == [("definition", ("3", None, "7")), ("article", ("3",))]


def test_oracle_ids_map_to_the_same_keys():
    def unit(uid: str, kind: str, **extra) -> dict:
        parent = uid.rsplit(".", 1)[0] if "." in uid else None
        return {"id": uid, "type": kind, "text": uid, "parent_id": parent, "paragraph_number": None, **extra}

    data = {"units": [
        unit("art-3", "article"), unit("art-3.par-1", "paragraph"),
        unit("art-3.par-1.pt-7", "point", article_heading="Definitions"),
        unit("art-5", "article"), unit("art-5.par-2", "paragraph", paragraph_number="2"),
        unit("art-5.par-2.subpar-1", "subparagraph", subparagraph_index=1),
        unit("art-5.par-2.subpar-1.pt-b", "point"),
        unit("art-5.par-2.subpar-1.pt-b.sub-ii", "subpoint"),
        unit("art-5.par-2.subpar-1.pt-b.sub-ii.subsub-—_1", "subsubpoint"),
        unit("art-5.par-2.subpar-1.pt-b.cont-1", "subpoint"),
    ]}
    got = [(u.kind, u.key) for u in oracle_units(data)]
    assert got == [
        ("article", ("3",)), ("paragraph", ("3", None)), ("definition", ("3", None, "7")),
        ("article", ("5",)), ("paragraph", ("5", "2")), ("subparagraph", ("5", "2", "2")),
        ("point", ("5", "2", "b")), ("point", ("5", "2", "b", "ii")),
        ("point", ("5", "2", "b", "ii", "—")),
    ]


def test_numbers_ignore_labels_and_translation_of_references():
    english = "(b) as in Article 6(8), point (b), of Regulation (EU) No 1093/2010, by 17 January 2024;"
    danish = "b) som i artikel 6, stk. 8, litra b), i forordning (EU) nr. 1093/2010, den 17. januar 2024"
    assert numbers(english) == numbers(danish)
    assert numbers("‘3. A CCP shall") == numbers("»3. En CCP skal") == numbers("")
