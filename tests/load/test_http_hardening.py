"""The HTTP server on loopback: 413 for an oversized body, no version banner on any response,
and a plain 500 without traceback when a handler fails unexpectedly."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.load.conftest import service_for


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
async def hardened(sample_index, load_knowledge, tmp_path) -> AsyncIterator[str]:
    from adapters.server import build_app
    from events.usage_sinks import NullSink

    port = _free_port()
    settings = sample_index.model_copy(update={
        "data_dir": tmp_path / "data", "public_base_url": f"http://127.0.0.1:{port}",
        "max_request_bytes": 64 * 1024, "teams_app_id": "", "slack_signing_secret": None})
    service = service_for(settings, load_knowledge, tmp_path)

    def broken_index(rulebook_id: str, roles: tuple[str, ...]) -> Any:
        raise RuntimeError("qdrant at 10.0.0.7:6333 refused, api key sk-should-not-leak")

    app = build_app(settings, service=service, event_sink=NullSink(), source_locator=broken_index)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    yield f"http://127.0.0.1:{port}"
    await runner.cleanup()


def _activity(text: str) -> dict:
    return {"type": "message", "id": "m1", "text": text, "channelId": "msteams",
            "serviceUrl": "http://127.0.0.1:9/", "from": {"id": "u1", "aadObjectId": "aad-1"},
            "recipient": {"id": "bot"}, "conversation": {"id": "conv-1", "conversationType": "personal"}}


async def test_an_oversized_body_gets_413_not_400(hardened):
    body = json.dumps(_activity("x" * 100_000))
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{hardened}/api/messages", data=body,
                                headers={"Content-Type": "application/json"}) as response:
            assert response.status == 413
            assert "Server" not in response.headers
            assert "limit" in (await response.json())["error"]

        async def chunks():  # no Content-Length: the limit holds while reading
            for _ in range(20):
                yield b"x" * 8192

        async with session.post(f"{hardened}/api/messages", data=chunks(),
                                headers={"Content-Type": "application/json"}) as response:
            assert response.status == 413


async def test_a_body_under_the_limit_still_reaches_the_endpoint(hardened):
    async with aiohttp.ClientSession() as session, session.post(
            f"{hardened}/api/messages", data="{not json", headers={"Content-Type": "application/json"}) as response:
        assert response.status == 400  # the endpoint's own verdict on a malformed Activity
        assert "Server" not in response.headers


async def test_no_response_carries_a_version_banner(hardened):
    async with aiohttp.ClientSession() as session:
        for method, path in (("GET", "/healthz"), ("GET", "/no/such/page"), ("DELETE", "/api/messages"),
                             ("GET", "/sources/PS-04?page=four")):
            async with session.request(method, f"{hardened}{path}") as response:
                assert "Server" not in response.headers, (method, path, response.headers.get("Server"))
                assert "aiohttp" not in await response.text()
    # a request aiohttp cannot even parse is answered by its protocol layer: still no banner
    reader, writer = await asyncio.open_connection("127.0.0.1", int(hardened.rsplit(":", 1)[1]))
    writer.write(b"GARBAGE \x00\x01 HTTP/9.9\r\n\r\n")
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(4096), 10)
    writer.close()
    assert raw.split(b" ", 2)[1] == b"400"
    assert b"aiohttp" not in raw and b"Python/" not in raw and b"Traceback" not in raw


async def test_an_unexpected_error_is_a_plain_500_without_traceback(hardened, caplog):
    async with aiohttp.ClientSession() as session, session.get(f"{hardened}/sources/PS-04?page=2") as response:
        text = await response.text()
        assert response.status == 500
        assert text.strip() == "Internal server error"
        assert "Server" not in response.headers
    for leak in ("Traceback", "RuntimeError", "10.0.0.7", "sk-should-not-leak"):
        assert leak not in text
    # the detail is in the server's own log, for the operator
    assert any("unhandled error in GET /sources/PS-04" in r.getMessage() for r in caplog.records)
