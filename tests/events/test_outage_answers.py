"""The event-loss guarantee with the real assistant: 50 questions answered while the real Azurite
process is stopped for 20 of them lose no event, store none twice, and replay the spill once."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from bot.answer import User
from bot.memory.history import InMemoryHistoryStore
from bot.memory.review_queue import JsonlReviewQueue
from bot.service import AssistantService
from events.event_log import EventLog
from events.event_store_table_storage import TableEventStore
from tests.conftest import REPO_ROOT
from tests.events.conftest import wait_until

pytestmark = pytest.mark.azurite

FAST_RETRY = {"retries": 2, "backoff": 0.05, "backoff_max": 0.4, "idle_wait": 0.05}
QUESTIONS, DOWN_FROM, DOWN_TO = 50, 15, 35  # Azurite is stopped for questions 15..34


def _questions() -> list[str]:
    golden = REPO_ROOT / "evals" / "golden" / "e2e_sample.jsonl"
    rows = [json.loads(line)["question"] for line in golden.read_text(encoding="utf-8").splitlines() if line]
    return [rows[i % len(rows)] for i in range(QUESTIONS)]


async def test_azurite_stopped_for_20_of_50_questions_loses_and_duplicates_nothing(
        restartable_azurite, sample_index, tmp_path):
    from knowledge.knowledge_base import KnowledgeBase

    connection = restartable_azurite.connection_string
    event_log = EventLog(TableEventStore(connection, table_prefix="answers"), tmp_path / "spill", **FAST_RETRY)
    knowledge = KnowledgeBase.from_settings(sample_index)
    service = AssistantService.from_settings(sample_index, knowledge=knowledge, events=event_log,
                                             history=InMemoryHistoryStore(),
                                             review=JsonlReviewQueue(tmp_path / "review.jsonl"))
    answered: list[str] = []  # message ids, from the answers themselves
    try:
        for i, question in enumerate(_questions()):
            if i == DOWN_FROM:
                assert event_log.flush(20)
                restartable_azurite.stop()
            if i == DOWN_TO:
                assert event_log.store_down, "the log did not notice that Azurite was stopped"
                restartable_azurite.start()
            async for event in service.ask(question, User(id=f"user-{i % 7}", platform="teams"), f"conv-{i}"):
                if event.kind == "final":
                    answered.append(event.answer.message_id)
        await asyncio.to_thread(lambda: wait_until(lambda: event_log.flush(1) and not event_log.spill.has_pending(), 30))
    finally:
        event_log.close()
        knowledge.close()

    rows = list(TableEventStore(connection, "answers").read())
    ids = Counter(e.event_id for e in rows)
    assert all(n == 1 for n in ids.values()), "an event was stored twice"
    assert event_log.stats.emitted == len(rows), f"{event_log.stats.emitted - len(rows)} event(s) lost"
    per_message = Counter((e.message_id, e.kind) for e in rows)
    for message_id in answered:  # every answer's question and answer event arrived, once
        assert per_message[(message_id, "question")] == 1 and per_message[(message_id, "answer")] == 1
    assert len(answered) == QUESTIONS
    assert event_log.stats.outages >= 1 and event_log.stats.spilled > 0
    assert event_log.stats.replayed == event_log.stats.spilled  # the spill was replayed, once

    again = EventLog(TableEventStore(connection, table_prefix="answers"), tmp_path / "spill", **FAST_RETRY)
    again.close()
    assert again.stats.replayed == 0
    assert len(list(TableEventStore(connection, "answers").read())) == len(rows)
