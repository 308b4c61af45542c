"""The language packs: what pincite knows of a language lives in `pincite/languages/`, and the stages that
read the packs hold none of those words themselves. A stage not yet moved to the packs is listed here by the
names that still hold words (issue 35's later slices empty these lists)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pincite import languages
from pincite.retrieve.cues import question_parts
from pincite.retrieve.query import analyse

SRC = Path(languages.__file__).parent.parent

# Module → the assignments and functions that still hold a language's words (not yet in a pack).
MOVED = {
    "retrieve/cues.py": {"COMMON_ACRONYMS"},  # acronyms of several languages (AI, IA, KI, PME) in one list
    "retrieve/definitions.py": set(),
    "retrieve/follow.py": {"_naming"},  # _naming: a label's own style ('Annex XIII'), English in every language
    "verify/structure.py": set(),
    "verify/untrusted.py": {"instruction"},  # instruction: its reasons, English as every message is
    # Number words (English and Italian in one pattern, with its named groups) are not in packs yet.
    "verify/signals.py": {"_NUMBER_WORD", "_TIMES_VALUE"},
    "retrieve/query.py": {"_PHRASE_STOP",
                          "check_query"},  # check_query: an error message, English as every message is
}
_ESCAPE = re.compile(r"\\[A-Za-z]")
_WORD = re.compile(r"[^\W\d_]{3,}")


def _words(source: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_ESCAPE.sub(" ", source))}


def vocabulary() -> set[str]:
    """Every word the packs' patterns hold."""
    found: set[str] = set()
    for code in languages.CODES:
        for kind in ("QUESTION", "INTENTS", "HOPS", "ANSWER", "ACTS", "DEFINITION", "VERIFY", "STRUCTURE", "KINDS"):
            for source in languages.words(code, kind).values():
                found |= _words(source)
        for pair in languages.each("OPPOSITES").get(code, ()):
            found |= _words(" ".join(pair))
        for source in languages.each("ACTORS").get(code, {}).values():
            found |= _words(source)
        injection = languages.each("INJECTION").get(code)
        if injection is not None:
            found |= _words(" ".join(v for v in vars(injection).values() if isinstance(v, str)))
    for source in languages.sequence("DEFINITION_FRAMES"):
        found |= _words(source)
    return found


def _strings(tree: ast.Module, kept: set[str]):
    """The string constants of a module outside docstrings, f-strings (messages, patterns assembled from
    the packs), names (a cue's name, an answer type: 'asks_number', 'definition') and the names still kept."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node) is not None:
            skip.add(id(node.body[0].value))  # type: ignore[attr-defined]
        names = []
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.AnnAssign,)) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, ast.FunctionDef):
            names = [node.name]
        if set(names) & kept:
            skip |= {id(n) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                and not node.value.isidentifier()):
            yield node.lineno, node.value


@pytest.mark.parametrize("module", sorted(MOVED))
def test_a_stage_moved_to_the_packs_holds_no_language_words(module):
    vocab = vocabulary()
    tree = ast.parse((SRC / module).read_text())
    found = [(line, sorted(_words(text) & vocab)) for line, text in _strings(tree, MOVED[module])]
    assert [f for f in found if f[1]] == []


def test_the_guard_sees_a_word_written_outside_a_pack(tmp_path):
    # The check itself: a cue word written in a stage is found.
    tree = ast.parse('_CUE = re.compile(r"\\bhow\\s+many\\b")\n')
    assert [sorted(_words(t) & vocabulary()) for _, t in _strings(tree, set())] == [["how", "many"]]


def test_every_pack_is_loaded_and_each_cue_is_one_pattern_over_all_languages():
    assert [languages.pack(code).__name__ for code in languages.CODES] == [
        f"pincite.languages.{code}" for code in languages.CODES]
    assert languages.pack("de") is None
    number = languages.cue("asks_number")
    assert number.search("How many days?") and number.search("Quanti giorni?") and number.search("Combien d'amendes ?")
    assert not languages.cue("no such cue").search("anything")


@pytest.mark.parametrize(("question", "lang", "hops"), [
    ("What fine applies if we do not notify?", "en", ("penalty",)),
    ("Quale sanzione si applica?", "it", ("penalty",)),
    ("Quelle amende s'applique ?", "fr", ("penalty",)),
    ("บริษัทต้องถูกปรับเท่าไร", "th", ("penalty",)),
])
def test_a_question_in_any_language_is_read_by_its_pack(question, lang, hops):
    assert analyse(question, lang).hops == hops


def test_a_second_ask_is_joined_by_the_words_of_its_own_language():
    assert question_parts("Chi deve nominare un responsabile e quando?") == 2
    assert question_parts("Qui doit désigner un délégué et quand ?") == 2
    assert question_parts("Who must appoint an officer and when?") == 2


@pytest.mark.parametrize(("question", "asks"), [
    # the latest notification, a fine imposed last year, what a court has ruled: facts no statute holds
    ("ประกาศคณะกรรมการเรื่องมาตรการรักษาความมั่นคงปลอดภัยฉบับล่าสุดกำหนดอะไร", "about now"),
    ("บริษัทถูกสั่งปรับไปเท่าไรเมื่อปีที่แล้ว", "about a past event"),
    ("ศาลฎีกาเคยตัดสินคดีละเมิดข้อมูลส่วนบุคคลว่าอย่างไร", "about a past event"),
    # 'เคย' (once, used to) and 'ตอนนี้' (now) tell the facts of a case; 'เป็นปัจจุบัน' is 'up to date'
    ("ฉันเคยกดยินยอมให้แอปใช้ข้อมูลของฉัน ตอนนี้อยากยกเลิกความยินยอมนั้น ทำได้หรือไม่", None),
    ("ผู้ควบคุมข้อมูลมีหน้าที่ดูแลให้ข้อมูลส่วนบุคคลถูกต้อง เป็นปัจจุบัน และสมบูรณ์หรือไม่", None),
])
def test_the_thai_pack_says_when_a_question_asks_for_facts_of_the_world(question, asks):
    found = analyse(question, "th").outside_law
    assert (found.split(" (")[0] if found else None) == asks
