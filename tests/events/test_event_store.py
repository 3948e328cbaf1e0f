"""Both event stores: every kind lands with the documented keys, writes are idempotent, reads are by day
and by conversation."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from azure.data.tables import TableServiceClient

from events.event_keys import escape_key
from events.event_store import open_event_store
from events.event_store_sqlite import SqliteEventStore
from events.event_store_table_storage import TableEventStore, fit_data
from events.usage_event import UsageEvent, pseudonymous_user_id

pytestmark = pytest.mark.azurite

KIND_DATA = {
    "question": {"text": "What is the fee cap for cross-border transfers?"},
    "tool_call": {"name": "search_rulebooks", "args": {"query": "fee cap"}, "result_chars": 5120,
                  "ms": 12.5},
    "answer": {"outcome": "answered", "citations": [{"rulebook_id": "PS-04", "page": 12}],
               "latency_ms": 2310.0, "tool_calls": 2, "tokens_out": 180},
    "gate": {"decision": "pass", "removed": 1},
    "feedback": {"value": "negative", "comment": "wrong section", "via": "button"},
    "source_click": {"rulebook_id": "PS-04", "page": 12},
    "copy": {},
    "error": {"error": "TimeoutError", "message": "model did not answer"},
}
# a Teams-style conversation id, with characters Table Storage refuses in keys
CONVERSATION = "a:1Xy/z#q?=;messageid=1700000000000%20\\x"


def _events(at: datetime) -> list[UsageEvent]:
    user = pseudonymous_user_id("29:teams-user-aad-id", "test-key")
    return [UsageEvent(kind=kind, conversation_id=CONVERSATION, message_id=f"m-{i}", user_hash=user,
                       platform="teams", data=data, timestamp=at + timedelta(seconds=i))
            for i, (kind, data) in enumerate(KIND_DATA.items())]


def test_every_kind_lands_in_table_storage_under_the_documented_keys(azurite, table_prefix):
    store = TableEventStore(azurite.connection_string, table_prefix=table_prefix)
    at = datetime(2026, 11, 30, 23, 59, 55, 123456, tzinfo=UTC)  # the last events cross midnight
    events = _events(at)
    store.write(events)

    service = TableServiceClient.from_connection_string(azurite.connection_string)
    by_day = list(service.get_table_client(f"{table_prefix}events").list_entities())
    by_conversation = list(service.get_table_client(f"{table_prefix}eventsbyconv").list_entities())
    assert len(by_day) == len(by_conversation) == len(KIND_DATA)
    for event in events:
        day = event.timestamp.strftime("%Y-%m-%d")
        row_key = event.timestamp.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + "_" + event.event_id
        row = next(r for r in by_day if r["RowKey"] == row_key)
        assert row["PartitionKey"] == day
        assert row["kind"] == event.kind and row["conversation_id"] == CONVERSATION
        assert row["user_hash"] == event.user_hash and row["platform"] == "teams"
        assert json.loads(row["data"]) == event.data
        index_row = next(r for r in by_conversation if r["RowKey"] == row_key)
        assert index_row["PartitionKey"] == escape_key(CONVERSATION)
    assert {r["PartitionKey"] for r in by_day} == {"2026-11-30", "2026-12-01"}
    assert not any(ch in escape_key(CONVERSATION) for ch in "/\\#?%")

    # reads: by day (one partition), by day range, by conversation; all in time order, all fields back
    assert [e.event_id for e in store.read(since=date(2026, 12, 1))] == [e.event_id for e in events[5:]]
    assert [e.event_id for e in store.read(until=date(2026, 11, 30))] == [e.event_id for e in events[:5]]
    back = store.conversation(CONVERSATION)
    assert [(e.kind, e.data, e.timestamp, e.message_id) for e in back] == \
        [(e.kind, e.data, e.timestamp, e.message_id) for e in events]
    assert store.conversation("another conversation") == []


def test_writing_the_same_events_again_leaves_one_row_each(azurite, table_prefix):
    store = TableEventStore(azurite.connection_string, table_prefix=table_prefix)
    events = _events(datetime(2026, 11, 30, 9, 0, tzinfo=UTC))
    store.write(events)
    store.write(events[:3] + events)  # a retry and a replay overlapping
    assert len(list(store.read())) == len(events)
    assert len(store.conversation(CONVERSATION)) == len(events)


def test_a_batch_larger_than_one_transaction_lands_whole(azurite, table_prefix):
    store = TableEventStore(azurite.connection_string, table_prefix=table_prefix)
    at = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    events = [UsageEvent("tool_call", f"c{i % 3}", f"m{i}", "u", "slack", {"ms": i},
                         timestamp=at + timedelta(milliseconds=i)) for i in range(250)]
    store.write(events)
    assert sorted(e.event_id for e in store.read()) == sorted(e.event_id for e in events)
    assert len(store.conversation("c1")) == len([e for e in events if e.conversation_id == "c1"])


def test_oversized_data_is_cut_and_marked_not_refused(azurite, table_prefix):
    store = TableEventStore(azurite.connection_string, table_prefix=table_prefix)
    event = UsageEvent("error", "c", "m", "u", "terminal",
                       {"error": "ValueError", "message": "x" * 200_000})
    store.write([event])
    (back,) = store.read()
    assert back.data["_truncated"] is True and back.data["error"] == "ValueError"
    assert len(back.data["message"]) < 2_000
    assert len(fit_data(json.dumps({"a": "y" * 100_000}))) <= 30_000


def test_sqlite_store_reads_like_table_storage(local_settings):
    store = open_event_store(local_settings)
    assert isinstance(store, SqliteEventStore)
    events = _events(datetime(2026, 11, 30, 23, 59, 55, tzinfo=UTC))
    store.write(events)
    store.write(events)
    assert [e.event_id for e in store.read()] == [e.event_id for e in events]
    assert [e.event_id for e in store.read(since=date(2026, 12, 1))] == [e.event_id for e in events[5:]]
    assert [e.data for e in store.conversation(CONVERSATION)] == [e.data for e in events]
    assert store.path == local_settings.data_dir / "events.sqlite"


def test_escaped_keys_are_stable_and_distinct():
    assert escape_key("a/b") == escape_key("a/b") != escape_key("a#b")
    assert escape_key("19:abc@thread.tacv2;messageid=1") == "19:abc@thread.tacv2;messageid=1"
    long = escape_key("x" * 5_000)
    assert len(long) <= 200 and long != escape_key("x" * 4_999)
