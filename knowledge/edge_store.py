"""The embedded backend: Qdrant's own engine in-process (qdrant-edge-py), one EdgeShard on disk.

Sharing the shard: an EdgeShard holds an exclusive lock on its write-ahead log, so ONE process
at a time may open a store directory (the indexer, then later the bot or an eval; a second
process gets a clear StoreBusyError instead of a corrupt index). Inside one process every
EdgeStore on the same directory shares one open shard (reference-counted), so the indexer, the
search service and tests can hold several EdgeStore objects at once. `close()` flushes to disk;
the last close releases the lock. Production deployments with several readers use a Qdrant server
(`RULEBOOK_QDRANT_URL`), which has no such limit.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from knowledge.generations import LEGACY, GenerationRegistry, shared_registry, split_key
from knowledge.live_points import LivePoints
from knowledge.live_points import build as build_live_points
from knowledge.payload import INTEGER_INDEXED_FIELDS, KEYWORD_INDEXED_FIELDS, ChunkPayload, chunk_point_id
from knowledge.store import (
    DENSE_HNSW_EF,
    DENSE_VECTOR,
    RRF_K,
    SPARSE_VECTOR,
    AccessFilter,
    ScoredChunk,
    SparseVector,
    StoreBusyError,
    StoredChunk,
    query_legs,
    scored_hits,
)

_SCROLL_PAGE = 512
_UPSERT_BATCH = 256


def hidden_conditions(hidden: frozenset[str]) -> list[Any]:
    """`must_not` conditions for the generations no query may see (knowledge/generations.py)."""
    numbered = sorted(k for k in hidden if split_key(k)[1] != LEGACY)
    conditions: list[Any] = [qe.FieldCondition("generation_key", match=qe.MatchAny(numbered))] if numbered else []
    for key in sorted(hidden - set(numbered)):
        conditions.append(qe.Filter(must=[qe.FieldCondition("rulebook_id", match=qe.MatchValue(split_key(key)[0])),
                                          qe.IsEmptyCondition("generation_key")]))
    return conditions


def generation_selector(key: str) -> qe.Filter:
    """The points of one generation (for deleting it)."""
    rulebook_id, generation = split_key(key)
    if generation == LEGACY:
        return qe.Filter(must=[qe.FieldCondition("rulebook_id", match=qe.MatchValue(rulebook_id)),
                               qe.IsEmptyCondition("generation_key")])
    return qe.Filter(must=[qe.FieldCondition("generation_key", match=qe.MatchValue(key))])


def edge_filter(access: AccessFilter | None, hidden: frozenset[str] = frozenset()) -> qe.Filter | None:
    """store.py's access rules in qdrant-edge's filter model (None: no filter at all), with the
    generations being written or retired left out."""
    if access is None:
        return None
    must: list[Any] = []
    public = qe.IsEmptyCondition("roles")
    if access.roles:
        must.append(qe.Filter(should=[public, qe.FieldCondition("roles", match=qe.MatchAny(list(access.roles)))]))
    else:
        must.append(public)
    for key, values in (("status", access.statuses), ("rulebook_id", access.rulebook_ids),
                        ("language", access.languages), ("rulebook_type", access.rulebook_types)):
        if values:
            must.append(qe.FieldCondition(key, match=qe.MatchAny(list(values))))
    if access.section_key is not None:
        must.append(qe.FieldCondition("section_key", match=qe.MatchValue(access.section_key)))
    return qe.Filter(must=must, must_not=hidden_conditions(hidden) or None)


def _vectors(chunk: StoredChunk) -> dict[str, Any]:
    """A point's named vectors; without a dense vector yet (a fast first pass) only BM25."""
    vectors: dict[str, Any] = {SPARSE_VECTOR: qe.SparseVector(list(chunk.sparse.indices), list(chunk.sparse.values))}
    if chunk.dense:
        vectors[DENSE_VECTOR] = list(chunk.dense)
    return vectors


def _missing_dense(hidden: frozenset[str]) -> qe.Filter:
    return qe.Filter(must_not=[qe.HasVectorCondition(DENSE_VECTOR), *hidden_conditions(hidden)])


class _OpenShard:
    def __init__(self, shard: qe.EdgeShard) -> None:
        self.shard = shard
        self.users = 0
        self.lock = threading.RLock()
        # the points in numpy for queries (knowledge/live_points.py); None until the first query
        # that wants it, and again after a write to it failed (then queries use the engine)
        self.live: LivePoints | None = None

    def mirror(self, change: Callable[[LivePoints], None]) -> None:
        """Apply a write the shard has just accepted to the in-process copy (under self.lock)."""
        if self.live is None:
            return
        try:
            change(self.live)
        except Exception:  # noqa: BLE001 — never serve a copy that may differ from the shard
            self.live = None


_open: dict[Path, _OpenShard] = {}
_open_lock = threading.Lock()


def _config(dense_size: int | None) -> qe.EdgeConfig:
    vectors = {DENSE_VECTOR: qe.EdgeVectorParams(size=dense_size, distance=qe.Distance.Cosine)} if dense_size else None
    # payload kept in page cache ("Cached"): every hit's payload is read at query time
    return qe.EdgeConfig(vectors=vectors,
                         sparse_vectors={SPARSE_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
                         payload_memory=qe.Memory.Cached)


def _is_busy(exc: Exception) -> bool:
    text = str(exc)
    return "WouldBlock" in text or "lock" in text.lower()


# queries through the in-process copy of the points (True) or the engine's own query (False);
# RULEBOOK_EDGE_QUERIES chooses for the stores open_store() opens
IN_PROCESS_QUERIES = False  # see config.settings.Settings.edge_queries
# Up to this many live points the copy answers the whole query in numpy (exact legs); above it the
# engine ranks and the copy only supplies the payloads (reading and validating 30 payloads from
# the shard is most of the engine path's Python cost). 0 by default: the engine ranks always.
# Why: the exact path is faster on small collections (real2, 810 points: search 5.9 -> 3.2 CPU-ms
# p50) and equal to a freshly built engine, but the shard's IDF keeps counting deleted points
# (re-indexed generations) until its segments are vacuumed, so on an index that was re-indexed its
# BM25 scores differ from the engine's: the sample golden set's hybrid MRR went .9433 -> .9398
# (hit@10 1.0 both), and "not lower than the committed baselines" is the bar. A dense leg over
# all points also stops fitting the CPU cache (13,000 x 384 floats: 2.4 CPU-ms, 4,000: 0.2).
EXACT_IN_PROCESS_POINTS = 0


class EdgeStore:
    def __init__(self, path: Path, in_process: bool | None = None) -> None:
        self.path = Path(path).resolve()
        self.in_process = IN_PROCESS_QUERIES if in_process is None else in_process
        self._handle: _OpenShard | None = None
        self._dirty = False
        self.generations: GenerationRegistry = shared_registry(
            self.path.parent / f"{self.path.name}.generations.json")
        if (self.path / "edge_config.json").exists():
            self._attach(create_with=None)

    # --- shard lifecycle -------------------------------------------------------------------
    def _attach(self, create_with: int | None) -> _OpenShard:
        with _open_lock:
            handle = _open.get(self.path)
            if handle is None:
                try:
                    if (self.path / "edge_config.json").exists():
                        shard = qe.EdgeShard.load(str(self.path))
                    elif create_with:
                        shard = qe.EdgeShard.create(str(self.path), _config(create_with))
                    else:
                        raise FileNotFoundError(self.path)
                except Exception as exc:
                    if _is_busy(exc):
                        raise StoreBusyError(
                            f"the knowledge store at {self.path} is open in another process; "
                            "the embedded engine allows one process at a time (stop it, or use a "
                            "Qdrant server via RULEBOOK_QDRANT_URL)") from exc
                    raise
                handle = _open[self.path] = _OpenShard(shard)
            if self._handle is not handle:
                handle.users += 1
                self._handle = handle
            return handle

    @property
    def exists(self) -> bool:
        return self._ready()

    def _ready(self) -> bool:
        """Attached to the shard, attaching now if another store object in this process created it
        since (the bot opened an empty data dir, then its indexing job wrote the first rulebook)."""
        if self._handle is None and (self.path / "edge_config.json").exists():
            try:
                self._attach(create_with=None)
            except StoreBusyError:
                return False
        return self._handle is not None

    def ensure_collection(self, dense_size: int) -> None:
        handle = self._attach(create_with=dense_size)
        with handle.lock:
            info = handle.shard.info()
            vectors = self._dense_config(handle)
            if vectors is not None and vectors != dense_size:
                raise ValueError(f"the store at {self.path} holds {vectors}-dimensional dense vectors, "
                                 f"the encoder gives {dense_size}: re-index into a fresh data dir")
            have = set(info.payload_schema)
            for name in KEYWORD_INDEXED_FIELDS:
                if name not in have:
                    handle.shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
            for name in INTEGER_INDEXED_FIELDS:
                if name not in have:
                    handle.shard.update(qe.UpdateOperation.create_field_index(
                        name, qe.IntegerIndexParams(lookup=True, range=True)))

    def _dense_config(self, handle: _OpenShard) -> int | None:
        config = json.loads((self.path / "edge_config.json").read_text(encoding="utf-8"))
        dense = (config.get("vectors") or {}).get(DENSE_VECTOR)
        return int(dense["size"]) if dense else None

    # --- which embedder built this index (knowledge/embedder_identity.py) --------------------
    @property
    def _embedder_file(self) -> Path:
        # beside the shard directory, which belongs to the engine
        return self.path.parent / f"{self.path.name}.embedder.json"

    def embedder(self) -> dict[str, Any] | None:
        try:
            return json.loads(self._embedder_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def record_embedder(self, identity: dict[str, Any]) -> None:
        self._embedder_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._embedder_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(identity, indent=1), encoding="utf-8")
        tmp.replace(self._embedder_file)

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is None:
            return
        with _open_lock:
            with handle.lock:
                if self._dirty:
                    handle.shard.optimize()
                handle.shard.flush()
            handle.users -= 1
            if handle.users <= 0:
                handle.shard.close()
                _open.pop(self.path, None)

    def flush(self) -> None:
        if self._handle:
            with self._handle.lock:
                self._handle.shard.flush()

    # --- writes ----------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[StoredChunk]) -> None:
        if not chunks:
            return
        handle = self._attach(create_with=next((len(c.dense) for c in chunks if c.dense), None))
        for start in range(0, len(chunks), _UPSERT_BATCH):
            part = chunks[start:start + _UPSERT_BATCH]
            payloads = [c.payload.model_dump(mode="json") for c in part]
            points = [qe.Point(c.payload.point_id, _vectors(c), payload) for c, payload in zip(part, payloads, strict=True)]
            with handle.lock:
                handle.shard.update(qe.UpdateOperation.upsert_points(points))

                def add(live: LivePoints, part: Sequence[StoredChunk] = part, payloads: list[Any] = payloads) -> None:
                    for chunk, payload in zip(part, payloads, strict=True):
                        # the stored (JSON) form, as a scroll would read it back
                        live.upsert(chunk.payload.point_id, ChunkPayload.model_validate(payload), chunk.dense or None,
                                    chunk.sparse, payload)

                handle.mirror(add)
        self._dirty = True

    def set_dense(self, vectors: Sequence[tuple[str, list[float]]]) -> int:
        """Give points their dense vector (the background fill, indexing/dense_fill.py); a point
        deleted meanwhile (its rulebook re-indexed or withdrawn) is skipped. Returns how many were set."""
        if not vectors or not self._ready():
            return 0
        updates = [qe.PointVectors(point_id, {DENSE_VECTOR: list(dense)}) for point_id, dense in vectors]
        handle = self._handle
        with handle.lock:
            try:
                handle.shard.update(qe.UpdateOperation.update_vectors(updates))
                accepted = list(vectors)
            except Exception:  # noqa: BLE001 — one point is gone: set the others one by one
                accepted = []
                for update, pair in zip(updates, vectors, strict=True):
                    try:
                        handle.shard.update(qe.UpdateOperation.update_vectors([update]))
                        accepted.append(pair)
                    except Exception:  # noqa: BLE001, S112 — deleted since it was read
                        continue
            handle.mirror(lambda live: [live.set_dense(point_id, dense) for point_id, dense in accepted])
            done = len(accepted)
        self._dirty = True
        return done

    def missing_dense(self, limit: int = 64) -> list[tuple[str, ChunkPayload]]:
        """Up to `limit` live points still without a dense vector: (point id, payload)."""
        if not self._ready():
            return []
        with self.generations.reading() as hidden, self._handle.lock:
            records, _ = self._handle.shard.scroll(qe.ScrollRequest(
                limit=limit, filter=_missing_dense(hidden), with_payload=True, with_vector=False))
        return [(str(r.id), ChunkPayload.model_validate(r.payload)) for r in records]

    def count_dense(self) -> tuple[int, int]:
        """(live points with a dense vector, all live points)."""
        if not self._ready():
            return 0, 0
        with self.generations.reading() as hidden, self._handle.lock:
            everything = qe.Filter(must_not=hidden_conditions(hidden) or None)
            total = int(self._handle.shard.count(qe.CountRequest(exact=True, filter=everything)))
            missing = int(self._handle.shard.count(qe.CountRequest(exact=True, filter=_missing_dense(hidden))))
        return total - missing, total

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        if not chunk_ids or self._handle is None:
            return
        point_ids = [chunk_point_id(c) for c in chunk_ids]
        with self._handle.lock:
            self._handle.shard.update(qe.UpdateOperation.delete_points(point_ids))
            self._handle.mirror(lambda live: live.delete(point_ids))
        self._dirty = True

    def delete_generation(self, key: str) -> None:
        """Delete the points of one generation ("<rulebook>@<n>", or "<rulebook>@legacy")."""
        if self._handle is None:
            return
        rulebook_id, generation = split_key(key)
        with self._handle.lock:
            self._handle.shard.update(qe.UpdateOperation.delete_points_by_filter(generation_selector(key)))
            self._handle.mirror(lambda live: live.delete_where(legacy_of=rulebook_id) if generation == LEGACY
                                else live.delete_where(generation_key=key))
        self._dirty = True

    def delete_rulebook(self, rulebook_id: str) -> None:
        if self._handle is None:
            return
        condition = qe.Filter(must=[qe.FieldCondition("rulebook_id", match=qe.MatchValue(rulebook_id))])
        with self._handle.lock:
            self._handle.shard.update(qe.UpdateOperation.delete_points_by_filter(condition))
            self._handle.mirror(lambda live: live.delete_where(rulebook_id=rulebook_id))
        self._dirty = True

    # --- reads -----------------------------------------------------------------------------
    def _records(self, access: AccessFilter | None, with_vector: bool, rulebook_id: str | None = None
                 ) -> Iterator[Any]:
        """Every matching point, a page at a time, the shard locked only while a page is read
        (`rulebook_id`: that rulebook's live points, whoever may see them; for the indexer)."""
        if not self._ready():
            return
        with self.generations.reading() as hidden:  # one snapshot for every page of the read
            condition = edge_filter(access, hidden) if rulebook_id is None else qe.Filter(
                must=[qe.FieldCondition("rulebook_id", match=qe.MatchValue(rulebook_id))],
                must_not=hidden_conditions(hidden) or None)
            offset = None
            while True:
                with self._handle.lock:
                    records, offset = self._handle.shard.scroll(qe.ScrollRequest(
                        offset=offset, limit=_SCROLL_PAGE, filter=condition, with_payload=True,
                        with_vector=with_vector))
                yield from records
                if offset is None or not records:
                    return

    def scroll(self, access: AccessFilter | None = None) -> Iterator[ChunkPayload]:
        for record in self._records(access, with_vector=False):
            yield ChunkPayload.model_validate(record.payload)

    def scroll_stored(self, access: AccessFilter | None = None) -> Iterator[StoredChunk]:
        """Every point with its vectors (benchmarks and copies between stores; not a query path)."""
        for record in self._records(access, with_vector=True):
            vectors = record.vector or {}
            sparse = vectors.get(SPARSE_VECTOR)
            yield StoredChunk(ChunkPayload.model_validate(record.payload), list(vectors.get(DENSE_VECTOR) or []),
                              SparseVector(list(sparse.indices), list(sparse.values)) if sparse is not None
                              else SparseVector([], []))

    def rulebook_vectors(self, rulebook_id: str) -> dict[str, tuple[list[float], SparseVector]]:
        """content hash -> (dense, sparse) of the rulebook's live chunks: a re-index reuses the
        vectors of every chunk whose text did not change instead of recomputing them."""
        out: dict[str, tuple[list[float], SparseVector]] = {}
        for record in self._records(None, with_vector=True, rulebook_id=rulebook_id):
            vectors = record.vector or {}
            sparse, dense = vectors.get(SPARSE_VECTOR), vectors.get(DENSE_VECTOR)
            digest = (record.payload or {}).get("content_hash")
            if digest and sparse is not None:  # dense may still be missing (being filled in)
                out[digest] = (list(dense or []), SparseVector(list(sparse.indices), list(sparse.values)))
        return out

    def count(self, access: AccessFilter | None = None) -> int:
        if not self._ready():
            return 0
        with self.generations.reading() as hidden, self._handle.lock:
            return int(self._handle.shard.count(qe.CountRequest(exact=True, filter=edge_filter(access, hidden))))

    def query_hybrid(self, dense: list[float] | None, sparse: SparseVector | None, access: AccessFilter,
                     leg_limit: int = 50, fused_limit: int = 30, rrf_k: int = RRF_K) -> list[ScoredChunk]:
        if (dense is None and sparse is None) or not self._ready():
            return []
        with self.generations.reading() as hidden:
            live = self._live() if self.in_process else None
            if live is not None:
                with self._handle.lock:  # the copy equals the shard only between writes
                    if self._handle.live is live:
                        if live.with_vectors and len(live) > EXACT_IN_PROCESS_POINTS:
                            live.drop_vectors()  # outgrown: the engine ranks from now on
                        if live.with_vectors:
                            return live.query(dense, sparse, access, hidden, leg_limit, fused_limit, rrf_k)
                        return self._query(dense, sparse, edge_filter(access, hidden), leg_limit, fused_limit,
                                           rrf_k, payloads=live)
            return self._query(dense, sparse, edge_filter(access, hidden), leg_limit, fused_limit, rrf_k)

    def _live(self) -> LivePoints | None:
        """The in-process copy of the points, built from the shard on first use (one scroll with
        vectors under the shard lock, so no write falls between its pages)."""
        handle = self._handle
        if handle is None:
            return None
        if handle.live is None:
            with handle.lock:
                if handle.live is None:
                    points = int(handle.shard.count(qe.CountRequest(exact=True, filter=None)))
                    handle.live = build_live_points(self._scroll_all(handle), self._dense_config(handle) or 0,
                                                    DENSE_VECTOR, SPARSE_VECTOR,
                                                    with_vectors=points <= EXACT_IN_PROCESS_POINTS)
        return handle.live

    @staticmethod
    def _scroll_all(handle: _OpenShard) -> Iterator[Any]:
        offset = None
        while True:
            records, offset = handle.shard.scroll(qe.ScrollRequest(
                offset=offset, limit=_SCROLL_PAGE, filter=None, with_payload=True, with_vector=True))
            yield from records
            if offset is None or not records:
                return

    def _query(self, dense: list[float] | None, sparse: SparseVector | None, condition: qe.Filter | None,
               leg_limit: int, fused_limit: int, rrf_k: int, payloads: LivePoints | None = None
               ) -> list[ScoredChunk]:
        """The engine's query; with `payloads` (the in-process copy) the engine ranks and returns
        point ids only, and the payloads come from the copy (reading and validating 30 payloads
        from the shard is most of the engine path's cost on a large collection)."""
        legs = query_legs(dense, sparse)
        if not legs:
            return []
        queries = [qe.Query.Nearest(_edge_vector(vector), using=using) for _, vector, using in legs]
        params = [_DENSE_PARAMS if using == DENSE_VECTOR else None for _, _, using in legs]
        with_payload = payloads is None
        if len(legs) == 1:
            request = qe.QueryRequest(limit=fused_limit, query=queries[0], filter=condition, with_payload=with_payload,
                                      params=params[0])
        else:
            request = qe.QueryRequest(
                limit=fused_limit,
                prefetches=[qe.Prefetch(limit=leg_limit, query=q, filter=condition, params=p)
                            for q, p in zip(queries, params, strict=True)],
                query=qe.Fusion.Rrf(k=rrf_k), filter=condition, with_payload=with_payload)
        with self._handle.lock:
            points = self._handle.shard.query(request)
            found = payloads.payloads_of([str(p.id) for p in points]) if payloads is not None else None
        if payloads is not None and found is None:  # never expected: the copy follows every write
            return self._query(dense, sparse, condition, leg_limit, fused_limit, rrf_k)
        return scored_hits(points, legs, found)


_DENSE_PARAMS = qe.SearchParams(hnsw_ef=DENSE_HNSW_EF)


def _edge_vector(vector: object) -> Any:
    if isinstance(vector, SparseVector):
        return qe.SparseVector(list(vector.indices), list(vector.values))
    return vector
