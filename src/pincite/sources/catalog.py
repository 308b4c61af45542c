"""Named corpora: short names for acts users ask about, and how to find them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeGuard

from pincite.citations import TEXT_RULE_PATTERN
from pincite.errors import ConfigError, NotFoundError
from pincite.settings import Settings, load_settings
from pincite.sources.files import write_atomic

# A consolidated version is the CELEX with sector 0 and the date: 02016R0679-20160504.
CELEX_RE = re.compile(r"^[0-9][0-9]{4}[A-Z]{1,2}[0-9]{4}(?:\([0-9]+\))?(?:-[0-9]{8})?$")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
# A rulebook's ids, unless the user gives another pattern: the one citations find in running text.
DEFAULT_RULE_PATTERN = TEXT_RULE_PATTERN

# EUR-Lex language codes the publisher serves.
EU_LANGS = frozenset(
    "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv".split()
)


@dataclass(frozen=True)
class Expected:
    """The shape of an act known in advance; a parse that differs is refused."""

    enacting: int | None = None  # paragraphs + unnumbered articles + definitions
    articles: int | None = None
    annexes: int | None = None
    recitals: int | None = None
    sections: int | None = None  # statutes numbered by section (Thai PDPA: 96)


@dataclass(frozen=True)
class CorpusSpec:
    name: str
    celex: str
    title: str
    eli: str  # ELI of the act
    langs: frozenset[str] = EU_LANGS
    expected: Expected | None = None
    format: str = "eurlex"  # a source format of pincite.corpus.formats (EUR-Lex, Thai statute, rulebook, pages)
    rule_pattern: str = ""  # rulebooks: the regex a rule id matches in full
    document: str = ""  # uploaded PDFs: the file name page citations carry


NAMED = {
    "gdpr": CorpusSpec(
        "gdpr", "32016R0679", "General Data Protection Regulation (EU) 2016/679",
        "http://data.europa.eu/eli/reg/2016/679/oj",
        expected=Expected(enacting=414, articles=99, annexes=0, recitals=173),
    ),
    "ai-act": CorpusSpec(
        "ai-act", "32024R1689", "Artificial Intelligence Act (EU) 2024/1689",
        "http://data.europa.eu/eli/reg/2024/1689/oj",
        expected=Expected(articles=113, annexes=13, recitals=180),
    ),
    "dsa": CorpusSpec(
        "dsa", "32022R2065", "Digital Services Act (EU) 2022/2065",
        "http://data.europa.eu/eli/reg/2022/2065/oj",
        expected=Expected(articles=93, annexes=0, recitals=156),
    ),
    "dma": CorpusSpec(
        "dma", "32022R1925", "Digital Markets Act (EU) 2022/1925",
        "http://data.europa.eu/eli/reg/2022/1925/oj",
        expected=Expected(articles=54, annexes=1, recitals=109),
    ),
    "data-act": CorpusSpec(
        "data-act", "32023R2854", "Data Act (EU) 2023/2854",
        "http://data.europa.eu/eli/reg/2023/2854/oj",
        expected=Expected(articles=50, annexes=0, recitals=120),
    ),
    "dga": CorpusSpec(
        "dga", "32022R0868", "Data Governance Act (EU) 2022/868",
        "http://data.europa.eu/eli/reg/2022/868/oj",
        expected=Expected(articles=38, annexes=0, recitals=63),
    ),
    "cra": CorpusSpec(
        "cra", "32024R2847", "Cyber Resilience Act (EU) 2024/2847",
        "http://data.europa.eu/eli/reg/2024/2847/oj",
        expected=Expected(articles=71, annexes=8, recitals=130),
    ),
    # No CELEX: the source is the Royal Gazette PDF (mirror file pdpa/th.pdf).
    # For a Thai act, `eli` holds the Royal Gazette URL, the authoritative publication.
    "pdpa": CorpusSpec(
        "pdpa", "", "Personal Data Protection Act B.E. 2562 (2019) (Thailand)",
        "http://www.ratchakitcha.soc.go.th/DATA/PDF/2562/A/069/T_0052.PDF",
        langs=frozenset({"th"}), expected=Expected(sections=96), format="thai-statute",
    ),
}


def corpus_spec(name: str, settings=None) -> CorpusSpec:
    """Look a corpus up by short name or CELEX number: named acts, then acts added under the data
    dir (`pincite corpus add`, `add-pdf`), then any valid CELEX number as itself."""
    key = name.strip()
    if key.lower() in NAMED:
        return NAMED[key.lower()]
    for spec in NAMED.values():
        if spec.celex and spec.celex == key.upper():
            return spec
    added = registered(_where(settings))
    for spec in added.values():
        if spec.name.lower() == key.lower() or (spec.celex and spec.celex == key.upper()):
            return spec
    if CELEX_RE.match(key.upper()):
        return added_act(key.upper())
    known = ", ".join(sorted(NAMED) + sorted(added))
    raise NotFoundError(f"unknown corpus {name!r} — use one of: {known}, a CELEX number, "
                        f"or add one with: pincite corpus add CELEX --name SHORT")


def check_lang(spec: CorpusSpec, lang: str) -> str:
    code = lang.strip().lower()
    if code not in spec.langs:
        if spec.langs == EU_LANGS:
            fix = "use a two-letter EU language code such as en, it, fr"
        else:
            fix = f"it exists in: {', '.join(sorted(spec.langs))}"
        raise NotFoundError(f"{spec.name} has no language {lang!r} — {fix}")
    return code


# --- acts added by the user, kept under the data dir --------------------------------------


def _where(settings) -> Settings | Path:
    return load_settings() if settings is None else settings


def registry_path(home: Path) -> Path:
    return Path(home) / "catalog.json"


def _in_database(where: Settings | Path) -> TypeGuard[Settings]:
    """Added acts live in PostgreSQL when one is configured; a bare data directory (or no
    database) means the file <home>/catalog.json."""
    return isinstance(where, Settings) and bool(where.database_url and where.database_url.get_secret_value().strip())


def registered(where: Settings | Path) -> dict[str, CorpusSpec]:
    """Acts added with `pincite corpus add` / `add-pdf`, by name. `where`: the settings (their
    database, else their data directory) or a data directory."""
    if _in_database(where):
        with _state(where).transaction() as db:
            rows = db.execute("SELECT name, entry FROM catalog ORDER BY name").fetchall()
        return {name: _spec_from_entry(json.loads(entry)) for name, entry in rows}
    path = registry_path(where.home if isinstance(where, Settings) else where)
    if not path.is_file():
        return {}
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["corpora"]
        return {e["name"]: _spec_from_entry(e) for e in entries}
    except (ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"the list of added corpora {path} is damaged ({exc}) — fix or delete it "
                          f"and add the corpora again") from exc


def _state(settings: Settings):
    # numpy and the stores load only when a database holds the catalog, not for every command.
    from pincite.index.store.state import state_for  # lazy: keeps the index stage off light commands

    return state_for(settings, [])


def _spec_from_entry(entry: dict) -> CorpusSpec:
    langs = frozenset(entry["langs"]) if entry.get("langs") else EU_LANGS
    return CorpusSpec(entry["name"], entry.get("celex", ""), entry.get("title", ""), entry.get("eli", ""),
                      langs=langs, format=entry.get("format", "eurlex"),
                      rule_pattern=entry.get("rule_pattern", ""), document=entry.get("document", ""))


def _entry(spec: CorpusSpec) -> dict:
    entry: dict[str, str | list[str]] = {"name": spec.name, "celex": spec.celex, "title": spec.title,
                                         "eli": spec.eli, "format": spec.format}
    if spec.langs != EU_LANGS:
        entry["langs"] = sorted(spec.langs)
    if spec.rule_pattern:
        entry["rule_pattern"] = spec.rule_pattern
    if spec.document:
        entry["document"] = spec.document
    return entry


def register(spec: CorpusSpec, where: Settings | Path) -> None:
    """Add or update `spec` in the catalog, atomically (a reader never sees half a file)."""
    if _in_database(where):
        with _state(where).transaction() as db:
            db.execute("INSERT INTO catalog (name, entry) VALUES (?, ?) ON CONFLICT(name) DO UPDATE "
                       "SET entry = excluded.entry", (spec.name, json.dumps(_entry(spec), ensure_ascii=False)))
        return
    specs = registered(where)
    specs[spec.name] = spec
    _write_file(where.home if isinstance(where, Settings) else where, specs)


def unregister(name: str, where: Settings | Path) -> None:
    if _in_database(where):
        with _state(where).transaction() as db:
            db.execute("DELETE FROM catalog WHERE name = ?", (name,))
        return
    specs = registered(where)
    if specs.pop(name, None) is not None:
        _write_file(where.home if isinstance(where, Settings) else where, specs)


def _write_file(home: Path, specs: dict[str, CorpusSpec]) -> None:
    path = registry_path(home)
    document = {"corpora": [_entry(s) for _, s in sorted(specs.items())]}
    write_atomic(path, json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def consolidated_celex(celex: str, date: str) -> str:
    """32016R0679 + 2016-05-04 → 02016R0679-20160504, the CELEX of that consolidated version."""
    digits = re.sub(r"[-./]", "", date.strip())
    if not re.fullmatch(r"(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])", digits):
        raise ConfigError(f"consolidated date {date!r} is not a date — use YYYY-MM-DD, e.g. 2016-05-04")
    base = celex.strip().upper()
    if not CELEX_RE.match(base) or "-" in base:
        raise ConfigError(f"{celex!r} is not a CELEX number — use one like 32016R0679")
    return f"0{base[1:]}-{digits}"


_ELI_TYPES = {"R": "reg", "L": "dir", "D": "dec"}


def eli_of(celex: str) -> str:
    """ELI of a regulation, directive or decision from its CELEX (32022R2065 → …/reg/2022/2065/oj)."""
    m = re.fullmatch(r"3(\d{4})([RLD])(\d{4})", celex)
    if not m:
        return ""
    return f"http://data.europa.eu/eli/{_ELI_TYPES[m[2]]}/{m[1]}/{int(m[3])}/oj"


def added_act(celex: str, name: str = "", title: str = "") -> CorpusSpec:
    """The spec of an EUR-Lex act known only by its CELEX number."""
    return CorpusSpec(name or celex, celex, title or f"CELEX {celex}", eli_of(celex))


def with_title(spec: CorpusSpec, title: str) -> CorpusSpec:
    return replace(spec, title=title) if title else spec


def act_number(celex: str) -> str:
    """'32016R0679' → '2016/679', the number acts are cited by; '' when the CELEX is not an act's."""
    m = re.fullmatch(r"3(\d{4})[A-Z]{1,2}(\d{4})(?:\(\d+\))?", celex or "")
    return f"{m[1]}/{int(m[2])}" if m else ""


def eurlex_page(celex: str, lang: str) -> str:
    """The human-readable EUR-Lex page of an act; provision anchors (#art_33, #033.001) work on it."""
    return f"https://eur-lex.europa.eu/legal-content/{lang.upper()}/TXT/HTML/?uri=CELEX:{celex}"
