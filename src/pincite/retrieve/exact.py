"""Exact lookup: the provisions a question names come first, in the order named."""

from __future__ import annotations

import math

from pincite.citations import RULE_PATTERN
from pincite.corpus.build import find_provisions
from pincite.provisions import Provision
from pincite.retrieve.hits import Hit
from pincite.retrieve.query import Query

MAX_PER_CITATION = 20  # 'Article 4' of the GDPR has 26 parts; more than this is a list, not an answer


def exact_hits(query: Query, provisions: list[Provision], rule_pattern: str | None = None) -> list[Hit]:
    """Provisions the question names ('Article 17', 'Art. 83(5)', 'Annex III', 'Articolo 5')."""
    found: list[Hit] = []
    for citation in query.citations:
        for p in find_provisions(provisions, citation, rule_pattern or RULE_PATTERN)[:MAX_PER_CITATION]:
            found.append(Hit(p, math.inf, exact=True, why=[f"named: {citation}"]))
    return found


def merge_exact(exact: list[Hit], ranked: list[Hit]) -> list[Hit]:
    """Named provisions first, in the order named, then the ranked hits without repeats."""
    seen: set[str] = set()
    out: list[Hit] = []
    for hit in exact + ranked:
        if hit.provision.id not in seen:
            seen.add(hit.provision.id)
            out.append(hit)
    return out
