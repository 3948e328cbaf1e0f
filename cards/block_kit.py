"""An answer as Slack Block Kit messages: the text, its tables, its sources, feedback and copy.

Only `bot.answer` types come in; plain dicts (the JSON Slack takes) go out, every block built
with `slack_sdk.models.blocks` and validated by it (`to_dict()` raises on a block Slack would
refuse). Slack renders the answer's own Markdown in a `markdown` block (at most 12,000 characters
of it per message); a table that answers the question is a `table` block (at most 100 rows of 20
cells, one table a message: a bigger table is cut, with a note and a link to its page). A long
answer continues in follow-up messages, the last one carrying the sources, the feedback buttons
(`feedback_buttons` in a `context_actions` block), Copy and Share. No message has more than 50
blocks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextActionsBlock,
    ContextBlock,
    DividerBlock,
    FeedbackButtonObject,
    FeedbackButtonsElement,
    MarkdownBlock,
    MarkdownTextObject,
    PlainTextObject,
    RawTextObject,
    SectionBlock,
    TableBlock,
    TableBlockColumnSettings,
)

from bot.answer import Answer, AnswerTable, Citation
from cards.markdown_table import MarkdownTableSpan, find_markdown_tables, table_to_monospace
from cards.plain_answer import markdown_to_plain
from cards.text_pieces import split_text

MAX_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_SECTION_TEXT = 3000
MAX_MARKDOWN_TEXT = 12_000  # per message: Slack counts every markdown block of a payload together
MAX_TABLE_ROWS = 100  # the header row included
MAX_TABLE_CELLS = 20
MAX_CELL_TEXT = 1000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_FALLBACK_TEXT = 3000  # the notification text; Slack truncates at 40,000 but shows far less
MAX_QUOTE = 280
MAX_LISTED_SOURCES = 40  # one block each; beyond this the rest are named in one context block

ACTION_FEEDBACK = "rulebook_feedback"
ACTION_COPY = "rulebook_copy"
ACTION_SHARE = "rulebook_share"
ACTION_OPEN_SOURCE_PREFIX = "rulebook_open_source_"
COPY_MODAL_CALLBACK = "rulebook_copy_modal"
ACTIONS_BLOCK_ID = "rulebook_answer_actions"
FEEDBACK_BLOCK_ID = "rulebook_answer_feedback"

SourceLink = Callable[[Citation], str]
Feedback = Literal["positive", "negative"]

AI_NOTICE = "AI-generated from the rulebooks. Check the cited pages before you rely on it."


@dataclass
class SlackMessage:
    text: str  # notification / accessibility fallback
    blocks: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class AnswerRef:
    """What a button needs to know about the answer it belongs to; travels in the button value."""

    message_id: str
    conversation_id: str
    feedback: Feedback | None = None  # set on the feedback buttons: which one was pressed

    def to_value(self) -> str:
        data = {"m": self.message_id, "c": self.conversation_id}
        if self.feedback:
            data["v"] = self.feedback
        value = json.dumps(data, separators=(",", ":"))
        if len(value) > MAX_BUTTON_VALUE:
            raise ValueError("answer reference too long for a button value")
        return value

    @classmethod
    def from_value(cls, value: str) -> AnswerRef:
        data = json.loads(value)
        feedback = data.get("v") if data.get("v") in ("positive", "negative") else None
        return cls(message_id=str(data["m"]), conversation_id=str(data.get("c", "")), feedback=feedback)


def escape(text: str) -> str:
    """Plain text inside mrkdwn (the sources' section text): `&`, `<` and `>` are markup there."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def section_label(citation: Citation) -> str:
    path = citation.section_path[-1] if citation.section_path else ""
    label = " ".join(p for p in (path, citation.section_title) if p)
    return f"§ {label}" if label else ""


def _dicts(blocks: list[Block]) -> list[dict]:
    return [block.to_dict() for block in blocks]  # to_dict() validates against Slack's limits


# --- the answer ------------------------------------------------------------------------------

def answer_messages(
    answer: Answer,
    *,
    source_link: SourceLink,
    conversation_id: str = "",
    share_button: bool = False,
    shared_by: str | None = None,
    table_link: SourceLink | None = None,
) -> list[SlackMessage]:
    """The final answer as one or more messages (in order); the last carries sources and buttons.

    `source_link` makes each "Open page N" URL (the adapter's signed /sources links);
    `table_link` the link a cut table points to (by default the same)."""
    ref = AnswerRef(answer.message_id, conversation_id or answer.conversation_id)
    body = body_parts(answer, table_link or source_link)
    tail: list[Block] = _source_blocks(answer, source_link, ref)
    tail.append(feedback_block(ref))
    tail.append(_actions_block(ref, share_button))
    notice = AI_NOTICE if not shared_by else f"Shared by <@{shared_by}>. {AI_NOTICE}"
    tail.append(ContextBlock(elements=[MarkdownTextObject(text=notice)]))
    return _pack(body, tail, fallback_text(answer))


def fallback_text(answer: Answer) -> str:
    return _truncate(markdown_to_plain(answer.text) or "(no answer)", MAX_FALLBACK_TEXT)


def body_parts(answer: Answer, table_link: SourceLink) -> list[Block]:
    """The answer text as markdown blocks with its tables as table blocks, in reading order: a
    Markdown table the model wrote into the text becomes a table block where it stood; a table of
    the answer not in the text follows it, captioned."""
    blocks: list[Block] = []
    text = answer.text
    spans = find_markdown_tables(text)
    position = 0
    citation_of = {c.n: c for c in answer.citations}
    for span in spans:
        blocks.extend(markdown_blocks(text[position:span.start]))
        blocks.extend(_span_table(span, answer, citation_of, table_link))
        position = span.end
    blocks.extend(markdown_blocks(text[position:]))
    for table in answer.tables:
        if any(_same_columns(table.columns, span.columns) for span in spans):
            continue
        caption = table.caption or "Table"
        blocks.append(ContextBlock(elements=[MarkdownTextObject(
            text=_truncate(f"*{escape(caption)}* [{table.citation_n}]", MAX_SECTION_TEXT))]))
        blocks.extend(table_blocks(table.columns, table.rows, citation_of.get(table.citation_n), table_link))
    return blocks


def markdown_blocks(markdown: str) -> list[Block]:
    return [MarkdownBlock(text=piece) for piece in split_text(markdown.strip(), MAX_MARKDOWN_TEXT)]


def _same_columns(a: list[str], b: list[str]) -> bool:
    return [" ".join(c.split()).lower() for c in a] == [" ".join(c.split()).lower() for c in b]


def _span_table(span: MarkdownTableSpan, answer: Answer, citation_of: dict[int, Citation],
                table_link: SourceLink) -> list[Block]:
    # the table's source: the answer table with these columns, else the first citation in its rows
    source = next((citation_of.get(t.citation_n) for t in answer.tables
                   if _same_columns(t.columns, span.columns)), None)
    if source is None:
        for row in span.rows:
            for cell in row:
                for n, citation in citation_of.items():
                    if f"[{n}]" in cell:
                        source = source or citation
    return table_blocks(span.columns, span.rows, source, table_link)


def table_blocks(columns: list[str], rows: list[list[str]], source: Citation | None,
                 table_link: SourceLink) -> list[Block]:
    """A table block of at most 100 rows (header included) and 20 cells a row; a bigger table is
    cut, and a note says how much is shown and links to the page the table is on."""
    width = max([len(columns)] + [len(r) for r in rows]) if (columns or rows) else 0
    if width == 0:
        return []
    shown_width = min(width, MAX_TABLE_CELLS)
    header = [columns[i] if i < len(columns) else "" for i in range(width)] if columns else None
    data_rows = rows[: MAX_TABLE_ROWS - (1 if header else 0)]

    def cells(row: list[str]) -> list[RawTextObject]:
        padded = list(row[:shown_width]) + [""] * (shown_width - min(len(row), shown_width))
        return [RawTextObject(text=_truncate(" ".join(str(c).split()), MAX_CELL_TEXT) or " ") for c in padded]

    table_rows = ([cells(header)] if header else []) + [cells(r) for r in data_rows]
    blocks: list[Block] = [TableBlock(rows=table_rows, column_settings=[
        TableBlockColumnSettings(is_wrapped=True) for _ in range(shown_width)])]
    cut_rows, cut_cells = len(data_rows) < len(rows), shown_width < width
    if cut_rows or cut_cells:
        shown = []
        if cut_rows:
            shown.append(f"{len(data_rows)} of {len(rows)} rows")
        if cut_cells:
            shown.append(f"{shown_width} of {width} columns")
        note = f"The table is cut here: this shows {' and '.join(shown)}."
        if source is not None:
            note += f" <{table_link(source)}|Open page {source.page}> for the whole table."
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=_truncate(note, MAX_SECTION_TEXT))]))
    return blocks


def _unique_citations(answer: Answer) -> list[Citation]:
    """One source per [n]: Slack rejects a message whose buttons repeat an action_id."""
    return sorted({c.n: c for c in answer.citations}.values(), key=lambda c: c.n)


def _source_blocks(answer: Answer, link: SourceLink, ref: AnswerRef) -> list[Block]:
    citations = _unique_citations(answer)
    if not citations:
        return []
    blocks: list[Block] = [DividerBlock(), SectionBlock(text=MarkdownTextObject(text="*Sources*"))]
    for citation in citations[:MAX_LISTED_SOURCES]:
        lines = [f"*[{citation.n}] {escape(citation.title or citation.rulebook_id)}*"]
        lines.append(" · ".join(p for p in (escape(section_label(citation)), f"page {citation.page}") if p))
        if citation.translation_note:
            lines.append(f"_{escape(citation.translation_note)}_")
        if citation.quote:
            lines.append("&gt; " + escape(_truncate(" ".join(citation.quote.split()), MAX_QUOTE)))
        blocks.append(SectionBlock(
            text=MarkdownTextObject(text=_truncate("\n".join(lines), MAX_SECTION_TEXT)),
            accessory=ButtonElement(action_id=f"{ACTION_OPEN_SOURCE_PREFIX}{citation.n}",
                                    text=PlainTextObject(text=_truncate(f"Open page {citation.page}",
                                                                        MAX_BUTTON_TEXT)),
                                    url=link(citation), value=ref.to_value())))
    rest = citations[MAX_LISTED_SOURCES:]
    if rest:
        names = "; ".join(f"[{c.n}] {c.title}, page {c.page}" for c in rest)
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=_truncate(escape(names), MAX_SECTION_TEXT))]))
    return blocks


def feedback_block(ref: AnswerRef) -> ContextActionsBlock:
    """Slack's own 👍/👎 under an answer; each button's value names the answer and the verdict."""
    positive = AnswerRef(ref.message_id, ref.conversation_id, "positive")
    negative = AnswerRef(ref.message_id, ref.conversation_id, "negative")
    return ContextActionsBlock(block_id=FEEDBACK_BLOCK_ID, elements=[FeedbackButtonsElement(
        action_id=ACTION_FEEDBACK,
        positive_button=FeedbackButtonObject(text="Helpful", value=positive.to_value(),
                                             accessibility_label="This answer was helpful"),
        negative_button=FeedbackButtonObject(text="Not helpful", value=negative.to_value(),
                                             accessibility_label="This answer was not helpful"))])


def _actions_block(ref: AnswerRef, share_button: bool) -> ActionsBlock:
    value = ref.to_value()
    elements = [ButtonElement(text=PlainTextObject(text="Copy"), action_id=ACTION_COPY, value=value)]
    if share_button:
        elements.append(ButtonElement(text=PlainTextObject(text="Share in channel"), action_id=ACTION_SHARE,
                                      value=value, style="primary"))
    return ActionsBlock(block_id=ACTIONS_BLOCK_ID, elements=elements)


def _pack(body: list[Block], tail: list[Block], text: str) -> list[SlackMessage]:
    """Messages of at most 50 blocks, 12,000 markdown characters and one table each."""
    messages: list[list[Block]] = [[]]
    markdown_chars = 0
    for block in body:
        current = messages[-1]
        size = len(block.text) if isinstance(block, MarkdownBlock) else 0
        has_table = any(isinstance(b, TableBlock) for b in current)
        if current and (len(current) >= MAX_BLOCKS or markdown_chars + size > MAX_MARKDOWN_TEXT
                        or (isinstance(block, TableBlock) and has_table)):
            messages.append([])
            markdown_chars = 0
        messages[-1].append(block)
        markdown_chars += size
    if len(messages[-1]) + len(tail) <= MAX_BLOCKS:
        messages[-1].extend(tail)
    else:
        messages.append(tail)
    messages = [m for m in messages if m]
    out = [SlackMessage(text=text, blocks=_dicts(messages[0]))]
    for i, blocks in enumerate(messages[1:], start=2):
        out.append(SlackMessage(text=f"(continued, part {i} of {len(messages)})", blocks=_dicts(blocks)))
    return out


def notice_message(text: str) -> SlackMessage:
    """A short message of our own (an apology, a usage hint)."""
    return SlackMessage(text=text, blocks=_dicts([SectionBlock(text=MarkdownTextObject(text=escape(text)))]))


# --- while the answer is being written ----------------------------------------------------------

def progress_message(markdown_so_far: str, status: str | None) -> SlackMessage:
    """What an edited-in-place message shows before the final answer: the text so far (its
    beginning, if it already needs more than one message) and the current status line."""
    pieces = markdown_blocks(markdown_so_far)[:1]
    blocks: list[Block] = list(pieces)
    line = status or ("" if pieces else "Thinking…")
    if line:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(text=f"_{escape(line)}_")]))
    text = _truncate(markdown_to_plain(markdown_so_far), MAX_FALLBACK_TEXT) or (status or "Thinking…")
    return SlackMessage(text=text, blocks=_dicts(blocks))


# --- copy ----------------------------------------------------------------------------------

def plain_answer(answer: Answer) -> str:
    """The answer and its sources as plain text, for copying elsewhere."""
    text = markdown_to_plain(answer.text)
    spans = find_markdown_tables(answer.text)
    for table in answer.tables:
        if not any(_same_columns(table.columns, s.columns) for s in spans):
            text += "\n\n" + (f"{table.caption} [{table.citation_n}]\n" if table.caption else "")
            text += table_to_monospace(table)
    if answer.citations:
        text += "\n\nSources:"
        for c in _unique_citations(answer):
            where = ", ".join(p for p in (section_label(c), f"page {c.page}") if p)
            text += f"\n[{c.n}] {c.title or c.rulebook_id}, {where}"
    return text


def copy_modal(plain_text: str, ref: AnswerRef) -> dict:
    pieces = split_text(plain_text, MAX_SECTION_TEXT) or ["(empty)"]
    blocks: list[Block] = [SectionBlock(text=PlainTextObject(text=p, emoji=False))
                           for p in pieces[:MAX_MODAL_BLOCKS - 1]]
    if len(pieces) > MAX_MODAL_BLOCKS - 1:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(
            text="The answer is longer than a dialog can show; the rest is cut.")]))
    return {
        "type": "modal",
        "callback_id": COPY_MODAL_CALLBACK,
        "private_metadata": ref.to_value(),
        "title": {"type": "plain_text", "text": "Copy answer"},
        "close": {"type": "plain_text", "text": "Close"},
        "blocks": _dicts(blocks),
    }


def _truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut + "…"


def text_from_blocks(blocks: list[dict]) -> str:
    """The answer text of a posted answer message (its markdown blocks, and the cells of its
    table), for copying when the answer itself is no longer at hand."""
    parts: list[str] = []
    for block in blocks:
        if block.get("type") in ("divider", "actions", "context_actions"):
            break
        if block.get("type") == "markdown" and block.get("text"):
            parts.append(markdown_to_plain(block["text"]))
        elif block.get("type") == "table":
            rows = [[str(c.get("text", "")) for c in row] for row in block.get("rows") or []]
            if rows:
                parts.append(table_to_monospace(AnswerTable(columns=rows[0], rows=rows[1:], citation_n=0)))
    return "\n\n".join(parts)
