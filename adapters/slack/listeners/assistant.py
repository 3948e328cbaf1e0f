"""Slack's AI assistant threads: suggested prompts when a thread starts, a status while tools run,
and the answer streamed into the thread."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant

from adapters.slack.listeners.events import asker_teams
from adapters.slack.places import PRIVATE
from adapters.slack.replies import StreamedReply

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd

GREETING = ("Hi! I answer questions from the payment-scheme rulebooks, and I cite the rulebook, "
            "section and page for every fact. What would you like to know?")

SUGGESTED_PROMPTS = [
    {"title": "Accepted payment devices", "message": "Which payment devices are accepted?"},
    {"title": "Fees", "message": "What are the fees for domestic and cross-border payments?"},
    {"title": "Refunds", "message": "How long does a payer have to ask for a refund?"},
]


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    assistant = AsyncAssistant()

    @assistant.thread_started
    async def thread_started(say: Any, set_suggested_prompts: Any) -> None:
        await say(GREETING)
        await set_suggested_prompts(prompts=SUGGESTED_PROMPTS, title="Try asking")

    @assistant.thread_context_changed
    async def thread_context_changed() -> None:
        # Answers do not depend on which channel the user is looking at: nothing to store.
        return None

    @assistant.user_message
    async def user_message(payload: dict, context: Any) -> None:
        question = " ".join((payload.get("text") or "").split())
        if not question:
            return
        channel, thread_ts = payload["channel"], payload["thread_ts"]
        reply = StreamedReply(front.client, channel, thread_ts, recipient_user_id=payload.get("user"),
                              recipient_team_id=context.team_id or payload.get("team"),
                              interval=front.update_interval, in_assistant_thread=True)
        front.spawn(front.answer(question=question, user_id=payload.get("user", ""),
                                 conversation_id=f"{channel}:{thread_ts}", reply=reply,
                                 place=PRIVATE, teams=asker_teams(payload, context)))

    app.assistant(assistant)
