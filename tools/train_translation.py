"""Train the Italian → English word table that cross-language search uses (retrieve/crosslang.py).

IBM Model 1 (EM over word alignments) on the aligned Italian and English texts of the same acts:
two provisions with one id (`gdpr/it/art-5.par-1`, `gdpr/en/art-5.par-1`) say the same thing, so
the law translates itself. Only the law's text is read, never a question.

    PINCITE_MIRROR=../shared/corpora python tools/train_translation.py [--acts gdpr ai-act] [--iterations 6]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict

from pincite.index.analysis import tokenize
from pincite.retrieve.crosslang import TABLES
from pincite.service import Pincite

# English function words and the law's connective vocabulary: translating into them adds nothing.
EN_STOP = frozenset(
    "the of and to in a an or be by for on with as that this is are which such any shall its it from at not "
    "where other those these their may under referred article paragraph point regulation".split())
MAX_WORDS = 400  # longer provisions (annex lists) align too loosely to teach anything
MIN_P = 0.05


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z-]+", text.lower()) if w not in EN_STOP and len(w) > 2]


def aligned_pairs(service: Pincite, acts: list[str], lang: str) -> list[tuple[list[str], list[str]]]:
    pairs = []
    for act in acts:
        english = {p.id.replace("/en/", "/"): p.text for p in service.provisions(act, "en")[0]}
        for p in service.provisions(act, lang)[0]:
            source, target = tokenize(p.text, lang), english_words(english.get(p.id.replace(f"/{lang}/", "/"), ""))
            if source and target and len(source) < MAX_WORDS and len(target) < MAX_WORDS:
                pairs.append((source, target))
    return pairs


def model1(pairs, iterations: int) -> dict[tuple[str, str], float]:
    """t(english word | source stem), the source side with a NULL word."""
    t: dict[tuple[str, str], float] = defaultdict(lambda: 1e-3)
    for _ in range(iterations):
        count: dict[tuple[str, str], float] = defaultdict(float)
        total: dict[str, float] = defaultdict(float)
        for source, target in pairs:
            words = [*source, "<null>"]
            for e in target:
                z = sum(t[(e, f)] for f in words)
                for f in words:
                    c = t[(e, f)] / z
                    count[(e, f)] += c
                    total[f] += c
        t = defaultdict(lambda: 1e-6, {k: v / total[k[1]] for k, v in count.items()})
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--acts", nargs="+", default=["gdpr", "ai-act"])
    parser.add_argument("--lang", default="it")
    parser.add_argument("--iterations", type=int, default=6)
    args = parser.parse_args()
    with Pincite() as service:
        pairs = aligned_pairs(service, args.acts, args.lang)
    table: dict[str, list] = defaultdict(list)
    for (e, f), p in model1(pairs, args.iterations).items():
        if p > MIN_P and f != "<null>":
            table[f].append([e, round(p, 3)])
    out = {f: sorted(v, key=lambda x: -x[1])[:4] for f, v in sorted(table.items())}
    path = TABLES / f"{args.lang}-en.json"
    path.write_text(json.dumps({"acts": args.acts, "pairs": len(pairs), "table": out}, ensure_ascii=False,
                               separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{len(pairs)} aligned provisions, {len(out)} {args.lang} stems → {path}")


if __name__ == "__main__":
    main()
