"""A local stand-in for Slack's Web API (and for response_url webhooks) that records every call.

It answers like Slack does for the methods the app uses, on loopback only, and can be told to
answer a method with 429 + Retry-After once, or with an `ok: false` error once. `users.info`
answers with the e-mail address put in `emails`, and `user_not_found` for anyone else;
`conversations.info` with a channel in this workspace only, unless `channels` says otherwise
(e.g. `{"C0EXT": {"is_ext_shared": True}}` for a Slack Connect channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

BOT_USER_ID = "U0BOT"
BOT_ID = "B0BOT"
TEAM_ID = "T0TEST"

_JSON_FIELDS = ("blocks", "view", "prompts", "chunks", "attachments", "metadata")


@dataclass
class Call:
    method: str
    args: dict[str, Any]
    at: float  # time.monotonic() when it arrived
    status: int = 200
    response: dict[str, Any] = field(default_factory=dict)


class SlackApiStandIn:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.emails: dict[str, str] = {}  # user id -> profile e-mail (users.info)
        self.channels: dict[str, dict[str, Any]] = {}  # channel id -> fields (conversations.info)
        self._ts = itertools.count(1)
        self._failures: dict[str, deque[tuple[int, int]]] = defaultdict(deque)
        self._errors: dict[str, deque[str]] = defaultdict(deque)
        self._runner: web.AppRunner | None = None
        self.base = ""
        self._changed = asyncio.Event()
        # Socket Mode: envelopes to push over the websocket, and what the app sent back
        self.socket_envelopes: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.socket_replies: list[dict[str, Any]] = []

    @property
    def api_url(self) -> str:
        return f"{self.base}/api/"

    def response_url(self, name: str) -> str:
        return f"{self.base}/response/{name}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)  # the SDK reads some methods (users.info) by GET
        app.router.add_post("/response/{name}", self._response_url)
        app.router.add_get("/socket", self._socket)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    # --- scripting -------------------------------------------------------------------------

    def rate_limit_once(self, method: str, retry_after: int = 1) -> None:
        """The next call of `method` (or `response_url:<name>`) gets 429 + Retry-After."""
        self._failures[method].append((429, retry_after))

    def refuse_once(self, method: str, error: str) -> None:
        self._errors[method].append(error)

    # --- inspecting ------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                methods = [c.method for c in self.calls]
                raise AssertionError(f"timed out waiting; calls so far: {methods}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=min(remaining, 0.5))

    # --- serving ---------------------------------------------------------------------------

    async def _args(self, request: web.Request) -> dict[str, Any]:
        if request.method == "GET":
            args = dict(request.query)
        elif request.content_type == "application/json":
            args = await request.json()
        else:
            args = dict(await request.post())
        for key in _JSON_FIELDS:
            if isinstance(args.get(key), str):
                with contextlib.suppress(ValueError):
                    args[key] = json.loads(args[key])
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):
            args.setdefault("token", auth.removeprefix("Bearer "))
        return args

    def _record(self, call: Call) -> None:
        self.calls.append(call)
        self._changed.set()

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await self._args(request)
        if self._failures[method]:
            status, retry_after = self._failures[method].popleft()
            body = {"ok": False, "error": "ratelimited"}
            self._record(Call(method, args, time.monotonic(), status, body))
            return web.json_response(body, status=status, headers={"Retry-After": str(retry_after)})
        if self._errors[method]:
            body = {"ok": False, "error": self._errors[method].popleft()}
            self._record(Call(method, args, time.monotonic(), 200, body))
            return web.json_response(body)
        body = self._answer(method, args)
        self._record(Call(method, args, time.monotonic(), 200, body))
        return web.json_response(body)

    async def _response_url(self, request: web.Request) -> web.Response:
        args = await request.json()
        method = f"response_url:{request.match_info['name']}"
        if self._failures[method]:
            status, retry_after = self._failures[method].popleft()
            self._record(Call(method, args, time.monotonic(), status))
            return web.Response(status=status, text="rate_limited", headers={"Retry-After": str(retry_after)})
        self._record(Call(method, args, time.monotonic()))
        return web.Response(text="ok")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "hello", "num_connections": 1,
                            "debug_info": {"host": "stand-in"}, "connection_info": {"app_id": "A0APP"}})

        async def push() -> None:
            while True:
                await ws.send_json(await self.socket_envelopes.get())

        pusher = asyncio.create_task(push())
        try:
            async for message in ws:
                if message.type.name == "TEXT":
                    self.socket_replies.append(json.loads(message.data))
                    self._changed.set()
        finally:
            pusher.cancel()
        return ws

    def _next_ts(self) -> str:
        return f"1800000000.{next(self._ts):06d}"

    def _answer(self, method: str, args: dict[str, Any]) -> dict[str, Any]:
        channel = args.get("channel") or args.get("channel_id") or ""
        if method == "auth.test":
            return {"ok": True, "url": "https://test.slack.com/", "team": "Test", "user": "rulebook",
                    "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID,
                    "is_enterprise_install": False}
        if method in ("chat.postMessage", "chat.startStream"):
            ts = self._next_ts()
            return {"ok": True, "channel": channel, "ts": ts,
                    "message": {"text": args.get("text", ""), "ts": ts, "bot_id": BOT_ID}}
        if method in ("chat.update", "chat.appendStream", "chat.stopStream"):
            return {"ok": True, "channel": channel, "ts": args.get("ts")}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": self._next_ts()}
        if method == "apps.connections.open":
            return {"ok": True, "url": self.base.replace("http://", "ws://") + "/socket"}
        if method == "users.info":
            user = args.get("user", "")
            if user not in self.emails:
                return {"ok": False, "error": "user_not_found"}
            return {"ok": True, "user": {"id": user, "team_id": TEAM_ID,
                                         "profile": {"email": self.emails[user]}}}
        if method == "conversations.info":
            info = {"id": channel, "context_team_id": TEAM_ID, "is_channel": channel.startswith("C"),
                    "is_mpim": channel.startswith("G"), "is_im": channel.startswith("D"),
                    "is_shared": False, "is_ext_shared": False, "is_org_shared": False,
                    "is_pending_ext_shared": False, **self.channels.get(channel, {})}
            return {"ok": True, "channel": info}
        if method == "views.open":
            return {"ok": True, "view": {"id": "V0VIEW", **(args.get("view") or {})}}
        return {"ok": True}
