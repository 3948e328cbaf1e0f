"""Small records that chat front ends keep about messages they posted, shared by every replica.

What it is for: a button on a chat message ("Share in channel", "Copy") or a reaction refers to
the message, not to the answer; the front end keeps "this message shows that answer" (and a
user's current feedback on it) here, so a click after a restart, or on another replica, still
finds the answer. Records expire after `RETENTION` (7 days): nobody shares a week-old answer, and
the store stays small.

Two backends with one interface, chosen like the event log's (`open_message_records`):

- `TableMessageRecords`: Azure Table Storage (`<prefix>messagerecords`) when
  `RULEBOOK_TABLES_CONNECTION_STRING` is set. PartitionKey = the record's kind, RowKey = its key
  (both escaped, `events.event_keys.escape_key`); the JSON value is split over `data_<i>` string
  properties (a property holds 32,768 UTF-16 characters, an entity 1 MiB), with `expires` as an
  ISO time. Table Storage has no TTL: an expired row reads as absent and is deleted when read.
- `SqliteMessageRecords`: one SQLite file under the data dir (`message_records.sqlite`); expired
  rows are deleted on write, at most once a minute.

Both are synchronous and thread-safe (one lock around the SQLite connection; the Tables client is
safe across threads); async callers run them in `asyncio.to_thread`.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from events.event_keys import escape_key
from events.event_store import DEFAULT_TABLE_PREFIX

RETENTION = timedelta(days=7)
_PART_CHARS = 30_000
_MAX_PARTS = 30  # 900,000 characters: under the 1 MiB entity limit with the other properties


class MessageRecords(Protocol):
    def put(self, kind: str, key: str, value: dict[str, Any]) -> None: ...
    def get(self, kind: str, key: str) -> dict[str, Any] | None: ...
    def delete(self, kind: str, key: str) -> None: ...
    def close(self) -> None: ...


def _now() -> datetime:
    return datetime.now(UTC)


class SqliteMessageRecords:
    def __init__(self, path: Path, retention: timedelta = RETENTION) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.retention = retention
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, key TEXT NOT NULL, "
                         "value TEXT NOT NULL, expires REAL NOT NULL, PRIMARY KEY (kind, key))")
        self._db.commit()
        self._purged = 0.0

    def put(self, kind: str, key: str, value: dict[str, Any]) -> None:
        expires = (_now() + self.retention).timestamp()
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO records (kind, key, value, expires) VALUES (?,?,?,?)",
                             (kind, key, json.dumps(value, ensure_ascii=False), expires))
            if time.monotonic() - self._purged > 60:
                self._db.execute("DELETE FROM records WHERE expires < ?", (_now().timestamp(),))
                self._purged = time.monotonic()

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT value, expires FROM records WHERE kind = ? AND key = ?",
                                   (kind, key)).fetchone()
        if row is None or row[1] < _now().timestamp():
            return None
        return json.loads(row[0])

    def delete(self, kind: str, key: str) -> None:
        with self._lock, self._db:
            self._db.execute("DELETE FROM records WHERE kind = ? AND key = ?", (kind, key))

    def close(self) -> None:
        with self._lock:
            self._db.close()


class TableMessageRecords:
    def __init__(self, connection_string: str, table_prefix: str = DEFAULT_TABLE_PREFIX,
                 retention: timedelta = RETENTION) -> None:
        from azure.data.tables import TableServiceClient

        from events.event_store_table_storage import TablesOnFirstUse, client_options

        self.retention = retention
        self.table_name = f"{table_prefix}messagerecords"
        self._service = TableServiceClient.from_connection_string(connection_string, **client_options())
        self._table = self._service.get_table_client(self.table_name)
        self._tables = TablesOnFirstUse(self._service, self.table_name)

    def put(self, kind: str, key: str, value: dict[str, Any]) -> None:
        from azure.data.tables import UpdateMode

        text = json.dumps(value, ensure_ascii=False)
        parts = [text[i:i + _PART_CHARS] for i in range(0, len(text), _PART_CHARS)] or [""]
        if len(parts) > _MAX_PARTS:
            raise ValueError(f"record too large for Table Storage ({len(text)} characters)")
        entity: dict[str, Any] = {"PartitionKey": escape_key(kind), "RowKey": escape_key(key),
                                  "kind": kind, "key": key, "parts": len(parts),
                                  "expires": (_now() + self.retention).isoformat()}
        for index, part in enumerate(parts):
            entity[f"data_{index}"] = part
        self._tables.ensure()
        self._table.upsert_entity(entity, mode=UpdateMode.REPLACE)

    def get(self, kind: str, key: str) -> dict[str, Any] | None:
        from azure.core.exceptions import ResourceNotFoundError

        self._tables.ensure()
        try:
            row = self._table.get_entity(escape_key(kind), escape_key(key))
        except ResourceNotFoundError:
            return None
        if row.get("kind") != kind or row.get("key") != key:
            return None  # two keys that escape alike (only possible past the length cap)
        if datetime.fromisoformat(str(row["expires"])) < _now():
            self.delete(kind, key)
            return None
        return json.loads("".join(row.get(f"data_{i}", "") for i in range(int(row.get("parts", 1)))))

    def delete(self, kind: str, key: str) -> None:
        self._tables.ensure()
        self._table.delete_entity(escape_key(kind), escape_key(key))  # absent is fine

    def close(self) -> None:
        self._service.close()


def open_message_records(settings: Any, table_prefix: str | None = None) -> MessageRecords:
    """Table Storage when `RULEBOOK_TABLES_CONNECTION_STRING` is set; SQLite in the data dir otherwise."""
    connection = getattr(settings, "tables_connection_string", None)
    if connection is not None and hasattr(connection, "get_secret_value"):
        connection = connection.get_secret_value()
    if connection:
        prefix = table_prefix or getattr(settings, "tables_prefix", None) or DEFAULT_TABLE_PREFIX
        return TableMessageRecords(connection, table_prefix=prefix)
    return SqliteMessageRecords(Path(settings.data_dir) / "message_records.sqlite")
