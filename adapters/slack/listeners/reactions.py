"""👍 / 👎 reactions on the app's answers are feedback; taking a reaction back retracts it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp

from adapters.slack.usage import reaction_value

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    async def on_reaction(event: dict, context: Any, retracted: bool) -> None:
        value = reaction_value(event.get("reaction", ""))
        item = event.get("item") or {}
        if value is None or item.get("type") != "message":
            return
        delivered = await front.answers.by_ts(item.get("channel", ""), item.get("ts", ""))
        if delivered is None and (not context.bot_user_id or event.get("item_user") != context.bot_user_id):
            return  # a reaction to someone else's message
        if delivered is not None:
            message_id, conversation_id = delivered.answer.message_id, delivered.conversation_id
        else:
            # Our message, answered by another replica or before a restart: still worth counting.
            message_id, conversation_id = f"slack:{item.get('channel')}:{item.get('ts')}", ""
        front.usage.feedback(user_id=event.get("user", ""), conversation_id=conversation_id,
                             message_id=message_id, value=value, via="reaction",
                             retracted=retracted, reaction=event.get("reaction"))

    @app.event("reaction_added")
    async def reaction_added(event: dict, context: Any) -> None:
        await on_reaction(event, context, retracted=False)

    @app.event("reaction_removed")
    async def reaction_removed(event: dict, context: Any) -> None:
        await on_reaction(event, context, retracted=True)
