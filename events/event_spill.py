"""Events the store could not take yet: JSON lines on local disk, replayed once the store is back.

Layout under `<data_dir>/events_spill/`:
- `pending.jsonl` — new spills are appended here, one event per line;
- `replaying-<ns>.jsonl` + `.offset` — a replay first renames `pending.jsonl` (so spills that
  arrive meanwhile start a fresh file), then writes the lines in batches and, after each batch
  the store accepted, records the byte offset reached in the `.offset` file (written atomically).
  The file is deleted when every line is in. A replay cut short (the store fell again, the process
  died) resumes at the recorded offset: a replayed entry is never sent again, and if the cut fell
  between the store's answer and the offset update, the re-sent batch is an upsert of the same
  keys, which leaves one row;
- `rejected.jsonl` — lines that cannot be read back (a torn write) or events the store refused
  for good, each with the reason: kept for a person to look at, never silently dropped.

Two processes sharing a data dir (the bot and a CLI command) coordinate with `flock`: appends
and the rename take `append.lock` for a moment; a replay holds `replay.lock` for its duration,
and a process that finds it held leaves the replay to the holder.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from events.event_store import event_from_record, event_to_record
from events.usage_event import UsageEvent

log = logging.getLogger("rulebook.events")

PENDING = "pending.jsonl"
REJECTED = "rejected.jsonl"


class SpillFile:
    def __init__(self, directory: Path, sync: bool = True) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.sync = sync
        self._lock = threading.Lock()

    @property
    def pending_path(self) -> Path:
        return self.directory / PENDING

    @property
    def rejected_path(self) -> Path:
        return self.directory / REJECTED

    def append(self, events: Iterable[UsageEvent], sync: bool | None = None) -> int:
        lines = [json.dumps(event_to_record(e), ensure_ascii=False) + "\n" for e in events]
        if not lines:
            return 0
        with self._lock, _flock(self.directory / "append.lock"):
            self._write(self.pending_path, "".join(lines), self.sync if sync is None else sync)
        return len(lines)

    def reject(self, entries: Iterable[tuple[dict | str, str]]) -> int:
        """Keep what cannot be stored, with the reason, in `rejected.jsonl`."""
        lines = [json.dumps({"reason": reason, "entry": entry}, ensure_ascii=False) + "\n"
                 for entry, reason in entries]
        if lines:
            with self._lock:
                self._write(self.rejected_path, "".join(lines), True)
        return len(lines)

    def has_pending(self) -> bool:
        try:  # the writer may rotate the file away between a check and a stat
            if self.pending_path.stat().st_size > 0:
                return True
        except FileNotFoundError:
            pass
        return any(self._replaying_files())

    def pending_count(self) -> int:
        """Entries not replayed yet (for tests and the status line; reads the files)."""
        total = 0
        for path in [*self._replaying_files(), self.pending_path]:
            if path.exists():
                with path.open("rb") as handle:
                    handle.seek(_read_offset(path))
                    total += sum(1 for line in handle if line.strip())
        return total

    def replay(self, write: Callable[[list[UsageEvent]], None], batch_size: int = 100) -> int:
        """Send every pending entry through `write`; returns how many went in.

        An exception from `write` stops the replay and propagates; what went in before stays
        marked as replayed.
        """
        replayed = 0
        with _flock(self.directory / "replay.lock", blocking=False) as held:
            if not held:
                return 0  # another process is replaying this directory
            for path in self._replaying_files():  # left over from a replay that was cut short
                replayed += self._replay_file(path, write, batch_size)
            with self._lock, _flock(self.directory / "append.lock"):
                if not (self.pending_path.exists() and self.pending_path.stat().st_size > 0):
                    return replayed
                target = self.directory / f"replaying-{time.time_ns():020d}.jsonl"
                os.replace(self.pending_path, target)
            replayed += self._replay_file(target, write, batch_size)
        return replayed

    def _replay_file(self, path: Path, write: Callable[[list[UsageEvent]], None],
                     batch_size: int) -> int:
        done = 0
        batch: list[UsageEvent] = []
        offset = _read_offset(path)
        for end, line in _lines_from(path, offset):
            try:
                batch.append(event_from_record(json.loads(line)))
            except (ValueError, KeyError, TypeError) as exc:
                self.reject([(line.decode("utf-8", "replace"), f"unreadable spill line: {exc}")])
                log.error("events: a spilled line could not be read back; kept in %s",
                          self.rejected_path)
            if len(batch) >= batch_size:
                write(batch)
                done += len(batch)
                batch = []
                _write_offset(path, end)
            offset = end
        if batch:
            write(batch)
            done += len(batch)
        _write_offset(path, offset)
        path.unlink()
        _offset_path(path).unlink(missing_ok=True)
        return done

    def _replaying_files(self) -> list[Path]:
        return sorted(self.directory.glob("replaying-*.jsonl"))

    @staticmethod
    def _write(path: Path, text: str, sync: bool) -> None:
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())


def _lines_from(path: Path, offset: int) -> Iterator[tuple[int, bytes]]:
    """(offset just past the line, line) for every non-blank line from `offset` on."""
    with path.open("rb") as handle:
        handle.seek(offset)
        position = offset
        for line in handle:
            position += len(line)
            if line.strip():
                yield position, line


def _offset_path(path: Path) -> Path:
    return path.with_suffix(".offset")


def _read_offset(path: Path) -> int:
    marker = _offset_path(path)
    try:
        return int(marker.read_text().strip() or 0)
    except (FileNotFoundError, ValueError):
        return 0


def _write_offset(path: Path, offset: int) -> None:
    marker = _offset_path(path)
    tmp = marker.with_suffix(".offset.tmp")
    tmp.write_text(str(offset))
    os.replace(tmp, marker)


@contextmanager
def _flock(path: Path, blocking: bool = True) -> Iterator[bool]:
    path.parent.mkdir(parents=True, exist_ok=True)  # someone may have cleared the data dir
    with path.open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
