"""The final Teams message of an answer: markdown text with [n] markers, native citations, the
"AI generated" label, the feedback buttons, and the sources card."""

from __future__ import annotations

from collections.abc import Callable

from botbuilder.schema import Activity, ActivityTypes, Attachment

from adapters.teams.citations import teams_citations
from adapters.teams.entities import AIMessageEntity
from bot.answer import Answer, Citation
from cards.adaptive_card import ADAPTIVE_CARD_CONTENT_TYPE, answer_card, answer_tables

FAILURE_TEXT = ("Sorry, something went wrong while I was answering. Please try again; if it keeps "
                "happening, ask the rulebook desk.")


def final_activity(answer: Answer, link_for: Callable[[Citation], str]) -> Activity:
    attachments = []
    if answer.citations or answer_tables(answer):
        attachments.append(Attachment(content_type=ADAPTIVE_CARD_CONTENT_TYPE,
                                      content=answer_card(answer, link_for)))
    return Activity(
        type=ActivityTypes.message,
        text=answer.text,
        text_format="markdown",
        entities=[AIMessageEntity(citation=teams_citations(answer, link_for))],
        attachments=attachments or None,
        channel_data={"feedbackLoopEnabled": True},
    )


def failure_activity() -> Activity:
    return Activity(type=ActivityTypes.message, text=FAILURE_TEXT, text_format="markdown")
