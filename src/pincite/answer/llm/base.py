"""What every model provider shares: the configuration, usage and cost, errors, and the
Provider seam with its registry (one module per API registers itself)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol
from urllib.parse import urlparse

from pincite.errors import ConfigError, PinciteError

OLLAMA_URL = "http://localhost:11434/v1"
RETRY_STATUS = frozenset({408, 409, 413, 429, 500, 502, 503, 504, 529})
FAIL_FAST_STATUS = {400: "the request was rejected", 401: "the API key was refused",
                    403: "the API key may not use this model", 404: "the model or endpoint was not found",
                    422: "the request was rejected"}
# USD per million tokens (input, output), from the providers' price pages; longest prefix wins.
PRICES = {
    "gpt-4.1-nano": (0.10, 0.40), "gpt-4.1-mini": (0.40, 1.60), "gpt-4.1": (2.00, 8.00),
    "gpt-4o-mini": (0.15, 0.60), "gpt-4o": (2.50, 10.00), "o4-mini": (1.10, 4.40),
    "gpt-5-nano": (0.05, 0.40), "gpt-5-mini": (0.25, 2.00), "gpt-5": (1.25, 10.00),
    "claude-3-5-haiku": (0.80, 4.00), "claude-haiku-4-5": (1.00, 5.00), "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00), "claude-opus-4": (15.00, 75.00),
}


class ModelError(PinciteError):
    """A model call failed for good; the message says what to fix. `usage`: what the failed
    calls consumed (tokens of replies that came back, latency, calls), when known."""

    usage: Usage | None = None


class MalformedOutput(ModelError):
    """The model answered twice with something that is not the asked-for shape."""


@dataclass(frozen=True)
class Usage:
    model: str
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None
    latency_ms: float = 0.0
    calls: int = 0
    retries: int = 0


def add_usage(total: Usage | None, more: Usage) -> Usage:
    if total is None:
        return more
    cost = None if total.cost_usd is None or more.cost_usd is None else total.cost_usd + more.cost_usd
    return replace(total, tokens_in=total.tokens_in + more.tokens_in, tokens_out=total.tokens_out + more.tokens_out,
                   cost_usd=cost, latency_ms=total.latency_ms + more.latency_ms, calls=total.calls + more.calls,
                   retries=total.retries + more.retries)


def price(provider: str, model: str, tokens_in: int, tokens_out: int) -> float | None:
    """Cost in USD, 0 for a local Ollama model, None when the price is not known."""
    if provider == "ollama":
        return 0.0
    name = model.split("/")[-1].lower()
    for prefix in sorted(PRICES, key=len, reverse=True):
        if name.startswith(prefix):
            p_in, p_out = PRICES[prefix]
            return round((tokens_in * p_in + tokens_out * p_out) / 1_000_000, 6)
    return None


@dataclass(frozen=True)
class LLMConfig:
    provider: str
    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 60.0
    max_retries: int = 4
    backoff: float = 1.0
    backoff_max: float = 30.0
    max_tokens: int = 800

    @property
    def remote(self) -> bool:
        """Whether questions leave this machine: any endpoint not on loopback."""
        url = self.base_url or (OLLAMA_URL if self.provider == "ollama" else "https://api")
        host = urlparse(url).hostname or ""
        if host == "localhost":
            return False
        try:
            return not ipaddress.ip_address(host).is_loopback
        except ValueError:
            return True

    @property
    def where(self) -> str:
        return self.base_url or {"openai": "api.openai.com", "anthropic": "api.anthropic.com"}.get(
            self.provider, OLLAMA_URL)


# -- providers: one module per API, registered by the name PINCITE_LLM uses -----------------

@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked for. `arguments` is the JSON it wrote, unparsed: it may be malformed."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ToolResult:
    id: str  # the ToolCall's
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class Turn:
    """One reply in a conversation with tools: text, and the tools asked for (none: a final reply)."""

    text: str
    calls: tuple[ToolCall, ...] = ()


class Provider(Protocol):
    """One API, through its official SDK. Errors are the SDK's own: LLM classifies them."""

    def complete(self, system: str, messages: list[dict]) -> tuple[str, int, int]:
        """(reply text, tokens in, tokens out) for one call."""

    def converse(self, system: str, messages: list[dict], tools: list[dict], *,
                 use_tools: bool = True) -> tuple[Turn, int, int]:
        """One turn with tools. `tools`: {"name", "description", "parameters" (JSON Schema)};
        `messages` in pincite's form, which each provider translates to its API's:
        {"role": "user", "content": str}, {"role": "assistant", "content": str, "calls": [ToolCall]},
        {"role": "tool", "results": [ToolResult]}. `use_tools=False` forbids further calls."""

    def close(self) -> None: ...


PROVIDER_TYPES: dict[str, Callable[[LLMConfig], Provider]] = {}


def register_provider(name: str, make: Callable[[LLMConfig], Provider]) -> None:
    PROVIDER_TYPES[name] = make


def sdk(name: str):
    """An SDK module, imported only when a model is configured."""
    try:
        return __import__(name)
    except ImportError as exc:
        raise ConfigError(f"the {name} package is not installed — pip install 'pincite[llm]' "
                          f"(or pip install {name})") from exc


def sdk_client(module: str, client: str, config: LLMConfig):
    """The SDK's client for this endpoint; its own retries are off (LLM applies one policy)."""
    return getattr(sdk(module), client)(api_key=config.api_key, base_url=config.base_url,
                                        timeout=config.timeout, max_retries=0)
