"""A re-index never writes its new generation while a query that cannot hide it is still running
(indexing/publish.py, knowledge/generations.py step 1)."""

from __future__ import annotations

import threading
import time

from indexing.publish import publish
from knowledge.edge_store import EdgeStore, edge_filter
from knowledge.payload import ChunkPayload
from knowledge.store import AccessFilter, SparseVector, StoredChunk

BOOK = "RB-LIVE"


def edition(name: str, n: int = 4) -> list[StoredChunk]:
    return [StoredChunk(ChunkPayload(chunk_id=f"{BOOK}:{i}", rulebook_id=BOOK, rulebook_title="Live rulebook",
                                     page_start=1 + i, page_end=1 + i, chunk_index=i, text=f"{name} section {i}",
                                     content_hash=f"{name}{i}"),
                        [1.0, float(i), 0.5, 0.0], SparseVector([1, 2 + i], [1.0, 1.0])) for i in range(n)]


def generations_in_store(store: EdgeStore) -> set[int]:
    return {p.generation for p in store.scroll(None)}  # every point, hidden or not


def test_a_query_with_a_snapshot_from_before_the_reindex_never_sees_two_editions(tmp_path):
    store = EdgeStore(tmp_path / "shard")
    store.ensure_collection(4)
    first = publish(store, BOOK, edition("ALPHA"))
    registry = store.generations
    errors: list[BaseException] = []

    def reindex() -> None:
        try:
            publish(store, BOOK, edition("OMEGA", n=5), reader_timeout=30)
        except BaseException as exc:  # noqa: BLE001 — reported by the assertion below
            errors.append(exc)

    writer = threading.Thread(target=reindex)
    try:
        with registry.reading() as snapshot:  # a question that started before the webhook arrived
            writer.start()
            deadline = time.monotonic() + 10
            while not any(key.endswith(f"@{first + 1}") for key in registry.hidden):
                assert time.monotonic() < deadline, "the re-index never began"
                time.sleep(0.01)
            time.sleep(0.3)  # room for the writer to go wrong
            # the question reaches the engine only now, with the snapshot it took at the start
            hits = store._query(None, SparseVector([1], [1.0]), edge_filter(AccessFilter(), snapshot), 50, 50, 2)
            assert {h.payload.generation for h in hits} == {first}
            assert {h.payload.text.split()[0] for h in hits} == {"ALPHA"}
            assert generations_in_store(store) == {first}, "the new edition was written under a running query"
        writer.join(timeout=30)
        assert not writer.is_alive() and not errors, errors
        after = store.query_hybrid(None, SparseVector([1], [1.0]), AccessFilter(), fused_limit=50)
        assert {h.payload.text.split()[0] for h in after} == {"OMEGA"} and len(after) == 5
        assert generations_in_store(store) == {first + 1}
    finally:
        writer.join(timeout=30)
        store.close()
