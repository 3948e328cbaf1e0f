"""Slack's AI assistant threads and direct messages: suggested prompts, the "is searching the
rulebooks…" status, and the answer through Slack's streaming API, closed by the final blocks."""

from __future__ import annotations

from tests.slack.block_kit_limits import is_final_answer, limit_violations, source_buttons
from tests.slack.conftest import DM, QUESTION, dm
from tests.slack.slack_api_stand_in import TEAM_ID


def final_update(slack_api, ts: str):
    updates = [c for c in slack_api.calls_to("chat.update") if c.args.get("ts") == ts]
    return updates[-1] if updates and is_final_answer(updates[-1].args.get("blocks")) else None


async def test_a_new_assistant_thread_gets_a_greeting_and_suggested_prompts(bot, slack_api):
    status, _, _ = await bot.sender.event({
        "type": "assistant_thread_started",
        "assistant_thread": {"user_id": "U0ALICE", "context": {"channel_id": "C0CHAN", "team_id": TEAM_ID},
                             "channel_id": DM, "thread_ts": "1700000001.000100"},
        "event_ts": "1700000001.000200",
    })
    assert status == 200
    prompts = (await slack_api.wait_for(
        lambda: slack_api.calls_to("assistant.threads.setSuggestedPrompts")))[0]
    assert prompts.args["channel_id"] == DM
    assert prompts.args["thread_ts"] == "1700000001.000100"
    assert 1 <= len(prompts.args["prompts"]) <= 4
    assert all(p["title"] and p["message"] for p in prompts.args["prompts"])
    greeting = slack_api.calls_to("chat.postMessage")[0]
    assert greeting.args["thread_ts"] == "1700000001.000100"


async def test_a_question_in_an_assistant_thread_streams_with_a_status_and_ends_final(bot, slack_api):
    thread_ts = "1700000002.000100"
    status, _, seconds = await bot.sender.event(dm(QUESTION, "1700000002.000200", thread_ts=thread_ts))
    assert status == 200 and seconds < 3.0

    statuses = await slack_api.wait_for(lambda: slack_api.calls_to("assistant.threads.setStatus"))
    assert statuses[0].args["status"] == "is searching the rulebooks…"
    assert statuses[0].args["thread_ts"] == thread_ts

    stop = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.stopStream")))[0]
    start = slack_api.calls_to("chat.startStream")[0]
    assert start.args["channel"] == DM
    assert start.args["thread_ts"] == thread_ts
    assert start.args["recipient_user_id"] == "U0ALICE"
    assert start.args["recipient_team_id"] == TEAM_ID
    streamed = "".join(chunk["text"] for call in slack_api.calls
                       if call.method in ("chat.startStream", "chat.appendStream", "chat.stopStream")
                       for chunk in call.args.get("chunks") or [] if chunk.get("type") == "markdown_text")
    assert streamed.strip()
    ts = start.response["ts"]
    assert stop.args["ts"] == ts

    final = await slack_api.wait_for(lambda: final_update(slack_api, ts))
    assert final.at > stop.at  # the final answer replaces the stream, after it is closed
    assert limit_violations(final.args["blocks"]) == []
    assert source_buttons(final.args["blocks"])
    await bot.front.drain(timeout=10)
    delivered = await bot.front.answers.by_ts(DM, ts)
    assert delivered.conversation_id == f"{DM}:{thread_ts}"
    # the status updates happened before the answer was complete
    assert all(s.at < final.at for s in slack_api.calls_to("assistant.threads.setStatus"))


async def test_a_direct_message_is_answered_in_its_thread_by_streaming(bot, slack_api):
    await bot.sender.event(dm(QUESTION, "1700000003.000100"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream")))[0]
    assert start.args["thread_ts"] == "1700000003.000100"
    await slack_api.wait_for(lambda: final_update(slack_api, start.response["ts"]))


async def test_when_slack_refuses_to_stream_the_answer_is_posted_and_edited_instead(bot, slack_api):
    slack_api.refuse_once("chat.startStream", "not_allowed")
    await bot.sender.event(dm(QUESTION, "1700000004.000100"))
    post = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postMessage")))[0]
    assert post.args["thread_ts"] == "1700000004.000100"
    final = await slack_api.wait_for(lambda: final_update(slack_api, post.response["ts"]))
    assert source_buttons(final.args["blocks"])
    assert not slack_api.calls_to("chat.stopStream")


async def test_edits_and_bot_messages_in_a_dm_are_not_questions(bot, slack_api):
    await bot.sender.event({"type": "message", "subtype": "message_changed", "channel_type": "im",
                            "channel": DM, "ts": "1700000005.000100", "event_ts": "1700000005.000100",
                            "message": {"text": "edited"}})
    await bot.sender.event({"type": "message", "channel_type": "im", "channel": DM, "bot_id": "B0OTHER",
                            "text": "I am a bot", "ts": "1700000005.000200",
                            "event_ts": "1700000005.000200"})
    await bot.front.drain(timeout=5)
    assert not [c for c in slack_api.calls if c.method.startswith("chat.")]
