"""Adding many acts at once (`pincite corpus add --from FILE`).

A batch file names one act per line — a CELEX number or a corpus name, optionally followed by
languages (`32022R2065 en,fr`, `gdpr en it`); `#` starts a comment. The sources are fetched
several at a time (the network is the slow part, and fetching takes no lock), then each act is
built and indexed in turn (parsing and embedding are CPU-bound: the data lock takes one writer
at a time anyway). An act whose corpus is built and whose index is up to date is skipped, so a
batch stopped halfway resumes where it stopped. A bad line or a failed act is one line in the
result and does not stop the others.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from pincite.corpus.build import corpus_info
from pincite.errors import PinciteError
from pincite.index.build import index_key, wanted_identity
from pincite.sources.catalog import CELEX_RE, NAME_RE, check_lang, corpus_spec
from pincite.sources.fetch import forget_prefetched, prefetch

LANG_RE = re.compile(r"^[a-z]{2}$")
JOBS = 4  # sources fetched at once: EUR-Lex answers a few parallel requests well, not dozens


@dataclass(frozen=True)
class Item:
    line: int  # 1-based line of the batch file
    act: str  # as written: CELEX number or corpus name
    lang: str
    error: str = ""  # the line could not be read: why


@dataclass
class Outcome:
    item: Item
    status: str  # "added", "skipped" (already added), "failed"
    name: str = ""
    provisions: int = 0
    units: int = 0
    reason: str = ""
    seconds: float = 0.0


def parse_batch(text: str) -> list[Item]:
    """One Item per (line, language); a line that cannot be read is one Item with its error."""
    items = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].replace(",", " ").split()
        if not words:
            continue
        act, langs = words[0], [w.lower() for w in words[1:]] or [""]
        bad = [w for w in langs if w and not LANG_RE.match(w)]
        if not (CELEX_RE.match(act.upper()) or NAME_RE.match(act)):
            items.append(Item(number, act, "", f"{act!r} is not a CELEX number or a corpus name — write one "
                                                f"act per line, e.g. 32022R2065 en,fr"))
        elif bad:
            items.append(Item(number, act, "", f"{bad[0]!r} is not a language code — use two-letter codes "
                                                f"after the act, e.g. {act} en,fr"))
        else:
            items.extend(Item(number, act, lang) for lang in dict.fromkeys(langs))
    return items


def add_batch(pincite, items: list[Item], *, index: bool = True, jobs: int = JOBS,
              progress: Callable[[Outcome, int, int], None] | None = None) -> list[Outcome]:
    """Add every item; one Outcome each, in file order. `progress(outcome, done, total)` hears
    of each as it ends."""
    outcomes: dict[int, Outcome] = {}

    def finish(i: int, outcome: Outcome) -> None:
        outcomes[i] = outcome
        if progress:
            progress(outcome, len(outcomes), len(items))

    pending = []
    for i, item in enumerate(items):
        if item.error:
            finish(i, Outcome(item, "failed", reason=item.error))
        elif (done := _already_added(pincite, item, index)) is not None:
            finish(i, done)
        else:
            pending.append((i, item))
    try:
        fetched = _prefetch_all(pincite, [item for _, item in pending], jobs)
        for i, item in pending:
            finish(i, fetched.get(id(item)) or _add_one(pincite, item, index))
    finally:
        forget_prefetched()
    return [outcomes[i] for i in range(len(items))]


def _already_added(pincite, item: Item, index: bool) -> Outcome | None:
    """The item's Outcome when its corpus is built and (when indexing) its index up to date."""
    try:
        spec = corpus_spec(item.act, pincite.settings)
        lang = check_lang(spec, item.lang or _default_lang(spec))
    except PinciteError:
        return None  # not known yet (or a bad language): adding it will say what is wrong
    info = corpus_info(spec.name, lang, pincite.settings)
    if info is None:
        return None
    units = 0
    if index:
        want = wanted_identity(spec.name, lang, pincite.settings, pincite.embedder)
        if pincite.store.identity(want.key) != want:
            return None
        units = len(pincite.store.units(index_key(spec.name, lang)))
    return Outcome(item, "skipped", f"{spec.name}/{lang}", info.counts.get("provisions", 0), units)


def _prefetch_all(pincite, items: list[Item], jobs: int) -> dict[int, Outcome]:
    """Fetch every pending source, `jobs` at a time; a failed fetch is that item's Outcome."""
    def fetch(item: Item) -> tuple[Item, Outcome | None]:
        started = time.perf_counter()
        try:
            spec = corpus_spec(item.act, pincite.settings)
            if spec.celex and spec.format == "eurlex":
                prefetch(spec, item.lang or _default_lang(spec), pincite.settings)
        except PinciteError as exc:
            return item, Outcome(item, "failed", reason=str(exc), seconds=time.perf_counter() - started)
        return item, None

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return {id(item): failed for item, failed in pool.map(fetch, items) if failed is not None}


def _add_one(pincite, item: Item, index: bool) -> Outcome:
    started = time.perf_counter()
    try:
        spec = corpus_spec(item.act, pincite.settings)
        lang = item.lang or _default_lang(spec)
        if spec.celex:
            added = pincite.add_act(spec.celex, lang, index=index)
            name, provisions = added.spec.name, added.info.counts.get("provisions", 0)
            units = added.index["units"] if added.index else 0
        else:  # a named corpus with no CELEX (a statute or PDF the catalog knows): build it
            info = pincite.build_corpus(spec.name, lang)
            name, provisions = spec.name, info.counts.get("provisions", 0)
            units = pincite.index(spec.name, lang)["units"] if index else 0
    except (PinciteError, OSError) as exc:
        return Outcome(item, "failed", reason=str(exc), seconds=time.perf_counter() - started)
    return Outcome(item, "added", f"{name}/{lang}", provisions, units, seconds=time.perf_counter() - started)


def _default_lang(spec) -> str:
    return "en" if "en" in spec.langs else sorted(spec.langs)[0]
