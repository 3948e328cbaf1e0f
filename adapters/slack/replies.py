"""How an answer reaches Slack while it is being written: three ways, one interface.

- `StreamedReply`: Slack's streaming API (chat.startStream / appendStream / stopStream), for DMs
  and AI assistant threads, with the assistant "is searching the rulebooks…" status while tools
  run. If Slack refuses to stream (the app lacks the Agents & AI Apps feature, an old workspace),
  it falls back to an `EditedReply` without losing text.
- `EditedReply`: post a message at once and edit it (chat.update) as the answer grows, at most one
  edit per interval, for channel threads.
- `EphemeralReply`: one private message at the end (slash commands).

Every reply ends with `finish(messages)`: the final, gated answer as Block Kit, replacing whatever
was streamed, so that the last state of the conversation is always the final answer. Rate limits
(429 + Retry-After) are honoured by the web client's retry handler, not here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_chat_stream import AsyncChatStream
from slack_sdk.web.async_client import AsyncWebClient

from cards.block_kit import SlackMessage, progress_message

log = logging.getLogger("rulebook.slack")

Posted = list[tuple[str, str]]  # (channel, ts) of each message of the answer
STREAM_APPEND_LIMIT = 12_000  # Slack's limit on the markdown text of one append/stop call


class Reply(Protocol):
    async def begin(self, status: str) -> None: ...
    async def status(self, text: str) -> None: ...
    async def token(self, text: str) -> None: ...
    async def finish(self, messages: list[SlackMessage]) -> Posted: ...


def assistant_status(text: str) -> str:
    """Slack shows the status after the app's name: "Rulebook Assistant is searching the rulebooks…"."""
    text = text.strip()
    if not text:
        return ""
    if text.lower().startswith("is "):
        return text
    return "is " + text[0].lower() + text[1:]


class _Throttle:
    """Runs `push` after changes, never more often than once per `interval` seconds; `close()`
    waits for a push in flight so that nothing lands after the final message."""

    def __init__(self, interval: float, push: Callable[[], Awaitable[None]]) -> None:
        self.interval = interval
        self.last_push = -interval  # nothing sent yet: the first push may go at once
        self._push = push
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()
        self._closed = False
        self._task: asyncio.Task[None] | None = None

    def changed(self) -> None:
        if self._closed:
            return
        self._changed.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self._changed.wait()
            await asyncio.sleep(max(0.0, self.last_push + self.interval - time.monotonic()))
            async with self._lock:
                if self._closed:
                    return
                self._changed.clear()
                try:
                    await self._push()
                except SlackApiError as exc:  # an interim update is not worth failing the answer for
                    log.warning("interim Slack update failed: %s", exc.response.get("error"))
                self.last_push = time.monotonic()

    async def close(self, wait_interval: bool = True) -> None:
        """Stop pushing; with `wait_interval`, also wait until the next push would be allowed."""
        self._closed = True
        async with self._lock:
            if self._task is not None:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
        if wait_interval:
            await asyncio.sleep(max(0.0, self.last_push + self.interval - time.monotonic()))


async def _post_rest(client: AsyncWebClient, channel: str, thread_ts: str | None,
                     messages: list[SlackMessage]) -> Posted:
    posted: Posted = []
    for message in messages:
        response = await client.chat_postMessage(channel=channel, thread_ts=thread_ts,
                                                 text=message.text, blocks=message.blocks)
        posted.append((channel, str(response["ts"])))
    return posted


class EditedReply:
    """A message posted at once and edited in place; the last edit is the final answer."""

    def __init__(self, client: AsyncWebClient, channel: str, thread_ts: str | None,
                 interval: float = 1.0) -> None:
        self.client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self.ts: str | None = None
        self.text = ""
        self.status_text: str | None = None
        self._throttle = _Throttle(interval, self._edit)

    async def begin(self, status: str) -> None:
        self.status_text = status
        message = progress_message(self.text, status)
        response = await self.client.chat_postMessage(channel=self.channel, thread_ts=self.thread_ts,
                                                      text=message.text, blocks=message.blocks)
        self.ts = str(response["ts"])
        self._throttle.last_push = time.monotonic()
        if self.text:
            self._throttle.changed()

    async def status(self, text: str) -> None:
        self.status_text = text
        self._throttle.changed()

    async def token(self, text: str) -> None:
        self.text += text
        self.status_text = None  # the answer is being written: tools are done
        self._throttle.changed()

    async def _edit(self) -> None:
        message = progress_message(self.text, self.status_text)
        await self.client.chat_update(channel=self.channel, ts=self.ts, text=message.text,
                                      blocks=message.blocks)

    async def finish(self, messages: list[SlackMessage]) -> Posted:
        await self._throttle.close()
        first, rest = messages[0], messages[1:]
        posted: Posted
        try:
            if self.ts is None:
                raise LookupError("nothing posted yet")
            await self.client.chat_update(channel=self.channel, ts=self.ts, text=first.text,
                                          blocks=first.blocks)
            posted = [(self.channel, self.ts)]
        except (SlackApiError, LookupError) as exc:
            # The placeholder is gone (deleted, too old to edit): the answer still has to arrive.
            log.warning("could not edit the answer in place (%s); posting it instead", exc)
            posted = await _post_rest(self.client, self.channel, self.thread_ts, [first])
        return posted + await _post_rest(self.client, self.channel, self.thread_ts, rest)


class StreamedReply:
    """Slack's native text streaming into a thread, closed by the final answer's blocks."""

    def __init__(self, client: AsyncWebClient, channel: str, thread_ts: str, *,
                 recipient_user_id: str | None, recipient_team_id: str | None,
                 interval: float = 1.0, in_assistant_thread: bool = False) -> None:
        self.client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self.recipient_user_id = recipient_user_id
        self.recipient_team_id = recipient_team_id
        self.in_assistant_thread = in_assistant_thread
        self.streamed = ""
        self.pending = ""
        self.status_text: str | None = None
        self._stream: AsyncChatStream | None = None
        self._fallback: EditedReply | None = None
        self._throttle = _Throttle(interval, self._flush)

    async def begin(self, status: str) -> None:
        await self.status(status)

    async def status(self, text: str) -> None:
        self.status_text = text
        if self._fallback is not None:
            await self._fallback.status(text)
        elif self.in_assistant_thread:
            try:
                await self.client.assistant_threads_setStatus(
                    channel_id=self.channel, thread_ts=self.thread_ts, status=assistant_status(text))
            except SlackApiError as exc:
                log.warning("could not set the assistant status: %s", exc.response.get("error"))

    async def token(self, text: str) -> None:
        if self._fallback is not None:
            await self._fallback.token(text)
            return
        self.pending += text
        self._throttle.changed()

    async def _flush(self) -> None:
        if not self.pending or self._fallback is not None:
            return
        # one append per turn, within Slack's size limit; a longer burst goes out over later turns
        text, self.pending = self.pending[:STREAM_APPEND_LIMIT], self.pending[STREAM_APPEND_LIMIT:]
        try:
            if self._stream is None:
                # buffer_size=1: our throttle decides when to send, the helper only tracks state
                self._stream = await self.client.chat_stream(
                    channel=self.channel, thread_ts=self.thread_ts, buffer_size=1,
                    recipient_user_id=self.recipient_user_id, recipient_team_id=self.recipient_team_id)
            await self._stream.append(markdown_text=text)
            self.streamed += text
            if self.pending:
                self._throttle.changed()
        except SlackApiError as exc:
            if self._stream is not None and self._stream.ts:
                raise
            log.warning("Slack refused to stream (%s); editing a message instead",
                        exc.response.get("error"))
            self._fallback = EditedReply(self.client, self.channel, self.thread_ts,
                                         self._throttle.interval)
            self._fallback.text, self.pending = self.streamed + text + self.pending, ""
            await self._fallback.begin(self.status_text or "")

    async def finish(self, messages: list[SlackMessage]) -> Posted:
        await self._throttle.close(wait_interval=False)
        if self._fallback is not None:
            return await self._fallback.finish(messages)
        first, rest = messages[0], messages[1:]
        if self._stream is None or not self._stream.ts:
            # Nothing was streamed yet (a short or blocked answer): one message says it all.
            posted = await _post_rest(self.client, self.channel, self.thread_ts, [first])
            return posted + await _post_rest(self.client, self.channel, self.thread_ts, rest)
        ts = self._stream.ts
        try:
            # whatever is still pending is replaced by the final answer a moment later anyway
            await self._stream.stop(markdown_text=self.pending[:STREAM_APPEND_LIMIT] or None)
        except SlackApiError as exc:
            log.warning("could not stop the stream: %s", exc.response.get("error"))
        await asyncio.sleep(max(0.0, self._throttle.last_push + self._throttle.interval - time.monotonic()))
        try:
            # The streamed text was released sentence by sentence; the final answer (its
            # Block Kit form, sources and buttons) replaces it so that the final state is exact.
            await self.client.chat_update(channel=self.channel, ts=ts, text=first.text, blocks=first.blocks)
            posted = [(self.channel, ts)]
        except SlackApiError as exc:
            log.warning("could not replace the streamed text (%s); posting the answer",
                        exc.response.get("error"))
            posted = await _post_rest(self.client, self.channel, self.thread_ts, [first])
        return posted + await _post_rest(self.client, self.channel, self.thread_ts, rest)


class EphemeralReply:
    """One private answer to one user (a slash command), through the channel or its response_url."""

    def __init__(self, client: AsyncWebClient, channel: str, user_id: str,
                 respond: Callable[..., Awaitable[object]] | None) -> None:
        self.client = client
        self.channel = channel
        self.user_id = user_id
        self.respond = respond

    async def begin(self, status: str) -> None:
        return None  # the acknowledgement already told the user we are on it

    async def status(self, text: str) -> None:
        return None

    async def token(self, text: str) -> None:
        return None

    async def finish(self, messages: list[SlackMessage]) -> Posted:
        for message in messages:
            try:
                await self.client.chat_postEphemeral(channel=self.channel, user=self.user_id,
                                                     text=message.text, blocks=message.blocks)
            except SlackApiError as exc:
                # The app is not in this channel (or it is a DM between two people): the
                # command's response_url reaches the user there all the same.
                if self.respond is None:
                    raise
                log.info("chat.postEphemeral refused (%s); answering via response_url",
                         exc.response.get("error"))
                await self.respond(text=message.text, blocks=message.blocks,
                                   response_type="ephemeral", replace_original=False)
        return []  # nobody can react to an ephemeral message
