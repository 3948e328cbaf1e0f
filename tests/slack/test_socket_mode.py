"""Socket Mode: the same app over a websocket opened with the app-level token (no public URL)."""

from __future__ import annotations

import time

from aiohttp import web

from adapters.slack import SOCKET_MODE_HANDLER, attach_socket_mode, start_socket_mode
from tests.slack.block_kit_limits import is_final_answer
from tests.slack.conftest import QUESTION
from tests.slack.slack_api_stand_in import TEAM_ID


async def test_a_slash_command_over_socket_mode_is_acknowledged_and_answered(
        slack_settings, service, events, slack_api):
    settings = slack_settings.model_copy(update={"slack_app_token": "xapp-test", "slack_signing_secret": ""})
    handler = await start_socket_mode(service, settings, events)
    try:
        opened = await slack_api.wait_for(lambda: slack_api.calls_to("apps.connections.open"))
        assert opened[0].args["token"] == "xapp-test"
        sent = time.monotonic()
        await slack_api.socket_envelopes.put({
            "envelope_id": "env-1", "type": "slash_commands", "accepts_response_payload": True,
            "payload": {"token": "x", "team_id": TEAM_ID, "channel_id": "C0CHAN", "user_id": "U0ALICE",
                        "command": "/rulebook", "text": QUESTION, "api_app_id": "A0APP",
                        "response_url": slack_api.response_url("socket"), "trigger_id": "trigger.s1"},
        })
        ack = (await slack_api.wait_for(lambda: [r for r in slack_api.socket_replies
                                                 if r.get("envelope_id") == "env-1"]))[0]
        assert time.monotonic() - sent < 3.0
        assert "Looking that up" in str(ack.get("payload"))
        answer = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral")))[0]
        assert is_final_answer(answer.args["blocks"])
    finally:
        await handler.front_end.close()
        await handler.close_async()


async def test_socket_mode_lives_and_ends_with_the_web_application(slack_settings, service, events, slack_api):
    settings = slack_settings.model_copy(update={"slack_app_token": "xapp-test"})
    app = web.Application()
    attach_socket_mode(app, service, settings, events)
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        await slack_api.wait_for(lambda: slack_api.calls_to("apps.connections.open"))
        handler = app[SOCKET_MODE_HANDLER]
        assert await handler.client.is_connected()
    finally:
        await runner.cleanup()
    assert handler.client.closed


async def test_the_server_connects_over_socket_mode_when_an_app_token_is_set(
        slack_settings, service, events, slack_api):
    """`rulebook serve` with RULEBOOK_SLACK_APP_TOKEN and no signing secret: no /slack/events
    route, a Socket Mode connection instead."""
    from adapters.server import build_app

    settings = slack_settings.model_copy(update={"slack_app_token": "xapp-test", "slack_signing_secret": ""})
    app = build_app(settings, service, events)
    assert "/slack/events" not in {r.canonical for r in app.router.resources()}
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        opened = await slack_api.wait_for(lambda: slack_api.calls_to("apps.connections.open"))
        assert opened[0].args["token"] == "xapp-test"
        assert await app[SOCKET_MODE_HANDLER].client.is_connected()
    finally:
        await runner.cleanup()
