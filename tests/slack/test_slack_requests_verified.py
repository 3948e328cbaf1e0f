"""Every request to /slack/events must be signed with the signing secret and recent: the
signature is checked on the raw bytes before the body is parsed; unsigned gets 401, signed but
malformed 400, never 500; a replayed signed request is answered once. Real server, loopback."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.slack.conftest import QUESTION, SIGNING_SECRET
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


async def test_an_unsigned_request_gets_401_without_the_body_being_read(bot):
    async with aiohttp.ClientSession() as session:
        for headers in ({}, {"X-Slack-Request-Timestamp": str(int(time.time()))},
                        {"X-Slack-Signature": "v0=abc"}):
            async with session.post(bot.sender.events_url, data=b"\xff\xfe not even text",
                                    headers={"Content-Type": "application/json", **headers}) as response:
                body = await response.text()
                assert response.status == 401, headers
                assert "Traceback" not in body and len(body) < 100


async def test_a_non_numeric_timestamp_gets_401_never_500(bot):
    body = json.dumps({"type": "event_callback", "event": _mention(), "event_id": "EvTs"})
    for timestamp in ("soon", "", "1e9", "-5", "17000000000000000000000000"):
        status, text, _ = await bot.sender.post(body, "application/json", timestamp=timestamp,  # type: ignore[arg-type]
                                                signature=sign(body, SIGNING_SECRET, timestamp))  # type: ignore[arg-type]
        assert status == 401, timestamp
        assert "Traceback" not in text


@pytest.mark.parametrize("body, content_type", [
    ("{not json", "application/json"),
    ("[1, 2, 3]", "application/json"),
    ('"just a string"', "application/json"),
    ("payload=%7Bbroken", "application/x-www-form-urlencoded"),
    ("payload=%5B1%5D", "application/x-www-form-urlencoded"),
    ("no equals sign at all", "application/x-www-form-urlencoded"),
])
async def test_a_signed_but_malformed_body_gets_400_with_no_traceback(bot, slack_api, body, content_type):
    status, text, _ = await bot.sender.post(body, content_type)
    assert status == 400
    assert "Traceback" not in text and len(text) < 100
    await bot.front.drain(timeout=5)
    assert not [c for c in slack_api.calls if c.method.startswith(("chat.", "response_url"))]


async def test_signed_bytes_that_are_not_utf8_get_400(bot):
    raw = b'{"type": "event_callback", "x": "\xff"}'
    now = int(time.time())
    signature = "v0=" + hmac.new(SIGNING_SECRET.encode(), f"v0:{now}:".encode() + raw, hashlib.sha256).hexdigest()
    async with aiohttp.ClientSession() as session, session.post(
            bot.sender.events_url, data=raw, headers={"Content-Type": "application/json",
                                                      "X-Slack-Request-Timestamp": str(now),
                                                      "X-Slack-Signature": signature}) as response:
        assert response.status == 400


async def test_a_replayed_signed_command_is_answered_once(bot, slack_api):
    body = urlencode({
        "token": "legacy-unused", "team_id": "T0TEST", "channel_id": "C0CHAN", "user_id": "U0ALICE",
        "command": "/rulebook", "text": QUESTION, "api_app_id": "A0APP",
        "response_url": f"{bot.sender.response_base}/replayed", "trigger_id": "trigger.replayed-1"})
    now = int(time.time())
    signature = sign(body, SIGNING_SECRET, now)
    for _ in range(3):  # the same captured request, sent again within its 5 minutes
        status, _, _ = await bot.sender.post(body, "application/x-www-form-urlencoded", timestamp=now,
                                             signature=signature)
        assert status == 200
    await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral"))
    await bot.front.drain(timeout=10)
    assert len(slack_api.calls_to("chat.postEphemeral")) == 1


async def test_a_replayed_signed_event_is_answered_once(bot, slack_api):
    body = json.dumps({"type": "event_callback", "team_id": "T0TEST", "event_id": "EvReplay1",
                       "event": _mention(), "authorizations": [{"team_id": "T0TEST", "user_id": "U0BOT",
                                                                "is_bot": True}]})
    now = int(time.time())
    for _ in range(2):
        status, _, _ = await bot.sender.post(body, "application/json", timestamp=now,
                                             signature=sign(body, SIGNING_SECRET, now))
        assert status == 200
    await slack_api.wait_for(lambda: slack_api.calls_to("chat.postMessage"))
    await bot.front.drain(timeout=10)
    assert len(slack_api.calls_to("chat.postMessage")) == 1


async def test_a_command_replayed_to_another_replica_is_answered_once(bot, slack_settings, service, events,
                                                                      slack_api, tmp_path):
    from tests.slack.conftest import start_bot

    other, runner = await start_bot(slack_settings, service, events, slack_api,
                                    tmp_path / "message_records.sqlite")  # the same shared store
    try:
        body = urlencode({
            "token": "legacy-unused", "team_id": "T0TEST", "channel_id": "C0CHAN", "user_id": "U0ALICE",
            "command": "/rulebook", "text": QUESTION, "api_app_id": "A0APP",
            "response_url": f"{bot.sender.response_base}/replica", "trigger_id": "trigger.replica-1"})
        now = int(time.time())
        for sender in (bot.sender, other.sender):
            status, _, _ = await sender.post(body, "application/x-www-form-urlencoded", timestamp=now,
                                             signature=sign(body, SIGNING_SECRET, now))
            assert status == 200
        await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral"))
        await bot.front.drain(timeout=10)
        await other.front.drain(timeout=10)
        assert len(slack_api.calls_to("chat.postEphemeral")) == 1
    finally:
        await runner.cleanup()
