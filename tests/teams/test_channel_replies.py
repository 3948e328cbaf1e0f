"""Channels and group chats: the bot answers only when @mentioned, posts at once into the thread,
edits that message as the answer grows (throttled), and the last edit is the final answer."""

from __future__ import annotations

import asyncio
import re

from tests.teams import activities
from tests.teams.conftest import UPDATE_INTERVAL


def _final_edit(calls):
    return next((c for c in calls if c.method == "PUT" and c.message_entity()), None)


async def test_channel_mention_posts_then_edits_into_the_final_answer(server, connector):
    thread = activities.channel()
    inbound = activities.message(connector.url, "Can I pay with my fridge?",
                                 conversation=thread, mention_bot=True)
    status, _ = await server.post(inbound)
    assert status in (200, 201, 202)

    calls = await connector.wait_for(lambda cs: _final_edit(cs) is not None)
    posted, *edits = calls
    assert posted.method == "POST" and posted.type == "message"
    assert posted.conversation_id == thread["id"]  # the thread: the reply lands under the question
    assert posted.activity_id == inbound["id"]
    assert posted.stream_info() is None and all(c.stream_info() is None for c in calls)
    assert [c.method for c in edits] == ["PUT"] * len(edits) and edits
    assert {c.activity_id for c in edits} == {posted.returned_id}

    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert min(gaps) >= UPDATE_INTERVAL * 0.5, gaps

    final = edits[-1]
    assert final is _final_edit(calls)
    assert final.body["channelData"]["feedbackLoop"] == {"type": "default"}  # the SDK's feedback buttons
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", final.body["text"])}
    assert markers and {c["position"] for c in final.message_entity()["citation"]} == markers
    assert final.body["attachments"][0]["contentType"] == "application/vnd.microsoft.card.adaptive"

    await asyncio.sleep(UPDATE_INTERVAL * 2)
    assert len(connector.calls) == len(calls), "nothing is sent after the final edit"

    # the assistant got the question without the mention, in the thread's own conversation
    [(question, _, conversation_id)] = server.service.questions
    assert question == "Can I pay with my fridge?"
    assert conversation_id == f"teams:{thread['id']}"


async def test_channel_message_without_mention_gets_no_answer(server, connector):
    inbound = activities.message(connector.url, "just chatting with colleagues",
                                 conversation=activities.group_chat(), mention_bot=False)
    status, _ = await server.post(inbound)
    assert status in (200, 201, 202)
    await asyncio.sleep(UPDATE_INTERVAL * 3)
    assert connector.calls == []


async def test_group_chat_mention_is_answered_with_edits(server, connector):
    chat = activities.group_chat()
    inbound = activities.message(connector.url, "What is the refund fee?", conversation=chat, mention_bot=True)
    await server.post(inbound)
    calls = await connector.wait_for(lambda cs: _final_edit(cs) is not None)
    assert calls[0].method == "POST" and calls[0].conversation_id == chat["id"]
    assert all(c.type == "message" for c in calls)
