"""The event log: concurrent emitters, a full queue, a store outage, and replays that happen once."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest

from config.secret_values import reveal
from events.event_log import EventLog, open_event_log
from events.event_spill import SpillFile
from events.event_store_sqlite import SqliteEventStore
from events.event_store_table_storage import TableEventStore
from events.usage_event import UsageEvent
from tests.events.conftest import wait_until

pytestmark = pytest.mark.azurite

FAST_RETRY = {"retries": 2, "backoff": 0.05, "backoff_max": 0.4, "idle_wait": 0.05}


def _event(i: int, conversation: str = "c", kind: str = "question") -> UsageEvent:
    return UsageEvent(kind=kind, conversation_id=conversation, message_id=f"m{i}", user_hash="u",  # type: ignore[arg-type]
                      platform="teams", data={"i": i})


async def test_200_concurrent_events_from_tasks_and_threads_all_land_once(azure_settings, table_prefix):
    event_log = open_event_log(azure_settings, table_prefix=table_prefix, register_exit=False)
    assert isinstance(event_log.store, TableEventStore)
    emitted: list[UsageEvent] = []
    lock = threading.Lock()

    def emit(event: UsageEvent) -> None:
        with lock:
            emitted.append(event)
        event_log.emit(event)

    async def task(n: int) -> None:
        for i in range(15):
            emit(_event(n * 100 + i, conversation=f"task-{n}"))
            await asyncio.sleep(0)

    def thread(n: int) -> None:
        for i in range(20):
            emit(_event(10_000 + n * 100 + i, conversation=f"thread-{n}"))

    threads = [threading.Thread(target=thread, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    await asyncio.gather(*(task(n) for n in range(8)))
    for t in threads:
        t.join()
    await event_log.aclose()

    assert len(emitted) == 200
    reopened = TableEventStore(reveal(azure_settings.tables_connection_string), table_prefix=table_prefix)
    stored = [e.event_id for e in reopened.read()]
    assert len(stored) == len(set(stored)) == 200
    assert set(stored) == {e.event_id for e in emitted}
    assert event_log.stats.written == 200 and event_log.stats.spilled == 0
    # the conversation index got every event too
    assert sum(len(reopened.conversation(f"task-{n}")) for n in range(8)) == 120


def test_a_full_queue_spills_to_disk_instead_of_dropping(local_settings):
    event_log = open_event_log(local_settings, register_exit=False, max_queue=4, **FAST_RETRY)
    events = [_event(i) for i in range(300)]
    for event in events:
        event_log.emit(event)
    event_log.close()
    assert event_log.stats.spilled > 0, "the queue of 4 never overflowed: the test proves nothing"
    store = SqliteEventStore(local_settings.data_dir / "events.sqlite")
    stored = [e.event_id for e in store.read()]
    assert sorted(stored) == sorted(e.event_id for e in events)
    assert event_log.stats.written + event_log.stats.replayed == 300
    assert not event_log.spill.has_pending()


def test_stopping_the_store_mid_run_loses_nothing_and_duplicates_nothing(restartable_azurite, tmp_path):
    connection = restartable_azurite.connection_string
    store = TableEventStore(connection, table_prefix="outage")
    event_log = EventLog(store, tmp_path / "spill", **FAST_RETRY)
    emitted: list[str] = []
    stop = threading.Event()

    def steady_emitter() -> None:  # a bot answering throughout the outage
        i = 0
        while not stop.is_set():
            event = _event(i, conversation=f"c{i % 5}")
            emitted.append(event.event_id)
            event_log.emit(event)
            i += 1
            time.sleep(0.005)

    emitter = threading.Thread(target=steady_emitter)
    emitter.start()
    time.sleep(0.4)
    assert event_log.flush(10)
    landed_before = {e.event_id for e in TableEventStore(connection, "outage").read()}
    assert landed_before, "nothing landed before the outage"

    restartable_azurite.stop()
    time.sleep(1.0)
    assert wait_until(lambda: event_log.store_down, 5), "the log did not notice the outage"
    emitted_during = len(emitted)
    restartable_azurite.start()
    time.sleep(0.3)
    stop.set()
    emitter.join()
    assert wait_until(lambda: event_log.flush(1) and not event_log.spill.has_pending(), 30)
    event_log.close()

    rows = [e.event_id for e in TableEventStore(connection, "outage").read()]
    assert len(rows) == len(set(rows)), "an event was stored twice"
    assert set(rows) == set(emitted), f"{len(set(emitted) - set(rows))} event(s) lost"
    assert landed_before <= set(rows)
    assert event_log.stats.outages >= 1 and event_log.stats.spilled > 0
    assert event_log.stats.replayed == event_log.stats.spilled
    assert emitted_during > len(landed_before)
    index_rows = sum(len(TableEventStore(connection, "outage").conversation(f"c{k}")) for k in range(5))
    assert index_rows == len(emitted)

    # a second process on the same data dir finds nothing left to replay
    again = EventLog(TableEventStore(connection, table_prefix="outage"), tmp_path / "spill", **FAST_RETRY)
    again.close()
    assert again.stats.replayed == 0
    assert len(list(TableEventStore(connection, "outage").read())) == len(emitted)


def test_events_emitted_while_the_store_is_down_wait_on_disk_for_the_next_run(tmp_path):
    # a Table Storage endpoint nobody listens on: the store is down for this whole "run"
    dead = ("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;"
            "TableEndpoint=http://127.0.0.1:9/devstoreaccount1;")
    event_log = EventLog(TableEventStore(dead), tmp_path / "spill", **FAST_RETRY)
    events = [_event(i) for i in range(30)]
    for event in events:
        event_log.emit(event)
    assert event_log.flush(10)
    event_log.close()
    assert event_log.stats.written == 0
    spill = SpillFile(tmp_path / "spill")
    assert spill.pending_count() == 30

    # the next run (here with a local store) replays them, once
    store = SqliteEventStore(tmp_path / "events.sqlite")
    next_run = EventLog(store, tmp_path / "spill", **FAST_RETRY)
    assert wait_until(lambda: not next_run.spill.has_pending(), 10)
    next_run.close()
    assert sorted(e.event_id for e in SqliteEventStore(tmp_path / "events.sqlite").read()) == \
        sorted(e.event_id for e in events)
    assert next_run.stats.replayed == 30


def test_a_replay_cut_short_resumes_after_the_entries_it_already_marked(tmp_path):
    spill = SpillFile(tmp_path / "spill")
    events = [_event(i) for i in range(10)]
    spill.append(events)
    # a replay that died after its first batch of 4: its file is renamed and the offset recorded
    pending = spill.pending_path.read_bytes().splitlines(keepends=True)
    replaying = tmp_path / "spill" / "replaying-00000000000000000001.jsonl"
    spill.pending_path.rename(replaying)
    replaying.with_suffix(".offset").write_text(str(sum(len(line) for line in pending[:4])))

    store = SqliteEventStore(tmp_path / "events.sqlite")
    event_log = EventLog(store, tmp_path / "spill", batch_size=4, **FAST_RETRY)
    assert wait_until(lambda: not event_log.spill.has_pending(), 10)
    event_log.close()
    stored = {e.event_id for e in SqliteEventStore(tmp_path / "events.sqlite").read()}
    assert stored == {e.event_id for e in events[4:]}, "marked entries were sent again, or some were lost"
    assert event_log.stats.replayed == 6
    assert not list((tmp_path / "spill").glob("replaying-*"))


def test_an_unreadable_spill_line_is_kept_aside_and_the_rest_replayed(tmp_path):
    spill = SpillFile(tmp_path / "spill")
    spill.append([_event(1)])
    with spill.pending_path.open("a") as handle:
        handle.write('{"event_id": "torn", "kind": "quest\n')  # a write cut by a crash
    spill.append([_event(2)])
    event_log = EventLog(SqliteEventStore(tmp_path / "events.sqlite"), tmp_path / "spill", **FAST_RETRY)
    assert wait_until(lambda: not event_log.spill.has_pending(), 10)
    event_log.close()
    assert event_log.stats.replayed == 2
    rejected = [json.loads(line) for line in spill.rejected_path.read_text().splitlines()]
    assert len(rejected) == 1 and "torn" in rejected[0]["entry"]
    assert "unreadable spill line" in rejected[0]["reason"]


def test_emit_returns_while_the_store_hangs(tmp_path: Path):
    release = threading.Event()
    entered = threading.Event()

    class HangingStore(SqliteEventStore):
        def write(self, events):  # a store that does not answer until released
            entered.set()
            release.wait(30)
            super().write(events)

    event_log = EventLog(HangingStore(tmp_path / "events.sqlite"), tmp_path / "spill", **FAST_RETRY)
    event_log.emit(_event(0))
    assert entered.wait(5)
    emitter = threading.Thread(target=lambda: [event_log.emit(_event(i)) for i in range(1, 200)])
    emitter.start()
    emitter.join(5)
    blocked = emitter.is_alive()
    release.set()
    emitter.join()
    event_log.close()
    assert not blocked, "emit waited for the store"
    assert len(list(SqliteEventStore(tmp_path / "events.sqlite").read())) == 200
