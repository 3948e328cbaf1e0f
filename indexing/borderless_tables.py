"""Tables without ruling lines, as camelot's text-alignment parsers return them, made usable.

camelot's network/stream parsers guess columns from white space and put into the table every
text line that falls into the columns' span: the running header, the chapter and section
headings and the prose sentence above the table come out as one-cell rows at its top. Left
there, the section heading is swallowed into a CSV and the section is never opened. So the
table is trimmed to its core (the first to the last row with two or more cells filled, plus
the wrapped lines of its last row) and its box shrinks with it, which gives those lines back to the prose.

A cell that wraps onto two lines becomes two rows; where cells are centred vertically, the
wrapped lines of a row sit above and below the line holding its key (first column). Rows with
an empty first cell and at most half their cells filled are such continuations: each is merged
into the nearest key row (the previous one when the table's first data row has its key, i.e.
cells are top-aligned), so "camt.056.001.08 | Recall request (FI to FI payment cancellation
request) | Originator PSP | Beneficiary PSP" comes out as one row.
"""

from __future__ import annotations

import re

BBox = tuple[float, float, float, float]

MIN_CORE_CELLS = 2
# a numbered heading three levels deep or more ("19.2.8.2 Number", "19.2.3.21 ExternalClearing…"): a section
# opens there. A message guide's data type chapter sets each type as text columns ("Format" over
# "totalDigits | 18"), and the parser reads one type's columns on into the next types' headings
_HEADING_CELL = re.compile(r"^(?:[A-Z]\.)?\d+(?:\.\d+){2,}\.?\s+[A-Z]")
_LIST_MARKER = re.compile(r"^(?:[•●▪◦‣∙·\-–*]|\(?[a-zA-Z0-9]{1,3}[.)])$")


def trim_to_core(rows: list[list[str]], row_spans: list[tuple[float, float]], bbox: BBox
                 ) -> tuple[list[list[str]], BBox]:
    """The rows from the first to the last with at least two cells filled, and their box.
    `row_spans` are camelot's (top, bottom) boundaries of each row, in PDF points. A wrapped
    last cell ("PSP" under "Beneficiary") stays: a row right below the core with its first
    cell empty and no taller than the core's rows continues the table; prose below starts at
    the left margin, in the first column."""
    core = [i for i, row in enumerate(rows) if sum(1 for cell in row if cell) >= MIN_CORE_CELLS]
    if not core:
        return [], bbox
    first, last = core[0], core[-1]
    if len(row_spans) != len(rows):
        return rows[first:last + 1], bbox
    heights = sorted(abs(top - bottom) for top, bottom in row_spans[first:last + 1])
    typical = heights[len(heights) // 2]
    while (last + 1 < len(rows) and not rows[last + 1][0] and any(rows[last + 1])
           and abs(row_spans[last + 1][0] - row_spans[last + 1][1]) <= 2 * typical):
        last += 1
    top, bottom = row_spans[first][0], row_spans[last][1]
    return rows[first:last + 1], (bbox[0], min(top, bottom), bbox[2], max(top, bottom))


def split_at_headings(rows: list[list[str]], row_spans: list[tuple[float, float]], bbox: BBox
                      ) -> list[tuple[list[list[str]], BBox]]:
    """The table cut at the rows that open a numbered section (`_HEADING_CELL`), each part trimmed to its
    core (`trim_to_core`): the heading rows, and the lines around them that fill one cell, go back to
    the prose, where the section detector opens their sections. Without such a row: the table trimmed."""
    heading = [i for i, row in enumerate(rows) if row and _HEADING_CELL.match(row[0].strip())]
    if not heading or len(row_spans) != len(rows):
        trimmed, box = trim_to_core(rows, row_spans, bbox)
        return [(trimmed, box)] if trimmed else []
    parts = []
    for start, end in zip([0, *(i + 1 for i in heading)], [*heading, len(rows)], strict=True):
        if end <= start:
            continue
        spans = row_spans[start:end]
        box = (bbox[0], min(min(span) for span in spans), bbox[2], max(max(span) for span in spans))
        trimmed, box = trim_to_core(rows[start:end], spans, box)
        if trimmed:
            parts.append((trimmed, box))
    return parts


def merge_wrapped_rows(rows: list[list[str]]) -> list[list[str]]:
    if len(rows) < 3:
        return rows
    width = max(len(row) for row in rows)

    def continuation(row: list[str]) -> bool:
        filled = sum(1 for cell in row if cell)
        return not row[0] and 0 < filled <= width / 2

    header, body = rows[0], rows[1:]
    keys = [i for i, row in enumerate(body) if not continuation(row)]
    if not keys or len(keys) == len(body):
        return rows
    top_aligned = keys[0] == 0
    owner: dict[int, list[int]] = {k: [] for k in keys}
    for i in range(len(body)):
        if i in owner:
            owner[i].append(i)
            continue
        before = [k for k in keys if k < i]
        after = [k for k in keys if k > i]
        if top_aligned or not after:
            target = before[-1] if before else after[0]
        elif not before:
            target = after[0]
        else:  # centred: the nearer key row; on a tie the next one (centring puts lines above)
            target = before[-1] if i - before[-1] < after[0] - i else after[0]
        owner[target].append(i)
    merged = [header]
    for key in keys:
        members = sorted(owner[key])
        merged.append([" ".join(body[i][c] for i in members if c < len(body[i]) and body[i][c])
                       for c in range(width)])
    return merged


def looks_like_list(rows: list[list[str]]) -> bool:
    """A bulleted or numbered list set with a hanging indent reads as a two-column table."""
    first = [row[0].strip() for row in rows if row and row[0].strip()]
    return bool(first) and sum(1 for cell in first if _LIST_MARKER.match(cell)) >= 0.6 * len(first)


def column_char_means(rows: list[list[str]]) -> list[float]:
    """Mean cell length of each column that has text. A table has a column of short cells
    (keys, amounts, codes) and none of paragraphs; prose set with a hanging indent or a
    margin label ("Step 2", "CT-01.01") has a column of whole paragraphs."""
    width = max((len(row) for row in rows), default=0)
    means = []
    for c in range(width):
        cells = [row[c] for row in rows if c < len(row) and row[c]]
        if cells:
            means.append(sum(len(cell) for cell in cells) / len(cells))
    return means
