"""The ways an answer is written into Slack, fed a fast token stream, against the Web API stand-in:
edits and stream appends never come faster than the interval, and the final answer is the last
state even when an edit fails."""

from __future__ import annotations

import asyncio

import pytest

from adapters.slack.front_end import build_web_client
from adapters.slack.replies import EditedReply, StreamedReply, assistant_status
from cards.block_kit import SlackMessage
from config.settings import Settings

INTERVAL = 0.25
FINAL = [SlackMessage(text="final", blocks=[{"type": "markdown", "text": "final"}]),
         SlackMessage(text="part 2", blocks=[{"type": "markdown", "text": "part 2"}])]


@pytest.fixture
def client(slack_api):
    return build_web_client(Settings(_env_file=None, slack_bot_token="xoxb-test", slack_api_url=slack_api.api_url))


async def feed(reply, seconds: float) -> None:
    await reply.begin("Searching the rulebooks…")
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    n = 0
    while loop.time() < end:
        await reply.token(f"Word{n} ")
        n += 1
        await asyncio.sleep(0.01)


def gaps(moments: list[float]) -> list[float]:
    return [b - a for a, b in zip(moments, moments[1:], strict=False)]


async def test_edits_come_at_most_once_per_interval_and_the_final_answer_is_the_last_state(client, slack_api):
    reply = EditedReply(client, "C1", "1.0", INTERVAL)
    await feed(reply, 1.2)
    posted = await reply.finish(FINAL)

    post = slack_api.calls_to("chat.postMessage")[0]
    edits = slack_api.calls_to("chat.update")
    assert 3 <= len(edits) <= 1.2 / INTERVAL + 2
    assert min(gaps([post.at] + [e.at for e in edits])) >= INTERVAL * 0.9
    assert edits[-1].args["text"] == "final"
    assert "Word" in edits[-2].args["text"]  # the text grew in place before the final
    overflow = slack_api.calls_to("chat.postMessage")[1]
    assert overflow.args["thread_ts"] == "1.0" and overflow.args["text"] == "part 2"
    assert posted == [("C1", post.response["ts"]), ("C1", overflow.response["ts"])]


async def test_when_the_placeholder_cannot_be_edited_the_final_answer_is_posted(client, slack_api):
    reply = EditedReply(client, "C1", "1.0", INTERVAL)
    await reply.begin("Searching the rulebooks…")
    slack_api.refuse_once("chat.update", "message_not_found")
    posted = await reply.finish(FINAL[:1])
    final = slack_api.calls_to("chat.postMessage")[-1]
    assert final.args["text"] == "final" and final.args["thread_ts"] == "1.0"
    assert posted == [("C1", final.response["ts"])]


async def test_stream_appends_come_at_most_once_per_interval_and_carry_every_token(client, slack_api):
    reply = StreamedReply(client, "D1", "1.0", recipient_user_id="U1", recipient_team_id="T1",
                          interval=INTERVAL, in_assistant_thread=True)
    await feed(reply, 1.2)
    await reply.finish(FINAL[:1])

    stream_calls = [c for c in slack_api.calls if c.method in ("chat.startStream", "chat.appendStream")]
    assert min(gaps([c.at for c in stream_calls])) >= INTERVAL * 0.9
    streamed = "".join(ch["text"] for c in slack_api.calls
                       if c.method in ("chat.startStream", "chat.appendStream", "chat.stopStream")
                       for ch in c.args.get("chunks") or [])
    assert streamed.split() == [f"Word{i}" for i in range(len(streamed.split()))]
    assert slack_api.calls[-1].method == "chat.update"
    assert slack_api.calls[-1].args["text"] == "final"
    status = slack_api.calls_to("assistant.threads.setStatus")[0]
    assert status.args["status"] == "is searching the rulebooks…"


def test_assistant_status_reads_after_the_apps_name():
    assert assistant_status("Reading section 4.2 of PS-04…") == "is reading section 4.2 of PS-04…"
    assert assistant_status("is thinking") == "is thinking"
    assert assistant_status("  ") == ""


def test_edits_and_appends_default_to_one_a_second():
    from adapters.slack.front_end import SlackFrontEnd

    settings = Settings(_env_file=None, slack_signing_secret="s", slack_bot_token="xoxb-test")
    assert settings.slack_update_interval == 1.0
    assert SlackFrontEnd(service=None, settings=settings, event_sink=None).update_interval == 1.0


async def test_a_burst_longer_than_slacks_append_limit_streams_in_pieces_at_the_interval(client, slack_api):
    from adapters.slack.replies import STREAM_APPEND_LIMIT

    reply = StreamedReply(client, "D1", "1.0", recipient_user_id="U1", recipient_team_id="T1",
                          interval=INTERVAL)
    burst = " ".join(f"w{i}" for i in range(8000))  # ~46,000 characters released at once
    await reply.begin("Searching the rulebooks…")
    await reply.token(burst)
    await slack_api.wait_for(lambda: len([c for c in slack_api.calls if c.method in (
        "chat.startStream", "chat.appendStream")]) >= 4, timeout=10)
    await reply.finish(FINAL[:1])

    stream_calls = [c for c in slack_api.calls if c.method in ("chat.startStream", "chat.appendStream")]
    pieces = ["".join(ch["text"] for ch in c.args.get("chunks") or []) for c in stream_calls]
    assert all(0 < len(p) <= STREAM_APPEND_LIMIT for p in pieces)
    assert "".join(pieces) == burst
    assert min(gaps([c.at for c in stream_calls])) >= INTERVAL * 0.9
    assert slack_api.calls[-1].method == "chat.update" and slack_api.calls[-1].args["text"] == "final"
