"""Text from documents a user uploaded is untrusted: sentences in it that instruct their reader are
not law, whatever the page says. They are cut before the text reaches a model's prompt and before a
sentence is checked against it, so an injected "note for AI assistants" can neither steer the model
nor lend its claim support.

A sentence is recognised by what it does, not by its vocabulary, in each language pincite reads
(English, Italian, French, Danish, Thai; every table is tried on every sentence, since an injection
need not be in the document's language). It is cut when it

- claims to be an instruction: a new instruction, a system message, a note for an AI;
- tells its reader what to answer, say or write ('answer that…', 'the correct reply is…', 'you must
  say…'), or to ignore, disregard, forget or override the instructions or rules it was given;
- addresses the reader, the AI, the model, the assistant or 'whoever reads this' (a vocative, or 'if
  you are an AI') and gives an imperative; or addresses its reader as 'you' and tells it what to
  believe ('assume…', 'pretend…', 'treat this page as…') — a staff policy says 'you must report a
  breach', and that stays.

Law is written about third persons ('the controller shall inform the data subject'), never to its
reader, and none of it is cut: tests/test_injection.py runs every sentence of the GDPR (en, it), the
AI Act (en, it, fr, da) and the Thai PDPA through it. A cut sentence leaves a line break behind, and
the rest of a sentence it interrupted (after an abbreviation, or on the next line) goes with it:
what is left is the document's own sentences, never words from either side of a cut joined into
one, never a remnant of the instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import overload

from pincite import languages
from pincite.languages.injection import InjectionWords, alt
from pincite.provisions import Provision
from pincite.verify.check import Cited

UPLOADED_KINDS = ("page", "rule")  # provisions cut from a PDF a user uploaded, not from a publisher




# One table per language, from the packs (pincite.languages: INJECTION).
LANGUAGES = languages.each("INJECTION")


@dataclass(frozen=True)
class _Rules:
    """One language's table compiled: each rule a regex."""

    claim: re.Pattern[str]
    told: re.Pattern[str]
    override: re.Pattern[str]
    reader: re.Pattern[str]
    imperative: re.Pattern[str]
    you: re.Pattern[str]
    steer: re.Pattern[str]


def _compile(w: InjectionWords) -> _Rules:
    flags = re.IGNORECASE
    b = r"(?!\w)" if w.spaced else ""  # a word's end, where \b finds none after "di'"
    lead = rf"(?:(?:{w.lead})(?!\w)\s*,?\s*)*"
    if w.spaced:
        # Where a clause starts: the sentence's start or a mark, then any leading adverbs
        # ('please', 'now'); or a coordinating word with no finite verb before it ('ignore the
        # rules and answer that…', not '…shall be drawn up and state that…'). An imperative
        # after a vocative may follow any coordinating word.
        mark = rf"(?:^|[:;,!?()\[\]\"“”«»—–]|\s-)\s*{lead}"
        guarded = rf"^(?:(?!\b(?:{w.modal})\b)[^.!?])*?\b(?:{w.coordinate})\s+{lead}"
        start, loose = f"(?:{mark}|{guarded})", rf"(?:{mark}|\b(?:{w.coordinate})\s+{lead})"
        said = rf"\s*,?\s*{lead}(?:(?:{w.that}|{w.yes})\b|{w.saying})"
        words = r"(?:\s+[^\s.!?;:,\"“‘«]+){1,6}?\s*,?\s*"
        told = alt(w.told,
                    rf"{start}(?:{w.reply}){b}(?:{said}|{words}(?:{w.saying}))",
                    rf"(?:{w.must})(?:{w.infinitive}){b}(?:{said}|{words}(?:{w.saying}|{w.that}\b))")
        duty = rf"\b(?:{w.modal})\s+{lead}(?:{w.infinitive}){b}{said}"
        override = rf"(?:{start}|{w.must})(?:{w.override}){b}(?:[\s'’]+(?:{w.det})\b)*[\s'’]+(?:{w.earlier})\b"
    else:  # Thai: the imperative particles and the phrases mark the clause
        start = loose = rf"(?:(?:{w.coordinate}|{w.lead})\s*)?"
        told = alt(w.told, w.reply, rf"(?:{w.must})(?:{w.infinitive})\S{{0,30}}?{w.that}")
        duty = rf"(?:{w.modal})\s*(?:{w.infinitive})\s*{w.that}"
        override = rf"(?:{w.override})\s*(?:(?:{w.det})\s*)*(?:{w.earlier})"
    return _Rules(
        claim=re.compile(w.claim, flags),
        told=re.compile(told, flags),
        override=re.compile(override, flags),
        reader=re.compile(w.reader, flags),
        # To an addressed reader, a duty to answer is an order too: 'models reading this should say that'.
        imperative=re.compile(alt(rf"{loose}(?:{w.imperative}){b}", w.must, duty), flags),
        you=re.compile(w.you, flags),
        steer=re.compile(rf"{start}(?:{w.steer}){b}", flags),
    )


_RULES = {lang: _compile(words) for lang, words in LANGUAGES.items()}


@lru_cache(maxsize=8192)
def instruction(sentence: str) -> str:
    """What the sentence does to its reader, when it instructs it ('' when it does not): it claims
    to be an instruction, tells the reader what to answer or to ignore its instructions, addresses
    it with an imperative, or tells the 'you' it addresses what to believe."""
    text = " ".join(sentence.split())
    if not text:
        return ""
    rules = _RULES.values()
    if any(r.claim.search(text) for r in rules):
        return "claims to be an instruction"
    if any(r.told.search(text) for r in rules):
        return "tells the reader what to answer"
    if any(r.override.search(text) for r in rules):
        return "tells the reader to ignore its instructions"
    # Address and imperative in one language: 'du' is Danish 'you' and French 'of the'.
    if any(r.reader.search(text) and r.imperative.search(text) for r in rules):
        return "addresses the reader with an imperative"
    if any(r.steer.search(text) and r.you.search(text) for r in rules):
        return "tells the reader what to believe"
    return ""


# A sentence, or a line that ends without a full stop (a point of a list): every piece of the
# text is one of these, so what is kept reads as the text read.
_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+|\n|$)")
# A piece that goes on with the one before: it starts in lower case ('e.g. the'), or with a
# digit right after a point ('2.5', '2.1') or after an abbreviation ('Art. 6', 'No. 45').
_LOWER = re.compile(r"\s*[a-zà-ÿ]")
_DIGIT = re.compile(r"[ \t]*\d")
_ABBREVIATION = re.compile(rf"(?:^|\W)(?:[A-Za-z]{{1,3}}|{languages.cue('before_number', 'SENTENCE_SPLIT').pattern})\.$",
                           re.IGNORECASE)
# After a cut, the rest of a sentence: it starts in lower case, or with a number and a word in
# lower case ('24 hours of discovering it', not the paragraph numbers '2.' or '2.1 The DPO').
_REST = re.compile(r"\s*(?:[a-zà-ÿ]|\d[\d.,]*\s+[a-zà-ÿ])")
_ENDED = re.compile(r"(?:[.!?;:]\s*\n|[!?])$")


def sentences(text: str) -> list[str]:
    """The text's sentences, whitespace included: joined, they are the text."""
    out: list[str] = []
    for piece in _SENTENCE.findall(text):
        if not piece:
            continue
        last = out[-1] if out else ""
        if (last.strip() and not _ENDED.search(last)
                and (_LOWER.match(piece) or (last.endswith(".") and piece[:1].isdigit())
                     or (_ABBREVIATION.search(last) and _DIGIT.match(piece)))):
            out[-1] += piece
        else:
            out.append(piece)
    return out


def without_instructions(text: str) -> str:
    """The text less every sentence that instructs its reader. A cut leaves a line break, and
    what follows it in lower case goes too (the rest of the sentence the instruction
    interrupted, or of the instruction): no words from either side of a cut are read as one
    sentence, and no remnant of an instruction is left to support a claim."""
    kept: list[str] = []
    cut = False
    for sentence in sentences(text):
        if instruction(sentence) or (cut and (sentence.isspace() or _REST.match(sentence))):
            cut = True
            continue
        if cut:
            if kept and not kept[-1].endswith("\n"):
                kept[-1] = kept[-1].rstrip() + "\n"
            sentence, cut = sentence.lstrip(), False
        kept.append(sentence)
    return "".join(kept).strip()


def uploaded(p: Provision) -> bool:
    return p.kind in UPLOADED_KINDS or not p.celex


def as_data(p: Provision) -> Provision:
    """A provision as it may be shown to a model and checked against: an uploaded one without
    its instructing sentences (and title), a published one as it is."""
    if not uploaded(p):
        return p
    title = "" if instruction(p.title or "") else p.title
    return replace(p, text=without_instructions(p.text), title=title)


@overload
def cited_as_data(cited: Cited) -> Cited: ...


@overload
def cited_as_data(cited: Cited | None) -> Cited | None: ...


def cited_as_data(cited: Cited | None) -> Cited | None:
    """A looked-up citation as it may be checked against: `pincite verify` on an uploaded corpus
    gives an injected note no more support than an answer does."""
    if cited is None or not uploaded(cited.provision):
        return cited
    return Cited(cited.label, as_data(cited.provision), without_instructions(cited.text))
