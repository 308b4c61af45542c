"""Questions written for each provision, searched beside the provisions (document expansion, "doc2query").

A question asked in plain words ("Our online shop got hacked — who do we tell?") and the paragraph that
answers it ("In the case of a personal data breach, the controller shall … notify …") share few words and
sit apart in an embedding space trained on web text. The questions people would ask of a paragraph sit
close to the questions people do ask: so every provision of the acts pincite ships questions for
(`questions/<act>.jsonl`: six per provision — one in the law's terms, one in plain words, one short first
question, then one from a person the rule affects, one from someone who must comply, one short question in other
everyday words) is also scored by its best question's similarity to the one asked, and the learned ranker reads
that score beside the others (retrieve.ranker). The files were written from each provision's text alone,
before and apart from the evaluation questions (docs/retrieval.md, "Questions written for each provision").

The questions are in English (the Thai PDPA's are three, and a fourth in Thai) and keyed by a provision's id within its
act ('art-33.par-1'), so every language of an act reads them (a multilingual model matches an Italian question
with an English one). An index in another language also reads the questions written in its language from its
text, when they ship (`questions/<act>.<lang>.jsonl`: the Italian GDPR and AI Act, the French AI Act): an English
question shares few words with one in another language, and the ranker and the gate read the written questions'
words as well as their vectors.
Their vectors are the embedding model's, computed once per model and kept under <home>/questions/.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pincite.index.analysis import token_set
from pincite.progress import Progress, report
from pincite.provisions import Provision

SHIPPED = Path(__file__).with_name("questions")
STAGE = "embed written questions"
# Provisions whose questions match best, added to the ranker's candidates when the first stage missed them: set once,
# not tuned; ablated after (0 instead, the same weights) on gdpr-en, ai-act-en and the two first-question sets, hit@1 /
# hit@5: dev 304 / 370 → 306 / 377 of 396, test 286 / 357 → 298 / 366 of 392.
CANDIDATES = 10


def question_file(act: str, directory: Path = SHIPPED, lang: str | None = None) -> Path | None:
    """The questions written for an act's provisions, if any ship with pincite: the English ones every language
    reads, or with `lang` those written in that language from its text."""
    path = directory / (f"{act}.{lang}.jsonl" if lang else f"{act}.jsonl")
    return path if path.is_file() else None


def local_id(provision_id: str) -> str:
    """'gdpr/en/art-33.par-1' → 'art-33.par-1': the same provision in every language of its act."""
    parts = provision_id.split("/", 2)
    return parts[2] if len(parts) == 3 else provision_id


@dataclass(frozen=True)
class ProvisionQuestions:
    """Each written question's vector and the provision it was written for (rows grouped by provision)."""

    vectors: np.ndarray  # one row per question, unit length
    owners: tuple[str, ...]  # the provision id of each group of rows, in order
    starts: np.ndarray  # the first row of each group
    texts: tuple[str, ...] = ()  # the question of each row
    # the analysed words of each provision's questions, in the index's language, by provision id: a question's words
    # found there and not in the provision's text ('hacked', 'loan', 'chatbot') are the plain words its questions use
    words: dict[str, frozenset[str]] = field(default_factory=dict)

    def scores(self, vector: np.ndarray) -> dict[str, float]:
        """Each provision's best question's cosine with the question asked (`vector`, unit length)."""
        return self.matches(vector)[0]

    def matches(self, vector: np.ndarray) -> tuple[dict[str, float], dict[str, int]]:
        """Each provision's best question's cosine with the question asked, and that question's row."""
        if not self.owners:
            return {}, {}
        similarity = self.vectors @ np.asarray(vector, dtype=np.float32)
        best = np.maximum.reduceat(similarity, self.starts)
        # the row of each group's best, without a loop over the groups (a search reads them all)
        counts = np.diff(np.append(self.starts, len(similarity)))
        at_best = np.where(similarity >= np.repeat(best, counts), np.arange(len(similarity)), -1)
        rows = np.maximum.reduceat(at_best, self.starts)
        return dict(zip(self.owners, best.tolist(), strict=True)), dict(zip(self.owners, rows.tolist(), strict=True))


def load_questions(act: str, provisions: list[Provision], embedder, home: Path,
                   directory: Path = SHIPPED, progress: Progress | None = None) -> ProvisionQuestions | None:
    """The written questions of an act for the provisions of one of its indexes, embedded by `embedder`
    (its vectors read from <home>/questions/ when this model has embedded this file before; `progress` hears
    of the count embedded), or None when no questions ship for the act."""
    path = question_file(act, directory)
    if path is None or embedder is None or not provisions:
        return None
    own = question_file(act, directory, provisions[0].lang) if provisions[0].lang != "en" else None
    files = [f.read_bytes() for f in (path, own) if f is not None]
    raw = b"\0".join(files)  # the cache's key: every file read
    written: dict[str, list[str]] = {}
    for line in (text for f in files for text in f.decode("utf-8").splitlines()):
        if line.strip():
            row = json.loads(line)
            written.setdefault(row["id"], []).extend(q for q in row["questions"] if q.strip())
    texts = [q for row in written.values() for q in row]
    vectors = _vectors(texts, raw, act, embedder, home, progress)
    first, at = {}, 0
    for key, questions in written.items():
        first[key] = (at, len(questions))
        at += len(questions)
    rows: list[np.ndarray] = []
    said: list[str] = []
    owners: list[str] = []
    starts: list[int] = []
    count = 0
    for p in provisions:
        found = first.get(local_id(p.id))
        if found is None or found[1] == 0:
            continue
        starts.append(count)
        rows.append(vectors[found[0]:found[0] + found[1]])
        said += texts[found[0]:found[0] + found[1]]
        owners.append(p.id)
        count += found[1]
    if not rows:
        return None
    lang = provisions[0].lang
    ends = [*starts[1:], count]
    words = {owner: frozenset().union(*(token_set(q, lang) for q in said[start:end]))
             for owner, start, end in zip(owners, starts, ends, strict=True)}
    return ProvisionQuestions(np.vstack(rows).astype(np.float32), tuple(owners), np.array(starts, dtype=np.int64),
                              tuple(said), words)


def _vectors(texts: list[str], raw: bytes, act: str, embedder, home: Path, progress: Progress | None) -> np.ndarray:
    """The questions' vectors, embedded as queries (a question matched with a question), from the cache
    when this model embedded this very file before; written to a unique temporary file, then renamed."""
    identity = getattr(embedder, "identity", type(embedder).__name__)
    digest = hashlib.sha256(raw + b"\0" + str(identity).encode()).hexdigest()[:16]
    cache = home / "questions" / f"{act}-{digest}.npy"
    if cache.is_file():
        try:
            found = np.load(cache)
            if found.shape[0] == len(texts):
                return found
        except (OSError, ValueError):
            pass  # a damaged cache is embedded again
    inner = getattr(embedder, "embedder", embedder)  # the service's query cache keeps single questions only
    batch = getattr(inner, "embed_queries", None)
    embed = batch or (lambda chunk: np.vstack([inner.embed_query(t) for t in chunk]))
    rows = []
    step = 128  # questions per progress step, as the index build's texts
    for start in range(0, len(texts), step):
        report(progress, act, STAGE, start, len(texts))
        rows.append(np.asarray(embed(texts[start:start + step]), dtype=np.float32))
    report(progress, act, STAGE, len(texts), len(texts))
    vectors = np.vstack(rows) if rows else np.zeros((0, 0), dtype=np.float32)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{act}-", suffix=".npy", dir=cache.parent)
    except OSError:
        return vectors  # a read-only home: the vectors still serve this process
    try:
        with os.fdopen(handle, "wb") as out:
            np.save(out, vectors)
        os.replace(temporary, cache)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
    return vectors
