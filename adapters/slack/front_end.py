"""The Slack front end: one bolt `AsyncApp` wired to the assistant service and the event log.

The same front end serves HTTP (`mount_slack`, requests signed with the signing secret) and
Socket Mode (`start_socket_mode`, for workspaces without a public URL).

Every answer is made with the roles of the place it will be read in (`adapters.slack.places`):
the asker's own in a DM, an assistant thread or a `/rulebook` answer, only the channel's in a
mention thread; "Share in channel" is checked against the destination (`adapters.slack.sharing`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, Protocol

import aiohttp
from cachetools import LRUCache
from slack_bolt.async_app import AsyncApp
from slack_bolt.response import BoltResponse
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient, WebhookResponse

from adapters.role_directory import Identity, Place, RoleSource, role_source
from adapters.slack.delivered_answers import DeliveredAnswer, DeliveredAnswers
from adapters.slack.replies import Reply, StreamedReply
from adapters.slack.sharing import CitationAccess, service_index_access
from adapters.slack.usage import SlackUsage
from adapters.source_server_links import SourceLinks
from bot.answer import Answer, AnswerEvent, Citation, StepSource, User
from bot.memory.message_records import MessageRecords, open_message_records
from cards.block_kit import SlackMessage, answer_messages, notice_message
from config.secret_values import reveal
from config.settings import Settings
from events.usage_event import EventSink

log = logging.getLogger("rulebook.slack")
SEEN_EVENTS_KEPT = 5000  # Slack event / trigger ids remembered in this process (replays, redeliveries)

SEARCHING = "Searching the rulebooks…"
FAILED = "Sorry, something went wrong while answering. Please try again in a moment."


class Assistant(Protocol):
    def ask(self, question: str, user: User, conversation_id: str) -> AsyncIterator[AnswerEvent]: ...


def retry_handlers() -> list[Any]:
    # 429s wait for Retry-After and try again; 5xx are not retried, since Slack may already
    # have posted the message and a retry would post it twice.
    return [AsyncConnectionErrorRetryHandler(max_retry_count=2),
            AsyncRateLimitErrorRetryHandler(max_retry_count=3)]


def build_web_client(settings: Settings) -> AsyncWebClient:
    base_url = settings.slack_api_url if settings.slack_api_url.endswith("/") else settings.slack_api_url + "/"
    return AsyncWebClient(token=reveal(settings.slack_bot_token) or None, base_url=base_url,
                          retry_handlers=retry_handlers())


class RetryingRespond:
    """bolt's `respond()` (a post to the request's response_url), retried on 429 + Retry-After
    and on a dropped connection, like Web API calls."""

    def __init__(self, response_url: str) -> None:
        self.response_url = response_url
        self._client = AsyncWebhookClient(url=response_url, retry_handlers=retry_handlers())

    async def __call__(self, text: str = "", blocks: list[dict] | None = None, *,
                       response_type: str | None = None, replace_original: bool | None = None,
                       delete_original: bool | None = None, **fields: Any) -> WebhookResponse:
        body: dict[str, Any] = {"text": text, "blocks": blocks, "response_type": response_type,
                                "replace_original": replace_original, "delete_original": delete_original,
                                **fields}
        response = await self._client.send_dict({k: v for k, v in body.items() if v is not None})
        if response.status_code >= 400:
            raise RuntimeError(f"response_url answered {response.status_code}: {response.body[:200]}")
        return response


class SlackFrontEnd:
    def __init__(self, service: Assistant, settings: Settings, event_sink: EventSink | None, *,
                 http: bool = True, roles: RoleSource | None = None,
                 citation_access: CitationAccess | None = None,
                 records: MessageRecords | None = None) -> None:
        """`citation_access` tells whether a share destination may read a citation; by default
        the assistant's own index, and without one no answer with citations is shared.
        `records` keeps the message -> answer map (by default the shared store the settings name)."""
        if http and not settings.slack_signing_secret:
            raise ValueError("RULEBOOK_SLACK_SIGNING_SECRET is required to receive Slack requests over HTTP")
        if not settings.slack_bot_token:
            raise ValueError("RULEBOOK_SLACK_BOT_TOKEN is required for the Slack app")
        self.service = service
        self.settings = settings
        self.roles = roles if roles is not None else role_source(settings.roles_file)
        hash_key = reveal(settings.user_hash_key)
        self.usage = SlackUsage(event_sink, hash_key)
        self.answers = DeliveredAnswers(records if records is not None else open_message_records(settings))
        self.links = SourceLinks(settings.public_base_url, hash_key)
        self.citation_access = citation_access or service_index_access(service)
        self.update_interval = float(getattr(settings, "slack_update_interval", 1.0))
        self.client = build_web_client(settings)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seen_events: LRUCache[str, None] = LRUCache(SEEN_EVENTS_KEPT)  # event loop only: no lock
        self.app = AsyncApp(
            name="rulebook",
            client=self.client,
            signing_secret=reveal(settings.slack_signing_secret) or None,
            request_verification_enabled=http,
        )
        self.app.middleware(self._skip_redelivered_events)
        self.app.middleware(self._retrying_respond)
        from adapters.slack.listeners import register_listeners  # listeners import this module

        register_listeners(self.app, self)

    # --- background work -----------------------------------------------------------------

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Answers run after Slack has been acknowledged (it wants a reply within 3 seconds)."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, timeout: float | None = None) -> None:
        """Wait for the answers in progress (shutdown, tests)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)

    async def open_connection_pool(self) -> None:
        """One keep-alive connection pool for every Web API call, opened in the running loop.
        Without it slack_sdk opens a session and a TCP connection per call (four or more per
        answer), which under load cost the event loop as much as the Teams SDK's whole answer."""
        if self.client.session is None or self.client.session.closed:
            self.client.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.client.timeout))

    async def close(self) -> None:
        await self.drain(timeout=10)
        for task in list(self._tasks):
            task.cancel()
        session, self.client.session = self.client.session, None
        if session is not None and not session.closed:
            await session.close()

    async def _skip_redelivered_events(self, body: dict, next: Callable[[], Awaitable[Any]]) -> Any:
        # Slack redelivers an event it thinks we missed, and a captured signed request can be
        # replayed within its 5 minutes: answering twice would post twice. Events carry an
        # event_id; a command or a click has a trigger_id of its own.
        key = None
        if isinstance(body, dict):
            key = body.get("event_id") or (f"trigger:{body['trigger_id']}" if body.get("trigger_id") else None)
        if key:
            # this process first (no await between check and mark), then every replica's store
            if key in self._seen_events:
                log.info("skipped a Slack request seen before (%s)", key[:40])
                return BoltResponse(status=200, body="")
            self._seen_events[key] = None
            if not await self.answers.first_sight(key):
                log.info("skipped a Slack request another replica has seen (%s)", key[:40])
                return BoltResponse(status=200, body="")
        return await next()

    async def _retrying_respond(self, context: Any, body: dict, next: Callable[[], Awaitable[Any]]) -> Any:
        response_url = body.get("response_url") if isinstance(body, dict) else None
        if not response_url and isinstance(body, dict):
            urls = body.get("response_urls") or []
            response_url = urls[0].get("response_url") if urls and isinstance(urls[0], dict) else None
        if response_url:
            context["respond"] = RetryingRespond(response_url)
        return await next()

    # --- answering -----------------------------------------------------------------------

    async def user(self, user_id: str, teams: tuple[str | None, ...], place: Place) -> User:
        """The asker with the roles that apply where the answer will be read (looked up on every
        question): their own in a private place, only the place's in a shared one.

        `teams` are the Slack team (workspace) ids the asker belongs to."""
        identity = Identity(platform="slack", user_id=user_id,
                            groups=tuple(dict.fromkeys(t for t in teams if t)))

        async def email() -> str | None:
            response = await self.client.users_info(user=user_id)
            return ((response.get("user") or {}).get("profile") or {}).get("email") or None

        roles = await self.roles.roles_in(identity, place, lookup_email=email)
        return User(id=user_id, roles=roles, platform="slack")

    async def answer(self, *, question: str, user_id: str, conversation_id: str, reply: Reply,
                     place: Place, share_button: bool = False, teams: tuple[str | None, ...] = ()
                     ) -> DeliveredAnswer | None:
        """Ask the assistant and deliver its stream through `reply`, which shows it in `place`;
        the final state is the gated final answer, or an apology when the assistant failed."""
        final: Answer | None = None
        user = User(id=user_id, platform="slack")
        try:
            await reply.begin(SEARCHING)
            user = await self.user(user_id, teams, place)
            if isinstance(reply, StreamedReply):
                reply.roles = user.roles  # its step links open what the asker may read
            async for event in self.service.ask(question, user, conversation_id):
                if event.kind == "status":
                    await reply.status(event.text)
                    if getattr(event, "step", ""):
                        await reply.task(event.step, event.text, "in_progress")
                elif event.kind == "step":
                    await reply.task(event.step, event.text, "complete" if event.ok else "error",
                                     list(event.sources))
                elif event.kind == "token":
                    await reply.token(event.text)
                elif event.kind == "final":
                    final = event.answer
            if final is None:
                raise RuntimeError("the assistant ended without a final answer")
        except Exception as exc:
            log.exception("answering a Slack question failed")
            self.usage.error(user_id=user_id, conversation_id=conversation_id, message_id="",
                             where="slack.answer", error=type(exc).__name__, detail=str(exc)[:300])
            try:
                await reply.finish([notice_message(FAILED)])
            except Exception:
                log.exception("could not even tell the user that answering failed")
            return None
        final.message_id = final.message_id or uuid.uuid4().hex
        final.conversation_id = final.conversation_id or conversation_id
        messages = self.messages_for(final, conversation_id, user.roles, share_button=share_button)
        try:
            posted = await reply.finish(messages)
        except Exception as exc:
            log.exception("delivering a Slack answer failed")
            self.usage.error(user_id=user_id, conversation_id=conversation_id,
                             message_id=final.message_id, where="slack.deliver",
                             error=type(exc).__name__, detail=str(exc)[:300])
            return None
        return await self.answers.remember(final, conversation_id, posted, roles=user.roles)

    def messages_for(self, answer: Answer, conversation_id: str, roles: tuple[str, ...], *,
                     share_button: bool = False, shared_by: str | None = None) -> list[SlackMessage]:
        """The answer's Block Kit messages, its "Open page N" links signed for `roles`: those of
        the place the messages are posted in."""
        def link(citation: Citation) -> str:
            return self.links.for_citation(citation, roles=roles, platform="slack",
                                           message_id=answer.message_id)

        return answer_messages(answer, source_link=link, conversation_id=conversation_id,
                               share_button=share_button, shared_by=shared_by)

    def streamed_reply(self, channel: str, thread_ts: str, *, user_id: str | None,
                       team_id: str | None) -> StreamedReply:
        """The streamed reply of a private place (a DM, the Messages tab, an assistant thread):
        the loading state, the agent's steps with links to what they read, then the text."""
        reply: StreamedReply

        def source_url(source: StepSource) -> str:
            return self.links.url(source.rulebook_id, source.page, roles=reply.roles, platform="slack")

        reply = StreamedReply(self.client, channel, thread_ts, recipient_user_id=user_id,
                              recipient_team_id=team_id, interval=self.update_interval,
                              in_assistant_thread=True, source_url=source_url)
        return reply

    def answer_privately(self, *, question: str, channel: str, thread_ts: str, user_id: str,
                         team_id: str | None, teams: tuple[str | None, ...]) -> None:
        """Answer a question asked in a private place, streamed into the thread of `thread_ts`
        (the DM listener and the assistant-thread listener both come here)."""
        from adapters.slack.places import PRIVATE

        reply = self.streamed_reply(channel, thread_ts, user_id=user_id, team_id=team_id)
        self.spawn(self.answer(question=question, user_id=user_id, conversation_id=f"{channel}:{thread_ts}",
                               reply=reply, place=PRIVATE, teams=teams))
