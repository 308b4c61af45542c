"""The progress callback's helpers: how a report reads, and how a stream of them is kept short."""

from __future__ import annotations

from pincite.progress import describe, report, stage_name, throttled


def heard_of(*reports: tuple[str, int, int | None]) -> list[tuple[str, int, int | None]]:
    heard = []
    passed_on = throttled(lambda *args: heard.append(args))
    for args in reports:
        passed_on(*args)
    return heard


def test_a_counted_stage_reads_done_of_total():
    assert describe("gdpr/en: embed", 256, 587) == "gdpr/en: embed 256/587"


def test_a_stage_without_a_count_is_its_name():
    assert describe("gdpr/en: parse", 0, None) == "gdpr/en: parse"


def test_a_stage_is_passed_on_once_until_its_count_moves_a_tenth():
    assert heard_of(("a: parse", 0, None), ("a: parse", 0, None), ("a: embed", 0, 100), ("a: embed", 5, 100),
                    ("a: embed", 10, 100), ("a: embed", 19, 100), ("a: embed", 100, 100)) == [
        ("a: parse", 0, None), ("a: embed", 0, 100), ("a: embed", 10, 100), ("a: embed", 100, 100)]


def test_a_new_stage_is_always_passed_on():
    assert heard_of(("a: write", 0, 5), ("a: embed", 0, 5), ("a: write", 0, 5)) == [
        ("a: write", 0, 5), ("a: embed", 0, 5), ("a: write", 0, 5)]


def test_report_names_the_corpus_and_needs_no_callback():
    heard = []
    report(lambda *args: heard.append(args), "gdpr/en", "fetch")
    report(None, "gdpr/en", "fetch")  # nobody listening: nothing happens
    assert heard == [("gdpr/en: fetch", 0, None)]


def test_a_stage_name_leaves_out_the_corpus():
    assert stage_name("gdpr/en: embed") == "embed"
