"""The Teams bot: questions in, streamed and cited answers out; feedback, reactions and copies logged.

A question is acknowledged at once and answered in a background task (a proactive turn on the
same conversation), because the Bot Framework gives a bot about 15 seconds to answer the HTTP
request and an answer with tool calls can take longer. Invokes (feedback, the copy dialog) and
reactions are answered within the request.

An answer uses the roles of the place it is read in (`adapters.teams.places`): the asker's own in
a personal chat, only the channel's or group chat's otherwise, and its source links grant those.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Protocol

from microsoft_agents.activity import (
    Activity,
    ActivityTypes,
    ChannelAccount,
    ConversationReference,
    InvokeResponse,
    MessageReaction,
)
from microsoft_agents.hosting.core import ActivityHandler, ChannelServiceAdapter, ClaimsIdentity, TurnContext
from microsoft_agents.hosting.core.connector import ConnectorClientBase

from adapters.role_directory import Identity, Place, RoleSource
from adapters.source_server_links import SourceLinks
from adapters.teams.answer_relay import relay_answer
from adapters.teams.final_message import MESSAGE_LIMIT, answer_parts, failure_parts
from adapters.teams.mentions import mentions_bot, question_text
from adapters.teams.pacing import UpdatePacer
from adapters.teams.places import conversation_kind, teams_identity, teams_place, user_id_of
from adapters.teams.reply_writers import STREAM_LIMIT, EditedMessage, NativeStream, ReplyWriter
from adapters.teams.usage import (
    FEEDBACK_BUTTON_VALUES,
    REACTION_VALUES,
    DeliveredAnswer,
    DeliveredAnswers,
    TeamsUsage,
)
from bot.answer import AnswerEvent, Citation, User
from cards.adaptive_card import CLOSE_ACTION, COPY_ACTION, card_attachment, copy_dialog_card

log = logging.getLogger("rulebook.teams")

FIRST_STATUS = "Searching the rulebooks…"
HELP_TEXT = ("Ask me a question about the rulebooks, for example *What is the maximum execution "
             "time for an instant credit transfer?* Every answer cites rulebook, section and page.")
WELCOME_TEXT = ("Hello! I answer questions from the vetted rulebooks and cite the rulebook, section "
                "and page for every fact. " + HELP_TEXT)


class AssistantLike(Protocol):
    def ask(self, question: str, user: User, conversation_id: str) -> AsyncIterator[AnswerEvent]: ...


@dataclass
class TeamsBotOptions:
    update_interval: float = 1.0  # seconds between updates of one message (Teams throttles faster)
    stream_limit: float = STREAM_LIMIT  # seconds a native stream may stay open (Teams: 2 minutes)
    message_limit: int = MESSAGE_LIMIT  # bytes of one message (Teams: about 100 KB)
    roles: RoleSource = field(default_factory=RoleSource)  # who holds which roles; default: nobody


def conversation_key(activity: Activity) -> str:
    """History and events are kept per Teams conversation; a channel thread is its own conversation."""
    return f"teams:{activity.conversation.id}"


class RulebookTeamsBot(ActivityHandler):
    def __init__(self, adapter: ChannelServiceAdapter, service: AssistantLike, usage: TeamsUsage,
                 links: SourceLinks, options: TeamsBotOptions | None = None) -> None:
        self._adapter = adapter
        self._service = service
        self._usage = usage
        self._links = links
        self._options = options or TeamsBotOptions()
        self.delivered = DeliveredAnswers()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- questions -------------------------------------------------------------------------

    async def asker(self, turn_context: TurnContext, account: ChannelAccount, identity: Identity,
                    place: Place) -> User:
        """The asker with the roles that apply where the answer will be read (looked up on every
        question): their own in a personal chat, only the place's in a channel or group chat."""
        async def email() -> str | None:
            return await member_email(turn_context, account.id or identity.user_id)

        roles = await self._options.roles.roles_in(identity, place, lookup_email=email)
        return User(id=identity.user_id, roles=roles, platform="teams", name=account.name or "")

    async def on_message_activity(self, turn_context: TurnContext) -> None:
        activity = turn_context.activity
        if isinstance(activity.value, dict) and not (activity.text or "").strip():
            await self._on_card_submit(turn_context, activity.value)
            return
        kind = conversation_kind(activity)
        if kind != "personal" and not mentions_bot(activity):
            return  # in channels and group chats the bot speaks only when spoken to
        question = question_text(activity)
        if not question:
            await turn_context.send_activity(Activity(type=ActivityTypes.message, text=HELP_TEXT,
                                                      text_format="markdown"))
            return
        reference = activity.get_conversation_reference()
        claims = turn_context.identity or ClaimsIdentity()
        audience = turn_context.turn_state.get(self._adapter.OAUTH_SCOPE_KEY)
        task = asyncio.create_task(
            self._answer_later(reference, claims, audience, question, activity.from_property,
                               teams_identity(activity), teams_place(activity), kind,
                               conversation_key(activity)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer_later(self, reference: ConversationReference, claims: ClaimsIdentity, audience: Any,
                            question: str, account: ChannelAccount, identity: Identity, place: Place,
                            kind: str, conversation_id: str) -> None:
        async def answer_turn(turn_context: TurnContext) -> None:
            # roles are looked up here, not in the request: an e-mail lookup must not delay Teams' ack
            user = await self.asker(turn_context, account, identity, place)
            await self._answer(turn_context, question, user, kind, conversation_id)

        continuation = reference.get_continuation_activity()
        continuation.id = reference.activity_id  # reply to the question, not to a synthetic activity
        try:
            await self._adapter.continue_conversation_with_claims(claims, continuation, answer_turn,
                                                                  audience=audience)
        except Exception as exc:
            log.exception("could not deliver an answer in %s", conversation_id)
            self._usage.error(user_id=identity.user_id, conversation_id=conversation_id,
                              message_id=reference.activity_id or "", where="teams.delivery",
                              error=type(exc).__name__)

    async def _answer(self, turn_context: TurnContext, question: str, user: User, kind: str,
                      conversation_id: str) -> None:
        options = self._options
        writer: ReplyWriter = (
            NativeStream(turn_context, options.update_interval, options.stream_limit, options.message_limit)
            if kind == "personal" else EditedMessage(turn_context, options.message_limit))
        pacer = UpdatePacer(options.update_interval)
        answer = None
        try:
            answer = await relay_answer(self._service.ask(question, user, conversation_id), writer,
                                        pacer, first_status=FIRST_STATUS)
            message_id = answer.message_id
            parts = answer_parts(answer, lambda c: self._link_for(c, user, message_id), options.message_limit)
        except Exception as exc:
            log.exception("answering failed in %s", conversation_id)
            self._usage.error(user_id=user.id, conversation_id=conversation_id,
                              message_id=turn_context.activity.id or "", where="teams.answer",
                              error=type(exc).__name__)
            parts = failure_parts()
        delivered = DeliveredAnswer(answer.message_id, conversation_id) if answer else None
        if delivered and writer.message_id:
            # known before the final send: feedback can arrive as soon as Teams shows the answer
            self.delivered.remember(writer.message_id, delivered)
        await pacer.wait_turn()
        teams_id = await writer.finish(parts)
        if delivered:
            self.delivered.remember(teams_id, delivered)

    def _link_for(self, citation: Citation, user: User, message_id: str) -> str:
        # `user.roles` are already the place's in a channel: a link posted there grants no more
        if citation.uri and not self._links.is_own_link(citation.uri):
            return citation.uri  # e.g. a Blob Storage link the service made
        return self._links.for_citation(citation, roles=user.roles, platform="teams", message_id=message_id)

    async def drain(self, timeout: float = 30.0) -> None:
        """Let answers in flight finish (server shutdown), then cancel what is left."""
        if not self._tasks:
            return
        _, pending = await asyncio.wait(set(self._tasks), timeout=timeout)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    async def on_members_added_activity(self, members_added: list[ChannelAccount],
                                        turn_context: TurnContext) -> None:
        bot_id = turn_context.activity.recipient.id if turn_context.activity.recipient else None
        if conversation_kind(turn_context.activity) == "personal" and any(
                m.id == bot_id for m in members_added):
            await turn_context.send_activity(Activity(type=ActivityTypes.message, text=WELCOME_TEXT,
                                                      text_format="markdown"))

    # --- feedback, reactions, copies ----------------------------------------------------------

    def _answer_for(self, activity: Activity, teams_message_id: str | None) -> tuple[str, str]:
        """(assistant message id, conversation id) of the answer a Teams message holds."""
        delivered = self.delivered.find(teams_message_id)
        if delivered:
            return delivered.message_id, delivered.conversation_id
        return teams_message_id or "", conversation_key(activity)

    async def on_invoke_activity(self, turn_context: TurnContext) -> InvokeResponse:
        activity = turn_context.activity
        value = activity.value if isinstance(activity.value, dict) else {}
        if activity.name == "message/submitAction":
            return self._on_feedback(activity, value)
        if activity.name == "task/fetch":
            return self._on_task_fetch(activity, value)
        if activity.name == "task/submit":
            return InvokeResponse(status=int(HTTPStatus.OK))  # an empty answer closes the dialog
        return InvokeResponse(status=int(HTTPStatus.NOT_IMPLEMENTED))

    def _on_feedback(self, activity: Activity, value: dict[str, Any]) -> InvokeResponse:
        action = value.get("actionValue") if isinstance(value.get("actionValue"), dict) else {}
        feedback_value = FEEDBACK_BUTTON_VALUES.get(str(action.get("reaction", "")))
        if value.get("actionName") != "feedback" or feedback_value is None:
            return InvokeResponse(status=int(HTTPStatus.BAD_REQUEST),
                                  body={"error": "expected actionName 'feedback' with reaction like|dislike"})
        comment = _feedback_comment(action.get("feedback"))
        message_id, conversation_id = self._answer_for(activity, activity.reply_to_id)
        self._usage.feedback(user_id=user_id_of(activity.from_property), conversation_id=conversation_id,
                             message_id=message_id, value=feedback_value, via="button",
                             reaction=str(action.get("reaction")), comment=comment,
                             teams_message_id=activity.reply_to_id)
        return InvokeResponse(status=int(HTTPStatus.OK), body={})

    def _on_task_fetch(self, activity: Activity, value: dict[str, Any]) -> InvokeResponse:
        data = value.get("data") if isinstance(value.get("data"), dict) else {}
        if data.get("rulebook_action") != COPY_ACTION:
            return InvokeResponse(status=int(HTTPStatus.BAD_REQUEST), body={"error": "unknown dialog"})
        self._log_copy(activity, data)
        dialog = {"task": {"type": "continue", "value": {
            "title": "Copy answer", "height": "medium", "width": "medium",
            "card": card_attachment(copy_dialog_card(str(data.get("text", "")))),
        }}}
        return InvokeResponse(status=int(HTTPStatus.OK), body=dialog)

    def _log_copy(self, activity: Activity, data: dict[str, Any]) -> None:
        self._usage.copy(user_id=user_id_of(activity.from_property),
                         conversation_id=str(data.get("conversation_id") or conversation_key(activity)),
                         message_id=str(data.get("message_id") or activity.reply_to_id or ""),
                         chars=len(str(data.get("text", ""))))

    async def _on_card_submit(self, turn_context: TurnContext, value: dict[str, Any]) -> None:
        """A card button pressed in a client without dialogs: the copy text comes as a message."""
        if value.get("rulebook_action") == COPY_ACTION:
            self._log_copy(turn_context.activity, value)
            text = str(value.get("text", ""))
            await turn_context.send_activity(Activity(type=ActivityTypes.message,
                                                      text=f"```\n{text}\n```", text_format="markdown"))
        elif value.get("rulebook_action") != CLOSE_ACTION:
            log.info("ignored a card submit without a known action")

    async def on_message_reaction_activity(self, turn_context: TurnContext) -> None:
        activity = turn_context.activity
        message_id, conversation_id = self._answer_for(activity, activity.reply_to_id)
        user_id = user_id_of(activity.from_property)
        changes: list[tuple[MessageReaction, bool]] = [(r, False) for r in activity.reactions_added or []] + [
            (r, True) for r in activity.reactions_removed or []]
        for reaction, retracted in changes:
            feedback_value = REACTION_VALUES.get(reaction.type or "")
            if feedback_value is None:
                continue
            self._usage.feedback(user_id=user_id, conversation_id=conversation_id,
                                 message_id=message_id, value=feedback_value, via="reaction",
                                 retracted=retracted, reaction=reaction.type,
                                 teams_message_id=activity.reply_to_id)


async def member_email(turn_context: TurnContext, member_id: str) -> str | None:
    """The member's e-mail (or user principal name) from the Bot Connector's member endpoint."""
    connector = turn_context.services.get(ConnectorClientBase)
    conversation = turn_context.activity.conversation
    if connector is None or conversation is None or not member_id:
        return None
    if hasattr(connector, "get_conversation_member"):  # TeamsConnectorClient: the Teams profile
        member = await connector.get_conversation_member(conversation.id, member_id)
        return getattr(member, "email", None) or getattr(member, "user_principal_name", None) or None
    member = await connector.conversations.get_conversation_member(conversation.id, member_id)
    extra = member.model_extra or {}
    return extra.get("email") or extra.get("userPrincipalName") or None


def _feedback_comment(raw: Any) -> str:
    """Teams sends the feedback form as a JSON string: {"feedbackText": "..."}."""
    if isinstance(raw, dict):
        return str(raw.get("feedbackText", "")).strip()
    if isinstance(raw, str) and raw.strip():
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError:
            return raw.strip()
        if isinstance(parsed, dict):
            return str(parsed.get("feedbackText", "")).strip()
    return ""
