"""One behaviour, every way in: the CLI, the HTTP API (JSON and server-sent events), the MCP server
(stdio and streamable HTTP) and the web page answer the same four questions — one on the GDPR,
one on the AI Act in Italian, one the corpus cannot answer, one whose answer the law does not
list (refused with pointers to where it deals with it) — with the same citations, the same
refusal reason and the same pointers as the service layer itself."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import httpx
import pytest

from tests.conftest import service_for
from tests.live_server import chromium, env_for, http_server, mcp_http_server

QUESTIONS = [
    ("gdpr", "en", "How quickly must a personal data breach be notified to the supervisory authority?"),
    ("ai-act", "it", "Quali sono gli obblighi dei deployer dei sistemi di IA ad alto rischio?"),
    ("gdpr", "en", "Which data protection authority in Luxembourg handles complaints?"),
    ("gdpr", "en", "Which countries have an adequacy decision?"),
]


def signature(document: dict) -> dict:
    """What must agree: outcome, reason, each sentence's citations, the sources, the text version."""
    return {"outcome": document["outcome"], "reason": document["reason"],
            "sentences": [list(s["citations"]) for s in document["sentences"]],
            "citations": [(c["label"], c["id"]) for c in document["citations"]],
            "version": document["corpus"]["version"],
            "see": [(p["corpus"], p["label"]) for p in document.get("see", [])]}


@pytest.fixture(scope="module")
def settings(indexed):
    indexed("ai-act", "it")
    return indexed("gdpr", "en").model_copy(update={"rate_limit_per_minute": 0, "session_question_cap": 0})


@pytest.fixture(scope="module")
def expected(settings):
    return [signature(service_for(settings).ask(q, corpus=c, lang=lang)) for c, lang, q in QUESTIONS]


def test_the_three_questions_are_a_fair_test(expected):
    breach, italian, luxembourg, adequacy = expected
    assert breach["outcome"] == "answered" and breach["citations"][0][0] == "Article 33(1)"
    assert italian["outcome"] == "answered" and all(i.startswith("ai-act/it/") for _, i in italian["citations"])
    assert (luxembourg["outcome"], luxembourg["reason"], luxembourg["citations"]) == ("refused", "outside_corpus", [])
    assert (adequacy["outcome"], adequacy["reason"], adequacy["citations"]) == ("refused", "not_in_text", [])
    assert {"Article 45(3)", "Article 45(8)"} <= {label for _, label in adequacy["see"]}


def test_cli(settings, expected):
    got = []
    for corpus, lang, question in QUESTIONS:
        run = subprocess.run([sys.executable, "-m", "pincite", "ask", question, "--corpus", corpus, "--lang", lang,
                              "--json"], capture_output=True, text=True, env=env_for(settings), timeout=300)
        assert run.returncode == 0, run.stderr
        got.append(signature(json.loads(run.stdout)))
    assert got == expected


def sse_document(response: httpx.Response) -> dict:
    """The `done` event's answer, checked against the sentence and citation events before it."""
    blocks = [b for b in response.text.split("\n\n") if b.startswith("event:")]
    stream = [(b.split("\n")[0][6:].strip(), json.loads(b.split("\n", 1)[1][5:])) for b in blocks]
    done = stream[-1][1]
    assert [d["citations"] for n, d in stream if n == "sentence"] == [s["citations"] for s in done["sentences"]]
    assert [d["id"] for n, d in stream if n == "citation"] == [c["id"] for c in done["citations"]]
    assert [d["reason"] for n, d in stream if n == "refusal"] == ([done["reason"]] if done["reason"] else [])
    return done


def test_http_api_json_and_stream(settings, expected):
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=300) as client:
        plain = [client.post("/ask", json={"question": q, "corpus": c, "lang": lang}).json() for c, lang, q in QUESTIONS]
        streamed = [sse_document(client.post("/ask", json={"question": q, "corpus": c, "lang": lang},
                                             headers={"Accept": "text/event-stream"})) for c, lang, q in QUESTIONS]
    assert [signature(d) for d in plain] == expected
    assert [signature(d) for d in streamed] == expected


def mcp_answers(server) -> list[dict]:
    from mcp import Client

    async def run():
        async with Client(server, read_timeout_seconds=300) as client:
            return [(await client.call_tool("ask", {"question": q, "corpus": c, "lang": lang})).structured_content
                    for c, lang, q in QUESTIONS]
    return anyio.run(run)


def test_mcp_over_stdio(settings, expected):
    pytest.importorskip("mcp")
    from mcp.client.stdio import StdioServerParameters

    server = StdioServerParameters(command=sys.executable, args=["-m", "pincite", "mcp"], env=env_for(settings))
    assert [signature(d) for d in mcp_answers(server)] == expected


def test_mcp_over_streamable_http(settings, expected):
    pytest.importorskip("mcp")
    with mcp_http_server(settings) as url:
        assert [signature(d) for d in mcp_answers(url)] == expected


READ_CARD = """card => ({
  outcome: card.dataset.outcome,
  reason: card.dataset.outcome === 'refused' ? card.querySelector('.reason code').textContent : null,
  sentences: [...card.querySelectorAll('.sentence')].map(s => [...s.querySelectorAll('.cite')].map(c => c.dataset.label)),
  citations: [...card.querySelectorAll('.sources .cite')].map(c => [c.dataset.label, c.dataset.id]),
  version: card.querySelector('.text-version').textContent,
  see: [...card.querySelectorAll('.see-link')].map(a => [a.dataset.corpus, a.dataset.label]),
})"""


def test_web_page(settings, expected):
    got = []
    with chromium() as browser, http_server(settings) as url:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        for corpus, lang, question in QUESTIONS:
            page.select_option("#corpus", corpus)
            page.select_option("#lang", lang)
            page.click("#new-thread")
            page.fill("#question", question)
            page.press("#question", "Enter")
            card = page.wait_for_selector("article.answer[data-outcome]")
            got.append(card.evaluate(READ_CARD))
    assert [{**g, "citations": [tuple(c) for c in g["citations"]], "see": [tuple(p) for p in g["see"]]}
            for g in got] == expected


# -- the same document, not only the same citations ---------------------------------------

SEARCH = {"query": "right to erasure of personal data", "corpus": "gdpr", "k": 3}
SHOW = {"corpus": "pdpa", "label": "Section 26"}  # no language: the PDPA exists only in Thai
REFS = {"corpus": "pdpa", "label": "Section 41", "id": "pdpa/th/sec-41"}  # its penalty, Section 85, cites it
ASK = {"question": "What must a notification of a personal data breach to the supervisory authority describe?",
       "corpus": "gdpr"}


def steady(document: dict) -> dict:
    """An answer without what differs between two asks of the same question: its new thread id
    and how long it took."""
    return {**document, "thread": None, "run": {**document["run"], "latency_ms": None}}


def cli_documents(settings) -> list[dict]:
    def run(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "pincite", *args, "--json"], capture_output=True, text=True,
                              env=env_for(settings), timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return [run("search", SEARCH["query"], "--corpus", SEARCH["corpus"], "-k", str(SEARCH["k"])),
            run("corpus", "show", SHOW["corpus"], SHOW["label"]),
            steady(run("ask", ASK["question"], "--corpus", ASK["corpus"])),
            run("refs", REFS["label"], "--corpus", REFS["corpus"])]


def http_documents(settings) -> list[dict]:
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=300) as client:
        search = client.get("/search", params={"q": SEARCH["query"], "corpus": SEARCH["corpus"], "k": SEARCH["k"]})
        show = client.get("/provisions", params=SHOW)
        ask = client.post("/ask", json=ASK)
        refs = client.get(f"/provisions/{REFS['id']}/references")
    return [search.json(), show.json(), steady(ask.json()), refs.json()]


def mcp_documents(settings) -> list[dict]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    server = StdioServerParameters(command=sys.executable, args=["-m", "pincite", "mcp"], env=env_for(settings))

    async def run():
        async with Client(server, read_timeout_seconds=300) as client:
            search = await client.call_tool("search", {"query": SEARCH["query"], "corpus": SEARCH["corpus"],
                                                       "k": SEARCH["k"]})
            show = await client.call_tool("get_provision", SHOW)
            ask = await client.call_tool("ask", ASK)
            refs = await client.call_tool("get_references", {"corpus": REFS["corpus"], "label": REFS["label"]})
            return [search.structured_content, show.structured_content, steady(ask.structured_content),
                    refs.structured_content]
    return anyio.run(run)


def test_cli_http_and_mcp_return_the_same_search_show_ask_and_refs_documents(settings):
    pytest.importorskip("mcp")
    cli, http, mcp = cli_documents(settings), http_documents(settings), mcp_documents(settings)
    assert cli[1]["provisions"][0]["label"] == "Section 26" and cli[0]["lang"] == "en"
    assert cli[3]["provision"]["id"] == REFS["id"] and "Section 85" in {r["label"] for r in cli[3]["cited_by"]}
    assert cli == http == mcp
