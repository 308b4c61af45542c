"""Agent mode through the real `openai` and `anthropic` SDKs, against the scripted loopback server of
test_llm.py, which here also issues tool calls: a normal run (search → get_provision → get_references →
answer), a budget overrun, a tool error, a citation to text never fetched, malformed tool calls. The tools
run against a real SQLite index of the GDPR."""

from __future__ import annotations

import json

import pytest

from pincite.answer.agent import SYSTEM_AGENT, TOOLS
from pincite.answer.pipeline import answerer_for
from pincite.errors import ConfigError
from pincite.service import Pincite
from pincite.settings import load_settings
from tests.conftest import service_for
from tests.test_llm import Scripted, model, said, server  # noqa: F401 - server: the scripted-server fixture

PROVIDERS = ["openai", "anthropic"]
DPO = "When must a controller designate a data protection officer?"
DUTY = {"sentence": "The controller and the processor shall designate a data protection officer in any case where "
                    "the processing is carried out by a public authority or body.", "citations": ["Article 37(1)"]}
FINE = {"sentence": "Infringements of the obligations of the controller and the processor are subject to "
                    "administrative fines up to 10 000 000 EUR, or in the case of an undertaking, up to 2 % of the "
                    "total worldwide annual turnover of the preceding financial year, whichever is higher.",
        "citations": ["Article 83(4)"]}


def called(*calls: tuple[str, dict | str], tokens_in: int = 500, tokens_out: int = 20):
    """A model reply asking for tools, in whichever format the request came in. A call's arguments
    are a dict, or a string sent as it is (malformed JSON)."""
    def reply(body: dict):
        turn = len(body["messages"])
        if "system" in body:
            content = [{"type": "tool_use", "id": f"toolu_{turn}_{i}", "name": name, "input": args}
                       for i, (name, args) in enumerate(calls)]
            return 200, {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
                         "content": content, "stop_reason": "tool_use", "stop_sequence": None,
                         "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out}}, {}
        tool_calls = [{"id": f"call_{turn}_{i}", "type": "function",
                       "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
                      for i, (name, args) in enumerate(calls)]
        return 200, {"id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": None, "tool_calls": tool_calls},
                                  "finish_reason": "tool_calls"}],
                     "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out,
                               "total_tokens": tokens_in + tokens_out}}, {}
    return reply


def results(scripted: Scripted, n: int) -> list[tuple[str, bool | None]]:
    """The tool results request `n` carried back to the model: (content, is_error; None where the
    API has no such flag)."""
    body = scripted.requests[n]["body"]
    if "system" in body:
        return [(b["content"], b["is_error"]) for m in body["messages"] if m["role"] == "user"
                for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    return [(m["content"], None) for m in body["messages"] if m["role"] == "tool"]


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr")


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def ask(gdpr, server, sleeps):  # noqa: F811 - server is the imported fixture
    opened = []

    def run(question: str = DPO, provider: str = "openai", **settings) -> dict:
        llm = model(server, sleeps, provider)
        opened.append(llm)
        config = gdpr.model_copy(update={"answer_mode": "agent", "ask_log": False, **settings})
        return service_for(config, llm=llm).ask(question, corpus="gdpr")

    yield run
    for llm in opened:
        llm.close()


NORMAL = [called(("search", {"query": "designate a data protection officer"})),
          called(("get_provision", {"label": "Article 37(1)"})),
          called(("get_references", {"label": "Article 37"})),
          called(("get_provision", {"id": "gdpr/en/art-83.par-4"})),
          said({"answer": [DUTY, FINE]})]


# -- a normal run ---------------------------------------------------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_normal_run_is_answered_citing_what_it_read(ask, server, provider):  # noqa: F811
    server.replies = list(NORMAL)
    document = ask(provider=provider)
    assert (document["outcome"], [c["id"] for c in document["citations"]]) == (
        "answered", ["gdpr/en/art-37.par-1", "gdpr/en/art-83.par-4"])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_run_reports_tool_calls_tokens_cost_and_latency(ask, server, provider):  # noqa: F811
    server.replies = list(NORMAL)
    run = ask(provider=provider)["run"]
    assert (run["mode"], run["tool_calls"], run["tool_budget"], run["stopped"]) == ("agent", 4, 6, None)
    assert [t["tool"] for t in run["tools"]] == ["search", "get_provision", "get_references", "get_provision"]
    assert all(t["ok"] for t in run["tools"])
    assert (run["tokens_in"], run["tokens_out"]) == (4 * 500 + 1000, 4 * 20 + 50)
    assert run["cost_usd"] > 0 and run["latency_ms"] > 0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_get_references_shows_the_fine_that_cites_the_duty(ask, server, provider):  # noqa: F811
    server.replies = list(NORMAL)
    ask(provider=provider)
    references = json.loads(results(server, 3)[-1][0])
    assert "gdpr/en/art-83.par-4" in [r["id"] for r in references["cited_by"]]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_model_is_offered_the_four_tools_and_the_constant_prompt(ask, server, provider):  # noqa: F811
    server.replies = list(NORMAL)
    ask(provider=provider)
    body = server.requests[0]["body"]
    names = [t["name"] if provider == "anthropic" else t["function"]["name"] for t in body["tools"]]
    system = body["system"] if provider == "anthropic" else body["messages"][0]["content"]
    assert (names, system) == ([t["name"] for t in TOOLS], SYSTEM_AGENT)


def test_openai_tool_results_answer_their_call_ids(ask, server):  # noqa: F811
    server.replies = list(NORMAL)
    ask()
    messages = server.requests[1]["body"]["messages"]
    asked = messages[-2]["tool_calls"][0]
    assert (asked["function"]["name"], messages[-1]["role"], messages[-1]["tool_call_id"]) == (
        "search", "tool", asked["id"])


def test_anthropic_tool_results_answer_their_tool_use_ids(ask, server):  # noqa: F811
    server.replies = list(NORMAL)
    ask(provider="anthropic")
    messages = server.requests[1]["body"]["messages"]
    used, answered = messages[-2]["content"][-1], messages[-1]["content"][0]
    assert (used["type"], answered["type"], answered["tool_use_id"]) == ("tool_use", "tool_result", used["id"])


def test_the_provision_read_reaches_the_model_in_full(ask, server):  # noqa: F811
    server.replies = list(NORMAL)
    ask()
    provisions = json.loads(results(server, 2)[-1][0])["provisions"]
    assert [p["label"] for p in provisions] == ["Article 37(1)"] and "(c) the core activities" in provisions[0]["text"]


# -- budgets ----------------------------------------------------------------------------------------

def searching(n: int) -> list:
    return [called(("search", {"query": f"data protection officer {i}"})) for i in range(n)]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_model_that_keeps_calling_past_the_budget_is_stopped(ask, server, provider):  # noqa: F811
    server.replies = searching(4)
    document = ask(provider=provider, agent_tool_calls=2)
    assert (document["outcome"], document["reason"], document["citations"]) == ("refused", "tool_budget", [])
    assert (document["run"]["tool_calls"], document["run"]["stopped"], len(server.requests)) == (2, "tool_budget", 3)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_turn_after_the_budget_forbids_tools(ask, server, provider):  # noqa: F811
    server.replies = searching(4)
    ask(provider=provider, agent_tool_calls=2)
    choices = [r["body"]["tool_choice"] for r in server.requests]
    assert choices == (["auto", "auto", "none"] if provider == "openai" else [{"type": "auto"}] * 2 + [{"type": "none"}])


@pytest.mark.parametrize("provider", PROVIDERS)
def test_calls_past_the_budget_are_not_run_and_the_answer_comes_from_what_was_read(ask, server, provider):  # noqa: F811
    server.replies = [called(("get_provision", {"label": "Article 37(1)"})),
                      called(("search", {"query": "fine"}), ("get_provision", {"label": "Article 83(4)"})),
                      said({"answer": [DUTY]})]
    document = ask(provider=provider, agent_tool_calls=2)
    run = document["run"]
    assert (document["outcome"], [c["label"] for c in document["citations"]]) == ("answered", ["Article 37(1)"])
    assert (run["tool_calls"], run["stopped"], [t["error"] for t in run["tools"]]) == (
        2, "tool_budget", [None, None, "over_budget"])
    assert "tool budget spent" in results(server, 2)[-1][0]


def test_a_run_past_the_token_budget_is_refused(ask, server):  # noqa: F811
    server.replies = searching(3)
    document = ask(agent_token_budget=1000)  # each scripted turn costs 520 tokens
    assert (document["reason"], document["run"]["stopped"], len(server.requests)) == ("token_budget", "token_budget", 2)


# -- tool errors and malformed calls ----------------------------------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_unknown_provision_is_an_error_result_and_the_model_goes_on(ask, server, provider):  # noqa: F811
    server.replies = [called(("get_provision", {"label": "Article 99(9)"})),
                      called(("get_provision", {"label": "Article 37(1)"})), said({"answer": [DUTY]})]
    document = ask(provider=provider)
    content, is_error = results(server, 1)[-1]
    assert content.startswith("unknown_provision: ") and is_error in (True, None)
    assert (document["outcome"], [t["error"] for t in document["run"]["tools"]]) == (
        "answered", ["unknown_provision", None])


def test_a_provision_of_another_corpus_is_not_read(ask, server):  # noqa: F811
    server.replies = [called(("get_provision", {"id": "ai-act/en/art-6.par-1"})), said({"refuse": "not found"})]
    document = ask()
    assert (results(server, 1)[-1][0].startswith("unknown_provision: "), document["reason"]) == (True, "model_declined")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_malformed_calls_get_error_results_and_no_traceback(ask, server, provider):  # noqa: F811
    bad_json = "{\"label\": \"Article 37(1)\"" if provider == "openai" else "Article 37(1)"  # Anthropic: not an object
    server.replies = [called(("get_provision", bad_json), ("delete_corpus", {"name": "gdpr"}),
                             ("search", {"query": 37})),
                      called(("get_provision", {"label": "Article 37(1)"})), said({"answer": [DUTY]})]
    document = ask(provider=provider)
    errors = [content.split(":")[0] for content, _ in results(server, 1)]
    assert errors == ["bad_arguments", "unknown_tool", "bad_arguments"]
    assert (document["outcome"], document["run"]["tool_calls"]) == ("answered", 4)


def test_an_unreadable_label_is_an_error_result(ask, server):  # noqa: F811
    server.replies = [called(("article_outline", {"label": "the fines article"})), said({"refuse": "no"})]
    document = ask()
    assert (document["run"]["tools"][0]["ok"], document["reason"]) == (False, "model_declined")


# -- citations to text never fetched ------------------------------------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_citation_to_a_provision_never_read_is_revised_then_refused(ask, server, provider):  # noqa: F811
    # Article 37(1) comes back in the search hits, as a snippet, but get_provision never returns it.
    server.replies = [called(("search", {"query": "designate a data protection officer", "k": 10})),
                      said({"answer": [DUTY]}), said({"answer": [DUTY]})]
    document = ask(provider=provider)
    assert "gdpr/en/art-37.par-1" in results(server, 1)[-1][0]
    assert (document["outcome"], document["reason"], document["citations"], len(server.requests)) == (
        "refused", "unsupported_citation", [], 3)


def test_the_revision_request_names_the_citation_never_read(ask, server):  # noqa: F811
    server.replies = [called(("search", {"query": "designate a data protection officer"})),
                      said({"answer": [DUTY]}), said({"answer": [DUTY]})]
    ask()
    revision = server.requests[2]["body"]["messages"][-1]["content"]
    assert "unsupported_citation" in revision and "'Article 37(1)'" in revision


def test_a_revision_may_read_the_provision_and_pass(ask, server):  # noqa: F811
    server.replies = [said({"answer": [DUTY]}), called(("get_provision", {"label": "Article 37(1)"})),
                      said({"answer": [DUTY]})]
    assert ask()["outcome"] == "answered"


def test_a_reply_without_json_twice_is_a_model_error(ask, server):  # noqa: F811
    server.replies = [said("The DPO must be designated."), said("Still no JSON.")]
    assert ask()["reason"] == "model_error"


# -- configuration ----------------------------------------------------------------------------------

def test_agent_mode_needs_a_model():
    with pytest.raises(ConfigError, match="needs a model"):
        answerer_for("agent", None)


def test_the_notice_says_the_model_read_through_tools(ask, server):  # noqa: F811
    server.replies = list(NORMAL)
    assert "tools" in ask()["notice"]


def test_mode_and_budget_come_from_the_environment(gdpr, server, monkeypatch):  # noqa: F811
    for name, value in {"PINCITE_ANSWER_MODE": "agent", "PINCITE_AGENT_TOOL_CALLS": "1", "PINCITE_ASK_LOG": "false",
                        "PINCITE_LLM": "openai:gpt-4.1-mini", "PINCITE_LLM_BASE_URL": f"{server.url}/v1",
                        "OPENAI_API_KEY": "test-key"}.items():
        monkeypatch.setenv(name, value)
    settings = load_settings(home=gdpr.home, mirror=gdpr.mirror, embed_model_path=gdpr.embed_model_path)
    server.replies = searching(3)
    with Pincite(settings) as pincite:
        run = pincite.ask(DPO, corpus="gdpr")["run"]
    assert (run["mode"], run["tool_budget"], run["tool_calls"], run["stopped"]) == ("agent", 1, 1, "tool_budget")
