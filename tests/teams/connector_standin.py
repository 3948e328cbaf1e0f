"""A local Bot Connector stand-in: the REST endpoints a Teams bot calls, recorded, on loopback.

It answers like Teams' connector does: a new activity gets a fresh id (201); a streaming update
that already names its stream gets 202 with an empty body (so the bot must keep the first id as
the stream id); an update (PUT) answers with the updated id. A member lookup (GET .../members/{id}) answers with
the profile put in `members` (e-mail, user principal name), or 404 for anyone else.

`throttle(n)` makes the next n activity calls (POST or PUT) answer 429 with `Retry-After`, as
Teams does when a bot sends too fast; throttled calls are kept in `throttled`, not in `calls`.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class ConnectorCall:
    method: str  # POST | PUT
    conversation_id: str
    activity_id: str | None  # the path's activity id (reply-to for POST, edited id for PUT)
    body: dict[str, Any]
    returned_id: str | None
    at: float = field(default_factory=time.monotonic)
    authorization: str = ""

    @property
    def type(self) -> str:
        return self.body.get("type", "")

    def stream_info(self) -> dict[str, Any] | None:
        for entity in self.body.get("entities") or []:
            if entity.get("type") == "streaminfo":
                return entity
        return None

    def message_entity(self) -> dict[str, Any] | None:
        for entity in self.body.get("entities") or []:
            if entity.get("type") == "https://schema.org/Message":
                return entity
        return None


class ConnectorStandIn:
    def __init__(self) -> None:
        self.calls: list[ConnectorCall] = []
        self.members: dict[str, dict[str, Any]] = {}  # member id -> TeamsChannelAccount JSON
        self.member_lookups: list[tuple[str, str]] = []  # (conversation id, member id)
        self.throttled: list[ConnectorCall] = []
        self._throttle = 0
        self.refuse_streams = False  # answer streaming updates 403 ContentStreamNotAllowed
        self._retry_after = "0.05"
        self._ids = itertools.count(1000)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.url = ""

    def _app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v3/conversations/{conversation_id}/activities", self._post)
        app.router.add_post("/v3/conversations/{conversation_id}/activities/{activity_id}", self._post)
        app.router.add_put("/v3/conversations/{conversation_id}/activities/{activity_id}", self._put)
        app.router.add_get("/v3/conversations/{conversation_id}/members/{member_id}", self._member)
        return app

    async def start(self) -> str:
        self._runner = web.AppRunner(self._app())
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}/"
        return self.url

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    def throttle(self, calls: int, retry_after: str = "0.05") -> None:
        self._throttle, self._retry_after = calls, retry_after

    async def _throttled(self, request: web.Request, body: dict[str, Any]) -> web.Response | None:
        if self._throttle <= 0:
            return None
        self._throttle -= 1
        self.throttled.append(ConnectorCall(request.method, request.match_info["conversation_id"],
                                            request.match_info.get("activity_id"), body, None))
        return web.json_response({"error": {"code": "TooManyRequests"}}, status=429,
                                 headers={"Retry-After": self._retry_after})

    async def _record(self, call: ConnectorCall) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    async def _post(self, request: web.Request) -> web.Response:
        body = await request.json()
        if (refused := await self._throttled(request, body)) is not None:
            return refused
        info = next((e for e in body.get("entities") or [] if e.get("type") == "streaminfo"), None)
        if info is not None and self.refuse_streams:
            return web.json_response({"error": {"code": "ContentStreamNotAllowed",
                                                "message": "Content stream is not allowed"}}, status=403)
        continuing_stream = info is not None and info.get("streamId")
        new_id = None if continuing_stream else f"act-{next(self._ids)}"
        await self._record(ConnectorCall("POST", request.match_info["conversation_id"],
                                         request.match_info.get("activity_id"), body, new_id,
                                         authorization=request.headers.get("Authorization", "")))
        if continuing_stream:
            return web.json_response({}, status=202)
        return web.json_response({"id": new_id}, status=201)

    async def _put(self, request: web.Request) -> web.Response:
        body = await request.json()
        if (refused := await self._throttled(request, body)) is not None:
            return refused
        activity_id = request.match_info["activity_id"]
        await self._record(ConnectorCall("PUT", request.match_info["conversation_id"], activity_id,
                                         body, activity_id,
                                         authorization=request.headers.get("Authorization", "")))
        return web.json_response({"id": activity_id}, status=200)

    async def _member(self, request: web.Request) -> web.Response:
        member_id = request.match_info["member_id"]
        self.member_lookups.append((request.match_info["conversation_id"], member_id))
        if member_id not in self.members:
            return web.json_response({"error": {"code": "MemberNotFoundInConversation"}}, status=404)
        return web.json_response({"id": member_id, **self.members[member_id]})

    async def wait_for(self, predicate, timeout: float = 60.0) -> list[ConnectorCall]:
        """Wait until `predicate(calls)` holds; returns the calls so far."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: predicate(self.calls)), timeout)
            return list(self.calls)
