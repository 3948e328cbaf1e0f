"""Buttons on an answer: feedback, copy (a dialog with the plain text), share in channel, and the
"Open page N" links (acknowledged only: the click is logged by the server's /sources route)."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError

from cards.block_kit import (
    ACTION_COPY,
    ACTION_FEEDBACK_DOWN,
    ACTION_FEEDBACK_UP,
    ACTION_OPEN_SOURCE_PREFIX,
    ACTION_SHARE,
    AnswerRef,
    copy_modal,
    plain_answer,
    text_from_blocks,
)

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd

log = logging.getLogger("rulebook.slack")

THANKS = "Thanks for the feedback: it helps the rulebook desk improve the answers."
GONE = "This answer is no longer available to share; please ask again."


async def _tell(respond: Any, text: str) -> None:
    if respond is None:
        return
    try:
        await respond(text=text, response_type="ephemeral", replace_original=False)
    except Exception:  # a courtesy message; the click itself is handled
        log.warning("could not confirm a button click to the user", exc_info=True)


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    async def feedback(ack: Any, body: dict, action: dict, respond: Any, value: str) -> None:
        await ack()
        ref = AnswerRef.from_value(action["value"])
        front.usage.feedback(user_id=body["user"]["id"], conversation_id=ref.conversation_id,
                             message_id=ref.message_id, value=value, via="button")  # type: ignore[arg-type]
        await _tell(respond, THANKS)

    @app.action(ACTION_FEEDBACK_UP)
    async def feedback_up(ack: Any, body: dict, action: dict, respond: Any) -> None:
        await feedback(ack, body, action, respond, "positive")

    @app.action(ACTION_FEEDBACK_DOWN)
    async def feedback_down(ack: Any, body: dict, action: dict, respond: Any) -> None:
        await feedback(ack, body, action, respond, "negative")

    @app.action(ACTION_COPY)
    async def copy(ack: Any, body: dict, action: dict, client: Any) -> None:
        await ack()
        ref = AnswerRef.from_value(action["value"])
        delivered = front.answers.by_message_id(ref.message_id)
        if delivered is not None:
            text = plain_answer(delivered.answer)
        else:
            text = text_from_blocks((body.get("message") or {}).get("blocks") or [])
        # trigger_id is valid for 3 seconds: open the dialog before anything else
        await client.views_open(trigger_id=body["trigger_id"], view=copy_modal(text, ref))
        front.usage.emit("copy", user_id=body["user"]["id"], conversation_id=ref.conversation_id,
                         message_id=ref.message_id, characters=len(text))

    @app.action(ACTION_SHARE)
    async def share(ack: Any, body: dict, action: dict, respond: Any, client: Any) -> None:
        await ack()
        ref = AnswerRef.from_value(action["value"])
        delivered = front.answers.by_message_id(ref.message_id)
        if delivered is None:
            await _tell(respond, GONE)
            return
        user_id = body["user"]["id"]
        channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id")
        messages = front.messages_for(delivered.answer, delivered.conversation_id, delivered.roles,
                                      shared_by=user_id)
        posted: list[tuple[str, str]] = []
        try:
            for message in messages:
                response = await client.chat_postMessage(channel=channel, text=message.text,
                                                         blocks=message.blocks)
                posted.append((str(response["channel"]), str(response["ts"])))
        except SlackApiError as exc:
            if respond is None or posted:
                raise
            # The app is not a member of this channel: the command's response_url may post there.
            log.info("sharing via chat.postMessage refused (%s); using response_url",
                     exc.response.get("error"))
            for message in messages:
                await respond(text=message.text, blocks=message.blocks, response_type="in_channel",
                              replace_original=False)
        front.answers.remember(delivered.answer, delivered.conversation_id, posted, delivered.roles)
        if respond is not None:
            await respond(delete_original=True)  # the private copy has done its job

    @app.action(re.compile(f"^{re.escape(ACTION_OPEN_SOURCE_PREFIX)}"))
    async def open_source(ack: Any) -> None:
        await ack()
