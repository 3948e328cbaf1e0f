"""Feeds the assistant's event stream to a reply writer, no faster than the pacer allows.

The service is read as fast as it produces; the writer is shown only the latest state when its
turn comes, so slow updates never hold the answer back and skipped states cost nothing. A status
line arriving after text has started is kept out of the text (a streamed message may only grow).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from adapters.teams.pacing import UpdatePacer
from adapters.teams.reply_writers import Progress, ReplyWriter
from bot.answer import Answer, AnswerEvent, FinalEvent, StatusEvent, TokenEvent


class NoFinalAnswer(RuntimeError):
    """The service's stream ended without a final event."""


async def relay_answer(events: AsyncIterator[AnswerEvent], writer: ReplyWriter, pacer: UpdatePacer,
                       first_status: str = "") -> Answer:
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
    try:
        while not ended.is_set():
            await changed.wait()
            changed.clear()
            if ended.is_set() or progress.version == shown:
                continue
            if not await pacer.wait_turn(until=ended):
                break  # the final answer arrived while waiting: it supersedes this update, whose turn stays unused
            shown = progress.version
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
