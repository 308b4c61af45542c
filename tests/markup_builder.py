"""Small synthetic EUR-Lex XHTML documents, written here, for parser and check tests.

The shapes follow shared/corpora/README.md: `art_N` articles, `NNN.PPP` paragraphs, point
tables with a label cell and a content cell, `rct_N` recitals, `anx_N` annexes.
"""

from __future__ import annotations

NBSP = "\u00a0"


def point(label: str, *content: str) -> str:
    return (
        '<table width="100%" border="0" cellspacing="0" cellpadding="0"><col width="4%"/><col width="96%"/>'
        f'<tbody><tr><td valign="top"><p class="oj-normal">{label}</p></td>'
        f'<td valign="top">{"".join(content)}</td></tr></tbody></table>'
    )


def p(text: str, cls: str = "oj-normal") -> str:
    return f'<p class="{cls}">{text}</p>'


def paragraph(article: int, number: int, *content: str) -> str:
    return f'<div id="{article:03d}.{number:03d}">{"".join(content)}</div>'


def article(number: int, title: str, *content: str, heading: str = "Article") -> str:
    return (
        f'<div class="eli-subdivision" id="art_{number}"><p class="oj-ti-art">{heading} {number}</p>'
        f'<div class="eli-title" id="art_{number}.tit_1"><p class="oj-sti-art">{title}</p></div>'
        f'{"".join(content)}</div>'
    )


def recital(number: int, text: str) -> str:
    return f'<div class="eli-subdivision" id="rct_{number}">{point(f"({number})", p(text))}</div>'


def chapter(roman: str, title: str, *content: str) -> str:
    return (
        f'<div id="cpt_{roman}"><p class="oj-ti-section-1">CHAPTER {roman}</p>'
        f'<div class="eli-title" id="cpt_{roman}.tit_1"><p class="oj-ti-section-2">{title}</p></div>'
        f'{"".join(content)}</div>'
    )


def annex(roman: str, title: str, *content: str) -> str:
    return (
        f'<hr class="oj-doc-sep"/><div id="L_X.fmx"><div class="eli-container" id="anx_{roman}">'
        f'<p class="oj-doc-ti">ANNEX {roman}</p><p class="oj-doc-ti">{title}</p>{"".join(content)}</div></div>'
    )


FINAL = (
    '<div class="eli-subdivision" id="fnp_1"><div class="oj-final">'
    "<p class=\"oj-normal\">This Regulation shall be binding in its entirety and directly applicable in all Member States.</p>"
    '<p class="oj-normal">Done at Brussels, 27 April 2016.</p></div>'
    '<div class="oj-signatory"><p class="oj-signatory">For the European Parliament</p>'
    '<p class="oj-signatory">The President</p></div></div>'
)

NOTE = (
    '<p class="oj-note"><a id="ntr1-X-E0001" href="#ntc1-X-E0001">(<span class="oj-super">1</span>)</a>'
    f"{NBSP}{NBSP}OJ C 229, 31.7.2012, p. 90.</p>"
)


def document(recitals: str = "", enacting: str = "", annexes: str = "", final: str = FINAL,
             header: str | None = None) -> bytes:
    header = header if header is not None else (
        '<table><tbody><tr><td><p class="oj-hd-date">4.5.2016   </p></td><td><p class="oj-hd-lg">EN</p></td>'
        '<td><p class="oj-hd-ti">Official Journal of the European Union</p></td>'
        '<td><p class="oj-hd-oj">L 119/1</p></td></tr></tbody></table>'
    )
    text = (
        '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML//EN" "xhtml-strict.dtd">'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name="viewport" content="x">'
        "<title>L_X</title></head><body>"
        f'{header}<div class="eli-container"><div class="eli-main-title" id="tit_1">'
        '<p class="oj-doc-ti">REGULATION (EU) 2099/1 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL</p></div>'
        f'<div class="eli-subdivision" id="pbl_1"><p class="oj-normal">Whereas:</p>{recitals}</div>'
        f'<div id="enc_1">{enacting}</div>{final}</div>{NOTE}{annexes}'
        "<script>var x = 'tracking code that must never reach a provision';</script></body></html>"
    )
    return text.encode("utf-8")
