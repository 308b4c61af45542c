"""The provision: the smallest unit a lawyer would cite on its own."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pincite.sources.files import write_atomic

PROVISION_KINDS = ("paragraph", "article", "definition", "point", "annex", "recital", "section", "rule", "page")


@dataclass(frozen=True)
class Provision:
    id: str
    label: str
    label_local: str
    kind: str
    instrument: str
    lang: str
    title: str
    path: list[str]
    text: str
    url: str
    source_sha256: str
    version: str
    celex: str = ""
    path_titles: list[str] = field(default_factory=list)  # titles of the chapters/sections in `path`
    # References in the text, resolved at parse time (citations.references): each a dict with
    # "label" (the target, English style), "target" (its provision id here, or None), "words"
    # (the referencing words), "external" (another act), "act" (that act's number).
    refs: list[dict] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=False)

    @classmethod
    def from_dict(cls, data: dict) -> Provision:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def write_jsonl(provisions: list[Provision], out: Path) -> None:
    """Write through a temporary file of this writer's own and rename, so a reader never sees
    half a corpus and two writers never share a temporary file."""
    def lines(fh) -> None:
        for provision in provisions:
            fh.write(provision.to_json())
            fh.write("\n")

    write_atomic(out, lines)


def read_jsonl(path: Path) -> list[Provision]:
    with path.open(encoding="utf-8") as fh:
        return [Provision.from_dict(json.loads(line)) for line in fh if line.strip()]
