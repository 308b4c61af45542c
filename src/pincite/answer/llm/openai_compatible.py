"""Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp …) through the `openai` SDK."""

from __future__ import annotations

from pincite.answer.llm.base import LLMConfig, ToolCall, Turn, register_provider, sdk_client


class OpenAICompatible:
    def __init__(self, config: LLMConfig):
        self.config = config
        self.client = sdk_client("openai", "OpenAI", config)

    def complete(self, system: str, messages: list[dict]) -> tuple[str, int, int]:
        response = self.client.chat.completions.create(
            model=self.config.model, max_tokens=self.config.max_tokens,
            messages=[{"role": "system", "content": system}, *messages])
        text = response.choices[0].message.content if response.choices else None
        return text or "", *_tokens(response)

    def converse(self, system: str, messages: list[dict], tools: list[dict], *,
                 use_tools: bool = True) -> tuple[Turn, int, int]:
        response = self.client.chat.completions.create(
            model=self.config.model, max_tokens=self.config.max_tokens,
            messages=[{"role": "system", "content": system}, *_messages(messages)],
            tools=[{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                                     "parameters": t["parameters"]}} for t in tools],
            tool_choice="auto" if use_tools else "none")
        message = response.choices[0].message if response.choices else None
        calls = tuple(ToolCall(c.id, c.function.name, c.function.arguments or "")
                      for c in (getattr(message, "tool_calls", None) or []) if getattr(c, "function", None))
        return Turn(getattr(message, "content", None) or "", calls), *_tokens(response)

    def close(self) -> None:
        self.client.close()


def _tokens(response) -> tuple[int, int]:
    usage = response.usage
    return getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0


def _messages(messages: list[dict]) -> list[dict]:
    """pincite's conversation as chat-completions messages: calls as `tool_calls`, each result a
    `tool` message answering its call's id."""
    out = []
    for m in messages:
        if m["role"] == "tool":
            out += [{"role": "tool", "tool_call_id": r.id, "content": r.content} for r in m["results"]]
        elif m["role"] == "assistant" and m.get("calls"):
            out.append({"role": "assistant", "content": m["content"] or None,
                        "tool_calls": [{"id": c.id, "type": "function",
                                        "function": {"name": c.name, "arguments": c.arguments}} for c in m["calls"]]})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


register_provider("openai", OpenAICompatible)
register_provider("ollama", OpenAICompatible)  # Ollama serves the OpenAI API at /v1
