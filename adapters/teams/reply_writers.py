"""How a growing answer reaches Teams: native streaming in personal chats, an edited message elsewhere.

Both writers see the same `Progress` (the latest status line and the text released so far) and
end with the same final activity; they differ only in the wire protocol:
- `NativeStream`: typing activities carrying the `streaminfo` entity (informative while tools run,
  then streaming text), closed by a message whose `streaminfo` says `final`. Teams allows this in
  personal chats only.
- `EditedMessage`: one message posted at once and updated in place (`update_activity`), the last
  update being the final answer; for channels and group chats, where Teams does not stream.
A writer never fails the answer: if Teams refuses a streaming update, the final message is still
delivered, as a plain message if need be.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from typing import Protocol

from botbuilder.core import TurnContext
from botbuilder.schema import Activity, ActivityTypes

from adapters.teams.citations import shorten
from adapters.teams.entities import StreamInfo

log = logging.getLogger(__name__)

INFORMATIVE_LIMIT = 1000  # Teams refuses longer informative updates


@dataclass
class Progress:
    status: str = ""
    released: str = ""  # answer text released so far; it only ever grows
    version: int = 0


class ReplyWriter(Protocol):
    @property
    def message_id(self) -> str | None:
        """The Teams id the final answer will have, once known."""
        ...

    async def show(self, progress: Progress) -> None: ...

    async def finish(self, final: Activity) -> str:
        """Deliver the final answer; returns the Teams id of the message that holds it."""
        ...


class NativeStream:
    def __init__(self, context: TurnContext) -> None:
        self._context = context
        self.stream_id: str | None = None
        self.sequence = 0
        self._streaming = False
        self._refused = False

    @property
    def message_id(self) -> str | None:
        return self.stream_id

    async def show(self, progress: Progress) -> None:
        if self._refused:
            return
        if progress.released:
            stream_type, text = "streaming", progress.released
            self._streaming = True
        elif self._streaming:
            return  # once text streams, a streamed message may only grow: no status lines after it
        else:
            stream_type, text = "informative", shorten(progress.status, INFORMATIVE_LIMIT)
        if not text:
            return
        self.sequence += 1
        channel_data = {"streamType": stream_type, "streamSequence": self.sequence}
        if self.stream_id:
            channel_data["streamId"] = self.stream_id
        update = Activity(
            type=ActivityTypes.typing,
            text=text,
            entities=[StreamInfo(stream_type=stream_type, stream_id=self.stream_id,
                                 stream_sequence=self.sequence)],
            channel_data=channel_data,
        )
        try:
            response = await self._context.send_activity(update)
        except Exception as exc:  # Teams may refuse streaming (403 ContentStreamNotAllowed, 429)
            log.warning("Teams refused a streaming update (%s); the answer will arrive whole", exc)
            self._refused = True
            return
        if self.stream_id is None:
            self.stream_id = response.id if response and response.id else None
            if self.stream_id is None:
                self._refused = True

    async def finish(self, final: Activity) -> str:
        if self.stream_id:
            closing = _copy(final)
            closing.entities = list(closing.entities or []) + [
                StreamInfo(stream_type="final", stream_id=self.stream_id)]
            closing.channel_data = {**(closing.channel_data or {}), "streamType": "final",
                                    "streamId": self.stream_id}
            try:
                await self._context.send_activity(closing)
                return self.stream_id
            except Exception as exc:
                log.warning("Teams refused the final streamed message (%s); sending it plainly", exc)
        response = await self._context.send_activity(final)
        return response.id if response and response.id else ""


class EditedMessage:
    def __init__(self, context: TurnContext) -> None:
        self._context = context
        self.activity_id: str | None = None
        self._refused = False

    @property
    def message_id(self) -> str | None:
        return self.activity_id

    @staticmethod
    def _interim_text(progress: Progress) -> str:
        if progress.released:
            return progress.released + " …"
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

    async def finish(self, final: Activity) -> str:
        if self.activity_id:
            edit = _copy(final)
            edit.id = self.activity_id
            try:
                await self._context.update_activity(edit)
                return self.activity_id
            except Exception as exc:
                log.warning("Teams refused the final edit (%s); posting the answer anew", exc)
        response = await self._context.send_activity(final)
        return response.id if response and response.id else ""


def _copy(activity: Activity) -> Activity:
    # shallow: callers replace (never mutate) the lists and dicts they change
    return copy.copy(activity)
