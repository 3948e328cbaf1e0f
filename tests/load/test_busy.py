"""Overload: beyond the bounded queue a question is told at once, in its language, that the bot is
busy; a waiting question that runs out of patience gets the same; a slot is never leaked."""

from __future__ import annotations

import asyncio

from bot.answer import User
from bot.answer_slots import AnswerSlots, Busy, busy_text, queued_text
from tests.load.conftest import service_for


async def _final(service, question: str, conversation: str = "c", statuses: list[str] | None = None):
    async for event in service.ask(question, User(id="u1"), conversation):
        if event.kind == "status" and statuses is not None:
            statuses.append(event.text)
        if event.kind == "final":
            return event.answer
    raise AssertionError("no final event")


async def test_a_full_queue_answers_busy_at_once_in_the_question_language(sample_index, load_knowledge, tmp_path):
    service = service_for(sample_index, load_knowledge, tmp_path, max_concurrent_answers=1,
                          max_waiting_answers=0)
    await service.slots.acquire()  # another user's answer holds the only slot
    try:
        answer = await asyncio.wait_for(
            _final(service, "Quels sont les frais pour un virement transfrontalier ?"), 30)
    finally:
        service.slots.release()
    assert answer.outcome == "refused"
    assert answer.text == busy_text("fr") and "réessayer" in answer.text
    assert answer.reason.startswith("busy")
    # once the slot is free the same question is answered normally
    again = await _final(service, "Quels sont les frais pour un virement transfrontalier ?")
    assert not (again.reason or "").startswith("busy")
    assert service.slots.active == 0


async def test_a_question_that_waits_too_long_is_told_busy(sample_index, load_knowledge, tmp_path):
    service = service_for(sample_index, load_knowledge, tmp_path, max_concurrent_answers=1,
                          max_waiting_answers=5, answer_wait_seconds=0.2)
    await service.slots.acquire()
    try:
        statuses: list[str] = []
        answer = await _final(service, "Wat zijn de kosten van een overschrijving naar het buitenland?",
                              statuses=statuses)
    finally:
        service.slots.release()
    assert answer.outcome == "refused" and answer.text == busy_text("nl")
    assert statuses == [queued_text("nl")]  # the asker saw at once that the question was heard
    assert service.slots.active == 0 and service.slots.waiting == 0


async def test_slots_hand_over_in_order_and_survive_cancelled_waiters():
    slots = AnswerSlots(concurrent=1, waiting=3, wait_seconds=10)
    await slots.acquire()
    order: list[int] = []

    async def wait(i: int) -> None:
        await slots.acquire()
        order.append(i)
        slots.release()

    first, gone, last = (asyncio.create_task(wait(i)) for i in (1, 2, 3))
    await asyncio.sleep(0)
    assert slots.waiting == 3
    try:
        await asyncio.wait_for(slots.acquire(), 1)  # the waiting room is full
        raise AssertionError("a fourth waiter was admitted")
    except Busy:
        pass
    gone.cancel()
    await asyncio.sleep(0)
    slots.release()
    await asyncio.gather(first, last)
    assert order == [1, 3]
    assert slots.active == 0 and slots.waiting == 0


def test_the_slots_work_across_successive_event_loops():
    slots = AnswerSlots(concurrent=1, waiting=1, wait_seconds=5)

    async def twice() -> None:
        await slots.acquire()
        waiter = asyncio.create_task(slots.acquire())
        await asyncio.sleep(0.01)
        slots.release()
        await waiter
        slots.release()

    asyncio.run(twice())
    asyncio.run(twice())
    assert slots.active == 0
