"""pincite: answers about legislation where every sentence carries a pinpoint citation checked
in code, or a plain refusal.

    import pincite
    answer = pincite.ask("How fast must a personal data breach be notified?", corpus="gdpr")
    hits = pincite.search("right to erasure", corpus="gdpr", k=3)
    report = pincite.verify("Breaches are notified within 72 hours [Article 33(1)].", corpus="gdpr")
    provision = pincite.get_provision("gdpr/en/art-33.par-1")

    with pincite.Pincite(pincite.load_settings(home="/data")) as service:   # one long-lived service
        service.ask("…", corpus="ai-act", lang="it")

The names below are the public API; everything else may change. Imports are lazy, so
`import pincite` stays cheap for commands that need none of the heavy parts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__all__ = [
    "Citation", "CitationError", "ConfigError", "NotFoundError", "Pincite", "PinciteError", "Provision",
    "Settings", "ask", "format_label", "get_provision", "load_settings", "parse_label", "search",
    "verify",
]

_HOMES = {
    "Citation": "pincite.citations", "format_label": "pincite.citations", "parse_label": "pincite.citations",
    "CitationError": "pincite.errors", "ConfigError": "pincite.errors", "NotFoundError": "pincite.errors",
    "PinciteError": "pincite.errors", "Pincite": "pincite.service", "Provision": "pincite.provisions",
    "Settings": "pincite.settings", "load_settings": "pincite.settings",
}

if TYPE_CHECKING:  # pragma: no cover
    from pincite.citations import Citation, format_label, parse_label
    from pincite.errors import CitationError, ConfigError, NotFoundError, PinciteError
    from pincite.provisions import Provision
    from pincite.service import Pincite
    from pincite.settings import Settings, load_settings

_default = None


def __getattr__(name: str):
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'pincite' has no attribute {name!r}")


def _service(settings=None):
    """The service the module-level functions use: one per process, from the environment's
    settings unless others are given."""
    global _default
    from pincite.service import Pincite  # lazy: `import pincite` stays light

    if settings is not None:
        return Pincite(settings)
    if _default is None:
        _default = Pincite()
    return _default


def ask(question: str, *, corpus: str = "gdpr", lang: str | None = None, thread: str | None = None,
        settings=None) -> dict:
    """The answer document (as `pincite ask --json` prints it): every sentence cited, or a refusal with its reason."""
    return _service(settings).ask(question, corpus=corpus, lang=lang, thread=thread)


def search(query: str, *, corpus: str | list[str] = "gdpr", lang: str | None = None, k: int = 5,
           mode: str | None = None, settings=None) -> dict:
    """The search document: the provisions that best match a query, a named provision first."""
    return _service(settings).search_document(query, corpus=corpus, lang=lang, k=k, mode=mode)


def _verify_text(text: str, *, corpus: str = "gdpr", lang: str | None = None, settings=None,
                 second_opinion: bool | None = None) -> dict:
    """The verification document: each sentence of `text`, whether the provisions its bracketed
    citations name support it, and the reason when they do not (`second_opinion`: also ask the
    configured model; by default, when one is configured)."""
    return _service(settings).verify(text, corpus=corpus, lang=lang, second_opinion=second_opinion)


# `pincite.verify` is also the verify stage's package, which replaces this attribute once imported; the
# package is callable (pincite/verify/__init__.py) and calls _verify_text, so either is `pincite.verify`.
verify = _verify_text


def get_provision(provision_id: str, *, settings=None) -> dict:
    """One provision by id (`gdpr/en/art-33.par-1`), full text included."""
    return _service(settings).get_provision(provision_id)
