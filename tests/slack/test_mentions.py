"""@mentions in a channel: the answer is posted into the thread at once, edited as it grows (at most
once per interval), and ends as the final answer's blocks; follow-ups keep the thread's history."""

from __future__ import annotations

from bot.service import history_text
from tests.slack.block_kit_limits import is_final_answer, limit_violations, source_buttons
from tests.slack.conftest import QUESTION, UPDATE_INTERVAL

CHANNEL = "C0CHAN"


def mention(text: str, ts: str, thread_ts: str | None = None) -> dict:
    event = {"type": "app_mention", "user": "U0ALICE", "text": f"<@U0BOT> {text}", "ts": ts,
             "channel": CHANNEL, "event_ts": ts}
    if thread_ts:
        event["thread_ts"] = thread_ts
    return event


def final_update(slack_api, ts: str):
    updates = [c for c in slack_api.calls_to("chat.update") if c.args.get("ts") == ts]
    return updates[-1] if updates and is_final_answer(updates[-1].args.get("blocks")) else None


async def answered(bot, slack_api, event: dict):
    thread_ts = event.get("thread_ts") or event["ts"]

    def posts_in_thread():
        return [c for c in slack_api.calls_to("chat.postMessage")
                if c.args.get("thread_ts") == thread_ts and c.status == 200]

    before = len(posts_in_thread())
    status, _, seconds = await bot.sender.event(event)
    assert status == 200
    assert seconds < 3.0
    placeholder = await slack_api.wait_for(lambda: posts_in_thread()[before:])
    ts = placeholder[-1].response["ts"]
    final = await slack_api.wait_for(lambda: final_update(slack_api, ts))
    await bot.front.drain(timeout=10)
    return placeholder[-1], final, ts


async def test_a_mention_streams_into_its_thread_and_ends_with_the_final_blocks(bot, slack_api):
    event = mention(QUESTION, "1700000000.000100")
    placeholder, final, ts = await answered(bot, slack_api, event)

    # posted at once into the thread, showing that the search started
    assert placeholder.args["thread_ts"] == "1700000000.000100"
    assert "Searching the rulebooks" in str(placeholder.args["blocks"])
    # edited in place, never more than once per interval, and the final answer is the last state
    edits = [c for c in slack_api.calls_to("chat.update") if c.args["ts"] == ts]
    assert edits[-1] is final
    moments = [placeholder.at] + [c.at for c in edits]
    gaps = [b - a for a, b in zip(moments, moments[1:], strict=False)]
    assert min(gaps) >= UPDATE_INTERVAL * 0.9, gaps
    later = [c for c in slack_api.calls if c.at > final.at and c.args.get("ts") == ts]
    assert later == []

    blocks = final.args["blocks"]
    assert limit_violations(blocks) == []
    delivered = await bot.front.answers.by_ts(CHANNEL, ts)
    assert delivered is not None
    assert delivered.conversation_id == f"{CHANNEL}:1700000000.000100"
    expected = bot.front.messages_for(delivered.answer, delivered.conversation_id, delivered.roles)
    assert blocks == expected[0].blocks
    assert source_buttons(blocks)


async def test_a_follow_up_in_the_thread_sees_the_first_exchange(bot, slack_api, service):
    first = mention(QUESTION, "1700000000.000200")
    _, first_final, first_ts = await answered(bot, slack_api, first)
    first_answer = (await bot.front.answers.by_ts(CHANNEL, first_ts)).answer

    follow_up = mention("And with cufflinks?", "1700000000.000300", thread_ts="1700000000.000200")
    _, second_final, second_ts = await answered(bot, slack_api, follow_up)
    assert second_ts != first_ts

    history = await service.history.get(f"{CHANNEL}:1700000000.000200")
    contents = [m["content"] for m in history]
    assert contents[0] == QUESTION
    assert contents[1] == history_text(first_answer)  # the first answer, as the model reads it
    assert contents[2] == "And with cufflinks?"
    assert len(contents) == 4


async def test_the_mention_is_not_part_of_the_question(bot, slack_api, service):
    await answered(bot, slack_api, mention(QUESTION, "1700000000.000400"))
    history = await service.history.get(f"{CHANNEL}:1700000000.000400")
    assert history[0]["content"] == QUESTION


async def test_a_429_is_retried_after_its_retry_after(bot, slack_api):
    slack_api.rate_limit_once("chat.postMessage", retry_after=1)
    event = mention(QUESTION, "1700000000.000500")
    await bot.sender.event(event)
    posts = await slack_api.wait_for(lambda: len(slack_api.calls_to("chat.postMessage")) >= 2
                                     and slack_api.calls_to("chat.postMessage"))
    limited, retried = posts[0], posts[1]
    assert limited.status == 429
    assert retried.status == 200
    assert retried.args["thread_ts"] == limited.args["thread_ts"] == "1700000000.000500"
    assert retried.at - limited.at >= 1.0
    ts = retried.response["ts"]
    await slack_api.wait_for(lambda: final_update(slack_api, ts))
    assert len(slack_api.calls_to("chat.postMessage")) == 2  # retried once, not posted twice
