"""One error hierarchy. Every message is meant for the user: what went wrong — how to fix it.

Each class carries what the surfaces report for it: `code` (the typed name in HTTP and MCP
error documents), `http_status`, and `exit_code` for the CLI.
"""


class PinciteError(Exception):
    """Base class; the CLI prints str(error) as one line and exits non-zero."""

    exit_code = 1
    code = "error"
    http_status = 500

    def __init_subclass__(cls, *, code: str | None = None, http_status: int | None = None,
                          exit_code: int | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, value in (("code", code), ("http_status", http_status), ("exit_code", exit_code)):
            if value is not None:
                setattr(cls, name, value)


class ConfigError(PinciteError, code="bad_request", http_status=400, exit_code=2):
    """A setting, config file or command-line value is wrong."""


class SourceError(PinciteError, code="source_unavailable", http_status=502):
    """The authoritative bytes could not be fetched or are not what we expected."""


class NotInMirrorError(SourceError, code="not_in_mirror", http_status=404):
    """The mirror directory has no file for that corpus language: on a server, not available here."""


class ParseError(PinciteError, code="parse_error"):
    """The source could not be parsed into provisions."""


class CorpusCheckError(ParseError):
    """A parsed corpus failed a sanity check; nothing was written."""


class StoreError(PinciteError, code="store_unavailable", http_status=503):
    """The index store is missing, stale or corrupt."""


class WriteError(PinciteError, code="write_failed", http_status=507):
    """A file under the data directory could not be written (a full disk, no permission); the
    previous file is intact."""


class LockedError(PinciteError, code="locked", http_status=503):
    """Another process holds the data directory's lock (fetching, building, indexing) too long."""


class CitationError(PinciteError, code="bad_label", http_status=400):
    """A citation label could not be parsed."""


class NotFoundError(PinciteError, code="not_found", http_status=404):
    """A corpus, language or provision does not exist."""


class UnknownCorpusError(NotFoundError, code="unknown_corpus"):
    """No corpus goes by that name or CELEX number."""


class UnknownLanguageError(NotFoundError, code="unknown_language"):
    """The corpus does not exist in that language."""


class UnknownProvisionError(NotFoundError, code="unknown_provision"):
    """The corpus has no provision with that id or label."""


def error_code(exc: BaseException) -> str:
    """The typed name a surface reports: 'unknown_corpus', 'bad_label', …; 'internal_error'
    for anything that is not a PinciteError (a bug: its details stay in the server's log)."""
    return exc.code if isinstance(exc, PinciteError) else "internal_error"
