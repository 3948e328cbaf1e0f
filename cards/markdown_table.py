"""Tables of an answer as text: GitHub-flavoured markdown, fixed-width text, and back again.

Teams renders markdown tables in messages and Slack has table blocks; plain text (a copied answer)
takes the fixed-width form. Answer text from the model may also carry a markdown table inline: the
parser finds those so a card can show them as a real table.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.answer import AnswerTable, is_table_separator_cell


def _clean_cell(value: object) -> str:
    # a newline or a pipe inside a cell would break the row in every renderer
    text = "" if value is None else str(value)
    text = " ".join(text.split())
    return text.replace("|", "\\|")


def _padded(rows: list[list[str]], width: int) -> list[list[str]]:
    return [list(row[:width]) + [""] * (width - len(row)) for row in rows]


def table_to_markdown(table: AnswerTable) -> str:
    """A GFM table; ragged rows are padded (or cut) to the header's width."""
    columns = [_clean_cell(c) for c in table.columns]
    if not columns:
        width = max((len(r) for r in table.rows), default=0)
        columns = [f"Column {i + 1}" for i in range(width)]
    width = len(columns)
    if width == 0:
        return ""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(["---"] * width) + "|"]
    for row in _padded([[_clean_cell(c) for c in r] for r in table.rows], width):
        lines.append("| " + " | ".join(row) + " |")
    if table.caption:
        lines.insert(0, f"*{_clean_cell(table.caption)}* [{table.citation_n}]\n")
    return "\n".join(lines)


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _fit(text: str, width: int) -> str:
    if _display_width(text) <= width:
        return text + " " * (width - _display_width(text))
    out = ""
    for ch in text:
        if _display_width(out + ch) > width - 1:
            break
        out += ch
    return out + "…" + " " * (width - 1 - _display_width(out))


def table_to_monospace(table: AnswerTable, max_column_width: int = 28) -> str:
    """Aligned plain text for clients without table rendering (put it in a code block)."""
    columns = [" ".join(str(c).split()) for c in table.columns]
    rows = [[" ".join(str(c).split()) for c in r] for r in table.rows]
    width = max([len(columns)] + [len(r) for r in rows])
    if width == 0:
        return ""
    columns = _padded([columns], width)[0]
    rows = _padded(rows, width)
    widths = [
        min(max_column_width, max(_display_width(x) for x in [columns[i]] + [r[i] for r in rows]))
        for i in range(width)
    ]
    widths = [max(w, 1) for w in widths]

    def line(cells: list[str]) -> str:
        return "  ".join(_fit(c, w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [line(columns), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in rows)
    return "\n".join(out)


@dataclass
class MarkdownTableSpan:
    """A markdown table found in text: where it sits and its cells."""

    start: int  # character offsets into the text, end exclusive
    end: int
    columns: list[str]
    rows: list[list[str]]


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


def find_markdown_tables(text: str) -> list[MarkdownTableSpan]:
    """Every GFM table (header, separator row, body rows) in `text`, in order."""
    lines = text.splitlines(keepends=True)
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line)
    found: list[MarkdownTableSpan] = []
    i = 0
    while i < len(lines) - 1:
        header, separator = lines[i], lines[i + 1]
        sep_cells = _split_row(separator) if "|" in separator or "-" in separator else []
        if ("|" in header and sep_cells and all(is_table_separator_cell(c) for c in sep_cells)
                and len(_split_row(header)) == len(sep_cells)):
            columns = _split_row(header)
            rows: list[list[str]] = []
            j = i + 2
            while j < len(lines) and "|" in lines[j] and lines[j].strip():
                rows.append(_padded([_split_row(lines[j])], len(columns))[0])
                j += 1
            end = offsets[j - 1] + len(lines[j - 1].rstrip("\r\n"))
            found.append(MarkdownTableSpan(offsets[i], end, columns, rows))
            i = j
        else:
            i += 1
    return found
