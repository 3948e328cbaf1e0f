"""The local event store: one SQLite file under the data dir, same interface as Table Storage.

The rows mirror the Table Storage design (`events.event_keys`): `day` plays the PartitionKey,
`row_key` the RowKey, with an index on each of `(day, row_key)` and `(conversation_id, row_key)`
so the same two reads stay cheap. `event_id` is the primary key and writes are
`INSERT OR REPLACE`, so a retried or replayed event leaves one row. WAL mode lets the report read
while a bot process writes.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path

from events.event_keys import event_day, event_row_key, format_time
from events.event_store import dump_data, event_from_record
from events.usage_event import UsageEvent

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    event_id TEXT PRIMARY KEY,
    day TEXT NOT NULL,
    row_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    user_hash TEXT NOT NULL,
    platform TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_day ON events (day, row_key);
CREATE INDEX IF NOT EXISTS events_by_conversation ON events (conversation_id, row_key);
"""

_COLUMNS = "event_id, kind, conversation_id, message_id, user_hash, platform, timestamp, data"


class SqliteEventStore:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def write(self, events: Sequence[UsageEvent]) -> None:
        rows = [(e.event_id, event_day(e), event_row_key(e), e.kind, e.conversation_id, e.message_id,
                 e.user_hash, e.platform, format_time(e.timestamp), dump_data(e.data)) for e in events]
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO events (event_id, day, row_key, kind, conversation_id, "
                "message_id, user_hash, platform, timestamp, data) VALUES (?,?,?,?,?,?,?,?,?,?)", rows)

    def read(self, since: date | None = None, until: date | None = None) -> Iterator[UsageEvent]:
        clauses, params = [], []
        if since is not None:
            clauses.append("day >= ?")
            params.append(since.isoformat())
        if until is not None:
            clauses.append("day <= ?")
            params.append(until.isoformat())
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM events {where} ORDER BY day, row_key", params).fetchall()
        return iter([_event(row) for row in rows])

    def conversation(self, conversation_id: str) -> list[UsageEvent]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM events WHERE conversation_id = ? ORDER BY row_key",
                (conversation_id,)).fetchall()
        return [_event(row) for row in rows]

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _event(row: tuple) -> UsageEvent:
    keys = ("event_id", "kind", "conversation_id", "message_id", "user_hash", "platform", "timestamp",
            "data")
    return event_from_record(dict(zip(keys, row, strict=True)))
