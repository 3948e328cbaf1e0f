"""An answer as plain text, for the "Copy answer" dialog and anywhere markdown would show as symbols.

The [n] markers stay (they are the answer's evidence) and the sources follow as a numbered list,
so a pasted copy still says where each fact comes from.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.answer import Answer, AnswerTable, Citation
from cards.markdown_table import find_markdown_tables, table_to_monospace

_LINK = re.compile(r"(?<!\!)\[([^\]\n]+)\]\(([^)\s]+)\)")
_IMAGE = re.compile(r"!\[([^\]\n]*)\]\([^)\s]+\)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])")
_CODE = re.compile(r"`([^`\n]+)`")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)
_BLOCKQUOTE = re.compile(r"^\s{0,3}>\s?", re.MULTILINE)
_FENCE = re.compile(r"^\s*```[^\n]*$\n?", re.MULTILINE)


def markdown_to_plain(text: str) -> str:
    """Drop markdown markup, keep the words, the [n] markers and tables (as aligned text)."""
    tables = find_markdown_tables(text)
    for span in reversed(tables):
        plain_table = table_to_monospace(AnswerTable(columns=span.columns, rows=span.rows, citation_n=0))
        text = text[: span.start] + plain_table + text[span.end:]
    text = _FENCE.sub("", text)
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1 (\2)", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _CODE.sub(r"\1", text)
    text = _HEADING.sub("", text)
    text = _BLOCKQUOTE.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def source_line(citation: Citation, url: str | None = None) -> str:
    section = " ".join(p for p in ((citation.section_path or [""])[-1], citation.section_title) if p)
    where = f"section {section}, page {citation.page}" if section else f"page {citation.page}"
    line = f"[{citation.n}] {citation.title}, {where}"
    url = citation.uri if url is None else url
    return f"{line}: {url}" if url else line


def answer_plain_text(answer: Answer, link_for: Callable[[Citation], str] | None = None) -> str:
    body = markdown_to_plain(answer.text)
    citations = sorted({c.n: c for c in answer.citations}.values(), key=lambda c: c.n)
    if not citations:
        return body
    return body + "\n\nSources:\n" + "\n".join(
        source_line(c, link_for(c) if link_for else None) for c in citations)
