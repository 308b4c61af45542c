"""The HTTP API (`pincite serve`) as a client sees it: a real uvicorn server on loopback, real
indexes, real answers; only the settings differ between tests."""

from __future__ import annotations

import json
import secrets

import httpx
import pytest

from tests.conftest import CORPORA, MODEL, need_shared
from tests.live_server import http_server

BREACH = "How quickly must a personal data breach be notified to the supervisory authority?"
LUXEMBOURG = "Which data protection authority in Luxembourg handles complaints?"


@pytest.fixture(scope="module")
def gdpr(indexed):
    return indexed("gdpr", "en").model_copy(update={"rate_limit_per_minute": 0, "session_question_cap": 0})


@pytest.fixture(scope="module")
def api(gdpr):
    with http_server(gdpr) as url, httpx.Client(base_url=url, timeout=120) as client:
        yield client


def events(text: str) -> list[tuple[str, dict]]:
    """Server-sent events as (event, data) pairs; comments (keep-alives) skipped."""
    out = []
    for block in text.split("\n\n"):
        lines = [ln for ln in block.splitlines() if ln and not ln.startswith(":")]
        if lines:
            event = next(ln[6:].strip() for ln in lines if ln.startswith("event:"))
            data = "\n".join(ln[5:].lstrip() for ln in lines if ln.startswith("data:"))
            out.append((event, json.loads(data)))
    return out


def test_health(api):
    assert api.get("/health").json() == {"status": "ok", "version": api.get("/health").json()["version"],
                                         "answers": "extractive", "auth": False}


def test_openapi_documents_every_endpoint_and_the_answer_shape(api):
    schema = api.get("/openapi.json").json()
    assert {"/ask", "/verify", "/search", "/provisions/{provision_id}", "/provisions/{provision_id}/references",
            "/provisions", "/corpora", "/health"} <= set(schema["paths"])
    answer = schema["components"]["schemas"]["Answer"]
    assert {"outcome", "reason", "answer", "sentences", "citations", "corpus"} <= set(answer["properties"])


def test_verify_checks_each_sentence_against_its_citations(api):
    document = api.post("/verify", json={"text": (
        "The controller must notify a personal data breach to the supervisory authority within 72 hours "
        "[Article 33(1)]. The controller must notify it within 48 hours [Article 33(1)]."), "corpus": "gdpr"}).json()
    assert document["verified"] is False
    assert [s["reason"] for s in document["sentences"]] == [None, "number_mismatch"]
    assert api.post("/verify", json={"text": "x [Article 1].", "corpus": "gpdr"}).status_code == 404


def test_ask_answers_with_a_citation_on_every_sentence(api):
    answer = api.post("/ask", json={"question": BREACH, "corpus": "gdpr", "lang": "en"}).json()
    assert answer["outcome"] == "answered" and answer["reason"] is None
    assert answer["sentences"] and all(s["citations"] for s in answer["sentences"])
    assert answer["citations"][0]["label"] == "Article 33(1)"
    assert answer["citations"][0]["url"].startswith("https://eur-lex.europa.eu/")
    assert answer["corpus"] == {"name": "gdpr", "lang": "en", "version": "OJ L 119, 4.5.2016"}


def test_ask_refuses_with_a_reason_and_no_sources(api):
    answer = api.post("/ask", json={"question": LUXEMBOURG}).json()
    assert (answer["outcome"], answer["reason"], answer["sentences"], answer["citations"]) == (
        "refused", "outside_corpus", [], [])


def test_ask_streams_the_heading_sentences_citations_then_the_answer(api):
    response = api.post("/ask", json={"question": BREACH}, headers={"Accept": "text/event-stream"})
    assert response.headers["content-type"].startswith("text/event-stream")
    stream = events(response.text)
    names = [name for name, _ in stream]
    done = stream[-1][1]
    assert names == (["start", "heading"] + ["sentence"] * len(done["sentences"]) + ["citation"] * len(done["citations"])
                     + ["done"])
    assert stream[1][1]["text"] == done["heading"]
    assert [d["citations"] for n, d in stream if n == "sentence"] == [s["citations"] for s in done["sentences"]]
    assert [d["id"] for n, d in stream if n == "citation"] == [c["id"] for c in done["citations"]]


def test_a_streamed_refusal_carries_its_reason_and_no_citation(api):
    stream = events(api.post("/ask", json={"question": LUXEMBOURG}, headers={"Accept": "text/event-stream"}).text)
    assert [name for name, _ in stream] == ["start", "refusal", "done"]
    assert stream[1][1]["reason"] == "outside_corpus" and stream[2][1]["citations"] == []


def test_a_follow_up_continues_the_thread(api):
    first = api.post("/ask", json={"question": BREACH}).json()
    second = api.post("/ask", json={"question": "And the processor?", "thread": first["thread"]}).json()
    assert second["thread"] == first["thread"] and second["run"]["rewritten"]


def test_search(api):
    result = api.get("/search", params={"q": "how fast must a data breach be notified", "k": 3}).json()
    assert (result["corpus"], result["lang"], result["mode"], len(result["hits"])) == ("gdpr", "en", "hybrid", 3)
    assert result["hits"][0]["label"] == "Article 33(1)"


def test_provision_by_id_has_full_text_title_and_link(api):
    p = api.get("/provisions/gdpr/en/art-33.par-1").json()
    assert (p["label"], p["title"]) == ("Article 33(1)", "Notification of a personal data breach to the supervisory authority")
    assert "72 hours" in p["text"] and p["url"].endswith("#033.001") and p["version"] == "OJ L 119, 4.5.2016"


def test_provisions_by_label_give_every_part_of_an_article(api):
    found = api.get("/provisions", params={"corpus": "gdpr", "label": "Article 5"}).json()["provisions"]
    assert [p["label"] for p in found] == ["Article 5(1)", "Article 5(2)"]


def test_references_of_a_provision_both_ways(api):
    fine = api.get("/provisions/gdpr/en/art-83.par-4/references").json()
    assert fine["provision"]["id"] == "gdpr/en/art-83.par-4"
    cited = {row["label"]: row["id"] for row in fine["cites"]}
    assert cited["Article 37"] == "gdpr/en/art-37.par-1" and cited["Article 8"] == "gdpr/en/art-8.par-1"
    duty = api.get("/provisions/gdpr/en/art-37.par-1/references").json()
    assert "gdpr/en/art-83.par-4" in {row["id"] for row in duty["cited_by"]}


def test_corpora_lists_languages_and_what_is_built(api):
    corpora = {c["name"]: c for c in api.get("/corpora").json()["corpora"]}
    assert {"gdpr", "ai-act"} <= set(corpora) and "it" in corpora["gdpr"]["langs"]
    assert {"lang": "en", "version": "OJ L 119, 4.5.2016", "provisions": 587, "indexed": True} in corpora["gdpr"]["built"]


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("POST", "/ask", {"question": "x", "corpus": "gpdr"}, 404, "unknown_corpus"),
    ("GET", "/provisions/gdpr/en/art-99.par-9", None, 404, "unknown_provision"),
    ("GET", "/provisions/gdpr/xx/art-1", None, 404, "unknown_language"),
    ("GET", "/provisions/gdpr/en/art-99.par-9/references", None, 404, "unknown_provision"),
    ("GET", "/provisions?corpus=gdpr&label=Paragraph%20seven", None, 400, "bad_label"),
    ("GET", "/provisions?corpus=gdpr&label=Article%20100", None, 404, "unknown_provision"),
    ("POST", "/ask", {"question": "x" * 2001}, 422, "invalid_request"),
    ("POST", "/ask", {"question": ""}, 422, "invalid_request"),
    ("POST", "/ask", {"question": "x", "surprise": 1}, 422, "invalid_request"),
    ("POST", "/ask", {"question": "x", "thread": "../../etc"}, 422, "invalid_request"),
    ("POST", "/ask", ["x"], 400, "invalid_request"),
    ("GET", "/search?q=x&k=1000", None, 422, "invalid_request"),
    ("GET", "/search?q=x&mode=fuzzy", None, 422, "invalid_request"),
    ("GET", "/nowhere", None, 404, "not_found"),
    ("DELETE", "/ask", None, 405, "method_not_allowed"),
])
def test_bad_requests_get_a_typed_4xx_with_a_message(api, method, path, body, status, code):
    response = api.request(method, path, json=body)
    assert (response.status_code, response.json()["error"]) == (status, code)
    assert response.json()["message"]


def test_malformed_json_is_400_with_a_clear_message(api):
    response = api.post("/ask", content=b'{"question": ', headers={"Content-Type": "application/json"})
    assert (response.status_code, response.json()["error"]) == (400, "invalid_json")
    assert "not valid JSON" in response.json()["message"]


def test_oversized_body_is_413_declared_or_streamed(api):
    big = json.dumps({"question": "x" * 20_000}).encode()
    assert api.post("/ask", content=big, headers={"Content-Type": "application/json"}).status_code == 413
    streamed = api.post("/ask", content=iter([big[:10_000], big[10_000:]]), headers={"Content-Type": "application/json"})
    assert (streamed.status_code, streamed.json()["error"]) == (413, "too_large")


def test_api_keys_are_required_when_set(gdpr):
    settings = gdpr.model_copy(update={"api_keys": "k-one, k-two"})
    with http_server(settings) as url, httpx.Client(base_url=url) as client:
        refused = client.get("/corpora")
        assert (refused.status_code, refused.json()["error"]) == (401, "unauthorized")
        assert refused.headers["www-authenticate"] == "Bearer"
        assert client.get("/corpora", headers={"Authorization": "Bearer k-two"}).status_code == 200
        assert client.get("/corpora", headers={"X-API-Key": "k-one"}).status_code == 200
        assert client.get("/corpora", headers={"X-API-Key": "k-three"}).status_code == 401
        assert client.get("/health").json()["auth"] is True


def fresh() -> str:
    """A salt of its own: the counts live in the shared data directory's database, and a new salt
    makes this test's client a new one there."""
    return secrets.token_hex(8)


def test_rate_limit_per_client(gdpr):
    with http_server(gdpr.model_copy(update={"rate_limit_per_minute": 3, "log_salt": fresh()})) as url, httpx.Client(base_url=url) as client:
        statuses = [client.get("/corpora").status_code for _ in range(4)]
        limited = client.get("/corpora")
        assert statuses == [200, 200, 200, 429]
        assert limited.json()["error"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
        assert client.get("/corpora", headers={"X-API-Key": "another client"}).status_code == 200


def test_question_cap_per_session(gdpr):
    with http_server(gdpr.model_copy(update={"session_question_cap": 2, "log_salt": fresh()})) as url, \
            httpx.Client(base_url=url, timeout=60) as client:
        statuses = [client.post("/ask", json={"question": LUXEMBOURG}).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]
        assert client.post("/ask", json={"question": LUXEMBOURG}).json()["error"] == "question_cap"
        assert client.get("/search", params={"q": "consent"}).status_code == 200  # reading is not capped


def test_access_log_hashes_addresses_keeps_no_query_and_prunes_old_days(gdpr, tmp_path):
    settings = gdpr.model_copy(update={"home": tmp_path, "log_salt": "pepper"})
    (tmp_path / "logs").mkdir()
    old = tmp_path / "logs" / "access-2000-01-01.jsonl"
    old.write_text('{"client": "ip:old"}\n')
    with http_server(settings) as url, httpx.Client(base_url=url) as client:
        client.get("/health", params={"q": "my secret question"})
    (log,) = (tmp_path / "logs").glob("access-*.jsonl")
    text = log.read_text()
    entry = json.loads(text.splitlines()[0])
    assert (entry["method"], entry["path"], entry["status"]) == ("GET", "/health", 200)
    assert entry["client"].startswith("ip:") and len(entry["client"]) == 19
    assert "127.0.0.1" not in text and "secret" not in text and not old.exists()


def test_access_log_can_be_turned_off(gdpr, tmp_path):
    settings = gdpr.model_copy(update={"home": tmp_path, "access_log": False})
    with http_server(settings) as url:
        httpx.get(url + "/health")
    assert not (tmp_path / "logs").exists()


def test_a_corpus_is_built_on_first_use(mirrored_home):
    from pincite.settings import load_settings

    settings = load_settings(home=mirrored_home, mirror=CORPORA)
    with http_server(settings) as url:
        provision = httpx.get(url + "/provisions/gdpr/it/art-33.par-1", timeout=120).json()
    assert provision["label_local"] == "Articolo 33, paragrafo 1"
    assert (mirrored_home / "corpora" / "gdpr" / "it.jsonl").is_file()


def test_the_page_and_its_assets_are_served(api):
    page = api.get("/")
    assert page.status_code == 200 and "<title>pincite" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert api.get("/static/app.js").headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert api.get("/static/style.css").status_code == 200


def test_an_uploaded_pdf_becomes_a_corpus_that_answers_with_page_citations(gdpr, tmp_path):
    from tests.pdf_fixtures import paged_pdf

    settings = gdpr.model_copy(update={"home": tmp_path / "upload-home"})
    data = paged_pdf(tmp_path / "Staff handbook.pdf").read_bytes()
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=300) as client:
        added = client.post("/corpora/pdf", params={"filename": "Staff handbook.pdf", "name": "handbook"},
                            content=data, headers={"Content-Type": "application/pdf"})
        answer = client.post("/ask", json={"question": "How long are payroll records kept?",
                                           "corpus": "handbook"}).json()
    assert added.status_code == 201 and added.json()["name"] == "handbook"
    assert answer["outcome"] == "answered" and answer["citations"][0]["label"] == "Staff-handbook.pdf, p. ii"  # front matter


def test_an_upload_that_is_not_a_pdf_is_refused_and_leaves_nothing(gdpr, tmp_path):
    settings = gdpr.model_copy(update={"home": tmp_path / "upload-home"})
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=60) as client:
        refused = client.post("/corpora/pdf", params={"filename": "notes.pdf"}, content=b"just text, no PDF",
                              headers={"Content-Type": "application/pdf"})
    assert refused.status_code == 400 and not list((tmp_path / "upload-home").rglob("*.pdf"))


def test_corpora_offer_the_languages_the_mirror_holds_and_those_built(mirrored_home, tmp_path):
    from pincite.service import Pincite
    from pincite.settings import load_settings

    with Pincite(load_settings(home=mirrored_home, mirror=CORPORA)) as pincite:
        pincite.build_corpus("dga", "en")  # built here; the mirror below does not hold it
    mirror = tmp_path / "mirror"
    (mirror / "32016R0679").mkdir(parents=True)
    (mirror / "32016R0679" / "it.html").symlink_to(CORPORA / "gdpr" / "it.html")
    (mirror / "gdpr").mkdir()
    (mirror / "gdpr" / "it.cellar.html").write_text("not a name the mirror is read by")
    with http_server(load_settings(home=mirrored_home, mirror=mirror)) as url:
        corpora = {c["name"]: c for c in httpx.get(url + "/corpora").json()["corpora"]}
        refused = httpx.post(url + "/ask", json={"question": "Wer ist der Verantwortliche?", "corpus": "gdpr",
                                                  "lang": "de"}, timeout=60)
    assert (corpora["gdpr"]["available"], corpora["dga"]["available"], corpora["ai-act"]["available"]) == (
        ["it"], ["en"], [])
    assert len(corpora["gdpr"]["langs"]) == 24
    assert refused.status_code == 404 and refused.json() == {"error": "not_in_mirror", "message": (
        "gdpr (de) is not in the mirror …: none of de.html, de.xhtml, de.xml, de.pdf in gdpr/ or 32016R0679/ — "
        "add the file there, or unset PINCITE_MIRROR to fetch from the publisher")}


def test_without_a_mirror_every_language_of_the_act_is_offered(tmp_path, monkeypatch):
    from pincite.service import Pincite
    from pincite.settings import load_settings

    # 'mirror=None' means 'not given': the environment's mirror would still apply, so none is set here (a test run
    # beside it once left PINCITE_MIRROR set when this one ran, and the clean-clone CI failed on it)
    monkeypatch.delenv("PINCITE_MIRROR", raising=False)
    with Pincite(load_settings(home=tmp_path, mirror=None)) as pincite:
        assert len(pincite.available_languages("gdpr")) == 24 and pincite.available_languages("pdpa") == ["th"]


def test_a_first_streamed_answer_sends_the_build_stages_before_the_answer(mirrored_home):
    from pincite.settings import load_settings

    settings = load_settings(home=mirrored_home, mirror=CORPORA, embed_model_path=need_shared(MODEL)).model_copy(
        update={"rate_limit_per_minute": 0, "session_question_cap": 0})
    ask = {"question": "Who may provide data intermediation services?", "corpus": "dga"}
    with http_server(settings) as url, httpx.Client(base_url=url, timeout=120) as client:
        first = events(client.post("/ask", json=ask, headers={"Accept": "text/event-stream"}).text)
        again = events(client.post("/ask", json=ask, headers={"Accept": "text/event-stream"}).text)
    progress = [data for name, data in first if name == "progress"]
    assert [name for name, _ in first][:len(progress) + 1] == ["start"] + ["progress"] * len(progress)
    assert progress[0] == {"stage": "fetch", "done": 0, "total": None}
    assert [p for p in progress if p["stage"] == "embed"][-1] == {"stage": "embed", "done": 307, "total": 307}
    assert first[-1][0] == "done" and "progress" not in [name for name, _ in again]
