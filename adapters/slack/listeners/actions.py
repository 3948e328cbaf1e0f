"""Buttons on an answer: Slack's feedback buttons, copy (a dialog with the plain text), share in
channel, and the "Open page N" links (acknowledged only: the click is logged by the server's
/sources route).

Feedback is one verdict per user and answer, kept in the shared store: pressing the other button
retracts the earlier verdict and logs the new one; pressing the same button again takes the
verdict back (a retraction alone).

"Share in channel" posts a private answer where everyone there reads it, so it is made for the
destination: refused, with a private notice, when the answer cites a rulebook the destination's
roles cannot see; otherwise posted with its links signed for the destination's roles only.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError

from adapters.slack.places import share_destination
from adapters.slack.sharing import unshareable_rulebooks
from cards.block_kit import (
    ACTION_COPY,
    ACTION_FEEDBACK,
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


def not_shared_notice(rulebook_ids: list[str]) -> str:
    cited = ", ".join(f"*{r}*" for r in rulebook_ids)
    return (f":lock: This answer was not shared: it cites restricted sources ({cited}) that not "
            "everyone in this conversation may read. It stays visible to you only; ask the "
            "question here with an @mention to get an answer everyone here may see.")


async def _tell(respond: Any, text: str) -> None:
    if respond is None:
        return
    try:
        await respond(text=text, response_type="ephemeral", replace_original=False)
    except Exception:  # a courtesy message; the click itself is handled
        log.warning("could not confirm a button click to the user", exc_info=True)


async def _tell_privately(respond: Any, client: Any, channel: str, user_id: str, text: str) -> None:
    """An ephemeral note to one user; unlike `_tell`, it must arrive, so it has a second way."""
    if respond is not None:
        try:
            await respond(text=text, response_type="ephemeral", replace_original=False)
            return
        except Exception:
            log.warning("could not answer through the response_url; trying chat.postEphemeral",
                        exc_info=True)
    await client.chat_postEphemeral(channel=channel, user=user_id, text=text)


def register(app: AsyncApp, front: SlackFrontEnd) -> None:
    @app.action(ACTION_FEEDBACK)
    async def feedback(ack: Any, body: dict, action: dict, respond: Any) -> None:
        await ack()
        ref = AnswerRef.from_value(action.get("value") or "{}")
        if ref.feedback is None:
            log.warning("a feedback click without a verdict in its value")
            return
        user_id = body["user"]["id"]
        user_hash = front.usage.user_hash(user_id)
        earlier = await front.answers.feedback_of(ref.message_id, user_hash)
        common = {"user_id": user_id, "conversation_id": ref.conversation_id,
                  "message_id": ref.message_id, "via": "button"}
        if earlier:
            front.usage.feedback(value=earlier, retracted=True, **common)  # type: ignore[arg-type]
        if earlier == ref.feedback:  # the same button again: the verdict is taken back
            await front.answers.set_feedback(ref.message_id, user_hash, None)
            return
        front.usage.feedback(value=ref.feedback, **common)
        await front.answers.set_feedback(ref.message_id, user_hash, ref.feedback)
        await _tell(respond, THANKS)

    @app.action(ACTION_COPY)
    async def copy(ack: Any, body: dict, action: dict, client: Any) -> None:
        await ack()
        ref = AnswerRef.from_value(action["value"])
        delivered = await front.answers.by_message_id(ref.message_id)
        if delivered is not None:
            text = plain_answer(delivered.answer)
        else:
            text = text_from_blocks((body.get("message") or {}).get("blocks") or [])
        front.usage.copy(user_id=body["user"]["id"], conversation_id=ref.conversation_id,
                         message_id=ref.message_id, chars=len(text))
        # trigger_id is valid for 3 seconds: nothing slow between the click and the dialog
        await client.views_open(trigger_id=body["trigger_id"], view=copy_modal(text, ref))

    @app.action(ACTION_SHARE)
    async def share(ack: Any, body: dict, action: dict, respond: Any, client: Any) -> None:
        await ack()
        ref = AnswerRef.from_value(action["value"])
        delivered = await front.answers.by_message_id(ref.message_id)
        if delivered is None:
            await _tell(respond, GONE)
            return
        user_id = body["user"]["id"]
        channel = (body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id")
        destination = await share_destination(client, channel, (body.get("team") or {}).get("id"))
        roles = front.roles.directory().place_roles(destination)
        hidden = await unshareable_rulebooks(delivered.answer, delivered.roles, roles,
                                             front.citation_access)
        if hidden:
            log.info("refused to share answer %s into %s: it cites %s", delivered.answer.message_id,
                     channel, ", ".join(hidden))
            await _tell_privately(respond, client, channel, user_id, not_shared_notice(hidden))
            return
        messages = front.messages_for(delivered.answer, delivered.conversation_id, roles,
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
        await front.answers.remember(delivered.answer, delivered.conversation_id, posted, delivered.roles)
        if respond is not None:
            await respond(delete_original=True)  # the private copy has done its job

    @app.action(re.compile(f"^{re.escape(ACTION_OPEN_SOURCE_PREFIX)}"))
    async def open_source(ack: Any) -> None:
        await ack()
