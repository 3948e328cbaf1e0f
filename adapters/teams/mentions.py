"""The question inside a Teams message: without the bot's @mention, without Teams' HTML leftovers."""

from __future__ import annotations

import html
import re

from microsoft_agents.activity import Activity

_AT_TAG = re.compile(r"<at[^>]*>(.*?)</at>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _bot_mentions(activity: Activity) -> list[str]:
    """The texts (e.g. "<at>Rulebook</at>") by which this message mentions the bot."""
    bot_id = activity.recipient.id if activity.recipient else None
    texts = []
    for mention in activity.get_mentions():
        if bot_id and mention.mentioned and mention.mentioned.id == bot_id and mention.text:
            texts.append(mention.text)
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
