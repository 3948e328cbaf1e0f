"""Feeds the assistant's event stream to a reply writer, no faster than the pacer allows.

The service is read as fast as it produces; the writer is shown only the latest state when its
turn comes, so slow updates never hold the answer back and skipped states cost nothing. An update
that the final answer follows soon (see `adapters.teams.pacing`) is not shown: the final message
goes out in its place.
A status line arriving after text has started is kept out of the text (a streamed message may only
grow).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from adapters.teams.pacing import STATUS_SETTLE, TEXT_SETTLE, UpdatePacer
from adapters.teams.reply_writers import Progress, ReplyWriter
from bot.answer import Answer, AnswerEvent, FinalEvent, StatusEvent, TokenEvent


class NoFinalAnswer(RuntimeError):
    """The service's stream ended without a final event."""


async def _ends_within(ended: asyncio.Event, seconds: float) -> bool:
    if seconds <= 0:
        return ended.is_set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(ended.wait(), seconds)
    return ended.is_set()


async def relay_answer(events: AsyncIterator[AnswerEvent], writer: ReplyWriter, pacer: UpdatePacer,
                       first_status: str = "") -> Answer:
    """Show the answer's progress through `writer`, then return the final answer (not yet sent).

    Every update but the first waits for the final answer before it takes a turn (new text
    `TEXT_SETTLE`, a new step line `STATUS_SETTLE` of the pacer's interval; see
    `adapters.teams.pacing`): an update shown just before the final answer would hold it back a
    whole interval."""
    progress = Progress(status=first_status, version=1 if first_status else 0)
    final: list[Answer] = []
    changed = asyncio.Event()
    if first_status:
        changed.set()
    ended = asyncio.Event()

    async def consume() -> None:
        try:
            async for event in events:
                if isinstance(event, StatusEvent):
                    if not progress.released and event.text != progress.status:
                        progress.status = event.text
                        progress.version += 1
                elif isinstance(event, TokenEvent):
                    if event.text:
                        progress.released += event.text
                        progress.version += 1
                elif isinstance(event, FinalEvent):
                    final.append(event.answer)
                changed.set()
        finally:
            ended.set()
            changed.set()

    consumer = asyncio.create_task(consume())
    shown = 0
    shown_text = 0  # characters of released text shown so far
    try:
        while not ended.is_set():
            await changed.wait()
            changed.clear()
            if ended.is_set() or progress.version == shown:
                continue
            settle = TEXT_SETTLE if len(progress.released) > shown_text else STATUS_SETTLE
            if shown and await _ends_within(ended, settle * pacer.interval):
                break  # the final answer came right behind this update: it goes out in the update's place
            if not await pacer.wait_turn(until=ended):
                break  # the final answer arrived while waiting: it supersedes this update, whose turn stays unused
            shown, shown_text = progress.version, len(progress.released)
            await writer.show(progress)
        await consumer  # re-raises what the service raised
    finally:
        if not consumer.done():
            consumer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await consumer
    if not final:
        raise NoFinalAnswer("the assistant's stream ended without a final answer")
    return final[-1]
