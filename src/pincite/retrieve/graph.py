"""The reference graph of one index, both ways: what a provision cites, and what cites it.

Edges come from the store (`Store.edges`), as read at parse time (citations.references). A
reference to a whole article ("Articles 25 to 39", "Annex III") points at the article's first
part, so it reaches every part of that article: `neighbours` expands it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from pincite.index.store import Edge
from pincite.provisions import Provision

# An apostrophe between letters is part of the term, not its closing quote: «système d’IA»,
# «consenso dell'interessato» (and "s'intende per:" opens no term).
_TERM = re.compile(r"(?:[‘“\"«]|(?<!\w)')((?:[^’'”\"»]|(?<=\w)[’'](?=\w)){2,80})(?:[”\"»]|[’'](?!\w))")


def article_of(label: str) -> str:
    """'Article 33(1)' → 'Article 33'; 'Annex III, point 4' → 'Annex III'; 'Section 26' stays."""
    return re.split(r"[(,]", label, maxsplit=1)[0].strip()


class Graph:
    def __init__(self, edges: list[Edge], provisions: Sequence[Provision] = ()):
        self.edges = edges
        self._cites: dict[str, list[Edge]] = defaultdict(list)
        self._cited_by: dict[str, list[Edge]] = defaultdict(list)
        for e in edges:
            self._cites[e.source].append(e)
            if e.target is not None:
                self._cited_by[e.target].append(e)
        self.provisions = list(provisions)
        self.definitions = defined_terms(self.provisions)  # (term, definition id)
        self._users: dict[str, list[tuple[str, str]]] | None = None
        self._parts: dict[str, list[str]] = defaultdict(list)  # article label → its parts' ids
        self._article: dict[str, str] = {}
        self._texts: dict[str, str] | None = None
        for p in provisions:
            if p.kind != "recital":
                self._parts[article_of(p.label)].append(p.id)
                self._article[p.id] = article_of(p.label)

    def article_text(self, provision_id: str) -> str:
        """The text of every part of the provision's article (or section), in order."""
        if self._texts is None:
            by_id = {p.id: p.text for p in self.provisions}
            self._texts = {article: "\n".join(by_id[pid] for pid in ids) for article, ids in self._parts.items()}
        return self._texts.get(self._article.get(provision_id, ""), "")

    def article(self, provision_id: str) -> str | None:
        """The label of the article (or annex, or section) a provision is part of; None for a recital."""
        return self._article.get(provision_id)

    def cites(self, provision_id: str) -> list[Edge]:
        """The references a provision makes, internal and external, in text order."""
        return self._cites.get(provision_id, [])

    def cited_by(self, provision_id: str) -> list[Edge]:
        """The references other provisions make to this one."""
        return self._cited_by.get(provision_id, [])

    def users(self, definition_id: str) -> list[tuple[str, str]]:
        """(id, the term) of the provisions whose text uses the term a definition defines."""
        if self._users is None:
            self._users = defaultdict(list)
            texts = [(p.id, p.text.lower()) for p in self.provisions if p.kind not in ("recital", "definition")]
            for term, pid in self.definitions:
                self._users[pid] = [(other, term) for other, text in texts if term in text]
        return self._users.get(definition_id, [])

    def neighbours(self, provision_id: str) -> list[tuple[str, Edge]]:
        """Provisions one internal reference away, either way, as (their id, the edge): a
        reference to a whole article reaches each of its parts, and reaches this provision when
        it names this provision's article."""
        out = []
        for e in self.cites(provision_id):
            if e.target is not None:
                whole = article_of(e.label) == e.label and e.label in self._parts
                out += [(t, e) for t in (self._parts[e.label] if whole else [e.target])]
        article = self._article.get(provision_id)
        first = self._parts[article][0] if article in self._parts else None
        incoming = self.cited_by(provision_id)
        if first is not None and first != provision_id:
            incoming = incoming + [e for e in self.cited_by(first) if e.label == article]
        return [(t, e) for t, e in out if t != provision_id] + [(e.source, e) for e in incoming]


def defined_terms(provisions: list[Provision]) -> list[tuple[str, str]]:
    """(term, definition id) of each definition: the quoted term it opens with, lower-case."""
    out = []
    for p in provisions:
        m = _TERM.search(p.text) if p.kind == "definition" else None
        if m:
            out.append((m.group(1).strip().lower(), p.id))
    return out
