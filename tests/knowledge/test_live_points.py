"""The in-process copy of the embedded store's points (knowledge/live_points.py) answers a hybrid
query exactly as Qdrant's engine does on the same shard, stays equal to it through every write,
and never returns a generation that is hidden or superseded."""

from __future__ import annotations

import numpy as np
import pytest

from knowledge.edge_store import EdgeStore
from knowledge.generations import generation_key
from knowledge.payload import ChunkPayload
from knowledge.store import AccessFilter, SparseVector, StoredChunk

DIM = 16
TERMS = 60


def chunk(rng: np.random.Generator, book: str, index: int, generation: int = 0, **fields: object) -> StoredChunk:
    terms = sorted(rng.choice(TERMS, size=int(rng.integers(2, 9)), replace=False).tolist())
    payload = ChunkPayload(
        chunk_id=f"{book}:{index}", rulebook_id=book, rulebook_title=f"Rulebook {book}", page_start=1 + index,
        page_end=1 + index, chunk_index=index, text=f"text of {book} {index}", content_hash=f"{book}{index}",
        generation=generation, generation_key=generation_key(book, generation) if generation else "", **fields)
    return StoredChunk(payload, (rng.normal(size=DIM) * 2).tolist(),
                       SparseVector(terms, rng.uniform(0.1, 2.0, len(terms)).round(6).tolist()))


def corpus(seed: int = 3) -> list[StoredChunk]:
    rng = np.random.default_rng(seed)
    out = []
    for b in range(6):
        for i in range(40):
            roles = ["risk"] if i % 7 == 0 else (["operations"] if i % 5 == 0 else [])
            out.append(chunk(rng, f"RB-{b}", i, roles=roles, language="fr" if b == 5 else "en",
                             status="vetted_archived" if b == 4 else "vetted_active",
                             rulebook_type="kid" if b == 3 else "rulebook"))
    return out


FILTERS = [AccessFilter(), AccessFilter(roles=("operations",)), AccessFilter(roles=("risk", "operations")),
           AccessFilter(statuses=("vetted_active", "vetted_archived")), AccessFilter(rulebook_ids=("RB-1", "RB-5")),
           AccessFilter(languages=("fr",)), AccessFilter(rulebook_types=("kid",)), AccessFilter(roles=("nobody",))]


def queries(seed: int = 11, n: int = 12) -> list[tuple[list[float], SparseVector]]:
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=DIM).tolist(),
             SparseVector(sorted(rng.choice(TERMS, size=3, replace=False).tolist()), [1.0, 1.0, 1.0]))
            for _ in range(n)]


def same_answers(engine: EdgeStore, live: EdgeStore, legs: str = "hybrid,dense,bm25") -> None:
    for access in FILTERS:
        for dense, sparse in queries():
            for d, s in [pair for name, pair in (("hybrid", (dense, sparse)), ("dense", (dense, None)),
                                                  ("bm25", (None, sparse))) if name in legs]:
                want = engine.query_hybrid(d, s, access, leg_limit=20, fused_limit=15, rrf_k=5)
                got = live.query_hybrid(d, s, access, leg_limit=20, fused_limit=15, rrf_k=5)
                assert [h.payload.chunk_id for h in got[:10]] == [h.payload.chunk_id for h in want[:10]], (access, d is None, s is None)
                assert [h.score for h in got[:10]] == pytest.approx([h.score for h in want[:10]], rel=1e-5, abs=1e-6)
                assert [h.ranks for h in got[:10]] == [h.ranks for h in want[:10]]
                assert got[0].payload == want[0].payload if want else not got


@pytest.fixture(autouse=True)
def exact_in_process(monkeypatch):
    """The copy answers whole queries here (the product's default lets the engine rank: see
    knowledge.edge_store.EXACT_IN_PROCESS_POINTS); tests of the other path set it lower."""
    import knowledge.edge_store as edge_store

    monkeypatch.setattr(edge_store, "EXACT_IN_PROCESS_POINTS", 100_000)


@pytest.fixture
def stores(tmp_path):
    engine = EdgeStore(tmp_path / "shard", in_process=False)
    engine.ensure_collection(DIM)
    engine.upsert(corpus())
    live = EdgeStore(tmp_path / "shard", in_process=True)  # the same open shard, queried in numpy
    yield engine, live
    live.close()
    engine.close()


def test_the_copy_answers_as_the_engine_does(stores):
    engine, live = stores
    same_answers(engine, live)
    assert len(engine._handle.live) == 240  # built by the first in-process query


def test_the_copy_follows_every_write(stores, tmp_path):
    """After upserts, replacements, deletes and a filled-in dense vector the copy answers as an
    engine freshly built from the same live points. (The shard it mirrors keeps counting deleted
    points in its IDF statistics until its segments are vacuumed, so its BM25 scores drift from
    the live points' after deletes; its dense leg, which has no such statistics, must agree.)"""
    engine, live = stores
    live.query_hybrid(None, SparseVector([1], [1.0]), AccessFilter())  # the copy exists before the writes
    rng = np.random.default_rng(5)
    engine.upsert([chunk(rng, "RB-9", i) for i in range(30)] + [chunk(rng, "RB-0", 3)])  # new and replaced
    engine.delete_chunks(["RB-1:0", "RB-1:5", "RB-2:7"])
    engine.delete_rulebook("RB-3")
    missing = chunk(rng, "RB-8", 0)
    engine.upsert([StoredChunk(missing.payload, [], missing.sparse)])  # BM25 only (fast first pass)
    assert live.query_hybrid(rng.normal(size=DIM).tolist(), None, AccessFilter(), fused_limit=300) and not any(
        h.payload.chunk_id == "RB-8:0" for h in live.query_hybrid(rng.normal(size=DIM).tolist(), None, AccessFilter(),
                                                                    fused_limit=300))
    engine.set_dense([(missing.payload.point_id, missing.dense)])
    same_answers(engine, live, legs="dense")
    fresh = EdgeStore(tmp_path / "fresh", in_process=False)
    fresh.ensure_collection(DIM)
    fresh.upsert(list(engine.scroll_stored(None)))
    try:
        same_answers(fresh, live)
    finally:
        fresh.close()
    ids = {h.payload.chunk_id for h in live.query_hybrid(None, SparseVector(list(range(TERMS)), [1.0] * TERMS),
                                                         AccessFilter(statuses=("vetted_active", "vetted_archived")),
                                                         fused_limit=1000)}
    assert "RB-9:0" in ids and "RB-8:0" in ids and not {"RB-1:0", "RB-2:7"} & ids
    assert not any(i.startswith("RB-3:") for i in ids)


def test_a_superseded_generation_is_never_returned(stores):
    """Two re-indexes of one rulebook through the generation registry (knowledge/generations.py),
    the copy queried at every step beside the engine."""
    engine, live = stores
    registry = live.generations
    everything = SparseVector(list(range(TERMS)), [1.0] * TERMS)
    rng = np.random.default_rng(8)

    def books(store: EdgeStore) -> dict[str, set[int]]:
        out: dict[str, set[int]] = {}
        for h in store.query_hybrid(rng.normal(size=DIM).tolist(), everything, AccessFilter(), leg_limit=1000,
                                    fused_limit=1000):
            out.setdefault(h.payload.rulebook_id, set()).add(h.payload.generation)
        return out

    engine.delete_rulebook("RB-2")
    live.query_hybrid(None, everything, AccessFilter())  # the copy exists from here on
    previous = None
    for _ in range(2):
        generation = registry.begin("RB-2")
        engine.upsert([chunk(rng, "RB-2", i, generation=generation) for i in range(12)])
        # written, still hidden: the previous document only (none before the first index)
        assert books(live).get("RB-2", set()) == ({previous} if previous else set()) == books(engine).get("RB-2", set())
        old = registry.commit("RB-2", generation)
        assert books(live)["RB-2"] == {generation} == books(engine)["RB-2"]  # the switch: the new one only
        assert registry.wait_for_readers(timeout=5)
        engine.delete_generation(old)
        registry.forget(old)
        assert books(live)["RB-2"] == {generation} == books(engine)["RB-2"]
        previous = generation
    same_answers(engine, live, legs="dense")


def test_a_failed_write_to_the_copy_sends_queries_back_to_the_engine(stores, monkeypatch):
    engine, live = stores
    live.query_hybrid(None, SparseVector([1], [1.0]), AccessFilter())
    handle = engine._handle
    monkeypatch.setattr(handle.live, "delete", lambda ids: (_ for _ in ()).throw(RuntimeError("boom")))
    engine.delete_chunks(["RB-0:1"])
    assert handle.live is None  # dropped, never served out of step with the shard
    same_answers(engine, live, legs="dense")  # rebuilt from the shard at the next query
    assert handle.live is not None


def test_above_the_exact_size_the_engine_ranks_and_the_copy_gives_the_payloads(stores, monkeypatch):
    import knowledge.edge_store as edge_store

    engine, live = stores
    monkeypatch.setattr(edge_store, "EXACT_IN_PROCESS_POINTS", 0)
    same_answers(engine, live)
    engine.delete_chunks(["RB-1:0", "RB-2:7"])  # the engine's ranking, deletes and all
    same_answers(engine, live)
    shown = live.query_hybrid(None, SparseVector(list(range(TERMS)), [1.0] * TERMS), AccessFilter(), fused_limit=500)
    assert shown and not {"RB-1:0", "RB-2:7"} & {h.payload.chunk_id for h in shown}


def test_a_copy_that_outgrows_exact_queries_keeps_payloads_only(stores, monkeypatch):
    import knowledge.edge_store as edge_store

    engine, live = stores
    monkeypatch.setattr(edge_store, "EXACT_IN_PROCESS_POINTS", 250)
    same_answers(engine, live)  # 240 points: answered in numpy
    assert engine._handle.live.with_vectors
    rng = np.random.default_rng(21)
    engine.upsert([chunk(rng, "RB-7", i) for i in range(20)])
    same_answers(engine, live)  # 260: the engine ranks, the copy gives the payloads
    assert not engine._handle.live.with_vectors and len(engine._handle.live) == 260
