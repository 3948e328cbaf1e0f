"""The final Teams message(s) of an answer: markdown text with [n] markers, native citations,
the "AI generated" label, the feedback buttons, and the sources card.

An answer too large for one message (over `limit` bytes as sent) becomes several messages cut
at sentence ends; the last carries the citations, the sources card and the feedback buttons,
the others only their text and the AI label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from microsoft_agents.activity import Activity, ActivityTypes, Attachment, ClientCitation

from adapters.teams.citations import teams_citations
from adapters.teams.message_parts import split_text, text_size, wire_size
from bot.answer import Answer, Citation
from cards.adaptive_card import ADAPTIVE_CARD_CONTENT_TYPE, answer_card, answer_tables

FAILURE_TEXT = ("Sorry, something went wrong while I was answering. Please try again; if it keeps "
                "happening, ask the rulebook desk.")
MESSAGE_LIMIT = 80_000  # bytes; Teams refuses messages of about 100 KB
FEEDBACK_LOOP = {"feedbackLoop": {"type": "default"}}  # the SDK's form of Teams' feedback buttons


@dataclass
class MessagePart:
    """One message to send; `citations` and `attachments` only on the last part of an answer."""

    text: str
    citations: list[ClientCitation] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    feedback: bool = False
    ai_generated: bool = True

    def activity(self) -> Activity:
        activity = Activity(type=ActivityTypes.message, text=self.text, text_format="markdown")
        if self.attachments:
            activity.attachments = list(self.attachments)
        if self.feedback:
            activity.channel_data = dict(FEEDBACK_LOOP)
        if self.ai_generated:
            activity.add_ai_metadata(self.citations or None)
        return activity


def answer_parts(answer: Answer, link_for: Callable[[Citation], str],
                 limit: int = MESSAGE_LIMIT) -> list[MessagePart]:
    attachments = []
    if answer.citations or answer_tables(answer):
        attachments.append(Attachment(content_type=ADAPTIVE_CARD_CONTENT_TYPE,
                                      content=answer_card(answer, link_for)))
    last = MessagePart(answer.text, teams_citations(answer, link_for), attachments, feedback=True)
    if wire_size(last.activity()) <= limit:
        return [last]
    # the last part's card and citations use the most room: that sets the budget for every part
    overhead = wire_size(MessagePart("", last.citations, attachments, feedback=True).activity())
    budget = limit - overhead - 512  # the connector adds addressing (conversation, from, recipient)
    if budget < 2_000:
        raise ValueError(f"the sources of this answer alone take {overhead} bytes, over Teams' limit")
    texts = split_text(answer.text, budget)
    parts = [MessagePart(text) for text in texts[:-1]]
    last.text = texts[-1]
    return [*parts, last]


def streamable_length(text: str, limit: int = MESSAGE_LIMIT) -> bool:
    """May a streaming update carry `text`? (Its card is not sent until the final message.)"""
    return text_size(text) <= limit - 2_000


def failure_parts() -> list[MessagePart]:
    return [MessagePart(FAILURE_TEXT, ai_generated=False)]
