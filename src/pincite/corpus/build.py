"""The corpus stage: source bytes → provisions (a format's parser) → checks → JSONL under the
data dir, written atomically; and reading a corpus back (built on first use)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pincite.citations import RULE_PATTERN, Citation, contains, parse_label, same
from pincite.corpus.checks import corpus_counts
from pincite.corpus.formats import parse_bytes
from pincite.corpus.result import ParseResult
from pincite.errors import NotFoundError
from pincite.progress import Progress, report
from pincite.provisions import Provision, read_jsonl, write_jsonl
from pincite.settings import Settings
from pincite.sources.catalog import CorpusSpec, check_lang, corpus_spec
from pincite.sources.fetch import Source, cached_source, fetch_checked, read_bytes
from pincite.sources.files import write_atomic
from pincite.sources.lock import data_lock

# What a stored corpus holds depends on the parser that wrote it. Bump when a parse of the same
# source bytes gives different provisions (2: references extracted into `refs` — a corpus written
# before has none, and `pincite refs` and reference following would silently find nothing; 3:
# "Chapters I and II", "Chapters III to V" reach their articles, and a chapter's article is
# reached at its first part). A corpus written by another format is rebuilt from its cached
# source on first use.
CORPUS_FORMAT = 3


@dataclass(frozen=True)
class CorpusInfo:
    name: str
    lang: str
    celex: str
    title: str
    version: str
    source_url: str
    source_sha256: str
    counts: dict
    path: Path
    format: int = 0  # CORPUS_FORMAT of the parser that wrote it (0: before formats were recorded)


def corpus_path(settings: Settings, name: str, lang: str) -> Path:
    return settings.corpora_dir / name / f"{lang}.jsonl"


def _meta_path(settings: Settings, name: str, lang: str) -> Path:
    return settings.corpora_dir / name / f"{lang}.meta.json"


def parse_source(spec: CorpusSpec, lang: str, source: Source, data: bytes,
                 progress: Progress | None = None) -> ParseResult:
    """Parse and check; raise before anything is written."""
    return parse_bytes(data, spec, lang, source.sha256, source.url, source.media_type, progress)


def build_corpus(name: str, lang: str, settings: Settings, *, out: Path | None = None,
                 refresh: bool = False, progress: Progress | None = None) -> CorpusInfo:
    """Fetch (or reuse) the source, parse, check, and write the corpus atomically; `progress`
    hears of each stage."""
    return build_spec(corpus_spec(name, settings), lang, settings, out=out, refresh=refresh, progress=progress)


def build_spec(spec: CorpusSpec, lang: str, settings: Settings, *, out: Path | None = None,
               refresh: bool = False, progress: Progress | None = None) -> CorpusInfo:
    """build_corpus for a spec that need not be registered yet (`pincite corpus add`)."""
    lang = check_lang(spec, lang)
    with data_lock(settings.home, settings.lock_timeout):
        # Parsed and checked before the bytes are cached: a page that fails the checks is not
        # the source the next build reads.
        parse = partial(parse_source, spec, lang, progress=progress)
        source, result = fetch_checked(spec, lang, settings, parse, refresh=refresh, progress=progress)
        return write_corpus(spec, lang, settings, source, result, out=out, progress=progress)


def write_corpus(spec: CorpusSpec, lang: str, settings: Settings, source: Source, result: ParseResult, *,
                 out: Path | None = None, progress: Progress | None = None) -> CorpusInfo:
    """Write a checked parse of `source` as the corpus of `spec` in `lang`."""
    report(progress, f"{spec.name}/{lang}", "write", 0, len(result.provisions))
    path = corpus_path(settings, spec.name, lang)
    write_jsonl(result.provisions, path)
    info = CorpusInfo(spec.name, lang, spec.celex, result.title, result.version, source.url,
                      source.sha256, corpus_counts(result.provisions), path, CORPUS_FORMAT)
    _write_meta(settings, info)
    if out is not None:
        write_jsonl(result.provisions, out)
    return info


def _write_meta(settings: Settings, info: CorpusInfo) -> None:
    meta = {k: (str(v) if isinstance(v, Path) else v) for k, v in info.__dict__.items()}
    path = _meta_path(settings, info.name, info.lang)
    write_atomic(path, json.dumps(meta, ensure_ascii=False, indent=2) + "\n")


def corpus_info(name: str, lang: str, settings: Settings) -> CorpusInfo | None:
    """The stored corpus's description; None when there is none, or when an older parser wrote
    it (so every caller builds it again, as on first use)."""
    spec = corpus_spec(name, settings)
    path = _meta_path(settings, spec.name, check_lang(spec, lang))
    if not path.is_file() or not corpus_path(settings, spec.name, lang).is_file():
        return None
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["path"] = Path(meta["path"])
    info = CorpusInfo(**{k: v for k, v in meta.items() if k in CorpusInfo.__dataclass_fields__})
    return info if info.format == CORPUS_FORMAT else None


def load_provisions(name: str, lang: str, settings: Settings, progress: Progress | None = None) -> list[Provision]:
    """The corpus's provisions, building it first when it is not there yet (`progress` hears of
    the build)."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    if corpus_info(spec.name, lang, settings) is None:
        build_corpus(spec.name, lang, settings, progress=progress)
    return read_jsonl(corpus_path(settings, spec.name, lang))


def check_corpus(name: str, lang: str, settings: Settings) -> tuple[bool, str]:
    """Re-parse the cached source offline and compare with the stored corpus, byte for byte."""
    spec = corpus_spec(name, settings)
    lang = check_lang(spec, lang)
    source = cached_source(spec, lang, settings)
    path = corpus_path(settings, spec.name, lang)
    if source is None or not path.is_file():
        raise NotFoundError(f"{spec.name}/{lang} is not built yet — run: pincite corpus build {spec.name} --lang {lang}")
    result = parse_source(spec, lang, source, read_bytes(source))
    fresh = "".join(p.to_json() + "\n" for p in result.provisions).encode("utf-8")
    stored = path.read_bytes()
    if fresh == stored:
        return True, f"{spec.name}/{lang}: {len(result.provisions)} provisions, identical to a fresh parse of {source.sha256[:12]}"
    old = {p.id: p for p in read_jsonl(path)}
    changed = [p.id for p in result.provisions if old.get(p.id) != p]
    gone = len(set(old) - {p.id for p in result.provisions})
    return False, (f"{spec.name}/{lang}: stored corpus differs from a fresh parse "
                   f"({len(changed)} changed or new, {gone} missing; first: {changed[:1]}) — "
                   f"rebuild with: pincite corpus build {spec.name} --lang {lang}")


def find_provisions(provisions: list[Provision], label: str | Citation,
                    rule_pattern: str = RULE_PATTERN) -> list[Provision]:
    """Provisions that are, or lie inside, the cited unit ('Article 33' gives its paragraphs)."""
    wanted = label if isinstance(label, Citation) else parse_label(label, rule_pattern)
    cited = [(p, parse_label(p.label, rule_pattern)) for p in provisions]
    exact = [p for p, c in cited if same(c, wanted)]
    if exact:
        return exact
    inside = [p for p, c in cited if contains(wanted, c)]
    if inside:
        return inside
    # 'Article 5(1)(a)' asked of a corpus that keeps points inside 5(1): show the paragraph.
    return [p for p, c in cited if contains(c, wanted)]


def show_provision(name: str, label: str, lang: str, settings: Settings) -> list[Provision]:
    provisions = load_provisions(name, lang, settings)
    found = find_provisions(provisions, label)
    if not found:
        raise NotFoundError(f"{name}/{lang} has no provision {label!r} — check the label "
                            f"(e.g. 'Article 33(1)', 'Annex III, point 4', 'Recital 47')")
    return found


def built_langs(name: str, settings: Settings) -> list[str]:
    spec = corpus_spec(name, settings)
    folder = settings.corpora_dir / spec.name
    return sorted(p.name.split(".")[0] for p in folder.glob("*.meta.json")) if folder.is_dir() else []
