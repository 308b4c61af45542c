"""Anthropic's Messages API through the `anthropic` SDK."""

from __future__ import annotations

import json

from pincite.answer.llm.base import LLMConfig, ToolCall, Turn, register_provider, sdk_client


class AnthropicMessages:
    def __init__(self, config: LLMConfig):
        self.config = config
        self.client = sdk_client("anthropic", "Anthropic", config)

    def complete(self, system: str, messages: list[dict]) -> tuple[str, int, int]:
        response = self.client.messages.create(model=self.config.model, max_tokens=self.config.max_tokens,
                                               system=system, messages=messages)
        return _text(response), *_tokens(response)

    def converse(self, system: str, messages: list[dict], tools: list[dict], *,
                 use_tools: bool = True) -> tuple[Turn, int, int]:
        response = self.client.messages.create(
            model=self.config.model, max_tokens=self.config.max_tokens, system=system,
            messages=_messages(messages),
            tools=[{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
                   for t in tools],
            tool_choice={"type": "auto"} if use_tools else {"type": "none"})
        calls = tuple(ToolCall(b.id, b.name, json.dumps(b.input, ensure_ascii=False))
                      for b in response.content if b.type == "tool_use")
        return Turn(_text(response), calls), *_tokens(response)

    def close(self) -> None:
        self.client.close()


def _text(response) -> str:
    return "".join(getattr(block, "text", "") for block in response.content if block.type == "text")


def _tokens(response) -> tuple[int, int]:
    usage = response.usage
    return getattr(usage, "input_tokens", 0) or 0, getattr(usage, "output_tokens", 0) or 0


def _messages(messages: list[dict]) -> list[dict]:
    """pincite's conversation as Messages API turns: calls as `tool_use` blocks, results as
    `tool_result` blocks in the next user turn (consecutive user turns merged, as roles alternate)."""
    out: list[dict] = []
    for m in messages:
        if m["role"] == "tool":
            role, blocks = "user", [{"type": "tool_result", "tool_use_id": r.id, "content": r.content,
                                     "is_error": r.is_error} for r in m["results"]]
        elif m["role"] == "assistant":
            role = "assistant"
            blocks = ([{"type": "text", "text": m["content"]}] if m["content"] else []) + [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": _input(c.arguments)}
                for c in m.get("calls", ())]
        else:
            role, blocks = m["role"], [{"type": "text", "text": m["content"]}]
        if not blocks:
            continue  # an empty reply: the API takes no empty turn, and the next user turn says why
        if out and out[-1]["role"] == role:
            out[-1]["content"] += blocks
        else:
            out.append({"role": role, "content": blocks})
    return out


def _input(arguments: str) -> dict:
    """A call's input as the API takes it back: an object (a malformed one was answered with an error)."""
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


register_provider("anthropic", AnthropicMessages)
