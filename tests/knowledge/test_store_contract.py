"""The same store contract, run against both backends (embedded engine, qdrant-client local mode)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from qdrant_client import QdrantClient

from knowledge.bm25 import Bm25Encoder
from knowledge.edge_store import EdgeStore
from knowledge.payload import ChunkPayload
from knowledge.server_store import ServerStore
from knowledge.store import AccessFilter, KnowledgeStore, StoreBusyError, StoredChunk

DIM = 8
BM25 = Bm25Encoder()


def toy_vector(text: str) -> list[float]:
    """A deterministic stand-in for an embedding: the store only needs geometry, not meaning."""
    digest = hashlib.sha256(text.encode()).digest()
    return [b / 255 - 0.5 for b in digest[:DIM]]


def chunk(rulebook_id: str, index: int, text: str, **fields: object) -> StoredChunk:
    payload = ChunkPayload(chunk_id=f"{rulebook_id}:{index}", rulebook_id=rulebook_id,
                           rulebook_title=f"Rulebook {rulebook_id}", page_start=index + 1, page_end=index + 1,
                           chunk_index=index, text=text, content_hash=hashlib.sha256(text.encode()).hexdigest(),
                           **fields)  # type: ignore[arg-type]
    return StoredChunk(payload=payload, dense=toy_vector(text), sparse=BM25.encode_document(text, payload.language))


CHUNKS = [
    chunk("PS-01", 0, "Refund requests must be made within eight weeks.", section_path=["3"], section_key="3"),
    chunk("PS-01", 1, "Reason code MD06 marks a refund request by the payer.", section_path=["3"], section_key="3"),
    chunk("PS-02", 0, "Risk limits for the treasury desk are confidential.", roles=["risk"]),
    chunk("PS-03", 0, "Old fee table for domestic transfers.", status="vetted_archived", withdrawn_on="2024-01-01"),
    chunk("PS-04", 0, "De vergoeding voor binnenlandse overschrijvingen.", language="nl", rulebook_type="kid"),
]


@pytest.fixture(params=["edge", "qdrant-client-local"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[KnowledgeStore]:
    if request.param == "edge":
        backend: KnowledgeStore = EdgeStore(tmp_path / "edge")
    else:
        backend = ServerStore(QdrantClient(location=":memory:"), "contract")
    backend.ensure_collection(DIM)
    backend.upsert(CHUNKS)
    yield backend
    backend.close()


def ids(results: object) -> set[str]:
    return {getattr(r, "payload", r).chunk_id for r in results}  # type: ignore[attr-defined]


def test_count_and_scroll_without_filter_see_everything(store: KnowledgeStore) -> None:
    assert store.count() == len(CHUNKS)
    assert ids(store.scroll()) == {c.payload.chunk_id for c in CHUNKS}


def test_default_access_sees_public_active_chunks_only(store: KnowledgeStore) -> None:
    assert ids(store.scroll(AccessFilter())) == {"PS-01:0", "PS-01:1", "PS-04:0"}


def test_a_role_opens_its_restricted_chunks(store: KnowledgeStore) -> None:
    assert "PS-02:0" in ids(store.scroll(AccessFilter(roles=("risk",))))
    assert "PS-02:0" not in ids(store.scroll(AccessFilter(roles=("ops",))))


def test_archived_only_when_asked(store: KnowledgeStore) -> None:
    both = AccessFilter(statuses=("vetted_active", "vetted_archived"))
    assert "PS-03:0" in ids(store.scroll(both))


def test_field_filters_and_together(store: KnowledgeStore) -> None:
    assert ids(store.scroll(AccessFilter(languages=("nl",)))) == {"PS-04:0"}
    assert ids(store.scroll(AccessFilter(rulebook_types=("kid",), rulebook_ids=("PS-01",)))) == set()
    assert ids(store.scroll(AccessFilter(rulebook_ids=("PS-01",), section_key="3"))) == {"PS-01:0", "PS-01:1"}
    assert store.count(AccessFilter(rulebook_ids=("PS-01", "PS-04"))) == 3


def test_hybrid_query_filters_inside_every_leg(store: KnowledgeStore) -> None:
    text = "Risk limits for the treasury desk are confidential."
    # the restricted chunk is the exact match of both legs, yet the caller without the role never gets it
    hits = store.query_hybrid(toy_vector(text), BM25.encode_query(text), AccessFilter(roles=("ops",)))
    assert "PS-02:0" not in ids(hits)
    hits = store.query_hybrid(toy_vector(text), BM25.encode_query(text), AccessFilter(roles=("risk",)))
    assert hits[0].payload.chunk_id == "PS-02:0"


def test_single_leg_queries(store: KnowledgeStore) -> None:
    sparse_hits = store.query_hybrid(None, BM25.encode_query("MD06"), AccessFilter())
    assert [h.payload.chunk_id for h in sparse_hits] == ["PS-01:1"]
    dense_hits = store.query_hybrid(toy_vector(CHUNKS[0].payload.text), None, AccessFilter(), fused_limit=2)
    assert dense_hits[0].payload.chunk_id == "PS-01:0" and len(dense_hits) == 2


def test_upsert_replaces_and_deletes_remove(store: KnowledgeStore) -> None:
    store.upsert([chunk("PS-01", 0, "Refund requests must be made within thirteen months.",
                        section_path=["3"], section_key="3")])
    texts = {p.chunk_id: p.text for p in store.scroll()}
    assert "thirteen months" in texts["PS-01:0"] and store.count() == len(CHUNKS)
    store.delete_chunks(["PS-01:1"])
    assert "PS-01:1" not in ids(store.scroll())
    store.delete_rulebook("PS-04")
    assert store.count() == len(CHUNKS) - 2


def test_dimension_mismatch_is_a_clear_error(store: KnowledgeStore) -> None:
    with pytest.raises(ValueError, match="dimensional"):
        store.ensure_collection(DIM * 2)


def test_edge_store_survives_reopening_and_shares_one_shard(tmp_path: Path) -> None:
    first = EdgeStore(tmp_path / "edge")
    first.ensure_collection(DIM)
    first.upsert(CHUNKS)
    second = EdgeStore(tmp_path / "edge")  # same process: shares the open shard
    assert second.count() == len(CHUNKS)
    first.close()
    assert second.count() == len(CHUNKS)
    second.close()
    reopened = EdgeStore(tmp_path / "edge")
    assert ids(reopened.scroll()) == {c.payload.chunk_id for c in CHUNKS}
    reopened.close()


def test_edge_store_missing_directory_reads_as_empty(tmp_path: Path) -> None:
    empty = EdgeStore(tmp_path / "never-indexed")
    assert empty.count() == 0 and list(empty.scroll()) == []
    assert empty.query_hybrid([0.1] * DIM, None, AccessFilter()) == []


def test_edge_store_open_in_another_process_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "edge"
    holder = EdgeStore(path)
    holder.ensure_collection(DIM)
    holder.upsert(CHUNKS)
    holder.flush()
    code = ("import sys\nfrom knowledge.edge_store import EdgeStore\nfrom knowledge.store import StoreBusyError\n"
            f"try:\n    EdgeStore({str(path)!r})\nexcept StoreBusyError as e:\n    print('busy', e)\n    sys.exit(3)\n")
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, timeout=60)
    holder.close()
    assert done.returncode == 3, done.stdout + done.stderr
    assert "another process" in done.stdout
    assert StoreBusyError.__name__ == "StoreBusyError"
