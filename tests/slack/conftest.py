"""The Slack app over real HTTP on loopback, the assistant service on the indexed sample corpus, and
a local Slack Web API stand-in that records every call."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from adapters.slack import SLACK_FRONT_END, mount_slack
from adapters.slack.front_end import SlackFrontEnd
from config.settings import Settings
from events.usage_sinks import InMemorySink
from tests.slack.slack_api_stand_in import TEAM_ID, SlackApiStandIn
from tests.slack.slack_requests import SlackSender

SIGNING_SECRET = "test-signing-secret"
UPDATE_INTERVAL = 0.3
# answered from the sample corpus (the payment devices page), with citations
QUESTION = "Which payment devices do merchants accept?"
DM = "D0DM"


def dm(text: str, ts: str, **fields: str) -> dict:
    """A direct message from U0ALICE, as Slack's Events API delivers it (`fields`: thread_ts...)."""
    return {"type": "message", "channel_type": "im", "channel": DM, "user": "U0ALICE", "text": text,
            "ts": ts, "team": TEAM_ID, "event_ts": ts, **fields}


# An EventSink that keeps what it is given (a stand-in for the event store).
RecordingSink = InMemorySink


@pytest.fixture
async def slack_api() -> AsyncIterator[SlackApiStandIn]:
    stand_in = SlackApiStandIn()
    await stand_in.start()
    yield stand_in
    await stand_in.stop()


@pytest.fixture
def slack_settings(request: pytest.FixtureRequest, sample_index: Settings, slack_api: SlackApiStandIn) -> Settings:
    """The Slack front end's settings; a test module that defines `ROLES_YAML` gets it as its roles file."""
    update: dict[str, Any] = {
        "slack_signing_secret": SIGNING_SECRET,
        "slack_bot_token": "xoxb-test-token",
        "slack_api_url": slack_api.api_url,
        "public_base_url": "http://127.0.0.1:3978",
        "slack_update_interval": UPDATE_INTERVAL,
    }
    if hasattr(request.module, "ROLES_YAML"):
        update["roles_file"] = request.getfixturevalue("roles_file")
    return sample_index.model_copy(update=update)


@pytest.fixture
def events() -> RecordingSink:
    return RecordingSink()


@pytest.fixture(scope="session")
def sample_knowledge(sample_index: Settings) -> Iterator[Any]:
    """The indexed sample corpus, opened once: the embedded store is opened once per process."""
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(sample_index)
    yield knowledge
    knowledge.close()


@pytest.fixture
def service(slack_settings: Settings, events: RecordingSink, sample_knowledge: Any, tmp_path: Path) -> Any:
    """The real assistant (offline model) on the sample corpus, with its own history and review queue."""
    from bot.memory.history import InMemoryHistoryStore
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService

    return AssistantService.from_settings(slack_settings, knowledge=sample_knowledge, events=events,
                                          history=InMemoryHistoryStore(),
                                          review=JsonlReviewQueue(tmp_path / "review_queue.jsonl"))


@dataclass
class BotServer:
    url: str
    app: web.Application
    front: SlackFrontEnd
    sender: SlackSender


def build_bot_app(settings: Settings, service: Any, events: RecordingSink) -> web.Application:
    """The product's own server when it exists; until then the same mount on a bare app."""
    if importlib.util.find_spec("adapters.server") is not None:
        from adapters.server import build_app

        return build_app(settings, service, events)
    app = web.Application()
    mount_slack(app, service, settings, events)
    return app


async def start_bot(settings: Settings, service: Any, events: RecordingSink, slack_api: SlackApiStandIn,
                    records_path: Path) -> tuple[BotServer, web.AppRunner]:
    """The bot's server on a free loopback port, its message records in `records_path` (this
    test's own; a second server on the same path is the same process restarted)."""
    from adapters.slack.delivered_answers import DeliveredAnswers
    from bot.memory.message_records import SqliteMessageRecords

    app = build_bot_app(settings, service, events)
    front = app[SLACK_FRONT_END]
    front.answers = DeliveredAnswers(SqliteMessageRecords(records_path))
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}"
    sender = SlackSender(f"{url}/slack/events", SIGNING_SECRET, f"{slack_api.base}/response")
    return BotServer(url, app, front, sender), runner


@pytest.fixture
async def bot(slack_settings: Settings, service: Any, events: RecordingSink,
              slack_api: SlackApiStandIn, tmp_path: Path) -> AsyncIterator[BotServer]:
    server, runner = await start_bot(slack_settings, service, events, slack_api,
                                     tmp_path / "message_records.sqlite")
    yield server
    await runner.cleanup()
