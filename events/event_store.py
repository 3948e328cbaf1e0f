"""Where usage events rest: one interface, Azure Table Storage or a local SQLite file behind it.

`open_event_store(settings)` picks Table Storage when `RULEBOOK_TABLES_CONNECTION_STRING` is set,
SQLite under the data dir otherwise. Both stores upsert by the event's own keys
(`events.event_keys`), so writing an event twice leaves one row: the event log relies on that to
retry and replay without duplicates.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any, Protocol

from events.event_keys import format_time, parse_time
from events.usage_event import UsageEvent

DEFAULT_TABLE_PREFIX = "rulebook"


class EventStore(Protocol):
    def write(self, events: Sequence[UsageEvent]) -> None:
        """Upsert; raises `RejectedEvents` for events the store refuses for good, anything else
        when the store cannot be reached (the caller retries those)."""
        ...

    def read(self, since: date | None = None, until: date | None = None) -> Iterator[UsageEvent]:
        """Events from day `since` through day `until` (both inclusive, UTC), in time order."""
        ...

    def conversation(self, conversation_id: str) -> list[UsageEvent]:
        """One conversation's events, in time order."""
        ...

    def close(self) -> None: ...


class RejectedEvents(Exception):
    """The store refused these events for a reason a retry will not fix (e.g. an oversized row).

    The rest of the batch was written. The event log keeps the refused ones in a file instead of
    retrying them forever.
    """

    def __init__(self, rejected: list[tuple[UsageEvent, str]]) -> None:
        self.rejected = rejected
        reasons = "; ".join(sorted({reason for _, reason in rejected}))
        super().__init__(f"{len(rejected)} event(s) rejected by the store: {reasons}")


def event_to_record(event: UsageEvent) -> dict[str, Any]:
    """A JSON-safe dict (the spill file's line format, and the base of every stored row)."""
    return {
        "event_id": event.event_id,
        "kind": event.kind,
        "conversation_id": event.conversation_id,
        "message_id": event.message_id,
        "user_hash": event.user_hash,
        "platform": event.platform,
        "timestamp": format_time(event.timestamp),
        "data": json.loads(dump_data(event.data)),
    }


def event_from_record(record: dict[str, Any]) -> UsageEvent:
    data = record.get("data") or {}
    if isinstance(data, str):
        data = json.loads(data)
    return UsageEvent(
        kind=record["kind"],
        conversation_id=record["conversation_id"],
        message_id=record["message_id"],
        user_hash=record["user_hash"],
        platform=record["platform"],
        data=data,
        timestamp=parse_time(record["timestamp"]),
        event_id=record["event_id"],
    )


def dump_data(data: dict[str, Any]) -> str:
    # default=str: a datetime or a path inside `data` must not cost the whole event
    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


def open_event_store(settings: Any, table_prefix: str | None = None) -> EventStore:
    if settings.tables_connection_string:
        from config.secret_values import reveal
        from events.event_store_table_storage import TableEventStore

        prefix = table_prefix or getattr(settings, "tables_prefix", None) or DEFAULT_TABLE_PREFIX
        return TableEventStore(reveal(settings.tables_connection_string), table_prefix=prefix)
    from events.event_store_sqlite import SqliteEventStore

    return SqliteEventStore(settings.data_dir / "events.sqlite")
