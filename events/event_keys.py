"""Table keys for usage events and shared history, chosen so the two common reads are one-partition scans.

Events are written twice, to two tables, with the same RowKey:

| table | PartitionKey | RowKey |
|---|---|---|
| `<prefix>events` | UTC day of the event, `2026-11-30` | `2026-11-30T12:34:56.123456Z_<event_id>` |
| `<prefix>eventsbyconv` | the conversation id, escaped | the same RowKey |

Why:
- "Everything on day D" (the report, a daily export) reads one partition; "since D" is a range on
  PartitionKey (`PartitionKey ge '2026-11-01'`), which Table Storage serves in key order without a
  table scan. One partition per day also spreads the write load over time without making any
  partition hot for long.
- "Everything in conversation C" (support, the outcome inference) reads one partition of the index
  table. Events without a conversation (a source click on a bare link) get no index row, so no
  catch-all partition grows hot. The index holds full copies of the events, not pointers: storage is cheap, a second
  round trip per event is not.
- Row keys never collide under concurrency: `event_id` is a uuid4 made when the event is created,
  so two replicas writing in the same microsecond still produce different keys. The ISO prefix
  keeps a partition's rows in time order (Table Storage returns rows sorted by RowKey).
- Writes are idempotent: the RowKey is a pure function of the event, and every write is an upsert
  (replace), so a retry or a replay of a spilled event rewrites the same row instead of adding one.

Conversation ids come from Teams and Slack and may hold characters Table Storage forbids in keys
(`/ \\ # ?`, control characters) or handles badly in URLs (`%`); `escape_key` rewrites those as
`~XX` hex and replaces over-long ids by a hash, deterministically, so a lookup by the raw id finds
the rows.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from events.usage_event import UsageEvent

# Table Storage keys may be up to 1 KiB; conversation ids are far shorter, but do not trust that.
_MAX_KEY_CHARS = 200
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:;=@,+!$()*")


def escape_key(raw: str) -> str:
    """A Table Storage-safe key for any string; the same input always gives the same key."""
    escaped = "".join(ch if ch in _SAFE else "".join(f"~{b:02X}" for b in ch.encode()) for ch in raw)
    if not escaped:
        return "~"
    if len(escaped) > _MAX_KEY_CHARS:
        digest = hashlib.sha256(raw.encode()).hexdigest()
        return f"{escaped[:_MAX_KEY_CHARS - 66]}~~{digest}"
    return escaped


def event_day(event: UsageEvent) -> str:
    return _utc(event.timestamp).strftime("%Y-%m-%d")


def event_row_key(event: UsageEvent) -> str:
    return f"{format_time(event.timestamp)}_{escape_key(event.event_id)}"


def format_time(moment: datetime) -> str:
    """ISO-8601 in UTC with microseconds and a `Z`: fixed width, so string order is time order."""
    return _utc(moment).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def _utc(moment: datetime) -> datetime:
    # a naive timestamp is taken as UTC: the event model creates aware ones, callers may not
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
