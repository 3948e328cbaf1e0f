"""Requests as Slack sends them: signed (v0 HMAC-SHA256), form-encoded or JSON, over real HTTP."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from typing import Any
from urllib.parse import urlencode

import aiohttp

from tests.slack.slack_api_stand_in import BOT_USER_ID, TEAM_ID

_ids = itertools.count(1)


def sign(body: str, secret: str, timestamp: int) -> str:
    base = f"v0:{timestamp}:{body}".encode()
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


class SlackSender:
    """Posts to the bot's /slack/events as Slack would."""

    def __init__(self, events_url: str, signing_secret: str, response_base: str) -> None:
        self.events_url = events_url
        self.secret = signing_secret
        self.response_base = response_base

    async def post(self, body: str, content_type: str, *, timestamp: int | None = None,
                   signature: str | None = None) -> tuple[int, str, float]:
        """Send; returns (status, body text, seconds until the response came)."""
        ts = int(time.time()) if timestamp is None else timestamp
        headers = {
            "Content-Type": content_type,
            "X-Slack-Request-Timestamp": str(ts),
            "X-Slack-Signature": signature or sign(body, self.secret, ts),
        }
        started = time.monotonic()
        async with aiohttp.ClientSession() as session, session.post(
                self.events_url, data=body.encode(), headers=headers) as response:
            text = await response.text()
            return response.status, text, time.monotonic() - started

    async def event(self, event: dict[str, Any], *, envelope: dict[str, Any] | None = None,
                    **kwargs: Any) -> tuple[int, str, float]:
        """`envelope`: more fields of the outer payload, e.g. {"is_ext_shared_channel": True}."""
        n = next(_ids)
        body = json.dumps({
            "token": "legacy-unused", "team_id": TEAM_ID, "api_app_id": "A0APP",
            "type": "event_callback", "event_id": f"Ev{n:08d}", "event_time": int(time.time()),
            "event": event,
            "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}],
            "is_ext_shared_channel": False, **(envelope or {}),
        })
        return await self.post(body, "application/json", **kwargs)

    async def command(self, text: str, *, channel: str = "C0CHAN", user: str = "U0ALICE",
                      response_name: str = "command", **kwargs: Any) -> tuple[int, str, float]:
        body = urlencode({
            "token": "legacy-unused", "team_id": TEAM_ID, "team_domain": "test",
            "channel_id": channel, "channel_name": "general", "user_id": user, "user_name": "alice",
            "command": "/rulebook", "text": text, "api_app_id": "A0APP",
            "response_url": f"{self.response_base}/{response_name}",
            "trigger_id": f"trigger.{next(_ids)}",
        })
        return await self.post(body, "application/x-www-form-urlencoded", **kwargs)

    async def block_action(self, action: dict[str, Any], *, channel: str = "C0CHAN",
                           user: str = "U0ALICE", message: dict[str, Any] | None = None,
                           response_name: str = "action", **kwargs: Any) -> tuple[int, str, float]:
        payload: dict[str, Any] = {
            "type": "block_actions", "api_app_id": "A0APP", "token": "legacy-unused",
            "team": {"id": TEAM_ID, "domain": "test"},
            "user": {"id": user, "username": "alice", "team_id": TEAM_ID},
            "channel": {"id": channel, "name": "general"},
            "container": {"type": "message", "channel_id": channel,
                          "message_ts": (message or {}).get("ts", "0"), "is_ephemeral": message is None},
            "trigger_id": f"trigger.{next(_ids)}",
            "response_url": f"{self.response_base}/{response_name}",
            "actions": [{"type": "button", "block_id": "rulebook_answer_actions",
                         "action_ts": str(time.time()), **action}],
        }
        if message is not None:
            payload["message"] = message
        body = urlencode({"payload": json.dumps(payload)})
        return await self.post(body, "application/x-www-form-urlencoded", **kwargs)
