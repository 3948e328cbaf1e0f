"""@mentions in channels (answered in the thread) and direct messages to the app."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp

from adapters.slack.places import mention_place
from adapters.slack.replies import EditedReply

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd


def asker_teams(event: dict, context: Any) -> tuple[str | None, ...]:
    """The Slack teams the asker belongs to: in a channel shared with another organisation, the
    asker's own team (`user_team`), never the workspace the bot happens to hear them in."""
    return (event.get("user_team") or event.get("team") or context.team_id,)


EMPTY_MENTION = "Ask me about the rulebooks, for example: _@Rulebook Can I pay with my fridge?_"


def question_from_mention(text: str, bot_user_id: str | None) -> str:
    """The mention of the app is how Slack addressed us, not part of the question."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(\|[^>]*)?>", " ", text)
    return " ".join(text.split())


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    @app.event("app_mention")
    async def on_mention(event: dict, context: Any, body: dict) -> None:
        channel = event["channel"]
        # Replies go into the thread; a mention inside a thread continues that conversation.
        thread_ts = event.get("thread_ts") or event["ts"]
        question = question_from_mention(event.get("text", ""), context.bot_user_id)
        if not question:
            await front.client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=EMPTY_MENTION)
            return
        reply = EditedReply(front.client, channel, thread_ts, front.update_interval)
        # everyone in the channel reads the thread: only the channel's roles apply
        front.spawn(front.answer(question=question, user_id=event.get("user", ""),
                                 conversation_id=f"{channel}:{thread_ts}", reply=reply,
                                 place=mention_place(body, event, context.team_id),
                                 teams=asker_teams(event, context)))

    @app.event("message")
    async def on_message(event: dict, context: Any) -> None:
        # Only a person's new top-level DM to the app is a question here (in the agent's
        # Messages tab every question is one, answered in its own thread): edits, deletions and
        # bot posts are not, channel messages reach us only as mentions, and DM thread replies
        # are taken by the assistant listener.
        if (event.get("channel_type") != "im" or event.get("subtype") or event.get("bot_id")
                or event.get("thread_ts")):
            return
        question = " ".join((event.get("text") or "").split())
        if not question:
            return
        front.answer_privately(question=question, channel=event["channel"], thread_ts=event["ts"],
                               user_id=event.get("user", ""), team_id=context.team_id or event.get("team"),
                               teams=asker_teams(event, context))
