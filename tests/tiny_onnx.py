"""A tiny cross-encoder, written as a real ONNX file and a real tokenizer, for the reranker tests.

No `onnx` package here (and none needed by pincite): the model is a few protobuf messages, so it
is encoded by hand (field numbers from onnx/onnx.proto). The model scores a (question, text)
pair as the sum of a weight per word of the text, the second segment: Gather(weights,
input_ids) × token_type_ids × attention_mask, summed over positions. A test predicts every score
from the weights it chose.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
FLOAT, INT64 = 1, 7  # TensorProto.DataType


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int64 as two's complement, as protobuf does
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(value)


def _bytes(field: int, value: bytes | str) -> bytes:
    data = value.encode() if isinstance(value, str) else value
    return _varint(field << 3 | 2) + _varint(len(data)) + data


def _tensor_type(elem: int, dims: list[int | str]) -> bytes:
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _bytes(2, d)) for d in dims)
    return _bytes(1, _int(1, elem) + _bytes(2, shape))  # TypeProto.tensor_type


def _value(name: str, elem: int, dims: list[int | str]) -> bytes:
    return _bytes(1, name) + _bytes(2, _tensor_type(elem, dims))


def _node(op: str, inputs: list[str], outputs: list[str], **ints: int) -> bytes:
    body = b"".join(_bytes(1, i) for i in inputs) + b"".join(_bytes(2, o) for o in outputs) + _bytes(4, op)
    for name, value in ints.items():
        body += _bytes(5, _bytes(1, name) + _int(3, value) + _int(20, 2))  # AttributeProto, type INT
    return body


def _initializer(name: str, elem: int, values: list[float] | list[int]) -> bytes:
    raw = struct.pack(f"<{len(values)}{'f' if elem == FLOAT else 'q'}", *values)
    return _int(1, len(values)) + _int(2, elem) + _bytes(8, name) + _bytes(9, raw)


def model_bytes(weights: list[float]) -> bytes:
    nodes = [
        _node("Gather", ["weights", "input_ids"], ["per_token"]),
        _node("Cast", ["token_type_ids"], ["second"], to=FLOAT),
        _node("Cast", ["attention_mask"], ["real"], to=FLOAT),
        _node("Mul", ["per_token", "second"], ["text_only"]),
        _node("Mul", ["text_only", "real"], ["counted"]),
        _node("ReduceSum", ["counted", "axes"], ["logits"], keepdims=1),
    ]
    graph = b"".join(_bytes(1, n) for n in nodes) + _bytes(2, "tiny-cross-encoder")
    graph += _bytes(5, _initializer("weights", FLOAT, weights)) + _bytes(5, _initializer("axes", INT64, [1]))
    graph += b"".join(_bytes(11, _value(n, INT64, ["batch", "sequence"]))
                      for n in ("input_ids", "attention_mask", "token_type_ids"))
    graph += _bytes(12, _value("logits", FLOAT, ["batch", 1]))
    opset = _bytes(1, "") + _int(2, 13)
    return _int(1, 8) + _bytes(2, "pincite-tests") + _bytes(7, graph) + _bytes(8, opset)


def write_cross_encoder(directory: Path, word_weights: dict[str, float]) -> Path:
    """A model directory fastembed's TextCrossEncoder loads: `model.onnx`, `tokenizer.json`
    (lower-cased words; the question is segment 0, the text segment 1) and `tokenizer_config.json`."""
    directory.mkdir(parents=True, exist_ok=True)
    vocab = {token: i for i, token in enumerate([*SPECIAL, *word_weights])}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    tokenizer.save(str(directory / "tokenizer.json"))
    (directory / "tokenizer_config.json").write_text(
        json.dumps({"model_max_length": 8192, "pad_token": "[PAD]"}), encoding="utf-8")
    weights = [0.0] * len(SPECIAL) + list(word_weights.values())
    (directory / "model.onnx").write_bytes(model_bytes(weights))
    return directory
