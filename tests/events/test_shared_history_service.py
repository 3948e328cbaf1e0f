"""Two assistant services wired from the same settings share one conversation through Table Storage:
a follow-up answered by the other replica sees the first exchange."""

from __future__ import annotations

import pytest

from bot.answer import FinalEvent, User
from bot.memory.history_table_storage import TableHistoryStore
from bot.service import AssistantService
from events.usage_sinks import InMemorySink
from knowledge.knowledge_base import KnowledgeBase

pytestmark = pytest.mark.azurite


async def _ask(service: AssistantService, question: str, conversation_id: str) -> FinalEvent:
    finals = [e async for e in service.ask(question, User(id="29:replica-user", platform="teams"), conversation_id)
              if isinstance(e, FinalEvent)]
    assert len(finals) == 1
    return finals[0]


async def test_two_service_replicas_share_the_conversation_history(sample_index, azurite, table_prefix, tmp_path):
    settings = sample_index.model_copy(update={
        "data_dir": tmp_path, "tables_connection_string": azurite.connection_string,
        "tables_prefix": table_prefix, "chat_model": "offline", "judge_model": None})
    knowledge = KnowledgeBase.from_settings(sample_index)
    replica_a = AssistantService.from_settings(settings, knowledge=knowledge, events=InMemorySink())
    replica_b = AssistantService.from_settings(settings, knowledge=knowledge, events=InMemorySink())
    # the product's wiring picks Table Storage, one store object per replica
    assert isinstance(replica_a.history, TableHistoryStore) and replica_a.history is not replica_b.history

    conversation = "19:shared-thread@thread.v2"
    first = await _ask(replica_a, "Can I pay with my fridge?", conversation)
    seen_by_b = await replica_b.history.get(conversation)
    assert [m["role"] for m in seen_by_b] == ["user", "assistant"]
    assert seen_by_b[0]["content"] == "Can I pay with my fridge?"
    assert first.answer.text.split("\n")[0][:40] in seen_by_b[1]["content"]

    await _ask(replica_b, "And with cufflinks?", conversation)
    seen_by_a = await replica_a.history.get(conversation)
    assert [m["content"] for m in seen_by_a if m["role"] == "user"] == ["Can I pay with my fridge?",
                                                                          "And with cufflinks?"]
