"""The MCP server (`pincite mcp`) driven by the SDK's own client, over stdio and streamable HTTP,
against the real server in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import httpx
import pytest

from tests.conftest import CORPORA, MODEL, need_shared
from tests.live_server import env_for, mcp_http_server

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

TOOLS = {"search", "get_provision", "article_outline", "get_references", "list_corpora", "ask", "verify_citations"}


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr", "en")


def stdio(settings) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "pincite", "mcp"], env=env_for(settings))


def calls(server, *requests: tuple[str, dict]) -> list:
    """Open one session with `server`, make the tool calls in order, return their results."""
    async def run():
        async with Client(server, read_timeout_seconds=120) as client:
            return [await client.call_tool(name, arguments) for name, arguments in requests]
    return anyio.run(run)


def listed_tools(server) -> dict:
    async def run():
        async with Client(server) as client:
            return {t.name: t for t in (await client.list_tools()).tools}
    return anyio.run(run)


def test_tools_are_read_only_with_input_and_output_schemas(gdpr):
    tools = listed_tools(stdio(gdpr))
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.output_schema is not None
        assert tool.annotations.read_only_hint is True and tool.annotations.destructive_hint is False
        assert tool.description
    assert tools["ask"].input_schema["required"] == ["question"]
    assert {"outcome", "citations"} <= set(tools["ask"].output_schema["properties"])


def test_every_tool_over_stdio(gdpr):
    search, by_id, by_label, outline, corpora, answer = calls(
        stdio(gdpr),
        ("search", {"query": "how fast must a data breach be notified", "k": 3}),
        ("get_provision", {"id": "gdpr/en/art-33.par-1"}),
        ("get_provision", {"corpus": "gdpr", "label": "Art. 5"}),
        ("article_outline", {"corpus": "gdpr", "label": "Article 5(1)(f)"}),
        ("list_corpora", {}),
        ("ask", {"question": "How quickly must a personal data breach be notified to the supervisory authority?"}),
    )
    assert not any(r.is_error for r in (search, by_id, by_label, outline, corpora, answer))
    assert search.structured_content["hits"][0]["label"] == "Article 33(1)"
    assert json.loads(search.content[0].text) == search.structured_content
    assert "72 hours" in by_id.structured_content["provisions"][0]["text"]
    assert [p["label"] for p in by_label.structured_content["provisions"]] == ["Article 5(1)", "Article 5(2)"]
    parts = outline.structured_content["parts"]
    assert outline.structured_content["label"] == "Article 5" and [p["label"] for p in parts] == ["Article 5(1)", "Article 5(2)"]
    assert [p["label"] for p in parts[0]["points"]] == [f"Article 5(1)({x})" for x in "abcdef"]
    assert "gdpr" in {c["name"] for c in corpora.structured_content["corpora"]}
    assert answer.structured_content["outcome"] == "answered"
    assert answer.structured_content["citations"][0]["label"] == "Article 33(1)"


def test_get_references_finds_the_fine_that_cites_a_duty(gdpr):
    (result,) = calls(stdio(gdpr), ("get_references", {"corpus": "gdpr", "label": "Article 37"}))
    assert not result.is_error
    incoming = {row["label"]: row for row in result.structured_content["cited_by"]}
    assert incoming["Article 83(4)"]["id"] == "gdpr/en/art-83.par-4" and incoming["Article 83(4)"]["to"] == "Article 37(1)"


def test_verify_citations_reports_each_sentence(gdpr):
    (result,) = calls(stdio(gdpr), ("verify_citations", {"text": (
        "The processor shall notify the controller without undue delay after becoming aware of a personal data "
        "breach [Article 33(2)]. The controller shall not notify the personal data breach to the supervisory "
        "authority [Article 33(1)].")}))
    assert not result.is_error
    document = result.structured_content
    assert document["verified"] is False
    assert [(s["supported"], s["reason"]) for s in document["sentences"]] == [(True, None), (False, "polarity")]


ERRORS = [
    ("search", {"query": "x", "corpus": "gpdr"}, "unknown_corpus"),
    ("ask", {"question": "x", "corpus": "gpdr"}, "unknown_corpus"),
    ("verify_citations", {"text": "x [Article 1].", "corpus": "gpdr"}, "unknown_corpus"),
    ("get_provision", {"corpus": "gdpr", "label": "Article 100"}, "unknown_provision"),
    ("get_provision", {"id": "gdpr/en/art-100.par-1"}, "unknown_provision"),
    ("get_provision", {"corpus": "gdpr", "label": "Paragraph seven"}, "bad_label"),
    ("article_outline", {"corpus": "gdpr", "label": "Article 33", "lang": "xx"}, "unknown_language"),
    ("get_references", {"corpus": "gdpr", "label": "Article 100"}, "unknown_provision"),
    ("get_provision", {}, "bad_request"),
]


def test_errors_are_typed(gdpr):
    results = calls(stdio(gdpr), *[(tool, arguments) for tool, arguments, _ in ERRORS])
    for result, (tool, _, error) in zip(results, ERRORS, strict=True):
        assert result.is_error and result.structured_content["error"] == error, tool
        assert result.content[0].text.startswith(f"{error}: ") and result.structured_content["message"]


def test_a_refusal_is_a_result_not_an_error(gdpr):
    (result,) = calls(stdio(gdpr), ("ask", {"question": "Which data protection authority in Luxembourg handles complaints?"}))
    assert not result.is_error
    assert (result.structured_content["outcome"], result.structured_content["reason"]) == ("refused", "outside_corpus")
    assert result.structured_content["citations"] == []


def test_stdout_carries_only_the_protocol(gdpr):
    """Raw JSON-RPC over the pipe: every line on stdout is a protocol message, even while the
    model and index load; logs go to stderr."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"query": "consent"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_provision", "arguments": {"corpus": "nope", "label": "Article 1"}}},
    ]
    replies = []
    with subprocess.Popen([sys.executable, "-m", "pincite", "mcp"], env=env_for(gdpr), stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as process:
        for message in messages:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            if "id" in message:
                replies.append(json.loads(process.stdout.readline()))
        process.stdin.close()
        rest = process.stdout.read()
    assert [r["id"] for r in replies] == [1, 2, 3] and all(r["jsonrpc"] == "2.0" for r in replies)
    assert rest.strip() == ""
    assert replies[1]["result"]["structuredContent"]["hits"]
    assert replies[2]["result"]["isError"] is True


def test_every_tool_over_streamable_http(gdpr):
    with mcp_http_server(gdpr) as url:
        tools = listed_tools(url)
        search, outline, error = calls(url, ("search", {"query": "right to erasure", "k": 2}),
                                       ("article_outline", {"corpus": "gdpr", "label": "Article 17"}),
                                       ("get_provision", {"corpus": "gpdr", "label": "Article 17"}))
    assert set(tools) == TOOLS
    assert search.structured_content["hits"][0]["label"].startswith("Article 17")
    assert outline.structured_content["parts"][0]["label"] == "Article 17(1)"
    assert error.is_error and error.structured_content["error"] == "unknown_corpus"


def test_http_transport_refuses_hosts_off_the_allow_list(gdpr):
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    with mcp_http_server(gdpr) as url:
        rebound = httpx.post(url, json=initialize, headers={**headers, "Host": "evil.example:80"})
        allowed = httpx.post(url, json=initialize, headers=headers)
    assert rebound.status_code == 421
    assert allowed.status_code == 200


def test_a_corpus_is_built_on_first_use(mirrored_home):
    from pincite.settings import load_settings

    settings = load_settings(home=mirrored_home, mirror=CORPORA)
    (result,) = calls(stdio(settings), ("get_provision", {"corpus": "ai-act", "label": "Annex III, point 4", "lang": "it"}))
    assert not result.is_error
    assert result.structured_content["provisions"][0]["label_local"] == "Allegato III, punto 4"


def test_a_first_build_is_reported_as_progress_notifications(mirrored_home):
    from pincite.settings import load_settings

    settings = load_settings(home=mirrored_home, mirror=CORPORA, embed_model_path=need_shared(MODEL))
    heard = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        heard.append((value, total, message))

    async def run():
        async with Client(stdio(settings), read_timeout_seconds=120) as client:
            return await client.call_tool("search", {"query": "data intermediation service", "corpus": "dga"},
                                          progress_callback=progress)
    result = anyio.run(run)
    assert not result.is_error and result.structured_content["hits"]
    messages = [message for _, _, message in heard]
    assert messages[:3] == ["dga/en: fetch", "dga/en: parse", "dga/en: check 0/226"]
    assert "dga/en: embed 307/307" in messages and messages[-1] == "dga/en: write 0/307"
    assert [value for value, _, _ in heard] == list(range(1, len(heard) + 1))  # progress only grows
