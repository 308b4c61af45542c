"""What a remote client is told about an error: its message without the server's own paths.

The CLI shows paths (they are the user's own files); the HTTP API and the MCP server answer
clients who have no business knowing where the data directory, the mirror or an upload lives.
"""

from __future__ import annotations

import re

from pincite.settings import Settings

# An absolute path or file:// URI standing on its own (not the tail of `gdpr/en` or of a URL).
_PATH = re.compile(r"""(?<![\w:/.~-])(?:file://)?/(?:[^\s'"(),;]+)""")


def public_message(message: str, settings: Settings) -> str:
    if settings.mirror:  # a file in the mirror by its place there (`32022R0868/en.html`), which says which act
        mirror = re.escape(str(settings.mirror).rstrip("/"))
        message = re.sub(rf"(?:file://)?{mirror}/(?=[^\s/'\"(),;]+/[^\s/'\"(),;]+)", "", message)
    for root in sorted({str(p) for p in (settings.home, settings.mirror) if p}, key=len, reverse=True):
        message = message.replace(root, "…")
    return _PATH.sub(_name_only, message)


def _name_only(match: re.Match) -> str:
    """`/srv/pincite/uploads/x.pdf` → `x.pdf`: the last part says which file without saying where."""
    tail = match.group(0).rstrip("/").rsplit("/", 1)[-1]
    return tail or "…"
