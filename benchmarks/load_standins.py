"""Loopback stand-ins for the two chat platforms, for `benchmarks/load.py`: they speak HTTP only.

- `ConnectorRecorder`: the Bot Connector REST endpoints a Teams bot calls (new activity, reply,
  update), answering as Teams does (201 with a fresh id; 202 for a streaming update that already
  names its stream; 200 for a PUT), recording when each call arrived, per conversation.
- `SlackApiRecorder`: Slack's Web API methods the app calls (auth.test, chat.postMessage /
  update / startStream / appendStream / stopStream, conversations.info, users.info), recording
  the same way, per channel thread.
- `sign_slack(body, secret, timestamp)`: the v0 HMAC-SHA256 signature Slack puts on every request.

Nothing here knows the bot's code: only the wire protocol, so the benchmark keeps working while
the Teams adapter moves from botbuilder to the Microsoft 365 Agents SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web


def sign_slack(body: str, secret: str, timestamp: int) -> str:
    return "v0=" + hmac.new(secret.encode(), f"v0:{timestamp}:{body}".encode(), hashlib.sha256).hexdigest()


@dataclass
class Recorded:
    at: float
    kind: str  # Teams: POST/PUT; Slack: the method
    body: dict[str, Any]


@dataclass
class _Server:
    runner: web.AppRunner | None = None
    url: str = ""

    async def start(self, app: web.Application) -> str:
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        if self.runner:
            await self.runner.cleanup()


@dataclass
class ConnectorRecorder:
    calls: dict[str, list[Recorded]] = field(default_factory=lambda: defaultdict(list))
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _ids: Any = field(default_factory=lambda: itertools.count(1))
    _server: _Server = field(default_factory=_Server)

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/v3/conversations/{cid}/activities", self._post)
        app.router.add_post("/v3/conversations/{cid}/activities/{aid}", self._post)
        app.router.add_put("/v3/conversations/{cid}/activities/{aid}", self._put)
        return await self._server.start(app) + "/"

    async def stop(self) -> None:
        await self._server.stop()

    def _record(self, conversation: str, kind: str, body: dict[str, Any]) -> None:
        self.calls[conversation].append(Recorded(time.monotonic(), kind, body))
        self.changed.set()

    async def _post(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._record(request.match_info["cid"], "POST", body)
        info = stream_info(body)
        if info is not None and info.get("streamId"):
            return web.json_response({}, status=202)
        return web.json_response({"id": f"act-{next(self._ids)}"}, status=201)

    async def _put(self, request: web.Request) -> web.Response:
        body = await request.json()
        self._record(request.match_info["cid"], "PUT", body)
        return web.json_response({"id": request.match_info["aid"]})


def stream_info(activity: dict[str, Any]) -> dict[str, Any] | None:
    for entity in activity.get("entities") or []:
        if entity.get("type") == "streaminfo":
            return entity
    return None


def teams_visible(call: Recorded) -> bool:
    """Text the user sees: a message, a streaming/informative update with text, an edit."""
    return bool(call.body.get("text") or call.body.get("attachments")) and call.body.get("type") in ("message", "typing")


def teams_final(calls: list[Recorded]) -> Recorded | None:
    """The answer's final state: a message closing the stream, or a message/edit outside a stream."""
    for call in calls:
        if call.body.get("type") != "message":
            continue
        info = stream_info(call.body)
        closes = info is None or info.get("streamType") == "final"
        if closes and (call.body.get("attachments") or call.body.get("text")):
            return call
    return None


@dataclass
class SlackApiRecorder:
    calls: dict[str, list[Recorded]] = field(default_factory=lambda: defaultdict(list))
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    _ts: Any = field(default_factory=lambda: itertools.count(1))
    _server: _Server = field(default_factory=_Server)
    _thread_of: dict[str, str] = field(default_factory=dict)  # message ts -> thread it belongs to

    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        return await self._server.start(app) + "/api/"

    async def stop(self) -> None:
        await self._server.stop()

    async def _args(self, request: web.Request) -> dict[str, Any]:
        raw = await request.text()
        if request.content_type == "application/json":
            return json.loads(raw or "{}")
        args: dict[str, Any] = dict(parse_qsl(raw))
        for key in ("blocks", "chunks", "metadata", "attachments"):
            if isinstance(args.get(key), str):
                with contextlib.suppress(ValueError):
                    args[key] = json.loads(args[key])
        return args

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await self._args(request)
        channel = args.get("channel") or ""
        if method == "auth.test":
            return web.json_response({"ok": True, "url": "https://load.slack.com/", "team": "Load",
                                      "user": "rulebook", "team_id": "T0LOAD", "user_id": "U0BOT",
                                      "bot_id": "B0BOT", "is_enterprise_install": False})
        if method == "conversations.info":
            return web.json_response({"ok": True, "channel": {
                "id": channel, "context_team_id": "T0LOAD", "is_channel": channel.startswith("C"),
                "is_im": channel.startswith("D"), "is_mpim": False, "is_shared": False,
                "is_ext_shared": False, "is_org_shared": False, "is_pending_ext_shared": False}})
        if method == "users.info":
            return web.json_response({"ok": False, "error": "user_not_found"})
        response: dict[str, Any] = {"ok": True, "channel": channel}
        if method in ("chat.postMessage", "chat.startStream", "chat.postEphemeral"):
            ts = f"1800000000.{next(self._ts):06d}"
            thread = args.get("thread_ts") or ts
            self._thread_of[ts] = thread
            response |= {"ts": ts, "message_ts": ts, "message": {"ts": ts, "bot_id": "B0BOT"}}
        else:
            thread = self._thread_of.get(args.get("ts", ""), args.get("thread_ts", ""))
            response["ts"] = args.get("ts")
        if method.startswith("chat."):
            self.calls[thread].append(Recorded(time.monotonic(), method, args))
            self.changed.set()
        return web.json_response(response)


def slack_final(calls: list[Recorded]) -> Recorded | None:
    """The final state: a stopped stream, or a post/edit carrying the feedback buttons."""
    for call in calls:
        if call.kind == "chat.stopStream":
            return call
        if call.kind in ("chat.update", "chat.postMessage") and "feedback" in json.dumps(call.body.get("blocks", "")):
            return call
    return None


def slack_visible(call: Recorded) -> bool:
    return call.kind in ("chat.postMessage", "chat.startStream", "chat.update", "chat.appendStream",
                         "chat.stopStream", "chat.postEphemeral")


def answer_text(call: Recorded) -> str:
    """Everything a final reply says (text, cards, blocks), for spotting failures."""
    return json.dumps(call.body, ensure_ascii=False)
