"""The one store interface both backends implement (embedded Qdrant engine, Qdrant server).

How filters combine (written down once, applied the same in both backends):
- `AccessFilter.roles`: a chunk matches when its `roles` list is empty (public) OR shares at least
  one role with the caller. Applied inside the query, in every prefetch leg, so a chunk the caller
  may not see is never fetched.
- `AccessFilter.statuses`: default ("vetted_active",); archived chunks only when asked for.
- `rulebook_ids`, `languages`, `rulebook_types`: each, when given, is an OR within the field.
- Different fields AND together.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from knowledge.payload import ChunkPayload


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


class KnowledgeStore(Protocol):
    def ensure_collection(self, dense_size: int) -> None: ...

    def upsert(self, chunks: Sequence[StoredChunk]) -> None: ...

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None: ...

    def delete_rulebook(self, rulebook_id: str) -> None: ...

    def scroll(self, access: AccessFilter | None = None) -> Iterator[ChunkPayload]: ...

    def count(self, access: AccessFilter | None = None) -> int: ...

    def query_hybrid(
        self,
        dense: list[float] | None,
        sparse: SparseVector | None,
        access: AccessFilter,
        leg_limit: int = 50,
        fused_limit: int = 30,
    ) -> list[ScoredChunk]: ...

    def close(self) -> None: ...
