"""Fetch the authoritative bytes of an act and keep them, with their sha256, under the data dir.

Where the bytes come from, in order: the cache (unless `refresh`), the mirror directory
(`PINCITE_MIRROR`) when one is set, otherwise the publisher. Nothing reaches the cache
before it has been checked: an error page, a truncated download or a JSON answer raises
SourceError and leaves no file behind.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TypeVar

import httpx

from pincite.errors import ConfigError, NotInMirrorError, PinciteError, SourceError
from pincite.progress import Progress, report
from pincite.settings import Settings
from pincite.sources.catalog import CELEX_RE, CorpusSpec, check_lang
from pincite.sources.files import write_atomic, write_error
from pincite.sources.lock import data_lock

HTML = "text/html"
PDF = "application/pdf"
MIRROR_EXTS = ("html", "xhtml", "xml", "pdf")
CACHE_EXTS = {HTML: "html", PDF: "pdf"}
T = TypeVar("T")

# Class tokens only the text of an act carries: the ELI wrapper, the OJ document title and
# article headings (CONVEX 9 "oj-ti-art", older renderings "ti-art").
_ACT_MARKER = re.compile(
    rb"""class\s*=\s*["'](?:[^"']*\s)?(?:eli-container|oj-doc-ti|oj-ti-art|ti-art)(?:\s[^"']*)?["']"""
)


def _user_agent() -> str:
    try:
        ours = version("pincite")
    except PackageNotFoundError:
        ours = "dev"
    return f"pincite/{ours} (legal research; python-httpx/{httpx.__version__})"


_HEADERS = {
    "User-Agent": _user_agent(),
    "Accept": "text/html,application/xhtml+xml;q=0.9,application/xml;q=0.8,application/pdf;q=0.5",
}


@dataclass(frozen=True)
class Source:
    name: str  # corpus short name ("gdpr") or CELEX for acts without a name
    celex: str
    lang: str
    url: str  # where the bytes came from: publisher URL, or file:// URI of the mirror file
    sha256: str
    path: Path  # cached copy: settings.sources_dir / name / f"{lang}.{ext}"
    media_type: str  # "text/html" (XHTML counts) or "application/pdf"
    fetched_at: str  # ISO-8601 UTC


def fetch_source(spec: CorpusSpec, lang: str, settings: Settings, *, refresh: bool = False) -> Source:
    """Return the cached source, or fetch it (mirror, else publisher), check it and cache it."""
    source, _ = fetch_checked(spec, lang, settings, lambda source, data: None, refresh=refresh)
    return source


def fetch_checked(spec: CorpusSpec, lang: str, settings: Settings, parse: Callable[[Source, bytes], T], *,
                  refresh: bool = False, progress: Progress | None = None) -> tuple[Source, T]:
    """The source and what `parse` made of its bytes. Bytes that `parse` rejects (it raises) never
    become the cached source: fresh bytes are parsed before they are cached, and a cached copy
    that no longer parses is dropped and fetched again (no --refresh needed). `progress` hears
    of a fetch (not of a cached source)."""
    lang = check_lang(spec, lang)
    with data_lock(settings.home, settings.lock_timeout):
        if not refresh:
            cached = cached_source(spec, lang, settings)
            if cached is not None:
                try:
                    return cached, parse(cached, read_bytes(cached))
                except PinciteError:
                    drop_cached(spec, lang, settings)
        report(progress, f"{spec.name}/{lang}", "fetch")
        url, data, media_type = _take_prefetched(spec, lang) or fetch_bytes(spec, lang, settings)
        pending = Source(spec.name, spec.celex, lang, url, hashlib.sha256(data).hexdigest(),
                         settings.sources_dir / spec.name / f"{lang}.{CACHE_EXTS[media_type]}", media_type, "")
        result = parse(pending, data)
        return store_source(spec, lang, settings, url, data, media_type), result


# Bytes fetched ahead by `prefetch` (a batch of adds fetches several acts at once, outside the
# data lock), keyed by (CELEX, lang) and used once by the next build of that act. Never the
# cache: they are cached only after that build has parsed and checked them.
_prefetched: dict[tuple[str, str], tuple[str, bytes, str]] = {}
_prefetched_lock = threading.Lock()


def prefetch(spec: CorpusSpec, lang: str, settings: Settings, *, refresh: bool = False) -> None:
    """Fetch an act's bytes now, without the data lock, so several fetches can run at once
    (threads); the next `fetch_checked` of it uses them. No-op when the source is cached."""
    lang = check_lang(spec, lang)
    if not refresh and cached_source(spec, lang, settings) is not None:
        return
    fetched = fetch_bytes(spec, lang, settings)
    with _prefetched_lock:
        _prefetched[(spec.celex, lang)] = fetched


def forget_prefetched() -> None:
    """Drop prefetched bytes no build used (a batch ends, or its build failed first)."""
    with _prefetched_lock:
        _prefetched.clear()


def _take_prefetched(spec: CorpusSpec, lang: str) -> tuple[str, bytes, str] | None:
    with _prefetched_lock:
        return _prefetched.pop((spec.celex, lang), None)


def fetch_bytes(spec: CorpusSpec, lang: str, settings: Settings) -> tuple[str, bytes, str]:
    """(url, bytes, media type) from the mirror or the publisher, checked to be a whole act; not cached."""
    if settings.mirror is not None:
        url, data, media_type = _read_mirror(spec, lang, settings)
        fix = f"replace the file in the mirror {settings.mirror} with the act's HTML or PDF"
    else:
        url, data, media_type = _download(spec, lang, settings)
        fix = "try again, or check the CELEX number and language on EUR-Lex"
    validate_bytes(data, media_type, url, fix)
    return url, data, media_type


def drop_cached(spec: CorpusSpec, lang: str, settings: Settings) -> None:
    """Forget the cached source of `spec` in `lang` (the sidecar first: then it is 'not cached')."""
    folder = settings.sources_dir / spec.name
    (folder / f"{lang}.json").unlink(missing_ok=True)
    for ext in set(CACHE_EXTS.values()):
        (folder / f"{lang}.{ext}").unlink(missing_ok=True)


def cached_source(spec: CorpusSpec, lang: str, settings: Settings) -> Source | None:
    """The cached source for `spec` in `lang`, or None; never fetches, never hashes."""
    lang = check_lang(spec, lang)
    folder = settings.sources_dir / spec.name
    try:
        meta = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        media_type = meta["media_type"]
        source = Source(
            name=spec.name,
            celex=meta["celex"],
            lang=lang,
            url=meta["url"],
            sha256=meta["sha256"],
            path=folder / f"{lang}.{CACHE_EXTS[media_type]}",
            media_type=media_type,
            fetched_at=meta["fetched_at"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no cache, or a sidecar we cannot trust: fetch again
    if source.celex != spec.celex or not source.path.is_file():
        return None
    return source


def read_bytes(source: Source) -> bytes:
    """The cached bytes of `source`, checked against the sha256 recorded when it was fetched."""
    try:
        data = source.path.read_bytes()
    except OSError as exc:
        raise SourceError(
            f"cached source {source.path} cannot be read ({exc.strerror or exc})"
            " — fetch it again with refresh"
        ) from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != source.sha256:
        raise SourceError(
            f"cached source {source.path} changed since it was fetched (sha256 {digest[:12]}…,"
            f" expected {source.sha256[:12]}…) — fetch it again with refresh"
        )
    return data


# --- mirror ---------------------------------------------------------------------------


def _mirror_folders(spec: CorpusSpec) -> list[str]:
    return [spec.name, spec.celex] if spec.celex and spec.celex != spec.name else [spec.name]


def _mirror_candidates(mirror: Path, spec: CorpusSpec, lang: str) -> list[Path]:
    return [mirror / folder / f"{lang}.{ext}" for folder in _mirror_folders(spec) for ext in MIRROR_EXTS]


def mirror_langs(spec: CorpusSpec, mirror: Path) -> set[str]:
    """The languages of `spec` the mirror holds a file for (what `_read_mirror` would find), read
    from one directory listing per folder instead of a stat per language and extension."""
    names: set[str] = set()
    for folder in _mirror_folders(spec):
        try:
            names |= {p.name for p in (mirror / folder).iterdir() if p.is_file()}
        except OSError:  # no such folder, or no mirror at all: nothing there
            continue
    return {lang for lang in spec.langs if any(f"{lang}.{ext}" in names for ext in MIRROR_EXTS)}


def _read_mirror(spec: CorpusSpec, lang: str, settings: Settings) -> tuple[str, bytes, str]:
    mirror = settings.mirror
    assert mirror is not None  # fetch_bytes reads the mirror only when one is set
    if not mirror.is_dir():
        raise SourceError(
            f"mirror directory {mirror} does not exist"
            " — fix PINCITE_MIRROR, or unset it to fetch from the publisher"
        )
    tried = _mirror_candidates(mirror, spec, lang)
    for path in tried:
        if path.is_file():
            media_type = PDF if path.suffix == ".pdf" else HTML
            return path.resolve().as_uri(), _read_mirror_file(path, settings), media_type
    # The mirror once, then names inside it: a remote client sees the mirror redacted, and a
    # list of eight full paths reduced to their last parts read as the same four names twice.
    files = ", ".join(f"{lang}.{ext}" for ext in MIRROR_EXTS)
    folders = " or ".join(f"{folder}/" for folder in _mirror_folders(spec))
    raise NotInMirrorError(
        f"{spec.name} ({lang}) is not in the mirror {mirror}: none of {files} in {folders}"
        " — add the file there, or unset PINCITE_MIRROR to fetch from the publisher"
    )


def _read_mirror_file(path: Path, settings: Settings) -> bytes:
    try:
        if path.stat().st_size > settings.max_source_bytes:
            raise _too_large(str(path), settings.max_source_bytes)
        return path.read_bytes()
    except OSError as exc:
        raise SourceError(
            f"cannot read mirror file {path} ({exc.strerror or exc}) — check its permissions"
        ) from exc


# --- publisher ------------------------------------------------------------------------


def _publisher_url(spec: CorpusSpec, lang: str, settings: Settings) -> str:
    # The default eurlex_url is EUR-Lex's HTML rendering of the Official Journal text. The
    # alternative is Cellar, the publications office's repository behind EUR-Lex:
    #   http://publications.europa.eu/resource/celex/{celex}
    # with content negotiation (Accept: application/xhtml+xml, Accept-Language: eng/ita/…,
    # ISO 639-2 codes); it redirects to the manifestation, which follow_redirects handles.
    if not CELEX_RE.match(spec.celex):
        raise SourceError(
            f"{spec.name} has no CELEX number, so it cannot be fetched from EUR-Lex"
            f" — put its file in PINCITE_MIRROR as {spec.name}/{lang}.html or .pdf"
        )
    try:
        url = settings.eurlex_url.format(celex=spec.celex, lang=lang, LANG=lang.upper())
        httpx.URL(url)
    except (KeyError, IndexError, ValueError, httpx.InvalidURL) as exc:
        raise ConfigError(
            f"eurlex_url {settings.eurlex_url!r} does not give a valid URL ({_one_line(exc)})"
            " — use {celex}, {lang} and {LANG} placeholders in PINCITE_EURLEX_URL"
        ) from exc
    return url


def _download(spec: CorpusSpec, lang: str, settings: Settings) -> tuple[str, bytes, str]:
    url = _publisher_url(spec, lang, settings)
    client = httpx.Client(timeout=settings.timeout, follow_redirects=True, headers=_HEADERS)
    try:
        with client, client.stream("GET", url) as response:
            _check_status(response, spec, lang)
            declared = _declared_media_type(response)
            data = _read_body(response, settings.max_source_bytes)
            return str(response.url), data, declared or _sniff_media_type(data)
    except httpx.TimeoutException as exc:
        raise SourceError(
            f"timed out after {settings.timeout:g} s fetching {url}"
            " — check your connection, raise PINCITE_TIMEOUT, or set PINCITE_MIRROR"
        ) from exc
    except httpx.TransportError as exc:
        raise SourceError(
            f"could not reach {url} ({_one_line(exc)}) — check your connection or set PINCITE_MIRROR"
        ) from exc
    except httpx.HTTPError as exc:
        raise SourceError(
            f"fetching {url} failed ({_one_line(exc)}) — try again later or set PINCITE_MIRROR"
        ) from exc


def _check_status(response: httpx.Response, spec: CorpusSpec, lang: str) -> None:
    code = response.status_code
    if code == 404:
        raise SourceError(
            f"EUR-Lex has no {spec.celex} in {lang} (HTTP 404) — check the CELEX number and language"
        )
    if code == 429 or code >= 500:
        raise SourceError(
            f"{response.url} answered HTTP {code} {response.reason_phrase}"
            " — the publisher is busy or down; try again later or set PINCITE_MIRROR"
        )
    if code >= 400:
        raise SourceError(
            f"{response.url} refused the request (HTTP {code} {response.reason_phrase})"
            " — check eurlex_url (PINCITE_EURLEX_URL), or set PINCITE_MIRROR"
        )


def _declared_media_type(response: httpx.Response) -> str | None:
    ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if not ctype:
        return None
    if "pdf" in ctype:
        return PDF
    if "html" in ctype or "xml" in ctype:
        return HTML
    raise SourceError(
        f"{response.url} answered {ctype}, not an HTML page or a PDF"
        " — check the CELEX number and eurlex_url (PINCITE_EURLEX_URL)"
    )


def _sniff_media_type(data: bytes) -> str:
    return PDF if data.startswith(b"%PDF-") else HTML


def _read_body(response: httpx.Response, cap: int) -> bytes:
    declared = response.headers.get("content-length", "")
    encoded = "content-encoding" in response.headers  # the length is then not the decoded size
    if declared.isdigit() and not encoded and int(declared) > cap:
        raise _too_large(str(response.url), cap)
    chunks, total = [], 0
    try:
        for chunk in response.iter_bytes():
            total += len(chunk)
            if total > cap:
                raise _too_large(str(response.url), cap)
            chunks.append(chunk)
    except httpx.TimeoutException:
        raise
    except httpx.TransportError as exc:
        raise SourceError(
            f"the download of {response.url} was truncated after {total} bytes ({_one_line(exc)}) — try again"
        ) from exc
    return b"".join(chunks)


def _too_large(where: str, cap: int) -> SourceError:
    return SourceError(
        f"{where} is larger than {cap} bytes (max_source_bytes)"
        " — raise PINCITE_MAX_SOURCE_BYTES if the act really is that large"
    )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


# --- validation -----------------------------------------------------------------------


def validate_bytes(data: bytes, media_type: str, where: str, fix: str) -> None:
    """Raise SourceError unless `data` is a complete act of `media_type`."""
    if not data.strip():
        raise SourceError(f"{where} is empty — {fix}")
    problem = _pdf_problem(data) if media_type == PDF else _html_problem(data)
    if problem:
        raise SourceError(f"{where} {problem} — {fix}")


def _pdf_problem(data: bytes) -> str | None:
    if not data.startswith(b"%PDF-"):
        return f"is not a PDF (starts {data[:16]!r})"
    if b"%%EOF" not in data[-1024:]:
        return "is truncated: the PDF has no %%EOF trailer"
    return None


def _html_problem(data: bytes) -> str | None:
    head = data[:65536].lstrip(b"\xef\xbb\xbf \t\r\n")[:4096].lower()
    if head.startswith(b"%pdf-"):
        return "is a PDF where an HTML page was expected"
    if not head.startswith(b"<") or not (b"<html" in head or b"<!doctype html" in head):
        return f"is not an (X)HTML document (starts {data[:16]!r})"
    if not data[-4096:].rstrip().lower().endswith(b"</html>"):
        return "is truncated: the document does not end with </html>"
    if not _ACT_MARKER.search(data):
        return (
            "is an HTML page but not the text of an act"
            " (no eli-container, oj-doc-ti or ti-art markup;"
            " EUR-Lex may have answered that it has no such document)"
        )
    return None


# --- cache ----------------------------------------------------------------------------


def store_source(spec: CorpusSpec, lang: str, settings: Settings, url: str, data: bytes, media_type: str) -> Source:
    folder = settings.sources_dir / spec.name
    source = Source(
        name=spec.name,
        celex=spec.celex,
        lang=lang,
        url=url,
        sha256=hashlib.sha256(data).hexdigest(),
        path=folder / f"{lang}.{CACHE_EXTS[media_type]}",
        media_type=media_type,
        fetched_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
    meta = {
        "name": source.name,
        "celex": source.celex,
        "lang": lang,
        "url": url,
        "sha256": source.sha256,
        "size": len(data),
        "media_type": media_type,
        "fetched_at": source.fetched_at,
    }
    sidecar = folder / f"{lang}.json"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # Drop the old sidecar first: a crash between the two writes then means "not cached".
        sidecar.unlink(missing_ok=True)
        for ext in set(CACHE_EXTS.values()) - {CACHE_EXTS[media_type]}:
            (folder / f"{lang}.{ext}").unlink(missing_ok=True)
        write_atomic(source.path, data)
        write_atomic(sidecar, json.dumps(meta, indent=2) + "\n")
    except OSError as exc:
        raise write_error(folder, exc) from exc
    return source


