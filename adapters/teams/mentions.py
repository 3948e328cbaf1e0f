"""The question inside a Teams message: without the bot's @mention, without Teams' HTML leftovers."""

from __future__ import annotations

import html
import re

from botbuilder.core import TurnContext
from botbuilder.schema import Activity

_AT_TAG = re.compile(r"<at[^>]*>(.*?)</at>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _bot_mentions(activity: Activity) -> list[str]:
    """The texts (e.g. "<at>Rulebook</at>") by which this message mentions the bot."""
    bot_id = activity.recipient.id if activity.recipient else None
    texts = []
    for entity in TurnContext.get_mentions(activity):
        # botbuilder keeps a mention's fields in additional_properties (Entity declares only `type`)
        fields = {**(getattr(entity, "additional_properties", None) or {}), **entity.serialize()}
        mentioned = fields.get("mentioned") or {}
        text = fields.get("text")
        if bot_id and isinstance(mentioned, dict) and mentioned.get("id") == bot_id and text:
            texts.append(str(text))
    return texts


def mentions_bot(activity: Activity) -> bool:
    return bool(_bot_mentions(activity))


def question_text(activity: Activity) -> str:
    """The user's words: the bot's mentions removed, other mentions kept as the names they show."""
    text = activity.text or ""
    for mention in _bot_mentions(activity):
        text = text.replace(mention, " ")
    text = _AT_TAG.sub(r"\1", text)
    text = _TAG.sub(" ", text)
    text = html.unescape(text).replace("\u00a0", " ")
    return " ".join(text.split())
