"""Conversation history in Table Storage, shared by two bot instances (two stores on one table)."""

from __future__ import annotations

import asyncio

import pytest
from azure.data.tables import TableServiceClient

from bot.memory.history import InMemoryHistoryStore, window
from bot.memory.history_table_storage import TableHistoryStore, open_history_store

pytestmark = pytest.mark.azurite

CONVERSATION = "19:meeting_abc/def#x?@thread.v2"


def _turn(n: int) -> list[dict]:
    return [{"role": "user", "content": f"question {n}"}, {"role": "assistant", "content": f"answer {n}"}]


async def test_two_instances_share_one_conversation(azurite, table_prefix):
    replica_a = TableHistoryStore(azurite.connection_string, table_prefix=table_prefix)
    replica_b = TableHistoryStore(azurite.connection_string, table_prefix=table_prefix)
    assert await replica_a.get(CONVERSATION) == []

    await replica_a.append(CONVERSATION, _turn(1))
    assert await replica_b.get(CONVERSATION) == _turn(1)  # the follow-up lands on the other replica
    await replica_b.append(CONVERSATION, _turn(2))
    assert await replica_a.get(CONVERSATION) == _turn(1) + _turn(2)
    assert await replica_a.get("another conversation") == []


async def test_only_the_last_20_messages_are_kept_and_returned_oldest_first(azurite, table_prefix):
    store = TableHistoryStore(azurite.connection_string, keep=20, table_prefix=table_prefix)
    for n in range(15):
        await store.append(CONVERSATION, _turn(n))
    messages = await store.get(CONVERSATION)
    assert messages == [m for n in range(5, 15) for m in _turn(n)]
    assert window(messages, 20) == messages
    rows = list(TableServiceClient.from_connection_string(azurite.connection_string)
                .get_table_client(f"{table_prefix}history").list_entities())
    assert len(rows) == 20  # older rows were trimmed, not just hidden


async def test_concurrent_appends_from_two_replicas_are_all_kept(azurite, table_prefix):
    replica_a = TableHistoryStore(azurite.connection_string, keep=40, table_prefix=table_prefix)
    replica_b = TableHistoryStore(azurite.connection_string, keep=40, table_prefix=table_prefix)
    await asyncio.gather(*(store.append(CONVERSATION, _turn(n))
                           for n, store in enumerate([replica_a, replica_b] * 5)))
    messages = await replica_b.get(CONVERSATION)
    assert sorted(m["content"] for m in messages) == sorted(m["content"] for n in range(10) for m in _turn(n))
    # each turn stays in order: its answer directly follows its question
    for question, answer in zip(messages[::2], messages[1::2], strict=True):
        assert question["content"].replace("question", "answer") == answer["content"]


async def test_a_long_answer_and_odd_characters_come_back_intact(azurite, table_prefix):
    store = TableHistoryStore(azurite.connection_string, table_prefix=table_prefix)
    long_answer = ("Le plafond est de 0,2 % [1]. 😀 " * 4_000)[:100_000]
    await store.append(CONVERSATION, [{"role": "user", "content": "Quel est le plafond ?"},
                                      {"role": "assistant", "content": long_answer}])
    messages = await store.get(CONVERSATION)
    assert messages[1]["content"] == long_answer


async def test_bad_role_is_refused_with_a_clear_error(azurite, table_prefix):
    store = TableHistoryStore(azurite.connection_string, table_prefix=table_prefix)
    with pytest.raises(ValueError, match="role"):
        await store.append(CONVERSATION, [{"role": "tool", "content": "raw tool output"}])
    assert await store.get(CONVERSATION) == []


def test_factory_picks_table_storage_only_when_configured(azure_settings, local_settings):
    assert isinstance(open_history_store(azure_settings), TableHistoryStore)
    assert isinstance(open_history_store(local_settings), InMemoryHistoryStore)
