"""tools/constants_table.py: which constants it lists, with which why, and that docs/constants.md is current."""

from __future__ import annotations

import constants_table

KNOBS = '''"""A module of knobs."""
import re

# Chosen on the dev split: hit@1 0.56 against 0.50 at 20. The rest of the story.
DEPTH = 30
FLOOR = 0.7  # the gate's floor (test split, MRR 0.61)
PATTERN = re.compile(r"[a-z]+")  # a regex, not a tuning
DUTY_WORDS = ("shall", "must")
NUMERALS = {"one": 1, "two": 2}
WEIGHTS = {"en": 0.5, "it": -0.3}
SPAN = 2 * DEPTH
lower_case = 3
'''


def test_lists_numeric_constants_with_their_why(tmp_path):
    root = tmp_path / "pkg"
    (root / "retrieve").mkdir(parents=True)
    (root / "retrieve" / "knobs.py").write_text(KNOBS, encoding="utf-8")
    (root / "settings.py").write_text("TIMEOUT = 1.5\n", encoding="utf-8")

    rows = {c.name: c for c in constants_table.collect(root)}

    assert list(rows) == ["DEPTH", "FLOOR", "WEIGHTS", "SPAN", "TIMEOUT"]
    depth = rows["DEPTH"]
    assert (depth.stage, depth.module, depth.value) == ("retrieve", "pkg.retrieve.knobs", "30")
    assert depth.why == "Chosen on the dev split: hit@1 0.56 against 0.50 at 20."
    assert (depth.chosen_on, depth.moved) == ("dev", "hit@1 0.56")
    floor = rows["FLOOR"]
    assert floor.why == "the gate's floor (test split, MRR 0.61)"
    assert (floor.chosen_on, floor.moved) == ("test", "MRR 0.61")
    weights = rows["WEIGHTS"]
    assert (weights.value, weights.why, weights.chosen_on, weights.moved) == ('{"en": 0.5, "it": -0.3}', "", "", "")
    assert rows["SPAN"].value == "2 * DEPTH"
    assert (rows["TIMEOUT"].stage, rows["TIMEOUT"].module) == ("top-level", "pkg.settings")

    table = constants_table.render(list(rows.values()))
    assert "- constants: 5\n- with a why: 2\n- with a split: 2\n- with a figure: 2\n" in table
    assert table.index("## retrieve") < table.index("## top-level")


def test_docs_constants_is_current(capsys):
    """Fails while src/ comments change under it: regenerate with the command the message names."""
    assert constants_table.main(["--check"]) == 0, capsys.readouterr().err
