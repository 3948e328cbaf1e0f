"""A local OpenAI-compatible chat server for tests: it streams scripted tool calls and text.

The script is a function from the request body (the messages the client sent, the tools it
offered) to one reply: `Reply(text=...)` or `Reply(tool_calls=[ToolCall(name, args)])`. Every
request body is recorded, so a test can assert on what reached the model (tool results, history,
the system prompt, whether tools were still offered).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class ToolCall:
    name: str
    args: dict[str, Any]


@dataclass
class Reply:
    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)


Script = Callable[[dict[str, Any]], Reply]


class OpenAIStandIn:
    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/v1"

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        reply = self.script(body)
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:12]}"
        calls = [{"id": f"call_{uuid.uuid4().hex[:10]}", "type": "function",
                  "function": {"name": c.name, "arguments": json.dumps(c.args)}} for c in reply.tool_calls]
        finish = "tool_calls" if calls else "stop"
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
            if calls:
                message["tool_calls"] = calls
            return web.json_response({
                "id": completion_id, "object": "chat.completion", "created": int(time.time()),
                "model": body.get("model", "standin"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)

        async def send(delta: dict[str, Any], finish_reason: str | None = None) -> None:
            chunk = {"id": completion_id, "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": body.get("model", "standin"),
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())

        await send({"role": "assistant", "content": ""})
        text = reply.text
        for start in range(0, len(text), 7):  # small pieces, like a real model's tokens
            await send({"content": text[start:start + 7]})
        for index, call in enumerate(calls):
            await send({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                        "function": {"name": call["function"]["name"], "arguments": ""}}]})
            arguments = call["function"]["arguments"]
            for start in range(0, len(arguments), 9):
                await send({"tool_calls": [{"index": index,
                                            "function": {"arguments": arguments[start:start + 9]}}]})
        await send({}, finish)
        await response.write(b"data: [DONE]\n\n")
        await response.write_eof()
        return response

    # -- helpers for scripts -------------------------------------------------------------------
    @staticmethod
    def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
        """The tool results of the current question (after its last user message)."""
        messages = body["messages"]
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        return [m for m in messages[last_user:] if m["role"] == "tool"]
