"""The server backend: a Qdrant server or cluster by URL through qdrant-client.

Tests run it against qdrant-client's local mode (`QdrantClient(location=":memory:")` or
`path=...`), which speaks the same API; local mode ignores payload indexes (it warns once), the
server uses them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from qdrant_client import QdrantClient, models

from knowledge.generations import LEGACY, GenerationRegistry, split_key
from knowledge.payload import INTEGER_INDEXED_FIELDS, KEYWORD_INDEXED_FIELDS, ChunkPayload, chunk_point_id
from knowledge.store import (
    DENSE_HNSW_EF,
    DENSE_VECTOR,
    RRF_K,
    SPARSE_VECTOR,
    AccessFilter,
    ScoredChunk,
    SparseVector,
    StoredChunk,
    query_legs,
    scored_hits,
)

_SCROLL_PAGE = 512
_DENSE_PARAMS = models.SearchParams(hnsw_ef=DENSE_HNSW_EF)
EMBEDDER_METADATA_KEY = "rulebook_embedder"
_UPSERT_BATCH = 256


def _generation_filter(key: str) -> models.Filter:
    rulebook_id, generation = split_key(key)
    if generation == LEGACY:
        return models.Filter(must=[
            models.FieldCondition(key="rulebook_id", match=models.MatchValue(value=rulebook_id)),
            models.IsEmptyCondition(is_empty=models.PayloadField(key="generation_key"))])
    return models.Filter(must=[models.FieldCondition(key="generation_key", match=models.MatchValue(value=key))])


def _missing_dense(hidden: frozenset[str]) -> models.Filter:
    return models.Filter(must_not=[models.HasVectorCondition(has_vector=DENSE_VECTOR),
                                   *(_generation_filter(key) for key in sorted(hidden))])


def server_filter(access: AccessFilter | None, hidden: frozenset[str] = frozenset()) -> models.Filter | None:
    """store.py's access rules in qdrant-client's filter model (None: no filter at all), with the
    generations being written or retired left out (knowledge/generations.py)."""
    if access is None:
        return None
    must: list[Any] = []
    public = models.IsEmptyCondition(is_empty=models.PayloadField(key="roles"))
    if access.roles:
        must.append(models.Filter(should=[
            public, models.FieldCondition(key="roles", match=models.MatchAny(any=list(access.roles)))]))
    else:
        must.append(public)
    for key, values in (("status", access.statuses), ("rulebook_id", access.rulebook_ids),
                        ("language", access.languages), ("rulebook_type", access.rulebook_types)):
        if values:
            must.append(models.FieldCondition(key=key, match=models.MatchAny(any=list(values))))
    if access.section_key is not None:
        must.append(models.FieldCondition(key="section_key", match=models.MatchValue(value=access.section_key)))
    must_not: list[Any] = [_generation_filter(key) for key in sorted(hidden)]
    return models.Filter(must=must, must_not=must_not or None)


def _vectors(chunk: StoredChunk) -> dict[str, Any]:
    """A point's named vectors; without a dense vector yet (a fast first pass) only BM25."""
    vectors: dict[str, Any] = {SPARSE_VECTOR: models.SparseVector(indices=list(chunk.sparse.indices),
                                                                 values=list(chunk.sparse.values))}
    if chunk.dense:
        vectors[DENSE_VECTOR] = list(chunk.dense)
    return vectors


class ServerStore:
    def __init__(self, client: QdrantClient, collection: str) -> None:
        self.client = client
        self.collection = collection
        self._owns_client = False
        # a beam width means nothing to qdrant-client's local mode (tests, benchmarks): it searches
        # exactly and warns on every query given one
        options = getattr(client, "init_options", {}) or {}
        self._dense_params = None if options.get("location") or options.get("path") else _DENSE_PARAMS
        # in memory unless open_store gives it a file under the data dir
        self.generations = GenerationRegistry()

    @classmethod
    def connect(cls, url: str, collection: str, api_key: str | None = None) -> ServerStore:
        store = cls(QdrantClient(url=url, api_key=api_key), collection)
        store._owns_client = True
        return store

    @property
    def exists(self) -> bool:
        return bool(self.client.collection_exists(self.collection))

    def ensure_collection(self, dense_size: int) -> None:
        if not self.client.collection_exists(self.collection):
            self.client.create_collection(
                self.collection,
                vectors_config={DENSE_VECTOR: models.VectorParams(size=dense_size, distance=models.Distance.COSINE)},
                sparse_vectors_config={SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)})
        else:
            info = self.client.get_collection(self.collection)
            vectors = info.config.params.vectors
            have = vectors.get(DENSE_VECTOR) if isinstance(vectors, dict) else None
            if have is not None and have.size != dense_size:
                raise ValueError(f"collection {self.collection!r} holds {have.size}-dimensional dense "
                                 f"vectors, the encoder gives {dense_size}: use a fresh collection")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # local mode: "payload indexes have no effect"
            for name in KEYWORD_INDEXED_FIELDS:
                self.client.create_payload_index(self.collection, name, models.PayloadSchemaType.KEYWORD)
            for name in INTEGER_INDEXED_FIELDS:
                self.client.create_payload_index(self.collection, name, models.PayloadSchemaType.INTEGER)

    # --- which embedder built this index: the collection's metadata ---------------------------
    def embedder(self) -> dict[str, Any] | None:
        if not self.exists:
            return None
        metadata = self.client.get_collection(self.collection).config.metadata or {}
        recorded = metadata.get(EMBEDDER_METADATA_KEY)
        return dict(recorded) if recorded else None

    def record_embedder(self, identity: dict[str, Any]) -> None:
        if self.exists:
            self.client.update_collection(self.collection, metadata={EMBEDDER_METADATA_KEY: identity})

    def upsert(self, chunks: Sequence[StoredChunk]) -> None:
        if not chunks:
            return
        if not self.exists:
            self.ensure_collection(next(len(c.dense) for c in chunks if c.dense))
        for start in range(0, len(chunks), _UPSERT_BATCH):
            points = [models.PointStruct(
                id=c.payload.point_id,
                vector=_vectors(c),
                payload=c.payload.model_dump(mode="json")) for c in chunks[start:start + _UPSERT_BATCH]]
            self.client.upsert(self.collection, points=points, wait=True)

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids and self.exists:
            self.client.delete(self.collection, points_selector=models.PointIdsList(
                points=[chunk_point_id(c) for c in chunk_ids]), wait=True)

    def delete_generation(self, key: str) -> None:
        if self.exists:
            self.client.delete(self.collection, points_selector=models.FilterSelector(filter=_generation_filter(key)),
                               wait=True)

    def delete_rulebook(self, rulebook_id: str) -> None:
        if self.exists:
            self.client.delete(self.collection, points_selector=models.FilterSelector(filter=models.Filter(
                must=[models.FieldCondition(key="rulebook_id", match=models.MatchValue(value=rulebook_id))])),
                wait=True)

    def _records(self, condition_for: Any, with_vectors: bool, limit: int | None = None) -> Iterator[Any]:
        """Every matching point a page at a time under one generation snapshot; `condition_for`
        turns the hidden generations into the filter."""
        if not self.exists:
            return
        with self.generations.reading() as hidden:
            condition = condition_for(hidden)
            offset = None
            while True:
                records, offset = self.client.scroll(self.collection, scroll_filter=condition,
                                                     limit=limit or _SCROLL_PAGE, offset=offset,
                                                     with_payload=True, with_vectors=with_vectors)
                yield from records
                if offset is None or not records or limit is not None:
                    return

    def scroll(self, access: AccessFilter | None = None) -> Iterator[ChunkPayload]:
        for record in self._records(lambda hidden: server_filter(access, hidden), with_vectors=False):
            yield ChunkPayload.model_validate(record.payload)

    def scroll_stored(self, access: AccessFilter | None = None) -> Iterator[StoredChunk]:
        """Every point with its vectors (re-writing a rulebook under a new generation)."""
        for record in self._records(lambda hidden: server_filter(access, hidden), with_vectors=True):
            vectors = record.vector if isinstance(record.vector, dict) else {}
            sparse = vectors.get(SPARSE_VECTOR)
            yield StoredChunk(ChunkPayload.model_validate(record.payload),
                              list(vectors.get(DENSE_VECTOR) or []),  # type: ignore[arg-type]
                              SparseVector(list(sparse.indices), list(sparse.values))  # type: ignore[union-attr]
                              if sparse is not None else SparseVector([], []))

    # --- the background fill of dense vectors (indexing/dense_fill.py) ----------------------
    def missing_dense(self, limit: int = 64) -> list[tuple[str, ChunkPayload]]:
        """Up to `limit` live points still without a dense vector: (point id, payload)."""
        return [(str(r.id), ChunkPayload.model_validate(r.payload))
                for r in self._records(_missing_dense, with_vectors=False, limit=limit)]

    def set_dense(self, vectors: Sequence[tuple[str, list[float]]]) -> int:
        if not vectors or not self.exists:
            return 0
        updates = [models.PointVectors(id=point_id, vector={DENSE_VECTOR: list(dense)}) for point_id, dense in vectors]
        try:
            self.client.update_vectors(self.collection, points=updates, wait=True)
            return len(updates)
        except Exception:  # noqa: BLE001 — a point deleted since it was read: the others one by one
            done = 0
            for update in updates:
                try:
                    self.client.update_vectors(self.collection, points=[update], wait=True)
                    done += 1
                except Exception:  # noqa: BLE001, S112
                    continue
            return done

    def count_dense(self) -> tuple[int, int]:
        """(live points with a dense vector, all live points)."""
        if not self.exists:
            return 0, 0
        with self.generations.reading() as hidden:
            everything = models.Filter(must_not=[_generation_filter(key) for key in sorted(hidden)] or None)
            total = int(self.client.count(self.collection, count_filter=everything, exact=True).count)
            missing = int(self.client.count(self.collection, count_filter=_missing_dense(hidden), exact=True).count)
        return total - missing, total

    def count(self, access: AccessFilter | None = None) -> int:
        if not self.exists:
            return 0
        with self.generations.reading() as hidden:
            return int(self.client.count(self.collection, count_filter=server_filter(access, hidden), exact=True).count)

    def query_hybrid(self, dense: list[float] | None, sparse: SparseVector | None, access: AccessFilter,
                     leg_limit: int = 50, fused_limit: int = 30, rrf_k: int = RRF_K) -> list[ScoredChunk]:
        if dense is None and sparse is None:
            return []
        if not self.exists:
            return []
        with self.generations.reading() as hidden:
            return self._query(dense, sparse, server_filter(access, hidden), leg_limit, fused_limit, rrf_k)

    def _query(self, dense: list[float] | None, sparse: SparseVector | None, condition: models.Filter | None,
               leg_limit: int, fused_limit: int, rrf_k: int) -> list[ScoredChunk]:
        legs = [(name, models.SparseVector(indices=list(v.indices), values=list(v.values))
                 if isinstance(v, SparseVector) else v, using) for name, v, using in query_legs(dense, sparse)]
        if not legs:
            return []
        if len(legs) == 1:
            _, vector, using = legs[0]
            result = self.client.query_points(self.collection, query=vector, using=using, query_filter=condition,
                                              limit=fused_limit, with_payload=True, search_params=self._params(using))
        else:
            result = self.client.query_points(
                self.collection,
                prefetch=[models.Prefetch(query=vector, using=using, limit=leg_limit, filter=condition,
                                          params=self._params(using))
                          for _, vector, using in legs],
                query=models.RrfQuery(rrf=models.Rrf(k=rrf_k)), query_filter=condition,
                limit=fused_limit, with_payload=True)
        return scored_hits(result.points, legs)

    def _params(self, using: str) -> models.SearchParams | None:
        return self._dense_params if using == DENSE_VECTOR else None

    def flush(self) -> None:
        """Writes are acknowledged with wait=True; nothing is pending."""

    def close(self) -> None:
        if self._owns_client:
            self.client.close()
