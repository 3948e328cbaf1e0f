"""An interim update that the final answer follows at once is not sent: the final answer goes out in
its place instead of waiting a whole update interval behind it (Teams' relay, Slack's edits). An
update the final answer does not follow soon is still shown. Sequences are asserted, not times:
"soon" is a fifth of the settle period (both are timers of one event loop, so their order holds
however slow the machine), "not soon" is many settle periods later."""

from __future__ import annotations

import asyncio
from typing import Any

from adapters.slack.replies import EditedReply
from adapters.teams.answer_relay import relay_answer
from adapters.teams.pacing import UpdatePacer
from adapters.teams.reply_writers import Progress
from bot.answer import Answer, FinalEvent, StatusEvent, TokenEvent
from cards.block_kit import notice_message

INTERVAL = 0.2  # settles a quarter of it
RIGHT_BEHIND = INTERVAL / 20


class ShownUpdates:
    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []
        self.message_id = None

    async def show(self, progress: Progress) -> None:
        self.shown.append((progress.status, progress.released))


async def _events(text_to_final: float):
    yield StatusEvent("Searching the rulebooks…")
    await asyncio.sleep(INTERVAL * 2)  # past the first turn: the text may take the next one
    yield TokenEvent("The limit is 10 seconds [1].")
    await asyncio.sleep(text_to_final)
    yield FinalEvent(Answer(text="The limit is 10 seconds [1].", outcome="answered"))


async def test_teams_text_followed_at_once_by_the_final_answer_is_not_streamed():
    writer = ShownUpdates()
    answer = await relay_answer(_events(RIGHT_BEHIND), writer, UpdatePacer(INTERVAL), first_status="Searching the rulebooks…")
    assert answer.text == "The limit is 10 seconds [1]."
    assert writer.shown == [("Searching the rulebooks…", "")]  # the first status only


async def test_teams_text_the_final_answer_keeps_waiting_for_is_streamed():
    writer = ShownUpdates()
    await relay_answer(_events(INTERVAL * 3), writer, UpdatePacer(INTERVAL), first_status="Searching the rulebooks…")
    assert writer.shown == [("Searching the rulebooks…", ""),
                            ("Searching the rulebooks…", "The limit is 10 seconds [1].")]


class SlackCalls:
    """Slack's Web API as the reply sees it: each call recorded, each answered ok."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def chat_postMessage(self, **kwargs: Any) -> dict:
        self.calls.append(("postMessage", kwargs.get("text", "")))
        return {"ok": True, "ts": "1.000001"}

    async def chat_update(self, **kwargs: Any) -> dict:
        self.calls.append(("update", kwargs.get("text", "")))
        return {"ok": True, "ts": kwargs.get("ts")}


async def _slack_answer(text_to_final: float) -> list[tuple[str, str]]:
    client = SlackCalls()
    reply = EditedReply(client, "C1", "1.0", interval=INTERVAL)  # type: ignore[arg-type]
    await reply.begin("Searching the rulebooks…")
    await asyncio.sleep(INTERVAL * 2)
    await reply.token("The limit is 10 seconds [1].")
    await asyncio.sleep(text_to_final)
    await reply.finish([notice_message("FINAL")])
    return client.calls


async def test_slack_text_followed_at_once_by_the_final_answer_is_not_edited_in_first():
    calls = await _slack_answer(RIGHT_BEHIND)
    assert [kind for kind, _ in calls] == ["postMessage", "update"]
    assert "FINAL" in calls[-1][1]


async def test_slack_text_the_final_answer_keeps_waiting_for_is_edited_in():
    calls = await _slack_answer(INTERVAL * 3)
    assert [kind for kind, _ in calls] == ["postMessage", "update", "update"]
    assert "The limit is 10 seconds" in calls[1][1] and "FINAL" in calls[2][1]


async def _status_events(status_to_final: float):
    yield StatusEvent("Searching the rulebooks…")
    await asyncio.sleep(INTERVAL * 2)
    yield StatusEvent("Reading section 4.2 of PS-04…")
    await asyncio.sleep(status_to_final)
    yield TokenEvent("The limit is 10 seconds [1].")
    yield FinalEvent(Answer(text="The limit is 10 seconds [1].", outcome="answered"))


async def test_teams_a_step_line_is_shown_only_once_it_has_stood_a_whole_interval():
    quick, slow = ShownUpdates(), ShownUpdates()
    await relay_answer(_status_events(INTERVAL / 2), quick, UpdatePacer(INTERVAL), first_status="Searching the rulebooks…")
    await relay_answer(_status_events(INTERVAL * 4), slow, UpdatePacer(INTERVAL), first_status="Searching the rulebooks…")
    assert quick.shown == [("Searching the rulebooks…", "")]
    assert slow.shown == [("Searching the rulebooks…", ""), ("Reading section 4.2 of PS-04…", "")]


async def test_slack_a_status_line_is_edited_in_once_it_has_stood_a_whole_interval_and_never_twice():
    async def answer(status_to_final: float) -> list[tuple[str, str]]:
        client = SlackCalls()
        reply = EditedReply(client, "C1", "1.0", interval=INTERVAL)  # type: ignore[arg-type]
        await reply.begin("Searching the rulebooks…")
        await reply.status("Searching the rulebooks…")  # what the placeholder already says: no edit
        await asyncio.sleep(INTERVAL * 2)
        await reply.status("Reading section 4.2 of PS-04…")
        await asyncio.sleep(status_to_final)
        await reply.finish([notice_message("FINAL")])
        return client.calls

    assert [kind for kind, _ in await answer(INTERVAL / 2)] == ["postMessage", "update"]
    slow = await answer(INTERVAL * 4)
    assert [kind for kind, _ in slow] == ["postMessage", "update", "update"]
    assert "Reading section 4.2" in slow[1][1] and "FINAL" in slow[2][1]
