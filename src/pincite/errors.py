"""One error hierarchy. Every message is meant for the user: what went wrong — how to fix it."""


class PinciteError(Exception):
    """Base class; the CLI prints str(error) as one line and exits non-zero."""

    exit_code = 1


class ConfigError(PinciteError):
    """A setting, config file or command-line value is wrong."""

    exit_code = 2


class SourceError(PinciteError):
    """The authoritative bytes could not be fetched or are not what we expected."""


class ParseError(PinciteError):
    """The source could not be parsed into provisions."""


class CorpusCheckError(ParseError):
    """A parsed corpus failed a sanity check; nothing was written."""


class StoreError(PinciteError):
    """The index store is missing, stale or corrupt."""


class CitationError(PinciteError):
    """A citation label could not be parsed."""


class NotFoundError(PinciteError):
    """A corpus, language or provision does not exist."""


class UnknownCorpusError(NotFoundError):
    """No corpus goes by that name or CELEX number."""


class UnknownLanguageError(NotFoundError):
    """The corpus does not exist in that language."""


class UnknownProvisionError(NotFoundError):
    """The corpus has no provision with that id or label."""
