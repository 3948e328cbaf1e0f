"""Conversation history in Azure Table Storage, so several bot replicas share each conversation.

Implements `bot.memory.history.HistoryStore`. One table, `<prefix>history`:

| PartitionKey | RowKey | properties |
|---|---|---|
| conversation id, escaped (`events.event_keys.escape_key`) | `<10^19 - epoch µs, 20 digits>_<999 - i>_<random>` | role, content, conversation_id, at |

- A conversation is one partition, so `get` is a single-partition query and `append` is one
  entity-group transaction: the question and its answer land together or not at all.
- The RowKey counts *down* with time, so Table Storage (which returns a partition in RowKey order)
  returns the newest message first: `get` reads one page of `keep` rows and stops, however long
  the conversation has run. `999 - i` keeps the messages of one append in order; the random tail
  keeps two replicas that append in the same microsecond from colliding.
- After each append, rows past the newest `keep` are deleted, so a partition stays small. Two
  replicas trimming at once may race to delete the same row; a row already gone is fine.
- Order across replicas follows their clocks; messages of one conversation arrive seconds apart,
  far more than the skew of synchronised servers.

The SDK client is synchronous and runs in a worker thread (`asyncio.to_thread`), so the store
works from any event loop, including the short-lived ones of CLI commands and tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Sequence
from typing import Any

from azure.core.exceptions import ResourceNotFoundError
from azure.data.tables import TableServiceClient

from bot.memory.history import HistoryMessage, HistoryStore, InMemoryHistoryStore
from events.event_keys import escape_key
from events.event_store import DEFAULT_TABLE_PREFIX
from events.event_store_table_storage import TablesOnFirstUse, client_options

_CONTENT_CHARS = 30_000  # one string property holds at most 32,768 UTF-16 characters
_TRANSACTION_OPS = 100
_MAX_PARTS = 15


class TableHistoryStore:
    def __init__(self, connection_string: str, keep: int = 20,
                 table_prefix: str = DEFAULT_TABLE_PREFIX) -> None:
        if keep < 1:
            raise ValueError("keep must be at least 1")
        self.keep = keep
        self.table_name = f"{table_prefix}history"
        self._service = TableServiceClient.from_connection_string(connection_string, **client_options())
        self._table = self._service.get_table_client(self.table_name)
        self._tables = TablesOnFirstUse(self._service, self.table_name)

    async def get(self, conversation_id: str) -> list[HistoryMessage]:
        return await asyncio.to_thread(self.get_sync, conversation_id)

    async def append(self, conversation_id: str, messages: Sequence[HistoryMessage]) -> None:
        await asyncio.to_thread(self.append_sync, conversation_id, list(messages))

    def get_sync(self, conversation_id: str) -> list[HistoryMessage]:
        self._tables.ensure()
        rows = self._table.query_entities("PartitionKey eq @pk",
                                          parameters={"pk": escape_key(conversation_id)},
                                          results_per_page=self.keep)
        newest_first: list[dict[str, Any]] = []
        for row in rows:
            if row.get("conversation_id") != conversation_id:
                continue  # two ids that escape alike (only possible past the length cap)
            newest_first.append(row)
            if len(newest_first) >= self.keep:
                break
        return [HistoryMessage(role=row["role"], content=_content(row)) for row in reversed(newest_first)]

    def append_sync(self, conversation_id: str, messages: list[HistoryMessage]) -> None:
        if not messages:
            return
        for message in messages:
            if message["role"] not in ("user", "assistant"):
                raise ValueError(f"history message role must be 'user' or 'assistant', not {message['role']!r}")
        self._tables.ensure()
        partition = escape_key(conversation_id)
        inverted = 10**19 - time.time_ns() // 1_000
        tail = uuid.uuid4().hex[:12]
        entities = [_entity(partition, f"{inverted:020d}_{999 - i:03d}_{tail}", conversation_id, m)
                    for i, m in enumerate(messages[-_TRANSACTION_OPS:])]
        self._table.submit_transaction([("create", e) for e in entities])
        self._trim(partition)

    def _trim(self, partition: str) -> None:
        rows = self._table.query_entities("PartitionKey eq @pk", parameters={"pk": partition},
                                          select=["RowKey"], results_per_page=self.keep + 50)
        stale = [row["RowKey"] for index, row in enumerate(rows) if index >= self.keep]
        for row_key in stale:
            with contextlib.suppress(ResourceNotFoundError):  # another replica trimmed it first
                self._table.delete_entity(partition, row_key)

    def close(self) -> None:
        self._service.close()


def _entity(partition: str, row_key: str, conversation_id: str, message: HistoryMessage) -> dict[str, Any]:
    content = message["content"]
    entity: dict[str, Any] = {"PartitionKey": partition, "RowKey": row_key, "role": message["role"],
                              "conversation_id": conversation_id, "parts": 0}
    # a long answer is split over several properties; an entity holds at most 1 MiB of UTF-16,
    # so history keeps the first 450,000 characters of a message (an answer is a few thousand)
    parts = [content[i:i + _CONTENT_CHARS] for i in range(0, len(content), _CONTENT_CHARS)] or [""]
    parts = parts[:_MAX_PARTS]
    for index, part in enumerate(parts):
        entity[f"content_{index}"] = part
    entity["parts"] = len(parts)
    return entity


def _content(row: dict[str, Any]) -> str:
    return "".join(row.get(f"content_{i}", "") for i in range(int(row.get("parts", 1))))


def open_history_store(settings: Any, table_prefix: str | None = None) -> HistoryStore:
    """Table Storage when `RULEBOOK_TABLES_CONNECTION_STRING` is set; one process's memory otherwise."""
    if settings.tables_connection_string:
        from config.secret_values import reveal

        prefix = table_prefix or getattr(settings, "tables_prefix", None) or DEFAULT_TABLE_PREFIX
        return TableHistoryStore(reveal(settings.tables_connection_string),
                                 keep=max(20, settings.history_messages), table_prefix=prefix)
    return InMemoryHistoryStore()
