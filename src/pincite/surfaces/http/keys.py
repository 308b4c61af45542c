"""Who may use a server: the API-key check every HTTP transport shares (the API and MCP's
streamable HTTP), and the refusal to serve a non-loopback address without keys."""

from __future__ import annotations

import hmac
import ipaddress
import socket

from pincite.errors import ConfigError
from pincite.settings import Settings

UNAUTHORIZED = ("this server needs an API key — send it as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'")


def configured_keys(settings: Settings) -> list[str]:
    return [k.strip() for k in settings.api_keys.split(",") if k.strip()]


def presented_key(headers) -> str | None:
    """The key a request carries (`headers`: a Starlette Headers or any mapping of lower-case names)."""
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip()
    return headers.get("x-api-key") or None


def key_accepted(key: str | None, keys: list[str]) -> bool:
    # compare_digest on every key: the time taken says nothing about how much of a key matched.
    return key is not None and any(hmac.compare_digest(key.encode(), k.encode()) for k in keys)


class RequireKey:
    """ASGI middleware: with keys configured, an HTTP request without a valid key gets 401."""

    def __init__(self, app, keys: list[str]):
        self.app, self.keys = app, keys

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.keys:
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if key_accepted(presented_key(headers), self.keys):
            return await self.app(scope, receive, send)
        from starlette.responses import JSONResponse  # the server's own dependency: only when serving

        response = JSONResponse({"error": "unauthorized", "message": UNAUTHORIZED}, status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})
        await response(scope, receive, send)


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is this machine's own (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(infos) and all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def check_exposure(host: str, settings: Settings, insecure_no_auth: bool) -> None:
    """Refuse to listen beyond this machine with no API keys, unless asked to in so many words."""
    if configured_keys(settings) or insecure_no_auth or is_loopback(host):
        return
    raise ConfigError(f"refusing to serve {host} without API keys: anyone who can reach it could ask, "
                      f"upload and build — set PINCITE_API_KEYS, or pass --insecure-no-auth to serve "
                      f"without keys anyway")
