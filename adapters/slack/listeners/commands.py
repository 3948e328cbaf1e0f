"""`/rulebook QUESTION`: acknowledged at once, answered privately with a "Share in channel" button."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp

from adapters.slack.places import PRIVATE
from adapters.slack.replies import EphemeralReply
from cards.block_kit import escape

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd

COMMAND = "/rulebook"
USAGE = ("Ask a question about the rulebooks, for example `/rulebook Can I pay with my fridge?`. "
         "The answer comes to you privately, with its sources; you can then share it in the channel.")


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    @app.command(COMMAND)
    async def rulebook_command(ack: Any, command: dict, respond: Any) -> None:
        question = (command.get("text") or "").strip()
        if not question:
            await ack(response_type="ephemeral", text=USAGE)
            return
        # Slack wants the acknowledgement within 3 seconds; the answer takes longer.
        await ack(response_type="ephemeral",
                  text=f":mag: Looking that up in the rulebooks: _{escape(question)}_")
        channel, user_id = command["channel_id"], command["user_id"]
        # Each command is a question of its own: no history carries over between commands.
        conversation_id = f"{channel}:command:{uuid.uuid4().hex[:16]}"
        reply = EphemeralReply(front.client, channel, user_id, respond)
        front.spawn(front.answer(question=question, user_id=user_id, conversation_id=conversation_id,
                                 reply=reply, place=PRIVATE, share_button=True,
                                 teams=(command.get("user_team") or command.get("team_id"),)))
