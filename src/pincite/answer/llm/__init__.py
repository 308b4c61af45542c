"""Language models through the official SDKs: any OpenAI-compatible endpoint, and Anthropic.

`PINCITE_LLM=provider:model` picks one — `openai:gpt-4.1-mini`, `ollama:qwen2.5:7b` (Ollama's
OpenAI-compatible endpoint), `anthropic:claude-haiku-4-5`. Base URL and key come from
`PINCITE_LLM_BASE_URL` / `PINCITE_LLM_API_KEY`, or the SDK's own variables (`OPENAI_BASE_URL`,
`OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`).

Reliability is ours, not the SDK's (its retries are turned off so the policy is one place):
429 and 413 (rate and token-per-minute limits) back off exponentially with jitter, bounded,
honouring Retry-After; 5xx, timeouts and dropped connections retry the same way;
authentication and bad requests fail at once with a message saying what to fix; an output
that does not parse is asked for again once, at once. Every call reports tokens in and out,
cost in USD where the price is known, and latency.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable

from pincite.answer.llm import anthropic_messages, openai_compatible  # noqa: F401  (register the providers)
from pincite.answer.llm.base import (
    FAIL_FAST_STATUS,
    OLLAMA_URL,
    PROVIDER_TYPES,
    LLMConfig,
    MalformedOutput,
    ModelError,
    Provider,
    ToolCall,
    ToolResult,
    Turn,
    Usage,
    add_usage,
    price,
)
from pincite.errors import ConfigError


def parse_spec(spec: str) -> tuple[str, str]:
    """'openai:gpt-4.1-mini' → ('openai', 'gpt-4.1-mini'); the model may contain colons."""
    provider, _, model = spec.strip().partition(":")
    provider = provider.lower()
    if provider not in PROVIDER_TYPES or not model:
        raise ConfigError(f"PINCITE_LLM={spec!r} is not provider:model — use e.g. openai:gpt-4.1-mini, "
                          f"ollama:qwen2.5:7b or anthropic:claude-haiku-4-5")
    return provider, model


def config_from_settings(settings) -> LLMConfig | None:
    """The configured model, or None for extractive answers."""
    if not settings.llm:
        return None
    provider, model = parse_spec(settings.llm)
    env = {"openai": ("OPENAI_BASE_URL", "OPENAI_API_KEY"), "ollama": ("OLLAMA_BASE_URL", "OLLAMA_API_KEY"),
           "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")}[provider]
    base_url = settings.llm_base_url or os.environ.get(env[0]) or (OLLAMA_URL if provider == "ollama" else None)
    api_key = os.environ.get("PINCITE_LLM_API_KEY") or os.environ.get(env[1])
    if provider == "ollama":
        api_key = api_key or "ollama"  # the SDK insists on a key; Ollama ignores it
    if not api_key:
        raise ConfigError(f"{provider} needs an API key — set {env[1]} (or PINCITE_LLM_API_KEY), "
                          f"or unset PINCITE_LLM for extractive answers")
    return LLMConfig(provider, model, base_url, api_key, settings.llm_timeout, settings.llm_max_retries,
                     settings.llm_backoff, settings.llm_backoff_max, settings.llm_max_tokens)


# -- one configured model, with the retry policy ------------------------------------------

class LLM:
    """A configured model. `complete` returns text and usage; `complete_json` also parses it."""

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep):
        self.config = config
        self.sleep = sleep
        self._client: Provider | None = None

    def client(self) -> Provider:
        if self._client is None:
            self._client = PROVIDER_TYPES[self.config.provider](self.config)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def complete(self, system: str, messages: list[dict]) -> tuple[str, Usage]:
        return self._call(lambda client: client.complete(system, messages))

    def converse(self, system: str, messages: list[dict], tools: list[dict], *,
                 use_tools: bool = True) -> tuple[Turn, Usage]:
        """One turn of a conversation with tools (Provider.converse), under the same retry policy."""
        return self._call(lambda client: client.converse(system, messages, tools, use_tools=use_tools))

    def _call(self, request: Callable[[Provider], tuple]) -> tuple:
        started, retries = time.perf_counter(), 0
        while True:
            try:
                reply, tokens_in, tokens_out = request(self.client())
                break
            except Exception as exc:  # SDK errors are classified here, at the boundary
                try:
                    delay = self._retry_delay(exc, retries)
                except ModelError as error:  # what the failed calls cost is still reported
                    latency = round((time.perf_counter() - started) * 1000, 1)
                    error.usage = Usage(self.config.model, 0, 0, price(self.config.provider, self.config.model, 0, 0),
                                        latency, retries + 1, retries)
                    raise
                retries += 1
                self.sleep(delay)
        latency = (time.perf_counter() - started) * 1000
        cost = price(self.config.provider, self.config.model, tokens_in, tokens_out)
        return reply, Usage(self.config.model, tokens_in, tokens_out, cost, round(latency, 1), 1, retries)

    def _retry_delay(self, exc: Exception, retries: int) -> float:
        """How long to wait before trying again, or raise ModelError when we should not."""
        status = _status(exc)
        if status in FAIL_FAST_STATUS:
            raise ModelError(f"{self.config.provider}: {FAIL_FAST_STATUS[status]} ({status}: {_message(exc)}) — "
                             f"{_fix(status, self.config)}") from exc
        if status is None and not _transient(exc):
            raise ModelError(f"{self.config.provider}: {type(exc).__name__}: {_message(exc)} — "
                             f"check PINCITE_LLM and the endpoint") from exc
        if retries >= self.config.max_retries:
            what = f"HTTP {status}" if status else type(exc).__name__
            raise ModelError(f"{self.config.provider}: still failing after {retries + 1} tries ({what}) — "
                             f"wait and try again, or ask a shorter question") from exc
        backoff = min(self.config.backoff_max, self.config.backoff * 2 ** retries)
        wait = backoff * (0.5 + random.random() / 2)  # jitter: clients that failed together do not retry together
        told = _retry_after(exc)
        return min(told, self.config.backoff_max) if told is not None else wait

    def complete_json(self, system: str, messages: list[dict], check: Callable[[dict], object]):
        """A JSON object checked by `check` (which raises ValueError on the wrong shape); a
        malformed reply is asked for again once, at once. Returns (check's result, raw, usage)."""
        text, usage = self.complete(system, messages)
        try:
            return check(parse_json(text)), text, usage
        except ValueError:
            pass
        try:
            text, more = self.complete(system, messages)
        except ModelError as error:
            error.usage = add_usage(usage, error.usage) if error.usage else usage
            raise
        usage = add_usage(usage, more)
        try:
            return check(parse_json(text)), text, usage
        except ValueError as exc:
            malformed = MalformedOutput(f"{self.config.provider}: the model twice replied without the JSON asked for "
                                        f"({exc}) — try another model")
            malformed.usage = usage  # two replies were paid for
            raise malformed from exc


def _status(exc: Exception) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def _transient(exc: Exception) -> bool:
    """Timeouts and dropped connections, whatever SDK raised them."""
    names = {c.__name__ for c in type(exc).__mro__}
    return bool(names & {"APITimeoutError", "APIConnectionError", "TimeoutError", "ConnectionError"})


def _message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])[:200]
    return str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__


def _fix(status: int, config: LLMConfig) -> str:
    if status in (401, 403):
        variable = "ANTHROPIC_API_KEY" if config.provider == "anthropic" else "OPENAI_API_KEY"
        return f"check {variable} (or PINCITE_LLM_API_KEY)"
    if status == 404:
        return f"check the model name in PINCITE_LLM ({config.model!r}) and PINCITE_LLM_BASE_URL"
    return "check PINCITE_LLM and PINCITE_LLM_MAX_TOKENS"


def _retry_after(exc: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After, or retry-after-ms), if it said."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue  # an HTTP date: fall back to our own backoff
    return None


def parse_json(text: str) -> dict:
    """The JSON object in a model reply, tolerating a Markdown fence or words around it."""
    text = (text or "").strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the reply")
    try:
        value = json.loads(text[start:end + 1])
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc.msg}") from exc
    if not isinstance(value, dict):
        raise ValueError("the reply is not a JSON object")
    return value


def llm_from_settings(settings, *, sleep: Callable[[float], None] = time.sleep) -> LLM | None:
    config = config_from_settings(settings)
    return None if config is None else LLM(config, sleep=sleep)


__all__ = ["LLM", "LLMConfig", "MalformedOutput", "ModelError", "Provider", "ToolCall", "ToolResult", "Turn",
           "Usage", "add_usage",
           "config_from_settings", "llm_from_settings", "parse_json", "parse_spec", "price"]
