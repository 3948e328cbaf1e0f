"""One compiled agent graph serves every question: the tools read who is asking from the run's
context, never from a closure; a question's text is embedded once per answer and no vector of
it outlives the answer when question caches are off (the load benchmark's setting)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.answer import User
from knowledge.knowledge_base import KnowledgeBase
from knowledge.query_vectors import QueryVectors, one_question
from knowledge.zoom_tools import MissingToolScope, make_zoom_tools
from tests.load.conftest import service_for

RESTRICTED = "What fraud score leads to a payment being blocked?"  # answered from PS-07 (risk-officer only)


async def _ask(service: Any, question: str, roles: tuple[str, ...], conversation: str) -> Any:
    final = None
    async for event in service.ask(question, User(id=f"u-{conversation}", roles=roles), conversation):
        if event.kind == "final":
            final = event.answer
    assert final is not None
    return final


class CountingEncoder:
    """The real encoder, counting the query texts it embeds."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self.queries: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.encoder, name)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return self.encoder.embed_query(text)


async def test_one_graph_serves_users_with_different_roles_at_once(sample_index, load_knowledge, tmp_path,
                                                                  monkeypatch):
    import bot.service

    built: list[Any] = []
    real_build = bot.service.build_agent
    monkeypatch.setattr(bot.service, "build_agent", lambda *a, **k: built.append(1) or real_build(*a, **k))
    service = service_for(sample_index, load_knowledge, tmp_path, max_concurrent_answers=8)
    alone_risk = await _ask(service, RESTRICTED, ("risk-officer",), "r0")
    alone_nobody = await _ask(service, RESTRICTED, (), "n0")
    assert any(c.rulebook_id == "PS-07" for c in alone_risk.citations), alone_risk.text
    assert not any(c.rulebook_id == "PS-07" for c in alone_nobody.citations)
    assert "850" not in alone_nobody.text

    together = await asyncio.gather(*(_ask(service, RESTRICTED, ("risk-officer",) if i % 2 else (), f"t{i}")
                                      for i in range(8)))
    for i, answer in enumerate(together):
        expected = alone_risk if i % 2 else alone_nobody
        assert (answer.outcome, answer.text) == (expected.outcome, expected.text), i
        assert [c.chunk_id for c in answer.citations] == [c.chunk_id for c in expected.citations]
    assert len(built) == 1, "the agent graph is compiled once per service, not per question"


def test_context_bound_tools_refuse_a_call_that_says_nobody_is_asking(load_knowledge):
    search = {t.name: t for t in make_zoom_tools(load_knowledge)}["search_rulebooks"]
    with pytest.raises(MissingToolScope):
        search.invoke({"query": "fraud score"})
    listing = {t.name: t for t in make_zoom_tools(load_knowledge)}["list_available_rulebooks"]
    with pytest.raises(MissingToolScope):
        listing.invoke({})
    assert "runtime" not in str(search.tool_call_schema.model_json_schema())
    assert listing.tool_call_schema.model_json_schema()["properties"] == {}


async def test_a_question_is_embedded_once_per_answer_and_never_reused_by_the_next(sample_index, tmp_path):
    settings = sample_index.model_copy(update={"question_caches": False})
    base = KnowledgeBase.from_settings(settings)
    counting = CountingEncoder(base.searcher.encoder.encoder)
    knowledge = KnowledgeBase(base.store, counting)
    knowledge.searcher.cache_seconds, knowledge.searcher.keep_query_vectors = 0.0, False
    try:
        service = service_for(settings, knowledge, tmp_path)
        question = "What is the refund processing fee for card transactions?"
        first = await _ask(service, question, ("risk-officer",), "q1")
        assert first.outcome == "answered", first.text
        assert counting.queries.count(question) == 1, counting.queries
        second = await _ask(service, question, ("risk-officer",), "q2")
        assert counting.queries.count(question) == 2, "no query vector outlives its question"
        assert second.text == first.text
    finally:
        base.close()


def test_query_vectors_are_shared_inside_one_question_only(load_knowledge):
    counting = CountingEncoder(load_knowledge.searcher.encoder.encoder)
    vectors = QueryVectors(counting)
    vectors.embed_query("a")
    with one_question():
        first = vectors.embed_query("a")
        assert vectors.embed_query("a") is first
    with one_question():
        vectors.embed_query("a")
    assert counting.queries == ["a", "a", "a"]
    assert QueryVectors(vectors).encoder is counting  # never wrapped twice
