"""Slack's current AI-app surface, over real HTTP with signed requests against the Web API stand-in:
the agent's steps as task updates in the stream's timeline, the agent's Messages tab with
suggested prompts from the rulebooks the user may see, a stream that expires mid-answer, a table
answer as a table block, Share and Copy after a restart, and response_url posts retried on 429."""

from __future__ import annotations

from pathlib import Path

from tests.slack.block_kit_limits import button, is_final_answer, limit_violations, source_buttons
from tests.slack.conftest import DM, QUESTION, dm, start_bot
from tests.slack.slack_api_stand_in import TEAM_ID

SECTION_QUESTION = "What does section 4.3 'Change management cycle' of the Aurora Payment Scheme Rulebook say?"
STREAM_METHODS = ("chat.startStream", "chat.appendStream", "chat.stopStream")


def chunks(slack_api) -> list[dict]:
    return [chunk for call in slack_api.calls if call.method in STREAM_METHODS
            for chunk in call.args.get("chunks") or []]


def final_update(slack_api, ts: str):
    updates = [c for c in slack_api.calls_to("chat.update") if c.args.get("ts") == ts]
    return updates[-1] if updates and is_final_answer(updates[-1].args.get("blocks")) else None


async def test_the_agents_steps_stream_as_task_updates_in_order_before_the_answer(bot, slack_api):
    await bot.sender.event(dm(SECTION_QUESTION, "1700000100.000100"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream")))[0]
    await slack_api.wait_for(lambda: final_update(slack_api, start.response["ts"]))
    await bot.front.drain(timeout=10)

    assert start.args["task_display_mode"] == "timeline"
    # the loading state came first, with loading messages, in the thread of the question
    status = slack_api.calls_to("assistant.threads.setStatus")[0]
    assert status.args["thread_ts"] == "1700000100.000100" and status.args["loading_messages"]
    assert status.at < start.at

    sent = chunks(slack_api)
    tasks = [c for c in sent if c["type"] == "task_update"]
    by_id: dict[str, list[dict]] = {}
    for task in tasks:
        by_id.setdefault(task["id"], []).append(task)
    # every step starts in progress and ends complete (or error), in that order
    for updates in by_id.values():
        assert updates[0]["status"] == "in_progress"
        assert updates[-1]["status"] in ("complete", "error"), by_id
    titles = [updates[0]["title"] for updates in by_id.values()]
    assert "Reading section 4.3 of PS-01" in titles
    section_step = next(u for u in by_id.values() if u[0]["title"] == "Reading section 4.3 of PS-01")
    assert section_step[-1]["status"] == "complete"
    sources = section_step[-1]["sources"]
    assert sources and all(s["type"] == "url" and "/sources/PS-01?page=" in s["url"] for s in sources)
    assert any("4.3" in s["text"] for s in sources)
    # the steps come before the answer text, which then streams
    first_text = next(i for i, c in enumerate(sent) if c["type"] == "markdown_text")
    assert all(i < first_text for i, c in enumerate(sent) if c["type"] == "task_update"
               and c["status"] == "in_progress")
    assert "".join(c["text"] for c in sent if c["type"] == "markdown_text").strip()


async def test_opening_the_messages_tab_sets_prompts_from_the_rulebooks_the_user_may_see(bot, slack_api):
    status, _, seconds = await bot.sender.event({"type": "app_home_opened", "user": "U0ALICE", "channel": DM,
                                                 "tab": "messages", "event_ts": "1700000200.000100"})
    assert status == 200 and seconds < 3.0
    call = (await slack_api.wait_for(lambda: slack_api.calls_to("assistant.threads.setSuggestedPrompts")))[0]
    assert call.args["channel_id"] == DM
    assert "thread_ts" not in call.args  # the agent experience: prompts belong to the conversation
    prompts = call.args["prompts"]
    assert 1 < len(prompts) <= 4 and all(p["title"] and p["message"] for p in prompts)
    named = " ".join(p["message"] for p in prompts)
    visible = {r.rulebook_id for r in bot.front.service.knowledge.list_rulebooks(())}
    assert any(rulebook in named for rulebook in visible)
    assert "PS-07" not in named  # restricted to risk officers: Alice may not see it

    # the Home tab and a context change ask nothing of Slack
    await bot.sender.event({"type": "app_home_opened", "user": "U0ALICE", "channel": DM, "tab": "home",
                            "event_ts": "1700000200.000200"})
    status, _, _ = await bot.sender.event({"type": "app_context_changed", "context": {"entities": [
        {"type": "slack#/types/channel_id", "value": "C0CHAN", "team_id": TEAM_ID}]}})
    assert status == 200
    await bot.front.drain(timeout=5)
    assert len(slack_api.calls_to("assistant.threads.setSuggestedPrompts")) == 1

    # a question in the Messages tab is a top-level DM, answered by streaming in its own thread
    await bot.sender.event(dm(QUESTION, "1700000200.000300"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream")))[0]
    assert start.args["thread_ts"] == "1700000200.000300"
    final = await slack_api.wait_for(lambda: final_update(slack_api, start.response["ts"]))
    assert limit_violations(final.args["blocks"]) == [] and source_buttons(final.args["blocks"])


async def test_a_stream_that_expires_mid_answer_is_finished_by_editing_its_message(bot, slack_api):
    # the stream expires at the first call after it started: an append, or the stop itself when
    # the gate releases the whole (short) answer within one update interval
    slack_api.refuse_once("chat.appendStream", "message_not_in_streaming_state")
    slack_api.refuse_once("chat.stopStream", "message_not_in_streaming_state")
    await bot.sender.event(dm(SECTION_QUESTION, "1700000300.000100"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream")))[0]
    ts = start.response["ts"]
    final = await slack_api.wait_for(lambda: final_update(slack_api, ts))
    await bot.front.drain(timeout=10)
    refused = [c for c in slack_api.calls if c.method in ("chat.appendStream", "chat.stopStream")][0]
    assert refused.response["error"] == "message_not_in_streaming_state"
    # after the expiry nothing more is streamed into the dead stream; the same message is edited
    assert not [c for c in slack_api.calls if c.method in ("chat.appendStream", "chat.stopStream")
                and c.at > refused.at]
    assert not [c for c in slack_api.calls_to("chat.postMessage") if c.at > refused.at]
    assert limit_violations(final.args["blocks"]) == [] and source_buttons(final.args["blocks"])
    delivered = await bot.front.answers.by_ts(DM, ts)
    assert delivered is not None and delivered.answer.text


async def test_a_table_answer_arrives_as_a_table_block(bot, slack_api):
    await bot.sender.event(dm("What are the fees for domestic and cross-border payments in a table?",
                              "1700000400.000100"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream") or
                                      slack_api.calls_to("chat.postMessage")))[0]
    ts = start.response["ts"]
    final = await slack_api.wait_for(lambda: final_update(slack_api, ts) or next(
        (c for c in slack_api.calls_to("chat.postMessage") if is_final_answer(c.args.get("blocks"))), None))
    await bot.front.drain(timeout=10)
    delivered = await bot.front.answers.by_ts(DM, ts)
    assert delivered.answer.tables or "|---" in delivered.answer.text, "the sample answer has no table"
    blocks = final.args["blocks"]
    tables = [b for b in blocks if b["type"] == "table"]
    assert len(tables) == 1 and len(tables[0]["rows"]) >= 2
    assert "|---" not in str([b.get("text") for b in blocks if b["type"] == "markdown"])
    assert limit_violations(blocks) == []


async def test_share_and_copy_work_after_a_restart(slack_settings, service, events, slack_api, tmp_path: Path):
    records = tmp_path / "records.sqlite"
    first, runner = await start_bot(slack_settings, service, events, slack_api, records)
    await first.sender.command(QUESTION)
    ephemeral = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral")))[0]
    await first.front.drain(timeout=10)
    await runner.cleanup()  # the process ends; a new one starts on the same store

    second, runner = await start_bot(slack_settings, service, events, slack_api, records)
    try:
        copy = button(ephemeral.args["blocks"], "rulebook_copy")
        await second.sender.block_action({"action_id": "rulebook_copy", "value": copy["value"]})
        view = (await slack_api.wait_for(lambda: slack_api.calls_to("views.open")))[0].args["view"]
        shown = "\n".join(b["text"]["text"] for b in view["blocks"] if b["type"] == "section")
        assert "Sources:" in shown  # the answer itself, not the blocks of a message

        share = button(ephemeral.args["blocks"], "rulebook_share")
        await second.sender.block_action({"action_id": "rulebook_share", "value": share["value"]},
                                         response_name="share-after-restart")
        posted = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.postMessage")))[0]
        assert posted.args["channel"] == "C0CHAN" and is_final_answer(posted.args["blocks"])
        assert source_buttons(posted.args["blocks"]) == source_buttons(ephemeral.args["blocks"])
        await second.front.drain(timeout=10)
        assert not [c for c in slack_api.calls_to("response_url:share-after-restart")
                    if "no longer available" in str(c.args.get("text"))]
    finally:
        await runner.cleanup()


async def test_a_rate_limited_response_url_post_is_retried(bot, slack_api):
    slack_api.refuse_once("chat.postEphemeral", "not_in_channel")
    slack_api.rate_limit_once("response_url:busy", retry_after=1)
    await bot.sender.command(QUESTION, response_name="busy")
    calls = await slack_api.wait_for(lambda: [c for c in slack_api.calls_to("response_url:busy") if c.status == 200])
    limited = [c for c in slack_api.calls_to("response_url:busy") if c.status == 429]
    assert len(limited) == 1 and calls[0].at - limited[0].at >= 0.9
    assert is_final_answer(calls[0].args["blocks"])


async def test_a_stream_that_expired_before_it_was_stopped_still_ends_as_the_final_answer(bot, slack_api):
    slack_api.refuse_once("chat.stopStream", "message_not_in_streaming_state")
    await bot.sender.event(dm(QUESTION, "1700000500.000100"))
    start = (await slack_api.wait_for(lambda: slack_api.calls_to("chat.startStream")))[0]
    final = await slack_api.wait_for(lambda: final_update(slack_api, start.response["ts"]))
    stop = slack_api.calls_to("chat.stopStream")[0]
    assert stop.response["error"] == "message_not_in_streaming_state" and final.at > stop.at
    assert limit_violations(final.args["blocks"]) == [] and source_buttons(final.args["blocks"])
    # every append stayed within Slack's 12,000 characters
    assert all(sum(len(c.get("text", "")) for c in call.args.get("chunks") or [] if c["type"] == "markdown_text")
               <= 12_000 for call in slack_api.calls if call.method in STREAM_METHODS)
