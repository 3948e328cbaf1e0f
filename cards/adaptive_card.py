"""Adaptive Cards (schema 1.5) for an answer: its tables, its sources, and a "Copy answer" dialog.

The card is built from `bot.answer` types only. Teams caps a message at about 28 KB, so tables
and the copy payload are bounded here; a cut table says so in its caption.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.answer import Answer, AnswerTable, Citation
from cards.markdown_table import find_markdown_tables
from cards.plain_answer import answer_plain_text

CARD_SCHEMA = "http://adaptivecards.io/schemas/adaptive-card.json"
CARD_VERSION = "1.5"
ADAPTIVE_CARD_CONTENT_TYPE = "application/vnd.microsoft.card.adaptive"
COPY_ACTION = "copy_answer"
CLOSE_ACTION = "close_dialog"
MAX_TABLE_ROWS = 40
MAX_TABLE_COLUMNS = 8
MAX_COPY_CHARS = 12_000
MAX_QUOTE_CHARS = 300

Card = dict[str, Any]


def _text(text: str, **style: Any) -> dict[str, Any]:
    return {"type": "TextBlock", "text": text, "wrap": True, **style}


def _section_and_page(citation: Citation) -> str:
    number = citation.section_path[-1] if citation.section_path else ""
    section = " ".join(p for p in (number, citation.section_title) if p)
    return f"Section {section} · page {citation.page}" if section else f"Page {citation.page}"


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def source_container(citation: Citation, url: str) -> dict[str, Any]:
    items: list[dict[str, Any]] = [
        _text(f"[{citation.n}] {citation.title or citation.rulebook_id}", weight="Bolder"),
        _text(_section_and_page(citation), isSubtle=True, spacing="None"),
    ]
    if citation.quote:
        items.append(_text(f"“{_clip(citation.quote, MAX_QUOTE_CHARS)}”", size="Small", maxLines=4))
    if citation.translation_note:
        items.append(_text(citation.translation_note, size="Small", isSubtle=True))
    if url:
        items.append({"type": "ActionSet", "actions": [
            {"type": "Action.OpenUrl", "title": f"Open at page {citation.page}", "url": url},
        ]})
    return {"type": "Container", "separator": True, "spacing": "Medium", "items": items}


def table_element(table: AnswerTable) -> dict[str, Any]:
    width = min(MAX_TABLE_COLUMNS, max([len(table.columns)] + [len(r) for r in table.rows] + [1]))
    header = (list(table.columns) + [""] * width)[:width]
    body = [(list(r) + [""] * width)[:width] for r in table.rows[:MAX_TABLE_ROWS]]

    def row(cells: list[str], bold: bool = False) -> dict[str, Any]:
        style = {"weight": "Bolder"} if bold else {}
        return {"type": "TableRow", "cells": [
            {"type": "TableCell", "items": [_text(" ".join(str(c).split()) or " ", **style)]}
            for c in cells
        ]}

    return {
        "type": "Table",
        "columns": [{"width": 1} for _ in range(width)],
        "firstRowAsHeader": True,
        "showGridLines": True,
        "gridStyle": "accent",
        "rows": [row(header, bold=True)] + [row(r) for r in body],
    }


def answer_tables(answer: Answer) -> list[AnswerTable]:
    """The answer's own tables; failing those, the markdown tables written into its text."""
    if answer.tables:
        return list(answer.tables)
    return [AnswerTable(columns=t.columns, rows=t.rows, citation_n=0)
            for t in find_markdown_tables(answer.text)]


def copy_action_data(answer: Answer, extra: dict[str, Any] | None = None,
                     link_for: Callable[[Citation], str] | None = None) -> dict[str, Any]:
    """What the "Copy answer" button sends back: enough to show the dialog without server state."""
    return {
        "msteams": {"type": "task/fetch"},
        "rulebook_action": COPY_ACTION,
        "message_id": answer.message_id,
        "conversation_id": answer.conversation_id,
        "text": answer_plain_text(answer, link_for)[:MAX_COPY_CHARS],
        **(extra or {}),
    }


def answer_card(answer: Answer, link_for: Callable[[Citation], str] | None = None,
                copy_extra: dict[str, Any] | None = None) -> Card:
    """The card under an answer: tables that answer the question, then one block per source."""
    link_for = link_for or (lambda c: c.uri)
    body: list[dict[str, Any]] = []
    for table in answer_tables(answer):
        caption = table.caption or "Table"
        if table.citation_n:
            caption += f" [{table.citation_n}]"
        if len(table.rows) > MAX_TABLE_ROWS:
            caption += f" (first {MAX_TABLE_ROWS} of {len(table.rows)} rows)"
        body.append(_text(caption, weight="Bolder", spacing="Medium"))
        body.append(table_element(table))
    citations = sorted({c.n: c for c in answer.citations}.values(), key=lambda c: c.n)
    if citations:
        body.append(_text("Sources", weight="Bolder", size="Medium", spacing="Medium"))
        body.extend(source_container(c, link_for(c)) for c in citations)
    return {
        "type": "AdaptiveCard",
        "$schema": CARD_SCHEMA,
        "version": CARD_VERSION,
        "fallbackText": answer_plain_text(answer, link_for)[:2000],
        "body": body,
        "actions": [{"type": "Action.Submit", "title": "Copy answer",
                     "data": copy_action_data(answer, copy_extra, link_for)}],
    }


def copy_dialog_card(text: str) -> Card:
    """The dialog behind "Copy answer": the plain text in a box the user can select and copy."""
    return {
        "type": "AdaptiveCard",
        "$schema": CARD_SCHEMA,
        "version": CARD_VERSION,
        "body": [
            _text("Select the text below and copy it (Ctrl+A, Ctrl+C).", isSubtle=True),
            {"type": "Input.Text", "id": "answer_text", "isMultiline": True, "value": text,
             "label": "Answer"},
        ],
        "actions": [{"type": "Action.Submit", "title": "Close",
                     "data": {"rulebook_action": CLOSE_ACTION}}],
    }


def card_attachment(card: Card) -> dict[str, Any]:
    return {"contentType": ADAPTIVE_CARD_CONTENT_TYPE, "content": card}
