"""An answer as Slack Block Kit messages: the text, its tables, its sources, feedback and copy.

Only `bot.answer` types come in; plain dicts (the JSON Slack takes) go out. Every message stays
within Block Kit's limits: at most 50 blocks, at most 3,000 characters per section text; a long
answer is split at paragraph or sentence boundaries and continues in follow-up messages, the last
one carrying the sources and the buttons.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from bot.answer import Answer, AnswerTable, Citation
from cards.markdown_table import find_markdown_tables, table_to_monospace
from cards.mrkdwn import escape, mrkdwn_pieces, split_text, to_plain_text

MAX_BLOCKS = 50
MAX_MODAL_BLOCKS = 100
MAX_SECTION_TEXT = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_FALLBACK_TEXT = 3000  # the notification text; Slack truncates at 40,000 but shows far less
MAX_QUOTE = 280
MAX_LISTED_SOURCES = 40  # one block each; beyond this the rest are named in one context block

ACTION_FEEDBACK_UP = "rulebook_feedback_up"
ACTION_FEEDBACK_DOWN = "rulebook_feedback_down"
ACTION_COPY = "rulebook_copy"
ACTION_SHARE = "rulebook_share"
ACTION_OPEN_SOURCE_PREFIX = "rulebook_open_source_"
COPY_MODAL_CALLBACK = "rulebook_copy_modal"

SourceLink = Callable[[Citation], str]

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

    def to_value(self) -> str:
        value = json.dumps({"m": self.message_id, "c": self.conversation_id}, separators=(",", ":"))
        if len(value) > MAX_BUTTON_VALUE:
            raise ValueError("answer reference too long for a button value")
        return value

    @classmethod
    def from_value(cls, value: str) -> AnswerRef:
        data = json.loads(value)
        return cls(message_id=str(data["m"]), conversation_id=str(data.get("c", "")))


def source_url(public_base_url: str, citation: Citation, message_id: str = "") -> str:
    """Every "Open page N" goes through our own server so that the click is logged there."""
    query = {"page": citation.page}
    if message_id:
        query["via"] = "slack"
        query["m"] = message_id
    return f"{public_base_url.rstrip('/')}/sources/{quote(citation.rulebook_id, safe='')}?{urlencode(query)}"


def section_label(citation: Citation) -> str:
    path = citation.section_path[-1] if citation.section_path else ""
    label = " ".join(p for p in (path, citation.section_title) if p)
    return f"§ {label}" if label else ""


# --- the answer ------------------------------------------------------------------------------

def answer_messages(
    answer: Answer,
    *,
    public_base_url: str,
    conversation_id: str = "",
    share_button: bool = False,
    shared_by: str | None = None,
    source_link: SourceLink | None = None,
) -> list[SlackMessage]:
    """The final answer as one or more messages (in order); the last carries sources and buttons.

    `source_link` makes each "Open page N" URL (the adapter's signed /sources links); by default a
    plain `{public_base_url}/sources/{rulebook_id}?page=N`."""
    ref = AnswerRef(answer.message_id, conversation_id or answer.conversation_id)
    body = _text_blocks(answer.text) + _table_blocks(answer)
    link = source_link or (lambda c: source_url(public_base_url, c, ref.message_id))
    tail = _source_blocks(answer, link, ref)
    tail.append(_actions_block(ref, share_button))
    notice = AI_NOTICE if not shared_by else f"Shared by <@{shared_by}>. {AI_NOTICE}"
    tail.append({"type": "context", "elements": [{"type": "mrkdwn", "text": notice}]})
    return _pack(body, tail, fallback_text(answer))


def fallback_text(answer: Answer) -> str:
    return _truncate(to_plain_text(answer.text) or "(no answer)", MAX_FALLBACK_TEXT)


def _text_blocks(markdown: str) -> list[dict]:
    return [_section(piece) for piece in mrkdwn_pieces(markdown, MAX_SECTION_TEXT)]


def _section(mrkdwn: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": mrkdwn}}


def _table_blocks(answer: Answer) -> list[dict]:
    blocks: list[dict] = []
    for table in answer.tables:
        if _already_in_text(table, answer.text):
            continue
        caption = escape(table.caption) if table.caption else "Table"
        blocks.append({"type": "context", "elements": [
            {"type": "mrkdwn", "text": _truncate(f"*{caption}* [{table.citation_n}]", MAX_SECTION_TEXT)}]})
        blocks.extend(_section(piece) for piece in table_pieces(table))
    return blocks


def _already_in_text(table: AnswerTable, text: str) -> bool:
    """The model often writes the table into its text as well: show it once."""
    wanted = [" ".join(c.split()).lower() for c in table.columns]
    return any([" ".join(c.split()).lower() for c in span.columns] == wanted
               for span in find_markdown_tables(text))


def table_pieces(table: AnswerTable) -> list[str]:
    """The table as fenced, aligned monospace text; a long table continues in further pieces,
    each repeating the header so that every piece reads on its own."""
    lines = [escape(line) for line in table_to_monospace(table).split("\n")]
    head, rows = lines[:2], lines[2:]
    budget = MAX_SECTION_TEXT - len("```\n\n```") - sum(len(h) + 1 for h in head)
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for row in rows:
        row = _truncate(row, max(budget, 1))
        if current and size + len(row) + 1 > budget:
            pieces.append("```\n" + "\n".join(head + current) + "\n```")
            current, size = [], 0
        current.append(row)
        size += len(row) + 1
    if current or not pieces:
        pieces.append("```\n" + "\n".join(head + current) + "\n```")
    return pieces


def _unique_citations(answer: Answer) -> list[Citation]:
    """One source per [n]: Slack rejects a message whose buttons repeat an action_id."""
    return sorted({c.n: c for c in answer.citations}.values(), key=lambda c: c.n)


def _source_blocks(answer: Answer, link: SourceLink, ref: AnswerRef) -> list[dict]:
    citations = _unique_citations(answer)
    if not citations:
        return []
    blocks: list[dict] = [{"type": "divider"}, _section("*Sources*")]
    listed = citations[:MAX_LISTED_SOURCES]
    for citation in listed:
        lines = [f"*[{citation.n}] {escape(citation.title or citation.rulebook_id)}*"]
        where = " · ".join(p for p in (escape(section_label(citation)), f"page {citation.page}") if p)
        lines.append(where)
        if citation.translation_note:
            lines.append(f"_{escape(citation.translation_note)}_")
        if citation.quote:
            lines.append("&gt; " + escape(_truncate(" ".join(citation.quote.split()), MAX_QUOTE)))
        blocks.append({
            "type": "section",
            "text": {"type": "mrkdwn", "text": _truncate("\n".join(lines), MAX_SECTION_TEXT)},
            "accessory": {
                "type": "button",
                "action_id": f"{ACTION_OPEN_SOURCE_PREFIX}{citation.n}",
                "text": {"type": "plain_text", "text": _truncate(f"Open page {citation.page}", MAX_BUTTON_TEXT)},
                "url": link(citation),
                "value": ref.to_value(),
            },
        })
    rest = citations[MAX_LISTED_SOURCES:]
    if rest:
        names = "; ".join(f"[{c.n}] {c.title}, page {c.page}" for c in rest)
        blocks.append({"type": "context", "elements": [
            {"type": "mrkdwn", "text": _truncate(escape(names), MAX_SECTION_TEXT)}]})
    return blocks


def _actions_block(ref: AnswerRef, share_button: bool) -> dict:
    value = ref.to_value()
    elements = [
        _button("👍 Helpful", ACTION_FEEDBACK_UP, value),
        _button("👎 Not helpful", ACTION_FEEDBACK_DOWN, value),
        _button("Copy", ACTION_COPY, value),
    ]
    if share_button:
        elements.append(_button("Share in channel", ACTION_SHARE, value, style="primary"))
    return {"type": "actions", "block_id": "rulebook_answer_actions", "elements": elements}


def _button(text: str, action_id: str, value: str, style: str | None = None) -> dict:
    button = {"type": "button", "action_id": action_id, "value": value,
              "text": {"type": "plain_text", "text": text, "emoji": True}}
    if style:
        button["style"] = style
    return button


def _pack(body: list[dict], tail: list[dict], text: str) -> list[SlackMessage]:
    messages: list[list[dict]] = []
    for start in range(0, len(body), MAX_BLOCKS):
        messages.append(body[start:start + MAX_BLOCKS])
    if messages and len(messages[-1]) + len(tail) <= MAX_BLOCKS:
        messages[-1].extend(tail)
    else:
        messages.append(tail)
    out = [SlackMessage(text=text, blocks=messages[0])]
    for i, blocks in enumerate(messages[1:], start=2):
        out.append(SlackMessage(text=f"(continued, part {i} of {len(messages)})", blocks=blocks))
    return out


# --- while the answer is being written ----------------------------------------------------------

def progress_message(markdown_so_far: str, status: str | None) -> SlackMessage:
    """What an edited-in-place message shows before the final answer: the text so far (the
    beginning, if it already needs more than one message) and the current status line."""
    blocks = _text_blocks(markdown_so_far)[: MAX_BLOCKS - 1]
    if status:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": f"_{escape(status)}_"}]})
    if not blocks:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": "_Thinking…_"}]})
    text = _truncate(to_plain_text(markdown_so_far), MAX_FALLBACK_TEXT) or (status or "Thinking…")
    return SlackMessage(text=text, blocks=blocks)


# --- copy ----------------------------------------------------------------------------------

def plain_answer(answer: Answer) -> str:
    """The answer and its sources as plain text, for copying elsewhere."""
    text = to_plain_text(answer.text)
    for table in answer.tables:
        if not _already_in_text(table, answer.text):
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
    blocks = [{"type": "section", "text": {"type": "plain_text", "text": p, "emoji": False}}
              for p in pieces[:MAX_MODAL_BLOCKS - 1]]
    if len(pieces) > MAX_MODAL_BLOCKS - 1:
        blocks.append({"type": "context", "elements": [
            {"type": "mrkdwn", "text": "The answer is longer than a dialog can show; the rest is cut."}]})
    return {
        "type": "modal",
        "callback_id": COPY_MODAL_CALLBACK,
        "private_metadata": ref.to_value(),
        "title": {"type": "plain_text", "text": "Copy answer"},
        "close": {"type": "plain_text", "text": "Close"},
        "blocks": blocks,
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
    """The answer text of a posted answer message (its sections before the sources), for copying
    when the answer itself is no longer at hand."""
    parts: list[str] = []
    for block in blocks:
        if block.get("type") in ("divider", "actions"):
            break
        text = (block.get("text") or {}).get("text") if block.get("type") == "section" else None
        if text:
            parts.append(text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    return "\n\n".join(parts)
