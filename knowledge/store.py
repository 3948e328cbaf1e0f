"""The one store interface both backends implement (embedded Qdrant engine, Qdrant server).

How filters combine (written down once, applied the same in both backends):
- `AccessFilter.roles`: a chunk matches when its `roles` list is empty (public) OR shares at least
  one role with the caller. Applied inside the query, in every prefetch leg, so a chunk the caller
  may not see is never fetched.
- `AccessFilter.statuses`: default ("vetted_active",); archived chunks only when asked for.
- `rulebook_ids`, `languages`, `rulebook_types`: each, when given, is an OR within the field.
- Different fields AND together.
- `access=None` (scroll, count): no filter at all — for the indexer and admin tools, never for a
  caller's question.

`query_hybrid` with both vectors is ONE query: a dense leg and a bm25 leg (each `leg_limit`, each
carrying the access filter) fused by reciprocal rank fusion (constant `rrf_k`, default RRF_K) to
`fused_limit`. With only one of the
two vectors it is a single-leg search of `fused_limit` results (dense-only / bm25-only evals).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from knowledge.payload import ChunkPayload

if TYPE_CHECKING:
    from config.settings import Settings

# Named vectors of every collection; both backends use these names.
DENSE_VECTOR = "dense"
SPARSE_VECTOR = "bm25"
# Reciprocal rank fusion constant (score = sum of 1 / (k + rank)) when a caller names none: the
# RRF paper's 60, used by the store contract tests and the store benchmarks. Questions never use
# it: the hybrid search passes its measured `knowledge.hybrid_search.FUSION_K` (5; why there).
RRF_K = 60


class StoreBusyError(RuntimeError):
    """The embedded store is open in another process (the engine allows one at a time)."""


@dataclass(frozen=True)
class SparseVector:
    indices: list[int]
    values: list[float]


@dataclass(frozen=True)
class AccessFilter:
    roles: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ("vetted_active",)
    rulebook_ids: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    rulebook_types: tuple[str, ...] = ()
    section_key: str | None = None


@dataclass
class StoredChunk:
    payload: ChunkPayload
    dense: list[float]
    sparse: SparseVector


@dataclass
class ScoredChunk:
    payload: ChunkPayload
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # leg name -> 1-based rank, for diagnostics


def reading_order_ties(hits: list[ScoredChunk]) -> list[ScoredChunk]:
    """Equal scores in reading order (rulebook, chunk index). Fused scores tie often (ranks 1 + 3
    and 3 + 1 sum alike) and the engine orders ties differently from one process to the next, so
    the same question could get two different answers (and an eval two different figures)."""
    return sorted(hits, key=lambda h: (-h.score, h.payload.rulebook_id, h.payload.chunk_index))


# The dense leg's HNSW beam width. Once a collection is optimised its dense search is approximate:
# on ObliQA's 13,012 passages the engine's default beam kept 98.3% of the exact top 10 (96.2% of
# the top 50) and cost the hybrid ~.003 MAP@10; a beam of 256 keeps 99.7% (99.2%) at the same
# CPU p50 (3.6 ms with payloads), where exact search takes 5.8 ms
# (`benchmarks/query_latency.py --dense-beams`, 200 dev questions). Both backends use it.
DENSE_HNSW_EF = 256


def query_legs(dense: list[float] | None, sparse: SparseVector | None) -> list[tuple[str, object, str]]:
    """The legs of a hybrid query: (leg name, query vector, named vector searched); a sparse
    vector without terms is no leg."""
    legs: list[tuple[str, object, str]] = []
    if dense is not None:
        legs.append(("dense", list(dense), DENSE_VECTOR))
    if sparse is not None and sparse.indices:
        legs.append(("bm25", sparse, SPARSE_VECTOR))
    return legs


def scored_hits(points: Sequence[object], legs: Sequence[tuple[str, object, str]],
                payloads: Sequence[ChunkPayload] | None = None) -> list[ScoredChunk]:
    """A backend's scored points as ScoredChunks, ties in reading order; a single-leg search
    records each hit's rank in that leg. `payloads`: the points' payloads, already validated
    (the embedded store's in-process copy), instead of the ones the points carry."""
    single = legs[0][0] if len(legs) == 1 else None
    if payloads is None:
        payloads = [ChunkPayload.model_validate(p.payload) for p in points]  # type: ignore[attr-defined]
    return reading_order_ties([ScoredChunk(payload=payload, score=float(p.score),  # type: ignore[attr-defined]
                                           ranks={single: rank} if single else {})
                               for rank, (p, payload) in enumerate(zip(points, payloads, strict=True), start=1)])


class KnowledgeStore(Protocol):
    def ensure_collection(self, dense_size: int) -> None: ...

    def upsert(self, chunks: Sequence[StoredChunk]) -> None: ...

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None: ...

    def delete_rulebook(self, rulebook_id: str) -> None: ...

    def delete_generation(self, key: str) -> None: ...

    def scroll(self, access: AccessFilter | None = None) -> Iterator[ChunkPayload]: ...

    def count(self, access: AccessFilter | None = None) -> int: ...

    def query_hybrid(
        self,
        dense: list[float] | None,
        sparse: SparseVector | None,
        access: AccessFilter,
        leg_limit: int = 50,
        fused_limit: int = 30,
        rrf_k: int = RRF_K,
    ) -> list[ScoredChunk]: ...

    def close(self) -> None: ...


def open_store(settings: Settings, collection: str | None = None) -> KnowledgeStore:
    """The configured backend: a Qdrant server when `RULEBOOK_QDRANT_URL` is set, else the
    embedded engine under `<data_dir>/qdrant/<collection>`."""
    name = collection or settings.collection
    if settings.qdrant_url:
        from config.secret_values import reveal
        from knowledge.generations import shared_registry
        from knowledge.server_store import ServerStore

        store = ServerStore.connect(settings.qdrant_url, name, api_key=reveal(settings.qdrant_api_key) or None)
        store.generations = shared_registry(settings.data_dir / "generations" / f"{name}.json")
        return store
    from knowledge.edge_store import EdgeStore

    return EdgeStore(settings.store_dir / name, in_process=settings.edge_queries == "in-process")
