"""Fixtures for the web chat and page view tests: the real server on a loopback port with the real
assistant on the indexed sample corpus, and headless Chromium driven through playwright-core."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

REPO = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO / ".ci" / "node" / "node_modules"
DRIVER = Path(__file__).with_name("drive_chat.cjs")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def skip_or_fail(reason: str) -> None:
    """Absent tooling skips a test on a developer's machine but fails it in CI."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (required when CI=true)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def sample_knowledge(sample_index: Any) -> Iterator[Any]:
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(sample_index)
    yield knowledge
    knowledge.close()


class PacedAssistant:
    """The real assistant, its events spaced out as a hosted model's would be (content untouched):
    the offline model answers in milliseconds, too fast for a browser to show any streaming."""

    def __init__(self, inner: Any, delay: float) -> None:
        self.inner = inner
        self.knowledge = inner.knowledge
        self.delay = delay
        self.asked: list[tuple[str, Any, str]] = []

    async def ask(self, question: str, user: Any, conversation_id: str) -> AsyncIterator[Any]:
        self.asked.append((question, user, conversation_id))
        async for event in self.inner.ask(question, user, conversation_id):
            if event.kind != "final":
                await asyncio.sleep(self.delay)
            yield event


@dataclass
class WebServer:
    base_url: str
    settings: Any
    events: Any
    service: PacedAssistant

    def of_kind(self, kind: str) -> list[Any]:
        return self.events.of_kind(kind)


async def start_web_server(tmp_path: Path, sample_index: Any, knowledge: Any, **overrides: Any
                           ) -> tuple[WebServer, web.AppRunner]:
    from adapters.server import build_app
    from bot.memory.history import InMemoryHistoryStore
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService
    from events.usage_sinks import InMemorySink

    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    settings = sample_index.model_copy(update={"data_dir": tmp_path / "data", "public_base_url": base_url,
                                               **overrides})
    events = InMemorySink()
    inner = AssistantService.from_settings(settings, knowledge=knowledge, events=events,
                                           history=InMemoryHistoryStore(),
                                           review=JsonlReviewQueue(tmp_path / "review_queue.jsonl"))
    service = PacedAssistant(inner, 0.15)
    app = build_app(settings, service=service, event_sink=events)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return WebServer(base_url, settings, events, service), runner


@pytest.fixture
async def web_server(tmp_path: Path, sample_index: Any, sample_knowledge: Any) -> AsyncIterator[WebServer]:
    server, runner = await start_web_server(tmp_path, sample_index, sample_knowledge)
    yield server
    await runner.cleanup()


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        skip_or_fail("Chromium is not installed (Debian: apt-get install -y chromium)")
    if not (NODE_MODULES / "playwright-core").is_dir():
        skip_or_fail("playwright-core is not installed (npm ci --prefix .ci/node)")
    if not shutil.which("node"):
        skip_or_fail("Node.js is not installed")
    return str(found)


async def drive_browser(config: dict[str, Any], timeout: float = 300) -> dict[str, Any]:
    """Run the playwright-core driver; the server keeps serving on this event loop meanwhile."""
    config = {"chromium": chromium_path(), "node_modules": str(NODE_MODULES), **config}
    process = await asyncio.create_subprocess_exec(
        shutil.which("node") or "node", str(DRIVER), json.dumps(config),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        process.kill()
        raise
    assert process.returncode == 0, err.decode()[-3000:]
    return json.loads(out.decode())
