"""Adding instruments: any EUR-Lex act by CELEX, any PDF (rulebook module or plain document).

`pincite corpus add` and `pincite corpus add-pdf` reach these through the service, which then
indexes what was added. An instrument is registered under the data dir (catalog.json) only once
its corpus has been parsed and checked, so a failed add leaves nothing behind; adding the same
act again is not an error.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from pincite.corpus.build import CorpusInfo, build_spec, corpus_info, write_corpus
from pincite.corpus.formats import parse_bytes
from pincite.corpus.formats.pages import document_name
from pincite.corpus.formats.pdftext import read_pdf
from pincite.corpus.formats.rulebook import looks_like_rulebook
from pincite.errors import ConfigError, SourceError
from pincite.progress import Progress
from pincite.settings import Settings
from pincite.sources.catalog import (
    CELEX_RE,
    DEFAULT_RULE_PATTERN,
    NAME_RE,
    NAMED,
    CorpusSpec,
    added_act,
    check_lang,
    consolidated_celex,
    register,
    registered,
)
from pincite.sources.fetch import PDF, store_source, validate_bytes
from pincite.sources.lock import data_lock

STRUCTURES = ("auto", "rules", "pages")


@dataclass(frozen=True)
class Added:
    spec: CorpusSpec
    info: CorpusInfo
    new: bool  # registered by this call (False: it was known already)
    built: bool = False  # its corpus built by this call (a named act is known but not built before its first add)
    index: dict | None = None  # what indexing did, when the service was asked to index


def add_act(celex: str, lang: str, settings: Settings, *, name: str | None = None,
            consolidated: str | None = None, refresh: bool = False, progress: Progress | None = None) -> Added:
    """Register and build an EUR-Lex act; idempotent. Under the data directory's lock: two adds of
    the same act at once are one add and one 'already added'. `progress` hears of the build."""
    with data_lock(settings.home, settings.lock_timeout):
        return _add_act(celex, lang, settings, name=name, consolidated=consolidated, refresh=refresh,
                        progress=progress)


def _add_act(celex: str, lang: str, settings: Settings, *, name: str | None,
             consolidated: str | None, refresh: bool, progress: Progress | None) -> Added:
    base = celex.strip().upper()
    if not CELEX_RE.match(base) or "-" in base:
        raise ConfigError(f"{celex!r} is not a CELEX number — use one like 32022R2065 "
                          f"(EUR-Lex shows it as 'CELEX number' on the act's page)")
    source_celex = consolidated_celex(base, consolidated) if consolidated else base
    spec, new = _spec_for(source_celex, name, settings)
    lang = check_lang(spec, lang)
    info = None if new or refresh else corpus_info(spec.name, lang, settings)
    built = info is None
    if info is None:
        info = build_spec(spec, lang, settings, refresh=refresh, progress=progress)
    if new:
        spec = replace(spec, title=_short_title(info.title) or spec.title)
        register(spec, settings)
    return Added(spec, info, new, built)


def _spec_for(celex: str, name: str | None, settings: Settings) -> tuple[CorpusSpec, bool]:
    """The spec of `celex`: the known one (named or added before), or a new one called `name`."""
    known = next((s for s in list(NAMED.values()) + list(registered(settings).values())
                  if s.celex == celex), None)
    if known is not None:
        if name and name.lower() != known.name.lower():
            raise ConfigError(f"{celex} is already known as {known.name} — use that name, or leave out --name")
        return known, known.name not in NAMED and known.name not in registered(settings)
    name = name or celex
    _check_name_free(name, settings)
    return added_act(celex, name), True


def _check_name_free(name: str, settings: Settings, *, document: str | None = None) -> None:
    if not NAME_RE.match(name):
        raise ConfigError(f"{name!r} cannot name a corpus — use letters, digits, '-' and '_' (e.g. dsa, fc-module)")
    key = name.lower()
    taken = next((s for s in list(NAMED.values()) + list(registered(settings).values())
                  if s.name.lower() == key), None)
    if taken is None:
        return
    if document is None or taken.document != document:
        raise ConfigError(f"the name {name!r} is taken by {taken.title or taken.name} — choose another --name")


def _short_title(title: str) -> str:
    """'REGULATION (EU) 2022/2065 … (Digital Services Act) (Text with EEA relevance)' → kept
    whole minus the EEA note; the title is what `corpus stats` and answers show."""
    return title.replace("(Text with EEA relevance)", "").strip()


def add_pdf(file: Path, settings: Settings, *, name: str | None = None, lang: str = "en",
            structure: str = "auto", rule_pattern: str | None = None, progress: Progress | None = None) -> Added:
    """Register and build a PDF: one provision per rule id, or per page."""
    with data_lock(settings.home, settings.lock_timeout):
        return _add_pdf(file, settings, name=name, lang=lang, structure=structure, rule_pattern=rule_pattern,
                        progress=progress)


def _add_pdf(file: Path, settings: Settings, *, name: str | None, lang: str, structure: str,
             rule_pattern: str | None, progress: Progress | None) -> Added:
    if structure not in STRUCTURES:
        raise ConfigError(f"unknown structure {structure!r} — use one of: {', '.join(STRUCTURES)}")
    data = _read_pdf_file(file, settings)
    document = document_name(file.name)
    name = name or Path(document).stem.lower()
    _check_name_free(name, settings, document=document)
    lang = lang.strip().lower()
    sha256 = hashlib.sha256(data).hexdigest()
    url = file.resolve().as_uri()
    fmt = _structure(data, document, structure, rule_pattern)
    spec = CorpusSpec(name, "", document, "", langs=frozenset({lang}), format=fmt,
                      rule_pattern=(rule_pattern or DEFAULT_RULE_PATTERN) if fmt == "rulebook" else "",
                      document=document)
    result = parse_bytes(data, spec, lang, sha256, url, PDF, progress)
    source = store_source(spec, lang, settings, url, data, PDF)
    info = write_corpus(spec, lang, settings, source, result, progress=progress)
    register(spec, settings)
    return Added(spec, info, True, True)


def _read_pdf_file(file: Path, settings: Settings) -> bytes:
    try:
        size = file.stat().st_size
        if size > settings.max_source_bytes:
            raise SourceError(f"{file} is larger than {settings.max_source_bytes} bytes (max_source_bytes) — "
                              f"raise PINCITE_MAX_SOURCE_BYTES if it really is that large")
        data = file.read_bytes()
    except FileNotFoundError as exc:
        raise SourceError(f"{file} does not exist — check the path") from exc
    except IsADirectoryError as exc:
        raise SourceError(f"{file} is a directory — pass a PDF file") from exc
    except OSError as exc:
        raise SourceError(f"cannot read {file} ({exc.strerror or exc}) — check its permissions") from exc
    validate_bytes(data, PDF, str(file), "pass a complete PDF file")
    return data


def _structure(data: bytes, document: str, structure: str, rule_pattern: str | None) -> str:
    if structure == "rules":
        return "rulebook"
    if structure == "pages":
        return "pages"
    pages = read_pdf(data, document)
    return "rulebook" if looks_like_rulebook(pages, rule_pattern or DEFAULT_RULE_PATTERN) else "pages"
