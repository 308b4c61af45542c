"""Readings of a sentence against the clause of the text it follows word for word.

A sentence that restates one clause of the provision nearly word for word, with one run of words changed, says what
the clause says except for that run: the run is read against the words the clause has in its place. An actor there
for another ('set by the gatekeeper' for 'set by the Commission'), the opposite time or bound ('before' for 'after'),
a duty's modal for a permission's, and a condition or an 'only' of the clause left out are what the global checks of
`pincite.verify.signals` miss when the other word is elsewhere in the provision.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from pincite import languages
from pincite.verify.signals import actors, clauses, word_prefixes
from pincite.verify.structure import OWN_CONDITION

# How closely a sentence must follow one clause of the text, word for word (difflib's ratio), for a word it puts where
# the clause has another to be read as a swap; and how many words such a swap may span on either side.
ALIGNED_MIN, SWAP_WORDS = 0.6, 4


def swapped_actor(sentence: str, text: str, lang: str, act: str = "") -> tuple[str, str] | None:
    """(the sentence's actor, the text's) when the sentence follows one clause of the text word for word but names
    another actor where the clause names one ('provide the Board with an opinion' for 'provide the Commission with
    an opinion'), and follows no clause that names its own."""
    for mine, theirs, others in _replaced(sentence, text):
        a, b = actors(mine, lang, act), actors(theirs, lang, act)
        # a sentence that follows another clause naming its actor too may restate that clause
        if a and b and not a & b and not any(a & actors(clause, lang, act) for clause in others):
            return mine, theirs
    return None


_ALIGNED_OPPOSITES = {code: [(re.compile(p, re.IGNORECASE), re.compile(q, re.IGNORECASE)) for p, q in pairs]
                      for code, pairs in languages.each("ALIGNED_OPPOSITES").items()}


def swapped_opposite(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the sentence's words, the text's) when the sentence follows one clause of the text word for word but puts
    the opposite word where the clause has one ('after' for 'before', 'at most' for 'at least', 'from' for 'until')."""
    for mine, theirs, _ in _replaced(sentence, text):
        for one, other in _ALIGNED_OPPOSITES.get(lang, []):
            for said, has in ((one, other), (other, one)):
                if said.search(mine) and has.search(theirs) and not has.search(mine) and not said.search(theirs):
                    return mine, theirs
    return None


@lru_cache(maxsize=256)
def _aligned(sentence: str, text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, int, int, int, int], ...],
                                                tuple[str, ...]] | None:
    """(the sentence's words, the words of the clause of the text it follows most closely, word for word, the edit
    operations from one to the other, the other clauses it follows), or None when it follows none."""
    said = re.findall(r"[\w’'-]+", sentence.lower())
    aligned = []
    for clause in clauses(text):
        words = re.findall(r"[\w’'-]+", clause.lower())
        matcher = difflib.SequenceMatcher(None, said, words, autojunk=False)
        if matcher.ratio() >= ALIGNED_MIN:
            aligned.append((matcher.ratio(), clause, words, matcher))
    if not aligned:
        return None
    _, best, words, matcher = max(aligned, key=lambda found: found[0])
    others = tuple(clause for _, clause, _, _ in aligned if clause is not best)
    return tuple(said), tuple(words), tuple(matcher.get_opcodes()), others


def _replaced(sentence: str, text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(the sentence's words, the text's words in their place, the other clauses the sentence follows) for each short
    run the sentence replaces in the clause of the text it follows most closely, word for word."""
    found = _aligned(sentence, text)
    if found is None:
        return []
    said, words, ops, others = found
    replaced = []
    for at, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag != "replace" or i2 - i1 > SWAP_WORDS or j2 - j1 > SWAP_WORDS:
            continue
        # a swap sits between runs of words the two share (two at least), or at the start or the end of both: not
        # leftovers paired by position ('… stored at that recipient's request' against '… that the provider')
        # (a single shared word counts where it ends both: '… may apply' for '… shall apply')
        before = at > 0 and _shared_run(ops[at - 1]) or i1 == j1 == 0 or at == 1 and ops[0][0] == "equal"
        after = (at + 1 < len(ops) and _shared_run(ops[at + 1]) or (i2 == len(said) and j2 == len(words))
                 or at + 2 == len(ops) and ops[-1][0] == "equal")
        if before and after:
            replaced.append((" ".join(said[i1:i2]), " ".join(words[j1:j2]), others))
    return replaced


_ALIGNED_CONDITION = languages.compiled("aligned_condition", "VERIFY")
# The fewest words a condition the sentence leaves out of the clause it follows must have to be read (a bare 'where
# appropriate' in a list's point is left to the condition check).
ALIGNED_CONDITION_WORDS = 3


def dropped_aligned_condition(sentence: str, text: str, lang: str) -> str | None:
    """The condition of the clause the sentence follows word for word that the sentence leaves out and restates
    nowhere ('Where processing is based on consent,' before 'the controller shall be able to demonstrate …')."""
    opens, own, found = _ALIGNED_CONDITION.get(lang), OWN_CONDITION.get(lang), _aligned(sentence, text)
    if opens is None or own is None or found is None:
        return None
    said, words, ops, _ = found
    # the sentence's own words, those no run of the text's accounts for: where a moved condition would be
    loose = " ".join(w for tag, i1, i2, _, _ in ops if tag in ("delete", "replace") for w in said[i1:i2])
    if own.search(loose):
        return None  # a condition in the sentence's own words may restate the text's
    # A condition word the sentence copies from the clause is the clause's other condition, and does not excuse leaving
    # out the one that opens the clause ('Qualora decida di cessare …, un organismo notificato ne informa … qualora la
    # cessazione sia stata programmata'); one inside the clause may run on in words the sentence keeps and the condition
    # word it copies ('may be processed … when those data are processed by … a professional subject to …' told as
    # '… by a professional subject to …').
    copied = bool(own.search(sentence))
    for tag, i1, i2, j1, j2 in ops:
        dropped = " ".join(words[j1:j2])
        if tag not in ("insert", "replace") or j2 - j1 < ALIGNED_CONDITION_WORDS or not opens.match(dropped):
            continue
        if tag == "replace" and i2 - i1 > (j2 - j1) // 2:
            continue  # the sentence says something in its place
        if j1 > 0 and copied:
            continue
        terms = {w for w in word_prefixes(dropped, lang) if len(w) > 2}
        if terms and len(terms & word_prefixes(loose, lang)) * 2 < len(terms):
            return dropped
    return None


def _shared_run(op: tuple[str, int, int, int, int]) -> bool:
    return op[0] == "equal" and op[2] - op[1] >= 2


_ALIGNED_MODALS = languages.compiled("aligned_duty", "VERIFY"), languages.compiled("aligned_permission", "VERIFY")
_MODAL_LIMITED = languages.compiled("modal_limited", "VERIFY")


def swapped_modal(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """(the sentence's modal, the text's) when the sentence follows one clause of the text word for word but puts a
    duty's modal where the clause has a permission's, or the other way ('must' for 'may'); 'shall not' and 'may not'
    both prohibit, so a modal before a negation is not read."""
    duty, permission = (table.get(lang) for table in _ALIGNED_MODALS)
    limited = _MODAL_LIMITED.get(lang)
    # 'shall not' and 'may not' both prohibit, 'shall … only' and 'may … only' both limit
    if duty is None or permission is None or (limited and limited.search(sentence)):
        return None
    for mine, theirs, _ in _replaced(sentence, text):
        for said, has in ((duty, permission), (permission, duty)):
            if (said.fullmatch(mine) and has.fullmatch(theirs)):
                return mine, theirs
    return None


_ONLY_WORD = languages.compiled("aligned_only", "VERIFY")
_BEYOND_LIMIT = languages.compiled("beyond_limit", "VERIFY")


def dropped_only(sentence: str, text: str, lang: str) -> tuple[str, str] | None:
    """('condition', the clause's 'only if …') or ('limit', its 'only …') when the sentence follows the clause word for
    word and leaves out only 'only', with no limit word of its own. Before a condition word, a necessary condition is
    told as a sufficient one ('may transfer … if' for 'may transfer … only if'); elsewhere, with the clause's words kept
    on both sides of it ('shall be kept under the control of official authority' for '… kept only under the control
    …'), what the text allows in one case alone the sentence allows without one."""
    only, found = _ONLY_WORD.get(lang), _aligned(sentence, text)
    if only is None or found is None or only.search(sentence):
        return None
    said, words, ops, _ = found
    dropped = [at for at, (tag, _, _, j1, j2) in enumerate(ops)
               if tag == "insert" and only.fullmatch(" ".join(words[j1:j2]))]
    opens = _ALIGNED_CONDITION.get(lang)
    # a condition told as plain goes first, wherever else a limit is left out
    for at in dropped:
        following = ops[at + 1] if at + 1 < len(ops) else None
        if opens is not None and following and following[0] == "equal" and opens.match(" ".join(words[following[3]:following[4]])):
            return "condition", " ".join(words[ops[at][3]:following[4]][:8])
    beyond = _BEYOND_LIMIT.get(lang)
    for at in dropped:
        j1, j2 = ops[at][3], ops[at][4]
        if beyond and beyond.search(" ".join(words[max(0, j1 - 2):j2])):
            continue  # 'not only' widens: leaving it out narrows the sentence, which the text still supports
        kept_before = (at > 0 and _shared_run(ops[at - 1])) or j1 == 0
        if kept_before and at + 1 < len(ops) and _shared_run(ops[at + 1]):
            return "limit", " ".join(words[j1:j1 + 8])
    return None


_NEGATION_WORD = languages.compiled("aligned_negation", "VERIFY")


def inserted_negation(sentence: str, text: str, lang: str) -> str | None:
    """The negation word the sentence adds, and nothing else, between words of the clause it follows word for word
    ('… shall not be subject to administrative fines' for '… shall be subject to …'): the clause's rule denied, however
    negative the rest of the provision is ('the prohibition of the AI practices')."""
    negation, found = _NEGATION_WORD.get(lang), _aligned(sentence, text)
    if negation is None or found is None:
        return None
    said, words, ops, _ = found
    for at, (tag, i1, i2, _, _) in enumerate(ops):
        added = " ".join(said[i1:i2])
        if tag != "delete" or not negation.fullmatch(added) or at == 0 or at + 1 >= len(ops):
            continue
        if _shared_run(ops[at - 1]) and _shared_run(ops[at + 1]):
            return " ".join(said[max(0, i1 - 2):i2 + 3])
    return None
