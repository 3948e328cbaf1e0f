"""The per-rulebook summary: extractive offline; written by the configured chat model otherwise,
through the real langchain-openai client against the local OpenAI-compatible stand-in."""

from __future__ import annotations

import asyncio

import pytest

from indexing.section_builder import Block, Section
from indexing.summary import extractive_summary, summarise
from tests.bot.openai_standin import OpenAIStandIn, Reply
from tests.conftest import make_settings

TITLE = "Aurora Fees and Charges Schedule"
SECTIONS = [
    Section(path=[], title="", blocks=[Block(TITLE, 1, 1)]),
    Section(path=["3"], title="Transaction fees", blocks=[
        Block("Chapter 3 Transaction fees", 3, 3),
        Block("Scheme fees are charged per transaction to the acquiring participant. The fee for a "
              "domestic card-present payment is 0.18 % with a minimum of EUR 0.04.", 3, 3)]),
]
WRITTEN = "The schedule sets the scheme's fees per transaction and per year for participants."


@pytest.fixture
def chat_settings(monkeypatch, tmp_path):
    def point_at(server: OpenAIStandIn):
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        return make_settings(tmp_path, chat_model="openai:gpt-4o-mini")
    return point_at


async def test_the_configured_chat_model_writes_the_summary(chat_settings):
    server = OpenAIStandIn(lambda body: Reply(text=f"  {WRITTEN}  "))
    await server.start()
    try:
        summary = await asyncio.to_thread(summarise, TITLE, SECTIONS, chat_settings(server))
    finally:
        await server.stop()
    assert summary == WRITTEN
    [request] = server.requests
    assert request["model"] == "gpt-4o-mini"
    prompt = request["messages"][-1]["content"]
    assert "Summarise this document" in prompt and "0.18 %" in prompt and TITLE in prompt


async def test_a_failing_chat_model_falls_back_to_the_extractive_summary(chat_settings):
    def broken(body):
        raise RuntimeError("model overloaded")

    server = OpenAIStandIn(broken)
    await server.start()
    try:
        summary = await asyncio.to_thread(summarise, TITLE, SECTIONS, chat_settings(server))
    finally:
        await server.stop()
    assert server.requests  # the model was asked
    assert summary == extractive_summary(TITLE, SECTIONS)
    assert summary.startswith(TITLE) and "Transaction fees" in summary


def test_offline_summary_is_extractive_and_asks_no_model(tmp_path):
    summary = summarise(TITLE, SECTIONS, make_settings(tmp_path))
    assert summary == extractive_summary(TITLE, SECTIONS)
    assert "Sections: Transaction fees." in summary and "0.18 %" in summary
