"""camelot on several cores: a process pool kept for a whole indexing run.

camelot is pure Python and holds the GIL, so pages are spread over processes. Workers are
forked from a forkserver that imported camelot once (~0.7 s of CPU), not from the indexer
itself: the indexer may already run the embedder's threads, and forking a threaded process
is unsafe. With one core (or one page to do) the caller runs the same function in-process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

MAX_WORKERS = 2
MIN_PARALLEL_PAGES = 8  # below this, handing pages to workers costs more than it saves
_PRELOAD = ["camelot", "indexing.table_extractor"]


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class TablePool:
    def __init__(self, workers: int | None = None, min_pages: int = MIN_PARALLEL_PAGES) -> None:
        self.workers = max(1, workers if workers is not None else min(available_cores(), MAX_WORKERS))
        self.min_pages = min_pages
        self._executor: Executor | None = None

    def worth_it(self, pages: int) -> bool:
        return self.workers > 1 and pages >= self.min_pages

    def map(self, function: Callable[..., Any], jobs: Iterable[tuple[Any, ...]]) -> list[Any]:
        executor = self._start()
        futures = [executor.submit(function, *job) for job in jobs]
        return [future.result() for future in futures]

    def warm(self) -> None:
        """Start the forkserver and every worker now (a benchmark times the work, not this)."""
        self.map(os.getpid, [() for _ in range(self.workers)])

    def _start(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def __enter__(self) -> TablePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
