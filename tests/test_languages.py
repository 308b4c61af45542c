"""The language packs: what pincite knows of a language lives in `pincite/languages/`, and no module outside
the packs holds those words. Three checks, from strict to broad:

- a stage module (STAGES) holds no word of any pack in any string but its messages (listed by name);
- no module holds a pattern (a string given to `re`, or written in regex syntax) with a word of any pack;
- no module holds a word that only the other languages' packs hold (Italian, French, Danish, Thai), in any
  string but docstrings and messages.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pincite import languages
from pincite.retrieve.cues import question_parts
from pincite.retrieve.query import analyse

SRC = Path(languages.__file__).parent.parent
MODULES = sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py") if p.parent.name != "languages")

# A stage module → the assignments and functions whose strings are messages to the user (English, as every
# message is) or pincite's own label style ('Annex XIII', 'Section 26', written so in every language). Every
# module of a stage is held to the strict check but those that read no words (NOT_READING).
STAGES = {
    "answer/extractive.py": set(),
    "answer/gate.py": set(),
    "answer/pointers.py": {"cannot_contain"},
    "citations/grammar.py": {"_EXAMPLES", "_NUMBER_HELP", "_structure_problem", "_read_number", "_parse_headed",
                             "parse_label", "_extend"},
    "citations/references.py": set(),
    "corpus/checks.py": {"_check_text", "_check_definitions", "check_graph"},
    "corpus/formats/pdftext.py": set(),
    "corpus/formats/rulebook.py": set(),
    "corpus/formats/thai_statute.py": {"check_sections"},
    "corpus/formats/thai_text.py": set(),
    "index/build.py": {"_difference"},
    "index/vocabulary.py": set(),
    "retrieve/cues.py": set(),
    "retrieve/definitions.py": set(),
    "retrieve/follow.py": {"_naming"},
    "retrieve/hits.py": {"ASKED_WHY"},  # a hit's reason, shown to the user as the other reasons are (English)
    "retrieve/questions.py": {"STAGE"},  # the progress stage's name, shown as the index build's are
    "retrieve/query.py": {"check_query"},
    "retrieve/ranker.py": set(),
    "retrieve/search.py": set(),
    "verify/check.py": {"REASONS"},
    "verify/claims.py": {"Lookup", "verify", "check_claim"},
    "verify/signals.py": {"modal_verbs"},  # its classes' names ('permission prohibition'), not words read
    "verify/structure.py": set(),
    "verify/support.py": set(),
    "verify/untrusted.py": {"instruction"},
}
NOT_READING = {
    "answer/agent.py": "the model's prompts",
    "answer/generate.py": "the model's prompts",
    "verify/opinion.py": "the model's prompts",
    "answer/llm/__init__.py": "HTTP headers and messages",
    "answer/llm/base.py": "the provider's errors, as messages",
    "corpus/acts.py": "messages and the Official Journal's '(Text with EEA relevance)'",
    "corpus/formats/__init__.py": "messages",
    "corpus/formats/consolidated.py": "EUR-Lex's markup (class names, XPath)",
    "corpus/formats/eurlex.py": "EUR-Lex's markup (element ids, XPath)",
    "corpus/formats/markup.py": "EUR-Lex's markup (class names, XPath)",
    "index/embed.py": "file names of the model's weights",
    "retrieve/crossencoder.py": "file names of the model's weights",
    "index/store/postgres.py": "SQL and messages",
    "index/store/sqlite.py": "SQL and messages",
    "index/store/state.py": "SQL",
}
STAGE_MODULES = [m for m in MODULES if m.split("/")[0] in {"answer", "citations", "corpus", "index", "retrieve", "verify"}
                 and m not in NOT_READING]

# Module → the names whose strings the every-module checks pass over, and why.
KEPT = {
    "corpus/formats/eurlex.py": {"_ARTICLE_ID", "_DIVISION_ID"},  # EUR-Lex's element ids ('art_5', 'sub_2')
    "citations/grammar.py": {"_PAGE_TEXT"},  # file extensions ('.pdf', '.md'), not words
    "answer/agent.py": {"_LABEL"},  # the model's tool description, with an example of the act's own style
}
_ESCAPE = re.compile(r"\\[A-Za-z]")
_WORD = re.compile(r"[^\W\d_]{3,}")
_THAI_WORD = re.compile(r"[\u0e01-\u0e4e]{2,}")
# A string in regex syntax: an escape class, a group's flags, an alternation between words.
_PATTERN = re.compile(r"\\[bsdwSW]|\(\?[:=!<P#aiLmsux-]|\w\|\w")
# What a pattern holds that is no word: group names ('(?P<number>'), a verbose pattern's comments, a scheme.
_NOT_WORDS = re.compile(r"\(\?P[<=]\w+>?|#[^\n]*(?=\n)|\b[a-z]+://")
# What a string holds that is no word of another language: an English compound ('non-empty', 'two-letter'), a
# path or an id ('gdpr/en/art-33.par-1'); and SQL (a language, but not a natural one).
_COMPOUND_OR_PATH = re.compile(r"\S*/\S*|[^\W\d_]+-[\w-]+")
# Words of another language's pack that are English too, as pincite's names use them ('PHRASE_STOP', the
# label style 'chained', a group named 'par').
_ENGLISH_TOO = {"bare", "chained", "over", "par", "phrase", "relative", "usage"}
_SQL = re.compile(r"^\s*(?:CREATE|INSERT|SELECT|UPDATE|DELETE|DROP|ALTER|WITH)\b")
# Calls and keywords whose strings are messages to the user, not words a stage reads.
_MESSAGE_CALL = re.compile(r"(?:Error|Exception|Exit|echo|print|warn|warning|info|debug|_fail|_Bad|Option|Argument|"
                           r"Field|refused|Result)$")
_MESSAGE_KEYWORDS = {"help", "description", "detail", "message", "reason", "summary", "title"}


def _words(source: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_ESCAPE.sub(" ", source))}


def _values(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _values(v)]
    if isinstance(value, (tuple, list, set, frozenset)):
        return [s for v in value for s in _values(v)]
    return [s for v in vars(value).values() for s in _values(v)] if hasattr(value, "__dataclass_fields__") else []


def vocabulary(codes=languages.CODES) -> set[str]:
    """Every word the packs of `codes` hold, in every kind (a pack's attributes in capitals)."""
    found: set[str] = set()
    for code in codes:
        for name, value in vars(languages.pack(code)).items():
            if name.isupper():
                found |= {w for s in _values(value) for w in _words(s)}
    return found


def _skipped(tree: ast.Module, kept: set[str], fstrings: bool = True) -> set[int]:
    """The nodes a check passes over: docstrings, f-strings (messages, patterns assembled from the packs) unless
    told, messages (raised, or given to an error, an echo, a CLI option's help) and the names kept."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) or (fstrings and isinstance(node, ast.JoinedStr)):
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node) is not None:
            skip.add(id(node.body[0].value))  # type: ignore[attr-defined]
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if _MESSAGE_CALL.search(name):
                skip |= {id(n) for n in ast.walk(node)}
            skip |= {id(n) for kw in node.keywords if kw.arg in _MESSAGE_KEYWORDS for n in ast.walk(kw)}
        names = []
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        if set(names) & kept:
            skip |= {id(n) for n in ast.walk(node)}
    return skip


def _strings(tree: ast.Module, kept: set[str] = frozenset(), names: bool = True):  # type: ignore[assignment]
    """The string constants a check reads: outside what `_skipped` passes over, and, unless told, not a name
    (a cue's name, an answer type, a key: 'asks_number', 'definition'; English, as pincite's names are)."""
    skip = _skipped(tree, kept)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                and not (names and node.value.isidentifier())):
            yield node.lineno, _NOT_WORDS.sub(" ", node.value)


def _patterns(tree: ast.Module, kept: set[str] = frozenset()):  # type: ignore[assignment]
    """The strings of a module that are regular expressions, the literal parts of f-strings included: given
    to `re`, or written in regex syntax; without group names and comments."""
    skip = _skipped(tree, kept, fstrings=False)
    given = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
            given |= {id(n) for arg in node.args[:1] for n in ast.walk(arg) if not isinstance(arg, ast.JoinedStr)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and not node.value.isidentifier()
                and id(node) not in skip and (id(node) in given or _PATTERN.search(node.value))):
            yield node.lineno, _NOT_WORDS.sub(" ", node.value)


def _tree(module: str) -> ast.Module:
    return ast.parse((SRC / module).read_text())


def test_every_module_named_is_one():
    assert set(STAGES) | set(NOT_READING) | set(KEPT) <= set(MODULES)
    assert not set(STAGES) & set(NOT_READING)


@pytest.mark.parametrize("module", STAGE_MODULES)
def test_a_stage_holds_no_language_words(module):
    vocab = vocabulary()
    found = [(line, sorted(_words(text) & vocab))
             for line, text in _strings(_tree(module), STAGES.get(module, set())) if not _SQL.match(text)]
    assert [f for f in found if f[1]] == []


@pytest.mark.parametrize("module", MODULES)
def test_no_module_holds_a_pattern_of_a_language_s_words(module):
    vocab = vocabulary()
    found = [(line, sorted(_words(text) & vocab)) for line, text in _patterns(_tree(module), KEPT.get(module, set()))]
    assert [f for f in found if f[1]] == []


@pytest.mark.parametrize("module", MODULES)
def test_no_module_holds_words_of_another_language_than_english(module):
    # English words are also the messages' and the SQL's; the other languages' words are only cues.
    foreign = vocabulary(tuple(c for c in languages.CODES if c != "en")) - vocabulary(("en",)) - _ENGLISH_TOO
    found = [(line, sorted(_words(_COMPOUND_OR_PATH.sub(" ", text)) & foreign) or _THAI_WORD.findall(text))
             for line, text in _strings(_tree(module), KEPT.get(module, set()), names=False) if not _SQL.match(text)]
    assert [f for f in found if f[1]] == []


def test_the_guard_sees_a_word_written_outside_a_pack(tmp_path):
    # The checks themselves: a cue word written in a stage is found as a string and as a pattern, an Italian
    # word in a plain list and a Thai heading too; the same words in a message are not.
    tree = ast.parse('_CUE = re.compile(r"how\\s+many")\n_IT = ("quanti", "giorni")\n_TH = "มาตรา"\n'
                     'raise ValueError("how many days? quanti giorni?")\n')
    assert [sorted(_words(t) & vocabulary()) for _, t in _strings(tree)] == [["how", "many"]]
    assert [sorted(_words(t) & vocabulary()) for _, t in _patterns(tree)] == [["how", "many"]]
    foreign = vocabulary(("it", "th")) - vocabulary(("en",))
    assert sorted(sorted(_words(t) & foreign) or _THAI_WORD.findall(t) for _, t in _strings(tree, names=False)) == [
        [], ["giorni"], ["quanti"], ["มาตรา"]]


def test_every_pack_is_loaded_and_each_cue_is_one_pattern_over_all_languages():
    assert [languages.pack(code).__name__ for code in languages.CODES] == [
        f"pincite.languages.{code}" for code in languages.CODES]
    assert languages.pack("sv") is None
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
