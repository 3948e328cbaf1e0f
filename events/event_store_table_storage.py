"""Usage events in Azure Table Storage (`azure-data-tables`); keys and their reasons in `events.event_keys`.

Two tables, `<prefix>events` (by day) and `<prefix>eventsbyconv` (by conversation), each row a
full copy of the event. Writes go as entity-group transactions (one partition, at most 100
upserts and well under the 4 MiB payload limit), up to eight partitions in flight at once, so a
batch of events costs a few round trips, not one per event. Every operation is an upsert (replace): retries and replays are idempotent.

Failures are sorted in two: the store cannot be reached or answers 5xx/408/429 → the exception
propagates and the event log retries (the SDK's own retries are off, so the log's backoff is
the only one and a dead store is noticed in milliseconds); the store refuses an entity (any other
4xx) → the batch is retried entity by entity and the refused ones raise `RejectedEvents`.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import date
from typing import Any

from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableServiceClient, UpdateMode

from events.event_keys import escape_key, event_day, event_row_key
from events.event_store import DEFAULT_TABLE_PREFIX, RejectedEvents, dump_data, event_from_record
from events.usage_event import UsageEvent

_TRANSACTION_OPS = 100
_TRANSACTION_CHARS = 2_000_000  # the service allows 4 MiB; leave room for the multipart framing
# a string property holds at most 64 KiB of UTF-16, i.e. 32,768 characters
_DATA_CHARS = 30_000
_TRANSIENT_STATUS = frozenset({408, 429})
_PARALLEL_TRANSACTIONS = 8
_FIELDS = ("event_id", "kind", "conversation_id", "message_id", "user_hash", "platform")


def client_options() -> dict[str, Any]:
    """Connection options shared by every Table/Blob client here: fail fast, no hidden retries."""
    return {"retry_total": 0, "connection_timeout": 5, "read_timeout": 20}


class TablesOnFirstUse:
    """Creates a store's tables at its first call, once, from any thread.

    Lazily, so that opening a store never fails while Table Storage is down: the first call that
    needs the tables then fails (and the next one tries again) instead.
    """

    def __init__(self, service: TableServiceClient, *table_names: str) -> None:
        self._service = service
        self._names = table_names
        self._ready = False
        self._lock = threading.Lock()

    def ensure(self) -> None:
        if self._ready:
            return
        with self._lock:
            if not self._ready:
                for name in self._names:
                    self._service.create_table_if_not_exists(name)
                self._ready = True


class TableEventStore:
    def __init__(self, connection_string: str, table_prefix: str = DEFAULT_TABLE_PREFIX) -> None:
        self._service = TableServiceClient.from_connection_string(connection_string, **client_options())
        self.events_table = f"{table_prefix}events"
        self.index_table = f"{table_prefix}eventsbyconv"
        self._events = self._service.get_table_client(self.events_table)
        self._index = self._service.get_table_client(self.index_table)
        self._tables = TablesOnFirstUse(self._service, self.events_table, self.index_table)
        self._pool = ThreadPoolExecutor(max_workers=_PARALLEL_TRANSACTIONS, thread_name_prefix="event-tables")

    def write(self, events: Sequence[UsageEvent]) -> None:
        self._tables.ensure()
        unique = list({e.event_id: e for e in events}.values())  # one row per key in a transaction
        by_day: dict[str, list[UsageEvent]] = defaultdict(list)
        by_conversation: dict[str, list[UsageEvent]] = defaultdict(list)
        for event in unique:
            by_day[event_day(event)].append(event)
            if event.conversation_id:  # a source click from a bare link has none: no index row
                by_conversation[escape_key(event.conversation_id)].append(event)
        rejected: dict[str, tuple[UsageEvent, str]] = {}
        jobs = [(self._events, day, group) for day, group in by_day.items()]
        jobs += [(self._index, key, group) for key, group in by_conversation.items()]
        if len(jobs) == 1:
            self._upsert_partition(*jobs[0], rejected)
        else:  # one transaction per partition, several in flight: a batch spans many conversations
            futures = [self._pool.submit(self._upsert_partition, *job, rejected) for job in jobs]
            wait(futures)
            for future in futures:
                future.result()  # re-raises a transient failure: the caller retries the whole batch
        if rejected:
            raise RejectedEvents(list(rejected.values()))

    def _upsert_partition(self, table: Any, partition: str, events: list[UsageEvent],
                          rejected: dict[str, tuple[UsageEvent, str]]) -> None:
        batch: list[tuple[UsageEvent, dict[str, Any]]] = []
        chars = 0
        for event in events:
            entity = _entity(event, partition)
            size = sum(len(str(v)) for v in entity.values())
            if batch and (len(batch) >= _TRANSACTION_OPS or chars + size > _TRANSACTION_CHARS):
                self._submit(table, batch, rejected)
                batch, chars = [], 0
            batch.append((event, entity))
            chars += size
        if batch:
            self._submit(table, batch, rejected)

    def _submit(self, table: Any, batch: list[tuple[UsageEvent, dict[str, Any]]],
                rejected: dict[str, tuple[UsageEvent, str]]) -> None:
        try:
            table.submit_transaction([("upsert", entity, {"mode": UpdateMode.REPLACE})
                                      for _, entity in batch])
            return
        except HttpResponseError as exc:
            if _transient(exc):
                raise
        # one entity spoiled the transaction: find it, keep the others
        for event, entity in batch:
            try:
                table.upsert_entity(entity, mode=UpdateMode.REPLACE)
            except HttpResponseError as exc:
                if _transient(exc):
                    raise
                rejected[event.event_id] = (event, f"HTTP {exc.status_code}: {_first_line(exc)}")

    def read(self, since: date | None = None, until: date | None = None) -> Iterator[UsageEvent]:
        self._tables.ensure()
        clauses, params = [], {}
        if since is not None:
            clauses.append("PartitionKey ge @since")
            params["since"] = since.isoformat()
        if until is not None:
            clauses.append("PartitionKey le @until")
            params["until"] = until.isoformat()
        if clauses:
            rows = self._events.query_entities(" and ".join(clauses), parameters=params)
        else:
            rows = self._events.list_entities()
        for row in rows:  # the service returns rows in (PartitionKey, RowKey) order: time order
            yield _event(row)

    def conversation(self, conversation_id: str) -> list[UsageEvent]:
        self._tables.ensure()
        rows = self._index.query_entities("PartitionKey eq @pk",
                                          parameters={"pk": escape_key(conversation_id)})
        return [_event(row) for row in rows if row.get("conversation_id") == conversation_id]

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._service.close()


def _entity(event: UsageEvent, partition: str) -> dict[str, Any]:
    entity: dict[str, Any] = {"PartitionKey": partition, "RowKey": event_row_key(event)}
    entity.update({name: getattr(event, name) for name in _FIELDS})
    entity["occurred_at"] = event.timestamp  # a typed column for tools that read the table directly
    entity["data"] = fit_data(dump_data(event.data))
    return entity


def fit_data(data_json: str, limit: int = _DATA_CHARS) -> str:
    """`data` as JSON within one string property: long values are cut, and the cut is marked."""
    if len(data_json) <= limit:
        return data_json
    data = json.loads(data_json)
    if isinstance(data, dict):
        for key in sorted(data, key=lambda k: -len(json.dumps(data[k], default=str))):
            text = data[key] if isinstance(data[key], str) else json.dumps(data[key], default=str)
            data[key] = text[:1_000] + "…"
            data["_truncated"] = True
            candidate = dump_data(data)
            if len(candidate) <= limit:
                return candidate
    return dump_data({"_truncated": True, "_preview": data_json[:1_000]})


def _event(row: dict[str, Any]) -> UsageEvent:
    record = {name: row[name] for name in _FIELDS}
    record["timestamp"] = row["RowKey"].split("_", 1)[0]  # exact to the microsecond, unlike the typed column
    record["data"] = row.get("data") or "{}"
    return event_from_record(record)


def _transient(exc: HttpResponseError) -> bool:
    status = exc.status_code or 0
    return status >= 500 or status in _TRANSIENT_STATUS or status == 0


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
