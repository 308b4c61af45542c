"""Who may use a server, and what its answers and logs never give away: API keys on every HTTP
transport, no unauthenticated server beyond loopback, uploads behind a key, no server paths in
upload errors, no client addresses in the access log. Real servers on loopback throughout."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import httpx
import pytest

from tests.conftest import MODEL, need_shared
from tests.live_server import env_for, http_server, mcp_http_server

pytest.importorskip("fastapi")

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def settings(home):
    from pincite.settings import load_settings

    return load_settings(home=home, embed_model_path=need_shared(MODEL), rate_limit_per_minute=0)


def test_the_mcp_http_transport_needs_a_key_when_keys_are_set(settings):
    with mcp_http_server(settings, PINCITE_API_KEYS="k-one,k-two") as url:
        missing = httpx.post(url, json=INITIALIZE, headers=MCP_HEADERS)
        wrong = httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": "Bearer k-three"})
        non_ascii = httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "X-API-Key": "clé".encode()})
        right = httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": "Bearer k-two"})
    assert [missing.status_code, wrong.status_code, non_ascii.status_code] == [401, 401, 401]
    assert missing.json()["error"] == "unauthorized" and missing.headers["www-authenticate"] == "Bearer"
    assert right.status_code == 200


def test_a_non_ascii_key_is_refused_by_the_api_not_a_crash(settings):
    with http_server(settings.model_copy(update={"api_keys": "k-one"})) as url:
        response = httpx.get(url + "/corpora", headers={"X-API-Key": "clé".encode()})
    assert (response.status_code, response.json()["error"]) == (401, "unauthorized")


def test_uploads_need_a_key_when_keys_are_set(settings):
    with http_server(settings.model_copy(update={"api_keys": "k-one"})) as url, httpx.Client(base_url=url) as client:
        anonymous = client.post("/corpora/pdf", params={"filename": "notes.pdf"}, content=b"%PDF-1.4 x")
        keyed = client.post("/corpora/pdf", params={"filename": "notes.pdf"}, content=b"not a pdf",
                            headers={"X-API-Key": "k-one"})
    assert anonymous.status_code == 401
    assert keyed.status_code == 400  # past the key: refused for what it is, not who sent it
    assert not (settings.home / "uploads").exists() or not list((settings.home / "uploads").iterdir())


def _run(settings, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pincite", *args], env={**env_for(settings), **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_serving_beyond_loopback_without_keys_is_refused_in_one_line(settings, command):
    refused = _run(settings, *command, "--host", "0.0.0.0", "--port", "0")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines()[-1].startswith("error: refusing to serve 0.0.0.0 without API keys")
    assert "--insecure-no-auth" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
@pytest.mark.parametrize("how", ["flag", "keys"])
def test_serving_beyond_loopback_starts_with_keys_or_the_explicit_flag(settings, command, how):
    extra, env = (["--insecure-no-auth"], {}) if how == "flag" else ([], {"PINCITE_API_KEYS": "k-one"})
    argv = [sys.executable, "-m", "pincite", *command, "--host", "0.0.0.0", "--port", "0", *extra]
    with subprocess.Popen(argv, env={**env_for(settings), **env}, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True) as process:
        try:
            line = process.stderr.readline()
        finally:
            process.terminate()
            process.wait(10)
    assert re.search(r"http://0\.0\.0\.0:\d+", line), line


def test_loopback_needs_no_keys(settings):
    from pincite.surfaces.http.keys import check_exposure, is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.7")
    check_exposure("127.0.0.1", settings, insecure_no_auth=False)  # no error


def _bad_uploads(tmp_path) -> dict[str, bytes]:
    from tests.pdf_fixtures import paged_pdf, scanned_pdf

    good = paged_pdf(tmp_path / "good.pdf").read_bytes()
    return {"not a pdf": b"just text, no PDF", "empty": b"", "truncated": good[: len(good) // 2],
            "no text layer": scanned_pdf(tmp_path / "scan.pdf").read_bytes(),
            "too large": b"%PDF-1.4\n" + b"0" * 2_000_000 + b"\n%%EOF\n"}


def test_upload_errors_name_the_file_never_a_server_path(settings, tmp_path):
    from pincite.errors import PinciteError
    from pincite.service import Pincite

    service = Pincite(settings.model_copy(update={"max_source_bytes": 1_000_000}), llm=None)
    messages = {}
    for what, data in _bad_uploads(tmp_path).items():
        with pytest.raises(PinciteError) as caught:
            service.upload_pdf("Staff notes.pdf", data, name=what.replace(" ", "-"))
        messages[what] = str(caught.value)
    for what, message in messages.items():
        assert str(settings.home) not in message and "file://" not in message, (what, message)
        assert "Staff-notes.pdf" in message, (what, message)
    assert not list((settings.home / "uploads").iterdir())


def test_api_errors_carry_no_server_path_or_traceback_and_the_log_no_address(settings, tmp_path):
    requests = [("POST", "/corpora/pdf?filename=x.pdf", b"not a pdf"), ("POST", "/corpora/pdf?filename=x.pdf", b""),
                ("POST", "/ask", b"{not json"), ("GET", "/provisions/gdpr/xx/art-1", b""),
                ("GET", "/search?q=x&corpus=nope", b""), ("POST", "/corpora/pdf?filename=../../etc/passwd", b"%PDF-")]
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
        bodies = [client.request(method, path, content=body).text for method, path, body in requests]
    for body in bodies:
        assert str(settings.home) not in body and "Traceback" not in body and 'File "' not in body, body
        assert json.loads(body)["message"]
    log = "".join(p.read_text() for p in (settings.home / "logs").glob("access-*.jsonl"))
    assert log.count("\n") >= len(requests) and "127.0.0.1" not in log
