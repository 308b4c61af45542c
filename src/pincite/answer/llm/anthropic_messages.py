"""Anthropic's Messages API through the `anthropic` SDK."""

from __future__ import annotations

from pincite.answer.llm.base import LLMConfig, register_provider, sdk_client


class AnthropicMessages:
    def __init__(self, config: LLMConfig):
        self.config = config
        self.client = sdk_client("anthropic", "Anthropic", config)

    def complete(self, system: str, messages: list[dict]) -> tuple[str, int, int]:
        response = self.client.messages.create(model=self.config.model, max_tokens=self.config.max_tokens,
                                               system=system, messages=messages)
        text = "".join(getattr(block, "text", "") for block in response.content if block.type == "text")
        usage = response.usage
        return text, getattr(usage, "input_tokens", 0) or 0, getattr(usage, "output_tokens", 0) or 0

    def close(self) -> None:
        self.client.close()


register_provider("anthropic", AnthropicMessages)
