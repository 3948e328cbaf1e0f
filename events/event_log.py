"""The event log: takes usage events without ever delaying an answer, and gets each into the store once.

`emit()` puts the event on a bounded in-memory queue and returns (microseconds, no I/O); when the
queue is full it appends the event to the spill file instead of dropping it. One background
thread drains the queue in batches into the store (`events.event_store`: Table Storage or SQLite),
so the same object serves aiohttp handlers and synchronous CLI commands alike, and a slow store
never touches the event loop.

A batch the store fails to take is retried with exponential backoff (0.1 s, 0.2 s, 0.4 s … by
default). If it still fails, the store is taken as down: the batch and everything emitted
meanwhile go to the spill file (`events.event_spill`), and the writer probes the store by replaying
the spill, at growing intervals, until it answers again. Every write is an upsert keyed by the
event itself, and the spill file records how far a replay got, so nothing is lost and nothing is
stored twice. Events the store refuses for good land in `rejected.jsonl` beside the spill.

Shut down with `close()` (or `await aclose()`): it waits for the queue to drain, makes a last
replay attempt, and spills whatever could still not be written. `open_event_log()` also
registers `close()` to run at interpreter exit, so a CLI command that forgets loses nothing.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from events.event_spill import SpillFile
from events.event_store import (
    EventStore,
    RejectedEvents,
    event_to_record,
    open_event_store,
)
from events.usage_event import UsageEvent

log = logging.getLogger("rulebook.events")


@dataclass
class EventLogStats:
    emitted: int = 0
    written: int = 0  # accepted by the store straight from the queue
    spilled: int = 0  # went to the spill file (queue full, or store down)
    replayed: int = 0  # reached the store from the spill file
    rejected: int = 0  # refused by the store for good; kept in rejected.jsonl
    retries: int = 0
    outages: int = 0  # times the store was declared down


class EventLog:
    """An `EventSink` in front of an `EventStore`."""

    def __init__(
        self,
        store: EventStore,
        spill_dir: Path,
        *,
        max_queue: int = 10_000,
        batch_size: int = 100,
        retries: int = 3,
        backoff: float = 0.1,
        backoff_max: float = 30.0,
        idle_wait: float = 0.25,
    ) -> None:
        self.store = store
        self.spill = SpillFile(spill_dir)
        self.stats = EventLogStats()
        self._queue: queue.Queue[UsageEvent] = queue.Queue(maxsize=max_queue)
        self._batch_size = batch_size
        self._retries = retries
        self._backoff = backoff
        self._backoff_max = backoff_max
        self._idle_wait = idle_wait
        self._down = False
        self._probe_delay = backoff
        self._next_probe = 0.0
        # the queue is FIFO with one consumer, so events are done in the order they were queued:
        # "everything queued before a flush is done" is just `_done >= _queued` as of the call
        self._queued = 0
        self._done_count = 0
        self._idle = threading.Condition()
        self._stats_lock = threading.Lock()
        self._stop = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="event-log-writer", daemon=True)
        self._thread.start()

    # --- the sink ---------------------------------------------------------------------------

    def emit(self, event: UsageEvent) -> None:
        self._count("emitted")
        if self._closed:
            self._spill([event], sync=True)  # late events after shutdown: the next run replays them
            return
        with self._idle:
            try:
                self._queue.put_nowait(event)
                self._queued += 1
                return
            except queue.Full:
                pass
        self._spill([event], sync=False)

    # --- shutdown -------------------------------------------------------------------------

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Wait until every event emitted so far is in the store or in the spill file."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            target = self._queued
            while self._done_count < target:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._idle.wait(remaining)
        return True

    def close(self, timeout: float = 30.0) -> None:
        if self._closed:
            return
        self.flush(timeout)
        self._closed = True
        self._stop.set()
        self._thread.join(timeout)
        leftover = self._drain(10**9)
        if leftover:  # emitted while closing, or the writer did not finish in time
            try:
                if self._down:
                    raise ConnectionError("the store is down")
                self._count("written", self._store_write(leftover))
            except Exception:
                self._spill(leftover, sync=True)  # the next run replays them
            self._done(len(leftover))
        if not self._down:
            self._replay()
        self.store.close()

    async def aflush(self, timeout: float | None = 30.0) -> bool:
        return await asyncio.to_thread(self.flush, timeout)

    async def aclose(self, timeout: float = 30.0) -> None:
        await asyncio.to_thread(self.close, timeout)

    @property
    def store_down(self) -> bool:
        return self._down

    # --- the writer thread ------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            batch = self._drain(self._batch_size, wait=self._idle_wait)
            try:
                if batch:
                    if self._down:
                        self._spill(batch, sync=True)
                    else:
                        self._write_with_retries(batch)
                if self.spill.has_pending() and (not self._down or time.monotonic() >= self._next_probe):
                    self._replay()
            except Exception:  # e.g. the spill disk is full: say so loudly, keep the writer alive
                log.exception("events: writer error; %d event(s) could not be kept", len(batch))
            finally:
                if batch:
                    self._done(len(batch))

    def _drain(self, limit: int, wait: float = 0.0) -> list[UsageEvent]:
        batch: list[UsageEvent] = []
        try:
            batch.append(self._queue.get(timeout=wait) if wait else self._queue.get_nowait())
            while len(batch) < limit:
                batch.append(self._queue.get_nowait())
        except queue.Empty:
            pass
        return batch

    def _write_with_retries(self, batch: list[UsageEvent]) -> None:
        delay = self._backoff
        for attempt in range(self._retries + 1):
            try:
                self._count("written", self._store_write(batch))
                return
            except Exception as exc:
                if attempt == self._retries:
                    self._mark_down(exc)
                    self._spill(batch, sync=True)
                    return
                self._count("retries")
                if self._stop.wait(delay):
                    self._spill(batch, sync=True)  # closing: keep them for the next run
                    return
                delay = min(delay * 2, self._backoff_max)

    def _store_write(self, batch: list[UsageEvent]) -> int:
        """Write; returns how many the store accepted (the refused ones go to rejected.jsonl)."""
        try:
            self.store.write(batch)
        except RejectedEvents as exc:
            self.spill.reject((event_to_record(e), reason) for e, reason in exc.rejected)
            self._count("rejected", len(exc.rejected))
            log.error("events: %s; kept in %s", exc, self.spill.rejected_path)
            return len(batch) - len(exc.rejected)
        return len(batch)

    def _replay(self) -> None:
        try:
            replayed = self.spill.replay(self._store_write_counting, self._batch_size)
        except Exception as exc:
            self._mark_down(exc)
            return
        if replayed:
            log.info("events: replayed %d spilled event(s)", replayed)
        if self._down:
            log.warning("events: the store is back")
        self._down = False
        self._probe_delay = self._backoff

    def _store_write_counting(self, batch: list[UsageEvent]) -> None:
        self._count("replayed", self._store_write(batch))

    def _mark_down(self, exc: Exception) -> None:
        if not self._down:
            self._count("outages")
            log.warning("events: the store is unreachable (%s: %s); spilling to %s",
                        type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "",
                        self.spill.pending_path)
        else:
            self._probe_delay = min(self._probe_delay * 2, self._backoff_max)
        self._down = True
        self._next_probe = time.monotonic() + self._probe_delay

    def _spill(self, events: list[UsageEvent], sync: bool) -> None:
        self.spill.append(events, sync=sync)
        self._count("spilled", len(events))

    def _done(self, n: int) -> None:
        with self._idle:
            self._done_count += n
            self._idle.notify_all()

    def _count(self, name: str, n: int = 1) -> None:
        with self._stats_lock:
            setattr(self.stats, name, getattr(self.stats, name) + n)


def open_event_log(settings: Any, *, table_prefix: str | None = None,
                   register_exit: bool = True, **options: Any) -> EventLog:
    """The event log the settings ask for: Table Storage when configured, SQLite otherwise."""
    store = open_event_store(settings, table_prefix=table_prefix)
    event_log = EventLog(store, Path(settings.data_dir) / "events_spill", **options)
    if register_exit:
        atexit.register(event_log.close)
    return event_log
