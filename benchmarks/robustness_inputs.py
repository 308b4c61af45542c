"""The inputs the robustness benchmark feeds the parsers: generated with Hypothesis where the input
has structure (acts, PDFs, questions), mutated from real and synthetic documents otherwise, plus the
named nasties (billion laughs, external entities, 1,000-deep tables, 50 MB, wrong encodings,
encrypted PDFs, no text layer, broken xref, 5,000 pages, a 10 MB string).

Each generator returns [(name, bytes or str)], `n` of them (a few more for the fixed cases).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from tests import markup_builder as mb

CORPORA = Path(os.environ.get("PINCITE_MIRROR") or Path(__file__).resolve().parents[2] / "shared" / "corpora")


def draw(strategy, n: int, at: int) -> list:
    """`n` examples of `strategy`, reproducibly (Hypothesis's generator, not `.example()`)."""
    found: list = []

    @seed(at)
    @settings(max_examples=n, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value):
        found.append(value)

    collect()
    return found[:n]


# -- text -----------------------------------------------------------------------------------

EVERY_SCRIPT = ("Hello Ελληνικά Кириллица Հայերեն עברית العربية ܣܘܪܝܝܐ ދިވެހި ߒߞߏ देवनागरी বাংলা ਗੁਰਮੁਖੀ ગુજરાતી "
                "ଓଡ଼ିଆ தமிழ் తెలుగు ಕನ್ನಡ മലയാളം සිංහල ไทย ລາວ བོད་ မြန်မာ ქართული ᎠᏂᏴᏫᏯ ᐃᓄᒃᑎᑐᑦ ᚛ᚑᚌᚐ ᚠᚢᚦ "
                "ខ្មែរ ᠮᠣᠩᠭᠣᠯ 日本語 中文 한국어 ꆈꌠ 𐌰𐍄 𓀀 😀 ∑∫ ⠃⠗⠁")
NASTY = ["\u202e", "\u200f", "\u200b", "\ufeff", "\u0000", "\u0007", "\u001b[31m", "\r\n", "\u2028",
         "\u0301\u0301\u0301", "\ud800", "\udfff", "&amp;", "<script>", "Article 33(1)", "Artikel 999999999999(1)"]
texts = st.text(st.characters(codec=None, exclude_categories=()), max_size=200)


def question_inputs(n: int, rng: random.Random) -> list[tuple[str, str]]:
    fixed = [("10,000 characters", ("Wie lange " + EVERY_SCRIPT + " ") * 40)[:10_000],
             ("every script", EVERY_SCRIPT), ("control characters", "".join(map(chr, range(32))) + "breach"),
             ("right-to-left marks", "\u202eHow fast must a breach be notified?\u202c\u200f"),
             ("lone surrogates", "breach \ud800 notified \udfff"), ("only spaces", "   \t  ")]
    fixed += [(f"nasty {i}", "".join(rng.sample(NASTY, 4)) + " Article 33") for i in range(10)]
    generated = draw(st.one_of(texts, st.lists(st.sampled_from(EVERY_SCRIPT.split() + NASTY), max_size=30)
                               .map(" ".join)), max(0, n - len(fixed)), 1501)
    return fixed + [(f"generated {i}", q) for i, q in enumerate(generated) if q.strip()]


# -- EUR-Lex XHTML ------------------------------------------------------------------------------

safe_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=80)


@st.composite
def acts(draw_) -> bytes:
    """An act in EUR-Lex's markup: articles of numbered paragraphs with (nested) points, recitals, an annex."""
    articles = []
    for number in range(1, draw_(st.integers(1, 4)) + 1):
        paragraphs = []
        for par in range(1, draw_(st.integers(1, 3)) + 1):
            points = [mb.point(f"({chr(97 + i)})", mb.p(draw_(safe_text)),
                               *([mb.point("(i)", mb.p(draw_(safe_text)))] if draw_(st.booleans()) else []))
                      for i in range(draw_(st.integers(0, 3)))]
            paragraphs.append(mb.paragraph(number, par, mb.p(f"{par}. " + draw_(safe_text)), *points))
        articles.append(mb.article(draw_(st.sampled_from([number, number, 0, 10**12])), draw_(safe_text), *paragraphs))
    recitals = "".join(mb.recital(i, draw_(safe_text)) for i in range(1, draw_(st.integers(0, 3)) + 1))
    annex = mb.annex("I", draw_(safe_text), mb.p("1. " + draw_(safe_text))) if draw_(st.booleans()) else ""
    return mb.document(recitals=recitals, enacting="".join(articles), annexes=annex)


def _base_act() -> bytes:
    return mb.document(recitals=mb.recital(1, "Whereas the rules should be clear."),
                       enacting=mb.article(1, "Scope", mb.paragraph(1, 1, mb.p("1. This Regulation applies."),
                                                                    mb.point("(a)", mb.p("to processing;")))))


LOL = (b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY a "aaaaaaaaaa">'
       + b"".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'.encode() for i in range(9))
       + b"]>")
XXE = b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'


def _without_prolog(doc: bytes) -> bytes:
    return doc[doc.index(b"<html"):]


def named_html_nasties(base: bytes, big: bool) -> list[tuple[str, bytes]]:
    body = b"1. This Regulation applies."
    nested = b"<table><tbody><tr><td>" * 1000 + b"deep" + b"</td></tr></tbody></table>" * 1000
    cases = [
        ("billion laughs", LOL + _without_prolog(base).replace(body, b"1. &j; applies.")),
        ("external entity", XXE + _without_prolog(base).replace(body, b"1. &xxe; applies.")),
        ("tables 1,000 deep", base.replace(body, b"1. " + nested)),
        ("divs 5,000 deep", base.replace(body, b"1. " + b"<div>" * 5000 + b"x" + b"</div>" * 5000)),
        ("utf-16", base.decode().encode("utf-16")),
        ("latin-1 declared utf-8", base.decode().replace("applies", "appliqué").encode("latin-1")),
        ("cp1252 declared", base.replace(b'encoding="UTF-8"', b'encoding="windows-1252"')),
        ("unknown encoding", base.replace(b'encoding="UTF-8"', b'encoding="x-nonsense"')),
        ("NUL bytes", base.replace(b"applies", b"app\x00lies")),
        ("empty", b""), ("whitespace", b"   \n\t"), ("not HTML", b"%PDF-1.4 not html"),
        ("not an act", b"<!doctype html><html><body><h1>No results</h1><p>Document not found.</p></body></html>"),
        ("JSON", b'{"error": "not found"}'),
    ]
    if big:
        cases.append(("50 MB document", base.replace(body, b"1. " + b"word " * 10_000_000)))
    return cases


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random mutation of `data`, named."""
    kind = rng.choice(["truncate", "truncate and close", "flip bytes", "delete slice", "repeat slice",
                       "drop closing tags", "swap ids", "insert tag soup"])
    n = len(data)
    cut = rng.randrange(1, max(2, n))
    if kind == "truncate":
        return kind, data[:cut]
    if kind == "truncate and close":
        return kind, data[:cut] + b'"></p></td></tr></tbody></table></div></div></body></html>\n'
    if kind == "flip bytes":
        out = bytearray(data)
        for _ in range(rng.randint(1, 50)):
            out[rng.randrange(n)] = rng.randrange(256)
        return kind, bytes(out)
    if kind == "delete slice":
        return kind, data[:cut] + data[cut + rng.randint(1, 2000):]
    if kind == "repeat slice":
        piece = data[cut:cut + rng.randint(1, 3000)]
        return kind, data[:cut] + piece * rng.randint(2, 20) + data[cut:]
    if kind == "drop closing tags":
        return kind, data.replace(b"</div>", b"", rng.randint(1, 50))
    if kind == "swap ids":
        return kind, data.replace(b'id="art_', rng.choice([b'id="art_x', b'id="art_0', b'id="art_-', b'id="']))
    soup = rng.choice([b"<table>", b"</td>", b"<p class='oj-ti-art'>", b"<![CDATA[", b"<!--", b"&#0;", b"\xff\xfe"])
    return kind, data[:cut] + soup * rng.randint(1, 30) + data[cut:]


def eurlex_inputs(n: int, rng: random.Random) -> list[tuple[str, bytes]]:
    base = _base_act()
    fixed = named_html_nasties(base, big=n >= 500)
    real = (CORPORA / "32022R0868" / "en.html").read_bytes() if (CORPORA / "32022R0868").is_dir() else base
    fixed += [(f"real act, {k}", d) for k, d in (mutate(real, rng) for _ in range(max(1, n // 100)))]
    generated = draw(acts(), max(0, n - len(fixed)) // 2 + 1, 1502)
    out = fixed + [(f"generated act {i}", d) for i, d in enumerate(generated)]
    while len(out) < n:
        kind, data = mutate(rng.choice(generated + [base]), rng)
        out.append((f"generated act, {kind}", data))
    return out


def consolidated_inputs(n: int, rng: random.Random) -> list[tuple[str, bytes]]:
    """Mutations of the first articles of the GDPR's consolidated text (its markup, fast to parse)."""
    whole = (CORPORA / "gdpr" / "en.consolidated-20160504.xhtml").read_bytes()
    cut = whole.index(b'<div class="eli-subdivision" id="art_6">')
    base = whole[:cut] + b"</div></div></body></html>\n"
    out = [("consolidated base", base), ("consolidated truncated", whole[: len(whole) // 3])]
    out += [(f"consolidated, {k}", d) for k, d in (mutate(base, rng) for _ in range(n - len(out)))]
    return out


# -- PDFs -----------------------------------------------------------------------------------

pdf_text = st.text(st.characters(codec="latin-1", exclude_categories=("Cc", "Cs")), max_size=120)


def _pdf(path: Path, pages: list[list[str]], **canvas_args) -> bytes:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1, **canvas_args)
    for lines in pages:
        y = 760
        for line in lines:
            c.drawString(72, y, line)
            y -= 14
        c.showPage()
    c.save()
    return path.read_bytes()


def _encrypted(path: Path, user: str) -> bytes:
    from reportlab.lib import pdfencrypt

    return _pdf(path, [["Confidential text on page one."]], encrypt=pdfencrypt.StandardEncryption(user, "owner"))


def pdf_nasties(folder: Path, big: bool) -> list[tuple[str, bytes]]:
    from tests.pdf_fixtures import paged_pdf, scanned_pdf

    paged = paged_pdf(folder / "paged.pdf", pages=3, front=1).read_bytes()
    cases = [("paged", paged), ("no text layer", scanned_pdf(folder / "scan.pdf").read_bytes()),
             ("encrypted", _encrypted(folder / "enc.pdf", "secret")),
             ("encrypted, empty user password", _encrypted(folder / "enc2.pdf", "")),
             ("truncated", paged[: len(paged) // 2]), ("truncated, %%EOF appended", paged[: len(paged) // 2] + b"\n%%EOF\n"),
             ("malformed xref", paged.replace(b"startxref", b"startxref\n99999999")),
             ("no xref", paged.replace(b"xref", b"xxxx")), ("header only", b"%PDF-1.7\n%%EOF\n"),
             ("empty", b""), ("HTML named .pdf", b"<html><body>not a pdf</body></html>")]
    if big:
        cases.append(("5,000 pages", _pdf(folder / "5000.pdf", [[f"Page {i}: records are kept."] for i in range(5000)])))
        cases.append(("a page of one 10 MB string", _pdf(folder / "10mb.pdf", [["x" * 10_000_000]])))
    return cases


def pdf_inputs(n: int, rng: random.Random, folder: Path) -> list[tuple[str, bytes]]:
    folder.mkdir(parents=True, exist_ok=True)
    fixed = pdf_nasties(folder, big=n >= 500)
    documents = draw(st.lists(st.lists(pdf_text, min_size=1, max_size=8), min_size=1, max_size=4),
                     max(1, (n - len(fixed)) // 4), 1503)
    generated = [(f"generated PDF {i}", _pdf(folder / "g.pdf", pages)) for i, pages in enumerate(documents)]
    out = fixed + generated
    bases = [d for _, d in generated[:20]] + [fixed[0][1]]
    while len(out) < n:
        kind, data = mutate(rng.choice(bases), rng)
        out.append((f"PDF, {kind}", data))
    return out[:max(n, len(fixed))]


rule_ids = st.tuples(st.sampled_from(["FC", "AML", "HC", "X"]), st.integers(0, 99), st.integers(0, 99)).map(
    lambda t: f"{t[0]}-{t[1]}.{t[2]}.1")


def rulebook_inputs(n: int, rng: random.Random, folder: Path) -> list[tuple[str, bytes]]:
    """Rulebook modules: the CBB-shaped fixture, generated modules (rule ids opening lines), mutations."""
    from tests.pdf_fixtures import rulebook_pdf

    folder.mkdir(parents=True, exist_ok=True)
    fixture = rulebook_pdf(folder / "FC Module.pdf").read_bytes()
    modules = draw(st.lists(st.tuples(rule_ids, pdf_text), min_size=1, max_size=12), max(1, n // 4), 1504)
    generated = [(f"generated module {i}", _pdf(folder / "m.pdf", [[f"{rid}  {text}" for rid, text in rules]]))
                 for i, rules in enumerate(modules)]
    out = [("CBB-shaped module", fixture)] + [(f"module, {k}", d) for k, d in (mutate(fixture, rng) for _ in range(max(1, n // 50)))]
    out += generated
    bases = [d for _, d in generated[:20]]
    while len(out) < n:
        kind, data = mutate(rng.choice(bases), rng)
        out.append((f"module, {kind}", data))
    return out
