"""The section-coherence rerank computes a text's trigrams only when a kept neighbour needs them
(perf, issue 13): the same final list as computing them for every candidate, on many candidate
lists full of neighbours and near-duplicates."""

from __future__ import annotations

import random

from knowledge import section_rerank
from knowledge.payload import ChunkPayload
from knowledge.section_rerank import (
    DUPLICATE_JACCARD,
    _coherence_order,
    _trigrams,
    _version_order,
    jaccard,
    neighbours,
    section_coherence_rerank,
)
from knowledge.store import ScoredChunk

WORDS = ["fee", "payer", "payee", "transfer", "refund", "limit", "days", "account", "scheme", "rule", "section",
         "amount"]


def eager(candidates: list[ScoredChunk], k: int, query: str | None, walked: list[int]) -> list[ScoredChunk]:
    """The rerank as it was: every walked candidate's trigrams computed up front."""
    order = _version_order(candidates, _coherence_order(candidates), query)
    kept: list[tuple[ScoredChunk, set[tuple[str, ...]]]] = []
    for index in order:
        hit = candidates[index]
        grams = _trigrams(hit.payload.text)
        walked.append(index)
        if any(neighbours(other.payload, hit.payload) and jaccard(grams, other_grams) >= DUPLICATE_JACCARD
               for other, other_grams in kept):
            walked.append(-1)  # collapsed
            continue
        kept.append((hit, grams))
        if len(kept) == k:
            break
    return [hit for hit, _ in kept]


def candidates(rng: random.Random) -> list[ScoredChunk]:
    base = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 40))) for _ in range(6)]
    out = []
    for i in range(30):
        book = rng.choice(["A", "B", "C"])
        text = rng.choice(base)
        if rng.random() < 0.5:  # a near-duplicate, or not quite
            text += " " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))
        version = rng.choice(["1.0", "2.0"])
        payload = ChunkPayload(chunk_id=f"{book}-{version}:{i}", rulebook_id=f"{book}-{version}",
                               rulebook_title=f"Rulebook {book} version {version}", version=version,
                               page_start=1, page_end=1, chunk_index=rng.randint(0, 8),
                               section_path=[rng.choice(["1", "2", "3"])], text=text, content_hash=str(i))
        out.append(ScoredChunk(payload, 1.0 / (5 + i)))
    return out


def test_lazy_trigrams_give_the_same_final_list(monkeypatch):
    rng = random.Random(13)
    computed = []
    real = section_rerank._trigrams
    monkeypatch.setattr(section_rerank, "_trigrams", lambda text: computed.append(text) or real(text))
    walked: list[int] = []
    for _ in range(400):
        hits = candidates(rng)
        for k in (3, 10):
            for query in (None, "the previous fee"):
                lazy = section_coherence_rerank(hits, k=k, query=query)
                want = eager(hits, k, query, walked)
                assert [id(h) for h in lazy] == [id(h) for h in want]
    collapsed = walked.count(-1)
    assert collapsed > 50  # the lists did exercise the near-duplicate step
    assert len(computed) < 0.8 * (len(walked) - collapsed)  # and fewer texts were split into trigrams than before
