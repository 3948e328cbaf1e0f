"""Every request to /slack/events must be signed with the signing secret and recent."""

from __future__ import annotations

import json
import time

from tests.slack.conftest import QUESTION
from tests.slack.slack_requests import sign


def _mention(text: str = f"<@U0BOT> {QUESTION}") -> dict:
    return {"type": "app_mention", "user": "U0ALICE", "text": text, "ts": "1700000000.000100",
            "channel": "C0CHAN", "event_ts": "1700000000.000100"}


async def test_a_bad_signature_is_rejected_with_401_and_nothing_is_answered(bot, slack_api):
    status, _, _ = await bot.sender.event(_mention(), signature="v0=" + "0" * 64)
    assert status == 401
    status, _, _ = await bot.sender.command(QUESTION, signature="v0=deadbeef")
    assert status == 401
    await bot.front.drain(timeout=5)
    assert not [c for c in slack_api.calls if c.method.startswith(("chat.", "response_url"))]


async def test_a_request_signed_with_another_secret_is_rejected(bot):
    body = json.dumps({"type": "event_callback", "event": _mention(), "event_id": "EvX"})
    now = int(time.time())
    status, _, _ = await bot.sender.post(body, "application/json", timestamp=now,
                                         signature=sign(body, "not-the-secret", now))
    assert status == 401


async def test_a_timestamp_older_than_5_minutes_is_rejected_even_when_correctly_signed(bot, slack_api):
    stale = int(time.time()) - 5 * 60 - 30
    status, _, _ = await bot.sender.event(_mention(), timestamp=stale)
    assert status == 401
    await bot.front.drain(timeout=5)
    assert not slack_api.calls_to("chat.postMessage")


async def test_a_recent_correctly_signed_url_verification_is_answered(bot):
    body = json.dumps({"token": "x", "challenge": "c-123", "type": "url_verification"})
    status, text, _ = await bot.sender.post(body, "application/json")
    assert status == 200
    assert "c-123" in text
