"""How a growing answer reaches Teams: native streaming in personal chats, an edited message elsewhere.

Both writers see the same `Progress` (the latest status line and the text released so far) and
end with the same final message parts; they differ only in the wire protocol:
- `NativeStream`: the SDK's `StreamingResponse` (`adapters.teams.answer_stream`): informative
  updates naming what the assistant is doing, then the growing text, closed by the final message.
  Teams allows this in personal chats only, and for two minutes: a stream still open at
  `stream_limit` seconds is ended with a short note and the answer arrives as an edit of it.
- `EditedMessage`: one message posted at once and updated in place, the last update being the
  final answer; for channels and group chats, where Teams does not stream.
Text longer than one message allows is not streamed beyond that size; the final answer then
arrives in several messages (`adapters.teams.final_message`). A writer never fails the answer:
if Teams refuses the stream or an update, the final message is still delivered plainly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Protocol

from microsoft_agents.activity import Activity, ActivityTypes
from microsoft_agents.hosting.core import TurnContext

from adapters.teams.answer_stream import AnswerStream
from adapters.teams.citations import shorten
from adapters.teams.final_message import MESSAGE_LIMIT, MessagePart, streamable_length

log = logging.getLogger(__name__)

INFORMATIVE_LIMIT = 1000  # Teams refuses longer informative updates
STREAM_LIMIT = 100.0  # seconds; Teams ends a stream with a 403 after 2 minutes
STILL_WORKING_TEXT = "_Still working on this answer: it will appear here in full._"


@dataclass
class Progress:
    status: str = ""
    released: str = ""  # answer text released so far; it only ever grows
    version: int = 0


class ReplyWriter(Protocol):
    @property
    def message_id(self) -> str | None:
        """The Teams id the (first part of the) final answer will have, once known."""
        ...

    async def show(self, progress: Progress) -> None: ...

    async def finish(self, parts: list[MessagePart]) -> str:
        """Deliver the final answer; returns the Teams id of the message holding its last part."""
        ...


async def _send_plainly(context: TurnContext, parts: list[MessagePart]) -> str:
    last = ""
    for part in parts:
        response = await context.send_activity(part.activity())
        last = response.id if response and response.id else last
    return last


class NativeStream:
    def __init__(self, context: TurnContext, interval: float, stream_limit: float = STREAM_LIMIT,
                 message_limit: int = MESSAGE_LIMIT) -> None:
        self._context = context
        self._stream = AnswerStream(context, interval)
        self._stream_limit = stream_limit
        self._message_limit = message_limit
        self._streamed = ""  # the text handed to the stream so far
        self._status = ""
        self._deadline: asyncio.Task[None] | None = None
        self._ending_early = False

    @property
    def message_id(self) -> str | None:
        return self._stream.stream_id

    def _start_clock(self) -> None:
        if self._deadline is None:
            self._deadline = asyncio.create_task(self._end_stream_in_time())

    async def _end_stream_in_time(self) -> None:
        await asyncio.sleep(self._stream_limit)
        self._ending_early = True  # from here on, let it finish: a half-sent notice would leave the stream open
        log.info("the answer is still being written after %.0fs: ending the stream before Teams does",
                 self._stream_limit)
        await self._stream.send_stream_timed_out_notification(STILL_WORKING_TEXT)

    async def show(self, progress: Progress) -> None:
        self._start_clock()
        if progress.released:
            new = progress.released[len(self._streamed):]
            if new and streamable_length(progress.released, self._message_limit):
                self._streamed = progress.released
                self._stream.queue_text_chunk(new)
        elif not self._streamed and progress.status and progress.status != self._status:
            # once text streams, a streamed message may only grow: no status lines after it
            self._status = progress.status
            self._stream.queue_informative_update(shorten(progress.status, INFORMATIVE_LIMIT))

    async def finish(self, parts: list[MessagePart]) -> str:
        if self._deadline is not None:
            if not self._ending_early:
                self._deadline.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._deadline
        first, rest = parts[0], parts[1:]
        self._stream.set_final(first)
        try:
            await self._stream.end_stream()
        except Exception as exc:
            log.warning("Teams refused the end of the stream (%s); sending the answer plainly", exc)
            return await _send_plainly(self._context, parts)
        if self._stream.refused or not self._stream.stream_id:
            log.warning("Teams refused the stream; sending the answer plainly")
            return await _send_plainly(self._context, parts)
        return await _send_plainly(self._context, rest) if rest else self._stream.stream_id


class EditedMessage:
    def __init__(self, context: TurnContext, message_limit: int = MESSAGE_LIMIT) -> None:
        self._context = context
        self._message_limit = message_limit
        self.activity_id: str | None = None
        self._refused = False

    @property
    def message_id(self) -> str | None:
        return self.activity_id

    def _interim_text(self, progress: Progress) -> str:
        if progress.released:
            text = progress.released
            while text and not streamable_length(text, self._message_limit):
                text = text[: len(text) * 3 // 4]  # the whole answer arrives in parts at the end
            return text + " …"
        return f"_{progress.status}_" if progress.status else "…"

    async def show(self, progress: Progress) -> None:
        if self._refused:
            return
        interim = Activity(type=ActivityTypes.message, text=self._interim_text(progress),
                           text_format="markdown")
        try:
            if self.activity_id is None:
                response = await self._context.send_activity(interim)
                self.activity_id = response.id if response and response.id else None
                self._refused = self.activity_id is None
            else:
                interim.id = self.activity_id
                await self._context.update_activity(interim)
        except Exception as exc:
            log.warning("Teams refused an interim update (%s); the answer will arrive whole", exc)
            self._refused = self.activity_id is None

    async def finish(self, parts: list[MessagePart]) -> str:
        if self.activity_id:
            edit = parts[0].activity()
            edit.id = self.activity_id
            try:
                await self._context.update_activity(edit)
            except Exception as exc:
                log.warning("Teams refused the final edit (%s); posting the answer anew", exc)
            else:
                return await _send_plainly(self._context, parts[1:]) if parts[1:] else self.activity_id
        return await _send_plainly(self._context, parts)
