"""`/rulebook QUESTION`: acknowledged within 3 seconds, answered privately with sources and a
"Share in channel" button that posts the answer publicly."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.slack.block_kit_limits import button, is_final_answer, limit_violations, source_buttons
from tests.slack.conftest import QUESTION


async def test_the_command_is_acknowledged_within_3_seconds_and_answered_privately_with_sources(
        bot, slack_api):
    status, body, seconds = await bot.sender.command(QUESTION)
    assert status == 200
    assert seconds < 3.0
    assert "Looking that up" in body

    ephemeral = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral")))[0]
    assert ephemeral.args["channel"] == "C0CHAN"
    assert ephemeral.args["user"] == "U0ALICE"
    blocks = ephemeral.args["blocks"]
    assert is_final_answer(blocks)
    assert limit_violations(blocks) == []
    sources = source_buttons(blocks)
    assert sources, "the answer lists its sources"
    for source in sources:
        url = urlparse(source["url"])
        assert f"{url.scheme}://{url.netloc}" == "http://127.0.0.1:3978"
        assert url.path.startswith("/sources/")
        query = parse_qs(url.query)
        assert query["via"] == ["slack"]
        page = query["page"][0]
        assert source["text"]["text"] == f"Open page {page}"
    button(blocks, "rulebook_share")
    # a private answer: nothing was posted in the channel
    assert not slack_api.calls_to("chat.postMessage")


async def test_an_empty_command_gets_usage_help_and_asks_nothing(bot, slack_api):
    status, body, _ = await bot.sender.command("   ")
    assert status == 200
    assert "/rulebook" in body
    await bot.front.drain(timeout=5)
    assert not slack_api.calls_to("chat.postEphemeral")


async def test_outside_the_apps_channels_the_answer_comes_through_the_response_url(bot, slack_api):
    slack_api.refuse_once("chat.postEphemeral", "not_in_channel")
    await bot.sender.command(QUESTION, response_name="cmd-1")
    call = (await slack_api.wait_for(lambda: slack_api.calls_to("response_url:cmd-1")))[0]
    assert call.args["response_type"] == "ephemeral"
    assert is_final_answer(call.args["blocks"])


async def test_share_in_channel_posts_the_answer_publicly(bot, slack_api):
    await bot.sender.command(QUESTION)
    ephemeral = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral")))[0]
    share = button(ephemeral.args["blocks"], "rulebook_share")

    status, _, _ = await bot.sender.block_action(
        {"action_id": "rulebook_share", "value": share["value"]}, response_name="share-1")
    assert status == 200
    posted = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postMessage")))[0]
    assert posted.args["channel"] == "C0CHAN"
    assert is_final_answer(posted.args["blocks"])
    assert source_buttons(posted.args["blocks"]) == source_buttons(ephemeral.args["blocks"])
    assert "Shared by <@U0ALICE>" in str(posted.args["blocks"])
    # the public copy has no share button of its own, and the private one is removed
    assert "rulebook_share" not in str(posted.args["blocks"])
    cleanup = await slack_api.wait_for(lambda: slack_api.calls_to("response_url:share-1"))
    assert cleanup[-1].args.get("delete_original") is True
