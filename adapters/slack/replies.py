"""How an answer reaches Slack while it is being written: three ways, one interface.

- `StreamedReply`: Slack's streaming API (chat.startStream / appendStream / stopStream), for DMs,
  the agent's Messages tab and AI assistant threads: the loading state first, then each tool
  step as a task in the stream's timeline, then the text. If Slack refuses to stream (the app
  lacks the Agents & AI Apps feature, an old workspace), it falls back to an `EditedReply`
  without losing text; a stream that expires mid-answer is finished by editing its message.
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
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from slack_sdk.errors import SlackApiError
from slack_sdk.models.blocks import UrlSourceElement
from slack_sdk.models.messages.chunk import MarkdownTextChunk, TaskUpdateChunk
from slack_sdk.web.async_chat_stream import AsyncChatStream
from slack_sdk.web.async_client import AsyncWebClient

from bot.answer import StepSource
from cards.block_kit import SlackMessage, progress_message

log = logging.getLogger("rulebook.slack")

Posted = list[tuple[str, str]]  # (channel, ts) of each message of the answer
STREAM_APPEND_LIMIT = 12_000  # Slack's limit on the markdown text of one append/stop call
STREAM_EXPIRED = "message_not_in_streaming_state"
MAX_TASK_TITLE = 150
MAX_TASK_SOURCES = 5
# Of the update interval: how long new text / a new status line waits for the final answer
# before it is edited in (as the Teams relay; adapters.teams.pacing says why). A streamed reply's
# steps (DMs, assistant threads) do not wait: they open the stream's timeline.
TEXT_SETTLE = 0.25
STATUS_SETTLE = 1.0
LOADING_MESSAGES = ["Searching the rulebooks…", "Reading the relevant sections…",
                    "Checking every sentence against its source…"]


class Reply(Protocol):
    async def begin(self, status: str) -> None: ...
    async def status(self, text: str) -> None: ...
    async def task(self, step: str, title: str, state: str, sources: Sequence[StepSource] = ()) -> None: ...
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
    waits for a push in flight so that nothing lands after the final message.

    A push also waits a settle time after the change that asked for it (`changed(settle)`: a
    fraction of the interval, the shortest of the changes pending): when the final answer comes
    within it, `close()` cancels the push, and the final edit is not held back a whole interval
    behind an edit it replaces anyway."""

    def __init__(self, interval: float, push: Callable[[], Awaitable[None]]) -> None:
        self.interval = interval
        self._settle: float | None = None  # of the changes not pushed yet
        self.last_push = -interval  # nothing sent yet: the first push may go at once
        self._push = push
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()
        self._closed = False
        self._task: asyncio.Task[None] | None = None

    def changed(self, settle: float = TEXT_SETTLE) -> None:
        if self._closed:
            return
        self._settle = settle if self._settle is None else min(self._settle, settle)
        self._changed.set()
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self._changed.wait()
            settle = (self._settle if self._settle is not None else TEXT_SETTLE) * self.interval
            await asyncio.sleep(max(settle, self.last_push + self.interval - time.monotonic()))
            async with self._lock:
                if self._closed:
                    return
                self._changed.clear()
                self._settle = None
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

    def adopt(self, ts: str, text: str) -> None:
        """Carry on with a message already posted (an expired stream), showing `text` so far."""
        self.ts, self.text, self.status_text = ts, text, None
        self._throttle.last_push = time.monotonic()
        self._throttle.changed()

    async def status(self, text: str) -> None:
        if text == self.status_text:
            return  # an edit that changes nothing (the first step repeats the placeholder's line)
        self.status_text = text
        self._throttle.changed(STATUS_SETTLE)

    async def task(self, step: str, title: str, state: str, sources: Sequence[StepSource] = ()) -> None:
        return None  # the status line shows the current step

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
    """Slack's native streaming into a thread: the agent's steps as `task_update` chunks in
    `timeline` mode, then the answer text as `markdown_text`, closed by the final answer's blocks.

    Before anything streams, the thread shows Slack's loading state (`assistant.threads.setStatus`
    with rotating loading messages), in assistant threads and in the agent's Messages tab alike.
    A stream that Slack lets expire while the answer is still being written
    (`message_not_in_streaming_state`) is finished by editing the same message: nothing is lost."""

    def __init__(self, client: AsyncWebClient, channel: str, thread_ts: str, *,
                 recipient_user_id: str | None, recipient_team_id: str | None,
                 interval: float = 1.0, in_assistant_thread: bool = False,
                 source_url: Callable[[StepSource], str] | None = None) -> None:
        self.client = client
        self.channel = channel
        self.thread_ts = thread_ts
        self.recipient_user_id = recipient_user_id
        self.recipient_team_id = recipient_team_id
        self.in_assistant_thread = in_assistant_thread
        self.source_url = source_url
        self.roles: tuple[str, ...] = ()  # the asker's, once known: the step links are signed for them
        self.streamed = ""
        self.pending: list[dict] = []  # chunks not sent yet, in order
        self.status_text: str | None = None
        self.tasks: dict[str, dict] = {}  # step id -> its latest task_update chunk
        self._stream: AsyncChatStream | None = None
        self._fallback: EditedReply | None = None
        self._throttle = _Throttle(interval, self._flush)

    @property
    def pending_text(self) -> str:
        return "".join(c["text"] for c in self.pending if c["type"] == "markdown_text")

    async def begin(self, status: str) -> None:
        self.status_text = status
        if self.in_assistant_thread:
            try:
                await self.client.assistant_threads_setStatus(
                    channel_id=self.channel, thread_ts=self.thread_ts, status=assistant_status(status),
                    loading_messages=LOADING_MESSAGES)
            except SlackApiError as exc:
                log.warning("could not set the assistant status: %s", exc.response.get("error"))

    async def status(self, text: str) -> None:
        self.status_text = text
        if self._fallback is not None:
            await self._fallback.status(text)

    async def task(self, step: str, title: str, state: str, sources: Sequence[StepSource] = ()) -> None:
        """A step of the agent: `in_progress` when it starts, `complete` or `error` when it ends."""
        chunk = TaskUpdateChunk(id=step, title=_task_title(title), status=state,
                                sources=self._sources(sources) or None).to_dict()
        self.tasks[step] = chunk
        if self._fallback is None:
            self.pending.append(chunk)
            self._throttle.changed(0.0)

    def _sources(self, sources: Sequence[StepSource]) -> list[UrlSourceElement]:
        if self.source_url is None:
            return []
        return [UrlSourceElement(url=self.source_url(s), text=_task_title(source_label(s)))
                for s in sources[:MAX_TASK_SOURCES]]

    async def token(self, text: str) -> None:
        if self._fallback is not None:
            await self._fallback.token(text)
            return
        if self.pending and self.pending[-1]["type"] == "markdown_text":
            self.pending[-1]["text"] += text
        else:
            self.pending.append(MarkdownTextChunk(text=text).to_dict())
        self._throttle.changed()

    def _take(self) -> list[dict]:
        """The chunks of one call: every task update due, and at most 12,000 characters of text."""
        taken: list[dict] = []
        budget = STREAM_APPEND_LIMIT
        while self.pending:
            chunk = self.pending[0]
            if chunk["type"] != "markdown_text":
                taken.append(self.pending.pop(0))
                continue
            if budget <= 0:
                break
            text = chunk["text"]
            if len(text) <= budget:
                taken.append(self.pending.pop(0))
                budget -= len(text)
            else:
                taken.append({"type": "markdown_text", "text": text[:budget]})
                chunk["text"] = text[budget:]
                budget = 0
        return taken

    async def _flush(self) -> None:
        if not self.pending or self._fallback is not None:
            return
        chunks = self._take()
        text = "".join(c["text"] for c in chunks if c["type"] == "markdown_text")
        try:
            if self._stream is None:
                # buffer_size=1: our throttle decides when to send, the helper only tracks state
                self._stream = await self.client.chat_stream(
                    channel=self.channel, thread_ts=self.thread_ts, buffer_size=1,
                    recipient_user_id=self.recipient_user_id, recipient_team_id=self.recipient_team_id,
                    task_display_mode="timeline")
            await self._stream.append(chunks=chunks)
            self.streamed += text
            if self.pending:
                self._throttle.changed()
        except SlackApiError as exc:
            error = exc.response.get("error")
            if self._stream is not None and self._stream.ts:
                if error != STREAM_EXPIRED:
                    raise
                log.info("the Slack stream expired; the answer continues by editing its message")
                self._fallback = EditedReply(self.client, self.channel, self.thread_ts,
                                             self._throttle.interval)
                self._fallback.adopt(self._stream.ts, self.streamed + text + self.pending_text)
            else:
                log.warning("Slack refused to stream (%s); editing a message instead", error)
                self._fallback = EditedReply(self.client, self.channel, self.thread_ts,
                                             self._throttle.interval)
                self._fallback.text = self.streamed + text + self.pending_text
                await self._fallback.begin(self.status_text or "")
            self.pending = []

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
        # steps still open when the answer is done are done too
        closing = [dict(c, status="complete") for c in self.tasks.values() if c["status"] == "in_progress"]
        # task updates not yet flushed (a step that ended within the last interval) go out with the
        # stop, or the user would watch that step spin forever
        unsent_steps = [c for c in self.pending if c["type"] != "markdown_text"]
        try:
            # whatever text is still pending is replaced by the final answer a moment later anyway
            pending = self.pending_text[:STREAM_APPEND_LIMIT]
            chunks = unsent_steps + closing + ([MarkdownTextChunk(text=pending).to_dict()] if pending else [])
            await self._stream.stop(chunks=chunks or None)
        except SlackApiError as exc:
            # an expired stream is already closed: the edit below finishes the message all the same
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


def _task_title(text: str) -> str:
    text = " ".join(text.split()).rstrip("…").rstrip(".")
    return text if len(text) <= MAX_TASK_TITLE else text[:MAX_TASK_TITLE - 1] + "…"


def source_label(source: StepSource) -> str:
    where = f"§ {source.section}" if source.section else source.title
    return f"{source.rulebook_id} {where}, page {source.page}"


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

    async def task(self, step: str, title: str, state: str, sources: Sequence[StepSource] = ()) -> None:
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
