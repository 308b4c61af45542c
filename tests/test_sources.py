"""sources: real HTTP against a loopback server serving ../shared/corpora, and the mirror."""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pincite.errors import SourceError
from pincite.settings import load_settings
from pincite.sources.catalog import NAMED, CorpusSpec
from pincite.sources.fetch import Source, cached_source, fetch_source, read_bytes

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
GDPR = NAMED["gdpr"]
DSA = CorpusSpec(
    "32022R2065", "32022R2065", "Digital Services Act", "http://data.europa.eu/eli/reg/2022/2065/oj"
)
PDPA = CorpusSpec("pdpa", "", "Personal Data Protection Act B.E. 2562", "", frozenset({"th"}))
# A PDF act served over HTTP needs a CELEX to build the URL; any valid one will do.
PDF_ACT = CorpusSpec("pdf-act", "32099R0001", "A PDF act", "", frozenset({"th"}))

SMALL_ACT = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html><body>'
    b'<div class="eli-container"><p class="oj-doc-ti">REGULATION (EU) 2099/1</p>'
    b'<p class="oj-ti-art">Article 1</p><p class="oj-normal">Text.</p></div></body></html>\n'
)
NOT_AN_ACT = (
    b"<!DOCTYPE html><html><head><title>EUR-Lex</title></head><body>"
    b'<div class="alert alert-warning">The requested document does not exist.</div>'
    b"<p>multi-article search</p></body></html>"
)


@pytest.fixture
def corpora() -> Path:
    if not (CORPORA / "32016R0679" / "en.html").is_file():
        pytest.skip(f"shared corpora not found at {CORPORA} (needs ../shared/corpora next to the repo)")
    return CORPORA


class Handler(BaseHTTPRequestHandler):
    """Routes on the first path segment; `/files/<rest>` serves <corpora>/<rest>."""

    requests: list[tuple[str, str]] = []  # (path, user-agent), shared with the tests

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def do_GET(self) -> None:
        type(self).requests.append((self.path, self.headers.get("User-Agent", "")))
        route, _, rest = self.path.lstrip("/").partition("/")
        action = ROUTES.get(route)
        if action is None:
            self.send_error(404)
        else:
            action(self, rest)

    def reply(self, body: bytes, ctype: str = "text/html; charset=utf-8", extra: int | None = 0) -> None:
        """Send `body`; Content-Length is its length plus `extra`, or absent when extra is None."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if extra is not None:
            self.send_header("Content-Length", str(len(body) + extra))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass  # the client hung up early (size cap, timeout)


def _serve_file(handler: Handler, rest: str) -> None:
    path = CORPORA / rest
    if not path.is_file():
        handler.send_error(404)
        return
    data = path.read_bytes()
    ctype = "application/pdf" if path.suffix == ".pdf" else "text/html; charset=utf-8"
    handler.reply(data, ctype)


def _sleep(handler: Handler, rest: str) -> None:
    time.sleep(1.0)
    handler.reply(SMALL_ACT)


def _stall_mid_body(handler: Handler, rest: str) -> None:
    """Headers and half the body, then nothing for longer than any timeout a test sets."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(SMALL_ACT)))
    handler.end_headers()
    handler.wfile.write(SMALL_ACT[: len(SMALL_ACT) // 2])
    handler.wfile.flush()
    time.sleep(3.0)


ROUTES = {
    "files": _serve_file,
    "stall": _stall_mid_body,
    "small": lambda h, rest: h.reply(SMALL_ACT),
    # announces more bytes than it sends, then closes the connection
    "short-length": lambda h, rest: h.reply(SMALL_ACT, extra=1000),
    # a cut-off document with a correct Content-Length
    "cut": lambda h, rest: h.reply(SMALL_ACT[:-30]),
    "json": lambda h, rest: h.reply(b'{"error": "not found"}', "application/json"),
    "json-as-html": lambda h, rest: h.reply(b'{"error": "not found"}'),
    "not-an-act": lambda h, rest: h.reply(NOT_AN_ACT),
    "empty": lambda h, rest: h.reply(b""),
    # no Content-Length: the body ends when the connection closes (HTTP/1.0)
    "no-length": lambda h, rest: h.reply((CORPORA / "32016R0679" / "en.html").read_bytes(), extra=None),
    "pdf-as-html": lambda h, rest: h.reply(b"%PDF-1.4\n1 0 obj\n%%EOF\n"),
    "pdf-cut": lambda h, rest: h.reply(b"%PDF-1.4\n1 0 obj\n<<>>\n", "application/pdf"),
    "error": lambda h, rest: h.send_error(503),
    "forbidden": lambda h, rest: h.send_error(403),
    "slow": _sleep,
}


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """No PINCITE_* setting (nor the user's config file) leaks in from the environment."""
    import os

    for key in [k for k in os.environ if k.startswith("PINCITE_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("PINCITE_HOME", str(tmp_path))
    Handler.requests.clear()


def settings_for(tmp_path: Path, port: int, route: str = "files", **overrides):
    url = f"http://127.0.0.1:{port}/{route}/{{celex}}/{{lang}}.html"
    return load_settings(home=tmp_path, eurlex_url=url, **overrides)


def cached_files(settings) -> list[Path]:
    return sorted(p for p in settings.sources_dir.rglob("*") if p.is_file())


def fails(spec, lang, settings, match: str) -> SourceError:
    with pytest.raises(SourceError, match=match) as info:
        fetch_source(spec, lang, settings)
    message = str(info.value)
    assert "\n" not in message and " — " in message, message
    assert cached_files(settings) == []
    assert cached_source(spec, lang, settings) is None
    return info.value


# --- success and cache ---------------------------------------------------------------


def test_fetch_gdpr_en_over_http(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server)
    source = fetch_source(GDPR, "en", settings)

    served = (corpora / "32016R0679" / "en.html").read_bytes()
    assert source.sha256 == hashlib.sha256(served).hexdigest()
    assert source.url == f"http://127.0.0.1:{server}/files/32016R0679/en.html"
    assert (source.name, source.celex, source.lang) == ("gdpr", "32016R0679", "en")
    assert source.media_type == "text/html"
    assert source.path == tmp_path / "sources" / "gdpr" / "en.html"
    assert source.path.read_bytes() == served
    assert read_bytes(source) == served
    assert source.fetched_at.endswith("Z")
    assert Handler.requests[0][1].startswith("pincite/")

    meta = json.loads((tmp_path / "sources" / "gdpr" / "en.json").read_text())
    assert meta["sha256"] == source.sha256 and meta["url"] == source.url
    assert meta["media_type"] == "text/html" and meta["fetched_at"] == source.fetched_at
    assert [p.name for p in cached_files(settings)] == ["en.html", "en.json"]


def test_second_call_is_served_from_cache(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server)
    assert cached_source(GDPR, "en", settings) is None
    first = fetch_source(GDPR, "en", settings)
    assert len(Handler.requests) == 1

    assert fetch_source(GDPR, "en", settings) == first
    assert cached_source(GDPR, "en", settings) == first
    assert len(Handler.requests) == 1


def test_refresh_fetches_again(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server)
    fetch_source(GDPR, "en", settings)
    again = fetch_source(GDPR, "en", settings, refresh=True)
    assert len(Handler.requests) == 2
    assert read_bytes(again) == (corpora / "32016R0679" / "en.html").read_bytes()


def test_cache_is_per_language(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server)
    en = fetch_source(GDPR, "en", settings)
    it = fetch_source(GDPR, "it", settings)
    assert en.sha256 != it.sha256
    assert it.sha256 == hashlib.sha256((corpora / "32016R0679" / "it.html").read_bytes()).hexdigest()
    assert len(Handler.requests) == 2


def test_read_bytes_detects_a_changed_cache_file(tmp_path, server):
    settings = settings_for(tmp_path, server, route="small")
    source = fetch_source(GDPR, "en", settings)
    assert read_bytes(source) == SMALL_ACT
    source.path.write_bytes(SMALL_ACT.replace(b"Text.", b"Edit."))
    with pytest.raises(SourceError, match="changed since it was fetched"):
        read_bytes(source)
    source.path.unlink()
    with pytest.raises(SourceError, match="cannot be read"):
        read_bytes(source)


def test_a_broken_sidecar_means_not_cached(tmp_path, server):
    settings = settings_for(tmp_path, server, route="small")
    fetch_source(GDPR, "en", settings)
    (settings.sources_dir / "gdpr" / "en.json").write_text("{not json")
    assert cached_source(GDPR, "en", settings) is None
    fetch_source(GDPR, "en", settings)
    assert len(Handler.requests) == 2
    assert cached_source(GDPR, "en", settings) is not None


# --- mirror --------------------------------------------------------------------------


def test_mirror_by_name(tmp_path, corpora):
    settings = load_settings(home=tmp_path, mirror=corpora, eurlex_url="http://127.0.0.1:9/{celex}")
    source = fetch_source(GDPR, "it", settings)
    mirror_file = corpora / "gdpr" / "it.html"
    assert source.url == mirror_file.resolve().as_uri()
    assert source.sha256 == hashlib.sha256(mirror_file.read_bytes()).hexdigest()
    assert read_bytes(source) == mirror_file.read_bytes()
    assert source.path == tmp_path / "sources" / "gdpr" / "it.html"


def test_mirror_by_celex(tmp_path, corpora):
    settings = load_settings(home=tmp_path, mirror=corpora)
    source = fetch_source(DSA, "en", settings)
    assert source.url == (corpora / "32022R2065" / "en.html").resolve().as_uri()
    assert source.path == tmp_path / "sources" / "32022R2065" / "en.html"

    named = CorpusSpec("dsa", "32022R2065", "Digital Services Act", DSA.eli)  # no dsa/ folder
    assert fetch_source(named, "en", settings).url == source.url


def test_mirror_pdf(tmp_path, corpora):
    settings = load_settings(home=tmp_path, mirror=corpora)
    source = fetch_source(PDPA, "th", settings)
    assert source.media_type == "application/pdf"
    assert source.path == tmp_path / "sources" / "pdpa" / "th.pdf"
    assert read_bytes(source) == (corpora / "pdpa" / "th.pdf").read_bytes()


def test_mirror_miss_names_the_paths_and_does_not_fetch(tmp_path, server, corpora):
    settings = load_settings(
        home=tmp_path,
        mirror=corpora,
        eurlex_url=f"http://127.0.0.1:{server}/files/{{celex}}/{{lang}}.html",
    )
    error = fails(GDPR, "de", settings, "not in the mirror")
    assert f"not in the mirror {corpora}: none of de.html, de.xhtml, de.xml, de.pdf in gdpr/ or 32016R0679/" in str(error)
    assert Handler.requests == []


def test_missing_mirror_directory(tmp_path):
    settings = load_settings(home=tmp_path, mirror=tmp_path / "nowhere")
    fails(GDPR, "en", settings, "mirror directory .* does not exist")


def test_bad_file_in_mirror_is_rejected(tmp_path):
    mirror = tmp_path / "mirror"
    (mirror / "gdpr").mkdir(parents=True)
    (mirror / "gdpr" / "en.html").write_bytes(NOT_AN_ACT)
    settings = load_settings(home=tmp_path / "home", mirror=mirror)
    fails(GDPR, "en", settings, "not the text of an act")


# --- PDF over HTTP -------------------------------------------------------------------


def test_pdf_over_http(tmp_path, server, corpora):
    url = f"http://127.0.0.1:{server}/files/pdpa/{{lang}}.pdf"
    settings = load_settings(home=tmp_path, eurlex_url=url)
    source = fetch_source(PDF_ACT, "th", settings)
    assert source.media_type == "application/pdf"
    assert source.path.name == "th.pdf"
    assert source.sha256 == hashlib.sha256((corpora / "pdpa" / "th.pdf").read_bytes()).hexdigest()


def test_pdf_without_eof_trailer_is_truncated(tmp_path, server):
    fails(PDF_ACT, "th", settings_for(tmp_path, server, route="pdf-cut"), "truncated")


def test_pdf_where_html_was_expected(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="pdf-as-html"), "PDF where an HTML")


def test_act_without_celex_cannot_be_fetched(tmp_path, server):
    fails(PDPA, "th", settings_for(tmp_path, server), "no CELEX number")


# --- failures ------------------------------------------------------------------------


def test_404(tmp_path, server):
    fails(
        GDPR,
        "en",
        settings_for(tmp_path, server, route="missing"),
        r"EUR-Lex has no 32016R0679 in en \(HTTP 404\)",
    )


def test_404_for_a_file_the_server_does_not_have(tmp_path, server, corpora):
    fails(GDPR, "de", settings_for(tmp_path, server), "HTTP 404")


def test_server_error(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="error"), "HTTP 503")


def test_forbidden(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="forbidden"), "HTTP 403")


def test_truncated_body_shorter_than_content_length(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="short-length"), "was truncated after")


def test_cut_off_document_with_correct_length(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="cut"), r"truncated.*</html>")


def test_json_answer(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="json"), "application/json, not an HTML")


def test_json_bytes_labelled_html(tmp_path, server):
    fails(
        GDPR,
        "en",
        settings_for(tmp_path, server, route="json-as-html"),
        "not an \\(X\\)HTML document",
    )


def test_html_page_that_is_not_an_act(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="not-an-act"), "not the text of an act")


def test_empty_body(tmp_path, server):
    fails(GDPR, "en", settings_for(tmp_path, server, route="empty"), "is empty")


def test_size_cap_with_content_length(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server, max_source_bytes=100_000)
    fails(GDPR, "en", settings, "larger than 100000 bytes")


def test_size_cap_while_streaming(tmp_path, server, corpora):
    settings = settings_for(tmp_path, server, route="no-length", max_source_bytes=100_000)
    fails(GDPR, "en", settings, "larger than 100000 bytes")


def test_size_cap_in_mirror(tmp_path, corpora):
    settings = load_settings(home=tmp_path, mirror=corpora, max_source_bytes=100_000)
    fails(GDPR, "en", settings, "larger than 100000 bytes")


def test_no_length_body_is_read_to_the_end(tmp_path, server, corpora):
    source = fetch_source(GDPR, "en", settings_for(tmp_path, server, route="no-length"))
    assert read_bytes(source) == (corpora / "32016R0679" / "en.html").read_bytes()


def test_connection_refused(tmp_path):
    with socket.socket() as bound:  # bound but not listening: connecting is refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        settings = load_settings(home=tmp_path, eurlex_url=f"http://127.0.0.1:{port}/{{celex}}")
        fails(GDPR, "en", settings, "could not reach .* set PINCITE_MIRROR")


def test_timeout(tmp_path, server):
    settings = settings_for(tmp_path, server, route="slow", timeout=0.2)
    fails(GDPR, "en", settings, "timed out after 0.2 s")


def test_a_fetch_that_stalls_mid_body_times_out_and_caches_nothing(tmp_path, server):
    settings = settings_for(tmp_path, server, route="stall", timeout=0.3)
    started = time.monotonic()
    fails(GDPR, "en", settings, "timed out after 0.3 s")
    assert time.monotonic() - started < 2.5  # the read timeout holds mid-body, not only before it
    assert cached_files(settings) == []


def test_failed_refresh_keeps_the_old_copy(tmp_path, server):
    good = settings_for(tmp_path, server, route="small")
    first = fetch_source(GDPR, "en", good)
    with pytest.raises(SourceError, match="truncated"):
        fetch_source(GDPR, "en", settings_for(tmp_path, server, route="cut"), refresh=True)
    assert cached_source(GDPR, "en", good) == first
    assert read_bytes(first) == SMALL_ACT
    assert sorted(p.name for p in cached_files(good)) == ["en.html", "en.json"]


def test_source_is_a_frozen_dataclass(tmp_path, server):
    source = fetch_source(GDPR, "en", settings_for(tmp_path, server, route="small"))
    assert isinstance(source, Source)
    with pytest.raises(AttributeError):
        source.sha256 = "x"  # type: ignore[misc]
