"""The question files in evals/ keep the evaluation contract (evals/README.md): unique ids, a split on
every question, the split of every second-wave question given by the hash rule rather than chosen, and
gold labels the citation grammar reads."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from pincite.citations import parse_label

EVALS = Path(__file__).resolve().parents[1] / "evals"
# The first wave's questions, used for tuning then: all dev (evals/README.md).
FIRST_WAVE = {"g": 93, "a": 100, "i": 28, "s": 22, "m": 22, "t": 21}
QUESTION_FILES = sorted(p for p in EVALS.glob("*.jsonl") if p.name != "verify-adversarial.jsonl")


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def hashed_split(key: str) -> str:
    return "dev" if int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 100 < 35 else "test"


def first_wave(path: Path, qid: str) -> bool:
    if path.name.startswith("pdpa-"):  # p001–p030 and pe001–pe030; the 2026-12-05 batch follows the hash rule
        return int(re.sub(r"\D", "", qid)) <= 30
    m = re.fullmatch(r"([a-z])(\d{3})", qid)
    return bool(m) and int(m.group(2)) <= FIRST_WAVE.get(m.group(1), 0)


@pytest.mark.parametrize("path", QUESTION_FILES, ids=lambda p: p.name)
def test_every_question_has_a_unique_id_a_split_and_gold_the_grammar_reads(path):
    questions = rows(path)
    ids = [q["id"] for q in questions]
    assert len(ids) == len(set(ids)), f"{path.name}: duplicate ids"
    for q in questions:
        assert q["split"] in ("dev", "test"), q["id"]
        assert q["question"].strip(), q["id"]
        if q["answerable"]:
            assert q["gold"], q["id"]
            for label in q["gold"] + q.get("gold_all", []):
                parse_label(label)  # raises CitationError on a label pincite could never cite
        if "gold_all" in q:
            assert q["gold"] == q["gold_all"], q["id"]


@pytest.mark.parametrize("path", QUESTION_FILES, ids=lambda p: p.name)
def test_the_split_of_every_later_question_follows_the_hash_rule(path):
    for q in rows(path):
        # an external set checks wording nothing was tuned on: all of it is test
        expected = "test" if path.name.startswith("external-") else \
            "dev" if first_wave(path, q["id"]) else hashed_split(q["id"])
        assert q["split"] == expected, f"{path.name} {q['id']}: split {q['split']}, the rule says {expected}"


def test_the_adversarial_sentences_of_one_provision_share_a_split():
    for s in rows(EVALS / "verify-adversarial.jsonl"):
        assert s["split"] == hashed_split(f"{s['corpus']}/{s['base']}"), s["id"]
