"""Fixtures for load, fault and hardening tests: the indexed sample corpus, opened once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def load_knowledge(sample_index: Any) -> Iterator[Any]:
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(sample_index)
    yield knowledge
    knowledge.close()


def service_for(settings: Any, knowledge: Any, tmp_path: Any, **setting_overrides: Any) -> Any:
    """The real assistant (offline model) on the sample corpus, with its own history and queue."""
    from bot.memory.history import InMemoryHistoryStore
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    settings = settings.model_copy(update=setting_overrides)
    return AssistantService.from_settings(settings, knowledge=knowledge, events=NullSink(),
                                          history=InMemoryHistoryStore(),
                                          review=JsonlReviewQueue(tmp_path / "review_queue.jsonl"))
