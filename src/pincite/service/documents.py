"""The one place answer, search, provision and outline documents are shaped.

Every surface returns these documents as they are: the CLI's --json, the HTTP API and the MCP
tools print or send the same JSON.
"""

from __future__ import annotations

import re
from dataclasses import asdict

from pincite.citations import local_label, point_label, top_point_lines, top_points
from pincite.provisions import Provision
from pincite.retrieve.graph import article_of
from pincite.retrieve.hits import Hit
from pincite.retrieve.multi import CorpusHit
from pincite.verify.check import REASONS

# Each mode says what it checked: extractive sentences are the source's own words; a model's
# sentences were compared with the cited provisions in code, which is not a lawyer's reading.
# `{source}` says what the corpus is: an uploaded document quoted under "the law's text" would lend
# it the law's authority.
NOTICES = {
    "extractive": "Not legal advice: quotations of {source}, checked against the cited provisions; "
                  "for your situation, ask a lawyer.",
    "llm": "Not legal advice: written by a language model from the retrieved provisions{of_source}; each sentence's "
           "citations, numbers, actors, polarity and terms were checked in code against the provisions it "
           "cites; for your situation, ask a lawyer.",
    "agent": "Not legal advice: written by a language model from the provisions{of_source} it read through "
             "pincite's tools; each sentence's citations, numbers, actors, polarity and terms were checked in code "
             "against the provisions it cites; for your situation, ask a lawyer.",
}


def source_kind(spec) -> str:
    """What a corpus's text is: the law, a rulebook, or a document a user uploaded (not the law)."""
    if spec.format == "rulebook":
        return f"the text of {spec.title}, a rulebook"
    if spec.format == "pages":
        return f"the text of {spec.document or spec.title}, a document uploaded here, which is not the law"
    return "the law's text"


def notice(mode: str, spec) -> str:
    """The notice of an answer: what its mode checked, and what kind of source it quotes."""
    source = source_kind(spec)
    of_source = "" if source == "the law's text" else f" of {source}"
    return NOTICES.get(mode, NOTICES["extractive"]).format(source=source, of_source=of_source)


# Details a reader can act on; others (model errors, verification internals) stay in run.detail.
SHOWN_DETAIL = ("outside_corpus", "outside_law", "no_value", "model_declined")
SNIPPET_CHARS = 240


def hit_json(hit: Hit, snippet_chars: int = SNIPPET_CHARS) -> dict:
    p = hit.provision
    text = " ".join(p.text.split())
    return {"label": p.label, "label_local": p.label_local, "id": p.id, "kind": p.kind,
            "instrument": p.instrument, "lang": p.lang, "title": p.title,
            "score": None if hit.exact else round(hit.score, 4), "exact": hit.exact,
            "snippet": text if len(text) <= snippet_chars else text[: snippet_chars - 1] + "…",
            "url": p.url, "version": p.version}


def corpus_hit_json(hit: CorpusHit) -> dict:
    """A hit of a search over several corpora: it also names its corpus."""
    row = hit_json(hit.hit)
    row["corpus"] = hit.corpus
    row["citation"] = hit.citation
    row["score"] = None if hit.hit.exact else round(hit.score, 4)
    return row


def search_document(query: str, corpus: str | list[str], lang: str | None, mode: str, rows: list[dict]) -> dict:
    """`pincite search --json`, GET /search and the MCP search tool: the query, where it was
    searched (the corpus, or the corpora; the language searched), the mode, the hits."""
    return {"query": query, "corpus": corpus, "lang": lang, "mode": mode, "hits": rows}


def answer_heading(result, lang: str) -> str | None:
    """Which article the answer comes from, in one line above it: the lead citation's article
    (or annex) and its title. Said once, as a heading: the sentences carry the citations."""
    if not result.cited:
        return None
    lead = result.cited[0]
    where = local_label(article_of(lead.label), lang) if lead.provision.kind != "recital" else local_label(lead.label, lang)
    return f"{where} — {lead.provision.title}" if lead.provision.title else where


def answer_text(result, spec) -> str:
    """The answer as one paragraph, or the refusal said plainly (with where to look instead)."""
    if result.outcome == "answered":
        return result.text()
    own = [p.label for p in result.see if p.corpus == spec.name]
    if result.reason == "not_in_text" and own:
        text = f"I cannot answer this from {spec.title}: it {result.detail}; it deals with this in {_and(own)}."
    else:
        text = _refusal_text(result, spec)
    return " ".join([text, *_elsewhere(result, spec)])


def _refusal_text(result, spec) -> str:
    why = REASONS.get(result.reason, result.reason)
    detail = f" ({result.detail})" if result.detail and result.reason in SHOWN_DETAIL else ""
    return f"I cannot answer this from {spec.title}: {why}{detail}."


def _elsewhere(result, spec) -> list[str]:
    """A sentence per other corpus that matches the question far better."""
    others: dict[str, list[str]] = {}
    for p in result.see:
        if p.corpus != spec.name:
            others.setdefault(p.corpus, []).append(p.label)
    return [f"The {name} corpus has a close match: {_and(labels)} — ask with --corpus {name}."
            for name, labels in others.items()]


def _and(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def see_json(pointer) -> dict:
    return {"corpus": pointer.corpus, "label": pointer.label, "url": pointer.url, "why": pointer.why}


def coverage_note(spec, lang: str, version: str) -> str:
    """What the corpus is, so a reader told 'no' knows where to look instead."""
    edition = f", as published in {version}" if version else ""
    return (f"This corpus is {spec.title} in '{lang}'{edition}: its articles, annexes and recitals only. "
            f"It holds no case law, guidance, decisions of authorities, or national law.")


def answer_document(result, spec, lang: str, version: str, thread: str | None) -> dict:
    """The answer shape every surface returns, plus the notice, the thread and
    what the run cost. A refusal carries no sources."""
    answered = result.outcome == "answered"
    usage = result.usage
    document = {
        "outcome": result.outcome, "reason": result.reason, "answer": answer_text(result, spec),
        "heading": answer_heading(result, lang) if answered else None,
        "sentences": [{"text": s.text, "citations": list(s.citations)} for s in result.sentences] if answered else [],
        "citations": [citation_json(c, lang) for c in result.cited] if answered else [],
        "corpus": {"name": spec.name, "lang": lang, "version": version},
        "notice": notice(result.mode, spec),
        "thread": thread,
        "run": {"mode": result.mode, "model": usage.model if usage else None, "rewritten": result.rewritten,
                "detail": result.detail or None, "tokens_in": usage.tokens_in if usage else 0,
                "tokens_out": usage.tokens_out if usage else 0, "cost_usd": usage.cost_usd if usage else None,
                "latency_ms": result.latency_ms, **(result.agent or {})},
    }
    if not answered:
        document["covers"] = coverage_note(spec, lang, version)
        document["see"] = [see_json(p) for p in result.see]
    return document


def verify_document(checked: list, spec, lang: str, version: str,
                    opinions: list[dict | None] | None = None) -> dict:
    """`pincite verify --json`, POST /verify and the MCP verify_citations tool: each sentence in
    order, whether its citations support it, and the named reason when they do not. `opinion`:
    the model's second opinion ({"supported", "reason"} or {"error"}), null when none was asked."""
    opinions = opinions if opinions is not None else [None] * len(checked)
    return {"verified": bool(checked) and all(c.supported for c in checked),
            "corpus": {"name": spec.name, "lang": lang, "version": version},
            "sentences": [{"text": c.text, "citations": list(c.citations), "supported": c.supported,
                           "reason": c.reason, "detail": c.detail or None, "opinion": o}
                          for c, o in zip(checked, opinions, strict=True)]}


def citation_json(cited, lang: str) -> dict:
    p = cited.provision
    return {"label": cited.label, "label_local": local_label(cited.label, lang), "id": p.id, "url": p.url,
            "title": p.title, "text": cited.text}


def provision_json(p: Provision) -> dict:
    """A provision as the surfaces return it: the corpus record, full text included."""
    return asdict(p)


def outline_document(label: str, parts: list[Provision]) -> dict:
    """An article's (annex's, section's) parts, each with its lead-in and its points."""
    first = parts[0]
    return {"corpus": first.instrument, "lang": first.lang, "label": label,
            "label_local": local_label(label, first.lang), "title": first.title,
            "path": first.path, "version": first.version, "url": first.url,
            "parts": [_outline_part(p) for p in parts]}


def _outline_part(p: Provision) -> dict:
    lines = top_point_lines(p.text)
    points = [{"label": point_label(p.label, path), "text": _clip(lines.get(path[0], ""))}
              for path in top_points(p.text)]
    return {"id": p.id, "label": p.label, "label_local": p.label_local, "kind": p.kind,
            "lead": _clip(p.text.splitlines()[0] if p.text else ""), "chars": len(p.text), "points": points}


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def references_document(label: str, parts: list[Provision], graph, by_id: dict[str, Provision]) -> dict:
    """What a provision cites and what cites it (`pincite refs --json`, GET /provisions/{id}/references,
    the MCP get_references tool). For an article or annex, the edges of all its parts, without
    those between its own parts; `from`/`to` name the part an edge leaves or reaches."""
    first, ids = parts[0], {p.id for p in parts}
    whole = parts[0].label if len(parts) == 1 else re.split(r"[(,]", first.label, maxsplit=1)[0].strip()
    cites, cited_by = [], []
    seen: set[tuple] = set()  # edges out as (from, label, to, act), edges in as (from, to)
    for p in parts:
        for e in graph.cites(p.id):
            if e.target not in ids and (p.id, e.label, e.target, e.act) not in seen:
                seen.add((p.id, e.label, e.target, e.act))
                cites.append({"label": e.label, "label_local": e.label if e.external else local_label(e.label, p.lang),
                              "id": e.target, "words": e.words, "external": e.external, "act": e.act or None,
                              "from": p.label})
        for e in graph.cited_by(p.id):
            source = by_id.get(e.source)
            if source is not None and e.source not in ids and (e.source, p.id) not in seen:
                seen.add((e.source, p.id))
                cited_by.append({"label": source.label, "label_local": source.label_local, "id": source.id,
                                 "words": e.words, "external": False, "act": None, "to": p.label})
    order = {pid: i for i, pid in enumerate(by_id)}
    cited_by.sort(key=lambda row: order.get(row["id"], len(order)))
    return {"corpus": first.instrument, "lang": first.lang,
            "provision": {"label": whole, "label_local": first.label_local if len(parts) == 1 else local_label(whole, first.lang),
                          "id": first.id if len(parts) == 1 else None, "title": first.title},
            "cites": cites, "cited_by": cited_by}
