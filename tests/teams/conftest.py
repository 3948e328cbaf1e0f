"""Fixtures for the Teams tests: the real server on loopback, a Bot Connector stand-in, the real
event log (SQLite in a temporary folder) and the real assistant on the indexed sample corpus."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.teams.connector_standin import ConnectorStandIn

UPDATE_INTERVAL = 0.2  # seconds between updates of one message in tests (1.0 in production)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Absent tooling skips a test on a developer's machine but fails it in CI."""
    if in_ci():
        pytest.fail(f"{reason} (required when CI=true)")
    pytest.skip(reason)


@dataclass
class RunningServer:
    url: str
    app: web.Application
    settings: Any
    event_log: Any
    service: Any

    async def post(self, activity: dict[str, Any], token: str | None = None,
                   content_type: str = "application/json") -> tuple[int, Any]:
        headers = {"Content-Type": content_type}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        import json

        async with aiohttp.ClientSession() as session, session.post(
                f"{self.url}/api/messages", data=json.dumps(activity), headers=headers) as response:
            text = await response.text()
            try:
                body = json.loads(text) if text else None
            except ValueError:
                body = text
            return response.status, body

    def events(self, kind: str | None = None) -> list[Any]:
        self.event_log.flush(10)
        found = list(self.event_log.store.read())
        return [e for e in found if kind is None or e.kind == kind]


@pytest.fixture
async def connector() -> AsyncIterator[ConnectorStandIn]:
    standin = ConnectorStandIn()
    await standin.start()
    yield standin
    await standin.stop()


@pytest.fixture(scope="session")
def sample_knowledge(sample_index: Any) -> Iterator[Any]:
    """The indexed sample corpus (root conftest's `sample_index`), opened once for the session."""
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(sample_index)
    yield knowledge
    knowledge.close()


def real_service(settings: Any, knowledge: Any, event_log: Any, tmp_path: Path) -> Any:
    """The real assistant (configured model: the offline one in tests) on the sample corpus."""
    from bot.memory.history import InMemoryHistoryStore
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService

    return AssistantService.from_settings(settings, knowledge=knowledge, events=event_log,
                                          history=InMemoryHistoryStore(),
                                          review=JsonlReviewQueue(tmp_path / "review_queue.jsonl"))


class PacedAssistant:
    """The real assistant, its events spaced out as a hosted model's would be.

    The offline model answers in milliseconds, faster than one update interval, so a test would
    see no streaming at all; spacing the real events (content untouched) lets the throttled
    updates show. It also keeps the last answer, for comparing with what Teams received.
    """

    def __init__(self, inner: Any, delay: float, final_delay: float = 0.0) -> None:
        self.inner = inner
        self.knowledge = inner.knowledge
        self.delay = delay
        self.final_delay = final_delay  # a model still writing after its last visible token
        self.answers: list[Any] = []
        self.questions: list[tuple[str, Any, str]] = []
        self.statuses: list[str] = []

    async def ask(self, question: str, user: Any, conversation_id: str) -> AsyncIterator[Any]:
        self.questions.append((question, user, conversation_id))
        first_token = True
        async for event in self.inner.ask(question, user, conversation_id):
            if event.kind == "final":
                await asyncio.sleep(self.final_delay)
                self.answers.append(event.answer)
            elif event.kind == "status" or first_token:
                if event.kind == "status":
                    self.statuses.append(event.text)
                await asyncio.sleep(self.delay)  # a tool call, or the model's first token
                first_token = first_token and event.kind != "token"
            else:
                await asyncio.sleep(0.01)  # later tokens come in a burst: the pacer must hold them
            yield event


async def start_server(tmp_path: Path, base_settings: Any, knowledge: Any,
                       **build_options: Any) -> tuple[RunningServer, web.AppRunner]:
    """The real server on a free loopback port, with the real assistant and a real event log."""
    from adapters.server import build_app
    from events.event_log import open_event_log

    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    settings = base_settings.model_copy(update={
        "data_dir": tmp_path / "data", "public_base_url": base_url,
        "teams_update_interval": UPDATE_INTERVAL, **build_options.pop("settings", {})})
    event_log = open_event_log(settings, register_exit=False)
    make_service = build_options.pop("service", None)
    final_delay = build_options.pop("final_delay", 0.0)
    service = (make_service(settings) if make_service else
               PacedAssistant(real_service(settings, knowledge, event_log, tmp_path), UPDATE_INTERVAL * 1.25,
                              final_delay))
    app = build_app(settings, service=service, event_sink=event_log, **build_options)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return RunningServer(base_url, app, settings, event_log, service), runner


@pytest.fixture
async def server(tmp_path: Path, sample_index: Any, sample_knowledge: Any) -> AsyncIterator[RunningServer]:
    running, runner = await start_server(tmp_path, sample_index, sample_knowledge)
    yield running
    await runner.cleanup()
    running.event_log.close()


@pytest.fixture
async def roles_server(tmp_path: Path, sample_index: Any, sample_knowledge: Any, roles_file: Path
                       ) -> AsyncIterator[RunningServer]:
    """The server with a roles file: the test module's `ROLES_YAML` (root conftest's `roles_file`)."""
    running, runner = await start_server(tmp_path, sample_index, sample_knowledge,
                                         settings={"roles_file": roles_file})
    yield running
    await runner.cleanup()
    running.event_log.close()

