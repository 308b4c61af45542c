"""How closely our parse of Thailand's PDPA (Royal Gazette PDF) agrees with SiData+'s
independent per-section transcription (shared/corpora/pdpa/sidataplus-md).

    python tools/pdpa_agreement.py [--json]   # character agreement per section

A development tool: it reads ../shared, so it is not part of the installed package.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import unicodedata
from pathlib import Path

from pincite.corpus.build import load_provisions
from pincite.provisions import Provision
from pincite.settings import load_settings

SIDATAPLUS = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "pdpa" / "sidataplus-md"


def transcription(md_dir: Path = SIDATAPLUS) -> dict[str, str]:
    """Section number → text of the SiData+ per-section Markdown (front matter, links, &emsp; dropped)."""
    out = {}
    for path in md_dir.glob("article-*.md"):
        number = path.stem.removeprefix("article-")
        body = path.read_text(encoding="utf-8").split("---", 2)[-1]
        body = re.sub(r"\[\[([^\]|]*)(?:\|[^\]]*)?\]\]", r"\1", body)  # [[มาตรา ๒๗]] wiki links
        out[number] = body.replace("&emsp;", " ")
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text.replace("\u0e4d\u0e32", "\u0e33")))


def agreement(provisions: list[Provision], md_dir: Path = SIDATAPLUS) -> dict[str, float]:
    """Character-level agreement (difflib ratio, whitespace ignored) of each section's text with the
    transcription: 1.0 means the same characters in the same order."""
    theirs = transcription(md_dir)
    scores = {}
    for p in provisions:
        number = p.label.removeprefix("Section ")
        if number in theirs:
            ours, other = _squash(p.text), _squash(theirs[number])
            scores[number] = round(difflib.SequenceMatcher(None, ours, other, autojunk=False).ratio(), 4)
    return scores


def main(argv: list[str]) -> int:
    """Print the agreement of the parsed PDPA with the SiData+ transcription."""
    provisions = load_provisions("pdpa", "th", load_settings())
    scores = agreement(provisions)
    values = sorted(scores.values())
    summary = {"sections": len(provisions), "compared": len(scores),
               "mean": round(sum(values) / len(values), 4) if values else 0.0,
               "min": values[0] if values else 0.0, "identical": sum(v == 1.0 for v in values),
               "below_0.99": sorted((k for k, v in scores.items() if v < 0.99), key=int)}
    if "--json" in argv:
        print(json.dumps({**summary, "per_section": scores}, ensure_ascii=False, indent=2))
    else:
        for number in sorted(scores, key=lambda n: int(n.split("/")[0])):
            print(f"Section {number}\t{scores[number]:.4f}")
        print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
