"""The agent's tools (answer/agent.py) over the service: each one call of a Pincite method, bound
to the corpus language being asked, so the model can read nothing outside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pincite.errors import UnknownProvisionError


@dataclass
class ServiceTools:
    service: Any  # a pincite.service.Pincite, not imported: the service imports this module
    corpus: str
    lang: str

    def search(self, query: str, k: int) -> dict:
        return self.service.search_document(query, corpus=self.corpus, lang=self.lang, k=k)

    def get_provision(self, label: str | None, id: str | None) -> dict:  # noqa: A002 - the tool's own name
        if label:
            return self.service.provisions_document(self.corpus, label, self.lang)
        if id is None or not id.startswith(f"{self.corpus}/{self.lang}/"):  # a provision of another act is not evidence
            raise UnknownProvisionError(f"{id!r} is not a provision of {self.corpus}/{self.lang} — take the id "
                                        f"from a search hit or a reference")
        return {"provisions": [self.service.get_provision(id)]}

    def article_outline(self, label: str) -> dict:
        return self.service.article_outline(self.corpus, label, self.lang)

    def get_references(self, label: str) -> dict:
        return self.service.references(self.corpus, label, self.lang)
