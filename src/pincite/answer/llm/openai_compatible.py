"""Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, llama.cpp …) through the `openai` SDK."""

from __future__ import annotations

from pincite.answer.llm.base import LLMConfig, register_provider, sdk_client


class OpenAICompatible:
    def __init__(self, config: LLMConfig):
        self.config = config
        self.client = sdk_client("openai", "OpenAI", config)

    def complete(self, system: str, messages: list[dict]) -> tuple[str, int, int]:
        response = self.client.chat.completions.create(
            model=self.config.model, max_tokens=self.config.max_tokens,
            messages=[{"role": "system", "content": system}, *messages])
        text = response.choices[0].message.content if response.choices else None
        usage = response.usage
        return text or "", getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0

    def close(self) -> None:
        self.client.close()


register_provider("openai", OpenAICompatible)
register_provider("ollama", OpenAICompatible)  # Ollama serves the OpenAI API at /v1
