"""The terminal front end: `rulebook ask` (live and --json) and `rulebook chat`, through the real CLI."""

from __future__ import annotations

import json

from rich.console import Console
from typer.testing import CliRunner

import bot.service
from adapters.cli import app
from adapters.terminal import chat


def test_ask_json_prints_the_final_event_as_one_object(make_service, monkeypatch):
    monkeypatch.setattr(bot.service, "_default_service", make_service())
    result = CliRunner().invoke(app, ["ask", "Can I pay with my fridge?", "--json"])
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.output.splitlines() if line.strip()]
    payload = json.loads(line)
    assert payload["outcome"] == "answered" and payload["reason"] is None
    assert "[1]" in payload["answer"]
    citation = payload["citations"][0]
    assert {"n", "rulebook_id", "title", "section_path", "page", "uri", "quote", "language"} <= set(citation)
    assert citation["rulebook_id"] == "PS-04" and citation["page"] == 4


def test_ask_streams_the_answer_then_the_sources(make_service, monkeypatch):
    monkeypatch.setattr(bot.service, "_default_service", make_service())
    result = CliRunner().invoke(app, ["ask", "Can I pay with my fridge?"])
    assert result.exit_code == 0, result.output
    assert "Here is what the rulebooks say" in result.output
    assert "Sources" in result.output
    assert "[1] Card and Device Acceptance Rulebook (PS-04)" in result.output and "page 4" in result.output
    assert "/sources/PS-04/view?page=4&cite=" in result.output  # the page view, highlighting the quote


def test_ask_with_a_role_and_a_refusal(make_service, monkeypatch):
    monkeypatch.setattr(bot.service, "_default_service", make_service())
    result = CliRunner().invoke(app, ["ask", "What does Visa charge for a refund?", "--role", "risk-officer",
                                      "--json"])
    payload = json.loads(result.output)
    assert payload["outcome"] == "refused" and payload["citations"] == []


async def test_chat_keeps_one_conversation_with_history(make_service):
    service = make_service()
    questions = iter(["Can I pay with my fridge?", "and with cufflinks?", "exit"])
    console = Console(record=True, width=120)
    asked = await chat(service.ask, [], console, read=lambda prompt: next(questions))
    assert asked == 2
    conversations = {e.conversation_id for e in service.events.of_kind("question")}
    assert len(conversations) == 1
    (conversation,) = conversations
    assert len(await service.history.get(conversation)) == 4
    assert "Sources" in console.export_text()
