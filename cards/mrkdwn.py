"""Markdown (what the assistant writes) to Slack's mrkdwn, and clean splitting of long texts.

Slack's mrkdwn is not Markdown: bold is `*x*`, italics `_x_`, strike `~x~`, links `<url|text>`,
no headings, no tables, and `&`, `<`, `>` must be escaped in plain text. Code spans and fenced
blocks pass through untouched (only escaped), because Slack renders them verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.answer import AnswerTable
from cards.markdown_table import find_markdown_tables, table_to_monospace

_FENCE = re.compile(r"^\s*```")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d+)[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s*>\s?(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")

_CODE_SPAN = re.compile(r"`[^`\n]+`")
_LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^)\s]+|mailto:[^)\s]+)\)")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")

# Private-use characters never met in rulebook text: they keep converted spans out of later passes.
_HOLD = "\ue000"
_HOLD_END = "\ue001"


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def inline_to_mrkdwn(text: str) -> str:
    """Convert one line's inline Markdown: code, links, bold, italics, strike."""
    held: list[str] = []

    def hold(value: str) -> str:
        held.append(value)
        return f"{_HOLD}{len(held) - 1}{_HOLD_END}"

    text = _CODE_SPAN.sub(lambda m: hold(escape(m.group(0))), text)

    def link(m: re.Match[str]) -> str:
        label = escape(m.group(1)).replace("|", "/")
        url = m.group(2).replace("|", "%7C").replace(">", "%3E").replace("<", "%3C")
        return hold(f"<{url}|{label}>")

    text = _LINK.sub(link, text)
    text = escape(text)
    text = _BOLD.sub(lambda m: hold(f"*{m.group(2)}*"), text)
    text = _ITALIC_STAR.sub(lambda m: f"_{m.group(1)}_", text)
    text = _STRIKE.sub(lambda m: f"~{m.group(1)}~", text)
    # Bold spans may contain other held spans (a link inside bold): restore until none remain.
    pattern = re.compile(f"{_HOLD}(\\d+){_HOLD_END}")
    while pattern.search(text):
        text = pattern.sub(lambda m: held[int(m.group(1))], text)
    return text


@dataclass
class Segment:
    """A stretch of the answer: running text, or something shown verbatim (code, a table)."""

    kind: str  # "text" | "pre"
    lines: list[str]


def segments(markdown: str) -> list[Segment]:
    """Cut Markdown into text and preformatted stretches (fenced code, pipe tables as aligned
    monospace, since mrkdwn has no tables)."""
    out: list[Segment] = []
    lines = markdown.replace("\r\n", "\n").split("\n")
    text: list[str] = []

    def flush_text() -> None:
        if not text:
            return
        joined = "\n".join(text)
        cursor = 0
        for span in find_markdown_tables(joined):
            _add_text(out, joined[cursor:span.start])
            table = AnswerTable(columns=span.columns, rows=span.rows, citation_n=0)
            out.append(Segment("pre", table_to_monospace(table).split("\n")))
            cursor = span.end
        _add_text(out, joined[cursor:])
        text.clear()

    i = 0
    while i < len(lines):
        if _FENCE.match(lines[i]):
            flush_text()
            body: list[str] = []
            i += 1
            while i < len(lines) and not _FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence (or the end of an unclosed block)
            out.append(Segment("pre", body))
            continue
        text.append(lines[i])
        i += 1
    flush_text()
    return out


def _add_text(out: list[Segment], chunk: str) -> None:
    if not chunk.strip("\n"):
        return
    lines = chunk.strip("\n").split("\n")
    if out and out[-1].kind == "text":
        out[-1].lines.extend(lines)
    else:
        out.append(Segment("text", lines))


def text_lines_to_mrkdwn(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if m := _HEADING.match(line):
            out.append(f"*{inline_to_mrkdwn(m.group(2)).strip('*')}*")
        elif _RULE.match(line):
            out.append("")
        elif m := _BULLET.match(line):
            depth = len(m.group(1).expandtabs(4)) // 2
            out.append(f"{'    ' * depth}• {inline_to_mrkdwn(m.group(2))}")
        elif m := _NUMBERED.match(line):
            depth = len(m.group(1).expandtabs(4)) // 2
            out.append(f"{'    ' * depth}{m.group(2)}. {inline_to_mrkdwn(m.group(3))}")
        elif m := _QUOTE.match(line):
            out.append(f"&gt; {inline_to_mrkdwn(m.group(1))}")
        else:
            out.append(inline_to_mrkdwn(line))
    return "\n".join(out).strip("\n")


def to_mrkdwn(markdown: str) -> str:
    """The whole text as one mrkdwn string (preformatted stretches fenced with ```)."""
    parts = []
    for seg in segments(markdown):
        if seg.kind == "pre":
            parts.append("```\n" + escape("\n".join(seg.lines)) + "\n```")
        else:
            converted = text_lines_to_mrkdwn(seg.lines)
            if converted:
                parts.append(converted)
    return "\n".join(parts)


def to_plain_text(markdown: str) -> str:
    """The answer without Markdown markup, for copying: links keep their address, tables align."""
    out: list[str] = []
    for seg in segments(markdown):
        if seg.kind == "pre":
            out.extend(seg.lines)
            continue
        for line in seg.lines:
            if m := _HEADING.match(line):
                line = m.group(2)
            elif m := _BULLET.match(line):
                line = f"{m.group(1)}- {m.group(2)}"
            line = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", line)
            line = _BOLD.sub(lambda m: m.group(2), line)
            line = _ITALIC_STAR.sub(lambda m: m.group(1), line)
            line = _STRIKE.sub(lambda m: m.group(1), line)
            line = line.replace("`", "")
            out.append(line)
    return "\n".join(out).strip("\n")


# --- splitting -------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?…:;])\s+")


def split_text(text: str, limit: int) -> list[str]:
    """Pieces of at most `limit` characters, cut at paragraph, then line, then sentence, then word
    boundaries; a single word longer than `limit` (a very long URL) is the only thing ever cut."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    if len(text) <= limit:
        return [text] if text.strip() else []
    pieces: list[str] = []
    for separator, splitter in (
        ("\n\n", lambda t: t.split("\n\n")),
        ("\n", lambda t: t.split("\n")),
        (" ", lambda t: _SENTENCE_END.split(t)),
        (" ", lambda t: t.split(" ")),
    ):
        parts = splitter(text)
        if len(parts) > 1:
            pieces = _pack(parts, separator, limit)
            break
    else:
        return [text[i:i + limit] for i in range(0, len(text), limit)]
    result: list[str] = []
    for piece in pieces:
        result.extend(split_text(piece, limit) if len(piece) > limit else [piece])
    return [p.rstrip().lstrip("\n") for p in result if p.strip()]


def _pack(parts: list[str], separator: str, limit: int) -> list[str]:
    packed: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            packed.append(current)
        current = part
    if current:
        packed.append(current)
    return packed


def mrkdwn_pieces(markdown: str, limit: int) -> list[str]:
    """The answer as mrkdwn pieces of at most `limit` characters each, every piece well-formed on
    its own: text is split before conversion at clean boundaries, and a long preformatted
    stretch is split by lines with each part fenced again."""
    pieces: list[str] = []
    fence_cost = len("```\n\n```")
    for seg in segments(markdown):
        if seg.kind == "pre":
            body = escape("\n".join(seg.lines))
            for part in split_text(body, limit - fence_cost) or [""]:
                pieces.append("```\n" + part + "\n```")
            continue
        converted = text_lines_to_mrkdwn(seg.lines)
        pieces.extend(split_text(converted, limit))
    return _merge(pieces, limit)


def _merge(pieces: list[str], limit: int) -> list[str]:
    """Join neighbouring small pieces (fewer blocks), never past `limit`."""
    merged: list[str] = []
    for piece in pieces:
        if merged and len(merged[-1]) + 1 + len(piece) <= limit:
            merged[-1] = f"{merged[-1]}\n{piece}"
        else:
            merged.append(piece)
    return merged
