"""The notice under every answer says what kind of source it quotes: the law, a rulebook, or a
document a user uploaded, which is not the law and must not be quoted as if it were."""

from __future__ import annotations

from pincite.service.documents import notice
from pincite.sources.catalog import NAMED, CorpusSpec
from tests.test_uploads_verified import QUESTION, uploaded  # noqa: F401 (fixture)


def spec(fmt: str) -> CorpusSpec:
    return CorpusSpec("x", "", "Example Rulebook", "", format=fmt, document="example-policy.pdf")


def test_each_kind_of_source_is_named_in_every_mode():
    for mode in ("extractive", "llm", "agent"):
        assert "not the law" not in notice(mode, NAMED["gdpr"])
        assert "a rulebook" in notice(mode, spec("rulebook")) and "Example Rulebook" in notice(mode, spec("rulebook"))
        said = notice(mode, spec("pages"))
        assert "example-policy.pdf" in said and "uploaded" in said and "not the law" in said
    assert "quotations of the law's text" in notice("extractive", NAMED["gdpr"])
    assert "quotations of the law's text" not in notice("extractive", spec("pages"))


def test_an_answer_from_an_uploaded_pdf_does_not_call_it_the_law(uploaded):  # noqa: F811
    from pincite.service import Pincite  # after the fixture's settings exist

    with Pincite(uploaded.model_copy(update={"answer_mode": "extractive"})) as service:
        document = service.ask(QUESTION, corpus="policy")
    assert document["outcome"] == "answered", document
    assert "not the law" in document["notice"] and "quotations of the law's text" not in document["notice"]
