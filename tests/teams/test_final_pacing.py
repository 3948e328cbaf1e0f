"""The final answer is not held back by pacing: updates to one Teams message stay an interval
apart, but an update the final answer superseded uses no turn, so a quick answer arrives one
interval after the first informative update, not two (measured: Teams' serial final was twice
Slack's, 2.0 s against 1.0 s, at the production interval of 1 s)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.teams import activities
from tests.teams.conftest import real_service, start_server

INTERVAL = 1.0  # the production interval: the bug was one whole extra interval


class QuickAssistant:
    """The real assistant's events for a question, recorded once, then replayed as a quick answer
    would come: a status line, the text 0.3 s later and the final answer 0.2 s after that (all well
    inside one interval), so only pacing decides when Teams sees the final answer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.knowledge = inner.knowledge
        self.recorded: dict[str, list[Any]] = {}

    async def record(self, question: str, user: Any) -> None:
        self.recorded[question] = [e async for e in self.inner.ask(question, user, "recording")]

    async def ask(self, question: str, user: Any, conversation_id: str):
        for n, event in enumerate(self.recorded[question]):
            if n == 1 or event.kind == "final":
                await asyncio.sleep(0.3 if n == 1 else 0.2)
            yield event


async def test_a_ready_answer_is_final_one_interval_after_the_first_update(tmp_path, sample_index,
                                                                           sample_knowledge, connector):
    from bot.answer import User
    from events.event_log import open_event_log

    made: list[QuickAssistant] = []

    def make_service(settings: Any) -> QuickAssistant:
        made.append(QuickAssistant(real_service(settings, sample_knowledge,
                                                  open_event_log(settings, register_exit=False), tmp_path)))
        return made[0]

    question = "Can I pay with my fridge?"
    running, runner = await start_server(tmp_path, sample_index, sample_knowledge, service=make_service,
                                         settings={"teams_update_interval": INTERVAL})
    try:
        await made[0].record(question, User(id="recorder"))
        kinds = [e.kind for e in made[0].recorded[question]]
        assert kinds[0] == "status" and kinds[-1] == "final" and "token" in kinds
        status, _ = await running.post(activities.message(connector.url, question))
        assert status in (200, 201, 202)
        calls = await connector.wait_for(lambda cs: any(c.type == "message" for c in cs))
    finally:
        await runner.cleanup()
        running.event_log.close()
    first, final = calls[0], next(c for c in calls if c.type == "message")
    assert first.type == "typing" and first.stream_info()["streamType"] == "informative"
    times = [c.at for c in calls]
    assert min(b - a for a, b in zip(times, times[1:], strict=False)) >= INTERVAL * 0.9, "still paced"
    # one interval after the first update; before the fix, a second one on top (2.0 s)
    assert final.at - first.at < INTERVAL * 1.5, final.at - first.at
