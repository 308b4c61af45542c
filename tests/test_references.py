"""References found in provision text and resolved against the corpus (the reference graph's edges)."""

from __future__ import annotations

from pincite.citations.references import with_references
from pincite.provisions import Provision


def prov(label: str, text: str, path: list[str] | None = None, kind: str = "paragraph") -> Provision:
    number = label.split()[1].split("(")[0]
    pid = "t/en/art-" + number + (".par-" + label.split("(")[1].rstrip(")") if "(" in label else "")
    return Provision(id=pid, label=label, label_local=label, kind=kind, instrument="t", lang="en", title="T",
                     path=path or ["Chapter I"], text=text, url="u", source_sha256="s", version="v")


CORPUS = [
    prov("Article 6(1)", "1. Processing shall be lawful only if: (a) consent; (b) contract."),
    prov("Article 6(2)", "2. Member States may maintain rules to adapt the application of paragraph 1."),
    prov("Article 8(1)", "1. Where point (a) of Article 6(1) applies, the age is 16.", ["Chapter II"]),
    prov("Article 9(1)", "1. Special categories are prohibited.", ["Chapter II"]),
    prov("Article 83(4)", "4. Infringements of Articles 8 and 9 and of Chapter II, and of Article 4 of "
                          "Directive 95/46/EC, and Regulation (EU) 2019/1020, are fined.", ["Chapter VIII"]),
    prov("Article 40(1)", "1. Codes of conduct shall be drawn up.", ["Chapter IV"]),
    prov("Article 99", "This Regulation shall apply from 2 May. However, Chapters I and II shall apply from 2 "
                       "February, and Chapters III to V from 2 August.", ["Chapter XI"], kind="article"),
]


def refs(label: str) -> list[tuple]:
    p = next(p for p in with_references(CORPUS, "2016/679")[0] if p.label == label)
    return [(r["label"], r["target"], r["external"], r["act"]) for r in p.refs]


def test_a_list_of_articles_gives_one_edge_per_article():
    assert ("Article 8", "t/en/art-8.par-1", False, "") in refs("Article 83(4)")
    assert ("Article 9", "t/en/art-9.par-1", False, "") in refs("Article 83(4)")


def test_another_acts_article_is_an_external_edge_with_its_number():
    assert ("Article 4", None, True, "1995/46") in refs("Article 83(4)")
    assert ("Regulation (EU) 2019/1020", None, True, "2019/1020") in refs("Article 83(4)")


def test_a_chapter_reference_reaches_each_of_its_articles():
    chapter = {(label, target) for label, target, _, _ in refs("Article 83(4)") if target}
    assert {("Article 8", "t/en/art-8.par-1"), ("Article 9", "t/en/art-9.par-1")} <= chapter


def test_chapters_listed_or_in_a_range_reach_each_of_their_articles():
    targets = {target for _, target, _, _ in refs("Article 99") if target}
    # Chapter I (6(1), 6(2)), Chapter II (8, 9), Chapter IV inside the range III to V (40); not Chapter VIII.
    assert targets == {"t/en/art-6.par-1", "t/en/art-8.par-1", "t/en/art-9.par-1", "t/en/art-40.par-1"}


def test_a_point_of_a_paragraph_is_resolved_to_its_paragraph():
    assert refs("Article 8(1)") == [("Article 6(1)(a)", "t/en/art-6.par-1", False, "")]


def test_a_relative_paragraph_reference_points_inside_its_own_article_and_never_at_itself():
    assert refs("Article 6(2)") == [("Article 6(1)", "t/en/art-6.par-1", False, "")]
    assert refs("Article 6(1)") == []


# -- the checks that refuse a misread graph -------------------------------------------------

import pytest  # noqa: E402

from pincite.corpus.checks import check_graph, check_penalties  # noqa: E402
from pincite.errors import CorpusCheckError  # noqa: E402


def test_a_provision_citing_itself_is_refused():
    looped = [p if p.label != "Article 6(2)" else
              Provision(**{**p.__dict__, "refs": [{"label": "Article 6(2)", "target": p.id, "words": "paragraph 2",
                                                   "external": False, "act": ""}]}) for p in CORPUS]
    with pytest.raises(CorpusCheckError, match="cites itself"):
        check_graph(looped, [])


def test_many_references_to_provisions_that_do_not_exist_are_refused():
    provisions, _ = with_references(CORPUS, "2016/679")
    with pytest.raises(CorpusCheckError, match="5 references name provisions this corpus does not have"):
        check_graph(provisions, [("t/en/art-6.par-1", f"Article {n}") for n in range(200, 205)])


def test_far_fewer_references_than_mentions_is_refused():
    mentions = [prov(f"Article {n}(1)", f"1. As Article {n + 1} and Article {n + 2} say.") for n in range(10, 40)]
    with pytest.raises(CorpusCheckError, match="only 0 references found for 60 mentions"):
        check_graph(mentions, [])


def section(number: int, text: str, chapter: str = "หมวด 2", title: str = "การเก็บรวบรวม") -> Provision:
    return Provision(id=f"pdpa/th/sec-{number}", label=f"Section {number}", label_local=f"มาตรา {number}",
                     kind="section", instrument="pdpa", lang="th", title="", path=[chapter], text=text, url="u",
                     source_sha256="s", version="v", path_titles=[title])


def test_penalty_sections_must_reach_the_duties_they_punish():
    duty = section(26, "ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคล")
    penalties = [section(n, "ผู้ใดฝ่าฝืนมาตรา ๒๖ ต้องระวางโทษ" if n < 84 else "ต้องระวางโทษ", "หมวด 7", "บทกำหนดโทษ")
                 for n in range(79, 86)]
    with pytest.raises(CorpusCheckError, match="only 5 of 7 penalty sections reach the duty"):
        check_penalties(with_references([duty, *penalties])[0])
    check_penalties(with_references([duty, *penalties[:5]])[0])  # every one reaches Section 26: fine
