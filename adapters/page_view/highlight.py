"""Where a quoted span sits on a page: rectangles from pdfium's character boxes.

The quote comes from the index, whose text went through the indexer's repair (pdfium's U+FFFE
line-break hyphens kept as hyphens, soft hyphens dropped, white space collapsed, ligatures as
their letters); the page's characters are raw. Both sides are compared by their letters and
digits only, NFKC-folded and case-folded (as `bot.gate.citation_pages` locates quotes in chunks), so
none of that — nor a line break, a hyphen at a line end or "ﬁ" — matters for where the words are.

A whole quote found verbatim is the common case. Otherwise (a quote that runs over a page break,
a sentence the repair changed) the quote is cut into overlapping probes; the probes found on the
page at one consistent offset mark the span, and its ends are extended letter by letter. So a
span across a page break highlights its first part on one page and the rest on the next.

A table citation quotes rows as "cell, cell; cell, cell": when the cited chunk holds a table,
each row's cells are found on one horizontal band of the page and each cell is boxed.
"""

from __future__ import annotations

import csv
import difflib
import io
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from adapters.page_view.pdf_pages import Box, PageChars
from indexing.text_repair import repair_line

PROBE = 16
STRIDE = 8
DIFF_TOLERANCE = 40  # alnum characters the page may add or drop inside one span
MIN_COVERAGE = 0.25
SPANNED_CELL_REACH = 120.0  # points above or below a row where a cell spanning rows may sit  # of the quote's letters, or a span is not claimed at all
SEGMENT_SEPARATOR = " … "  # how `Citation.quote` joins several quotes of one chunk and page
_SKIP = {"\ufffe", "\u00ad", "\x02"}


@dataclass(frozen=True)
class Rect:
    """A highlight rectangle in PDF points (origin bottom-left)."""

    left: float
    bottom: float
    right: float
    top: float

    def contains_centre(self, box: Box) -> bool:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return self.left <= cx <= self.right and self.bottom <= cy <= self.top


@dataclass(frozen=True)
class Highlight:
    rects: tuple[Rect, ...]
    covered: float  # share of the quote's letters and digits found on this page
    continues_after: bool  # the quote goes on past this page's part
    began_before: bool  # the quote started before this page's part
    kind: str = "text"  # text | table

    @property
    def found(self) -> bool:
        return bool(self.rects)


NO_HIGHLIGHT = Highlight((), 0.0, False, False)


def fold(text: str) -> tuple[str, list[int]]:
    """Letters and digits of `text`, NFKC- and case-folded, with the index each came from."""
    out: list[str] = []
    where: list[int] = []
    for index, ch in enumerate(text):
        if ch in _SKIP or ch.isspace():
            continue
        for c in unicodedata.normalize("NFKC", ch).casefold():
            if c.isalnum():
                out.append(c)
                where.append(index)
    return "".join(out), where


def fold_page(text: str) -> tuple[str, list[int]]:
    """`fold` of a page's raw text after the indexer's line repair (mojibake undone), each folded
    character still pointing at the raw character it came from."""
    out: list[str] = []
    where: list[int] = []
    start = 0
    for line in text.split("\r\n"):
        repaired = repair_line(line) if not line.isascii() else line
        if repaired == line:
            folded, at = fold(line)
            out.append(folded)
            where += [start + i for i in at]
        else:
            mapping = _alignment(line, repaired)
            folded, at = fold(repaired)
            out.append(folded)
            where += [start + mapping[i] for i in at]
        start += len(line) + 2
    return "".join(out), where


def _alignment(raw: str, repaired: str) -> list[int]:
    """For each character of `repaired`, the index of the raw character it stands for."""
    mapping = [0] * len(repaired)
    for tag, a0, a1, b0, b1 in difflib.SequenceMatcher(None, raw, repaired, autojunk=False).get_opcodes():
        for j in range(b0, b1):
            mapping[j] = a0 + (j - b0) if tag == "equal" else min(a1 - 1, a0 + (j - b0)) if a1 > a0 else max(a0 - 1, 0)
    return mapping


def _occurrences(haystack: str, needle: str, limit: int = 8) -> list[int]:
    found: list[int] = []
    at = haystack.find(needle)
    while at >= 0 and len(found) < limit:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def match_span(page: str, quote: str) -> tuple[int, int, int, int] | None:
    """(page start, page end, quote start, quote end) in folded characters, or None."""
    if not quote or not page:
        return None
    at = page.find(quote)
    if at >= 0:
        return at, at + len(quote), 0, len(quote)
    size = min(PROBE, len(quote))
    starts = list(range(0, max(1, len(quote) - size + 1), STRIDE))
    if starts[-1] != len(quote) - size:
        starts.append(len(quote) - size)
    hits: list[tuple[int, int]] = []  # (quote position, page position)
    for q in starts:
        for p in _occurrences(page, quote[q:q + size]):
            hits.append((q, p))
    if not hits:
        return None
    votes: Counter[int] = Counter()
    for q, p in hits:
        votes[(p - q) // DIFF_TOLERANCE] += 1
        votes[(p - q) // DIFF_TOLERANCE + 1] += 1
    bucket = votes.most_common(1)[0][0]
    low, high = (bucket - 1) * DIFF_TOLERANCE, (bucket + 1) * DIFF_TOLERANCE
    chosen: dict[int, int] = {}
    for q, p in hits:
        if low <= p - q < high and q not in chosen:
            chosen[q] = p
    if not chosen:
        return None
    q_first, q_last = min(chosen), max(chosen)
    p_start, p_end = chosen[q_first], chosen[q_last] + size
    q_start, q_end = q_first, q_last + size
    while q_start > 0 and p_start > 0 and page[p_start - 1] == quote[q_start - 1]:
        p_start, q_start = p_start - 1, q_start - 1
    while q_end < len(quote) and p_end < len(page) and page[p_end] == quote[q_end]:
        p_end, q_end = p_end + 1, q_end + 1
    if (q_end - q_start) < MIN_COVERAGE * len(quote) and len(chosen) < 3:
        return None
    return p_start, p_end, q_start, q_end


def _visible(box: Box) -> bool:
    return box[2] - box[0] > 0.01 and box[3] - box[1] > 0.01


def line_rects(boxes: Sequence[Box], indices: Iterable[int]) -> list[Rect]:
    """The boxes of these characters (in reading order) merged into one rectangle per line."""
    rects: list[list[float]] = []
    for index in sorted(set(indices)):
        box = boxes[index]
        if not _visible(box):
            continue
        if rects:
            r = rects[-1]
            height = min(r[3] - r[1], box[3] - box[1])
            overlap = min(r[3], box[3]) - max(r[1], box[1])
            same_line = overlap > 0.5 * height and box[0] >= r[0] - 2 and box[0] - r[2] < 40
            if same_line:
                r[0], r[1], r[2], r[3] = min(r[0], box[0]), min(r[1], box[1]), max(r[2], box[2]), max(r[3], box[3])
                continue
        rects.append(list(box))
    return [Rect(*r) for r in rects]


def _text_highlight(chars: PageChars, page_folded: str, where: list[int], quote: str) -> Highlight:
    rects: list[Rect] = []
    total = covered = 0
    continues = began = False
    for segment in [s for s in quote.split(SEGMENT_SEPARATOR) if s.strip()]:
        folded, _ = fold(segment)
        if not folded:
            continue
        total += len(folded)
        span = match_span(page_folded, folded)
        if span is None:
            continue
        p_start, p_end, q_start, q_end = span
        covered += q_end - q_start
        continues = continues or q_end < len(folded)
        began = began or q_start > 0
        first, last = where[p_start], where[p_end - 1]
        rects += line_rects(chars.boxes, range(first, last + 1))
    if not rects or not total:
        return NO_HIGHLIGHT
    return Highlight(tuple(rects), covered / total, continues, began)


# -- tables ------------------------------------------------------------------------------------

def _csv_rows(tables_csv: Sequence[str]) -> list[list[str]]:
    rows: list[list[str]] = []
    for table in tables_csv:
        rows += [[c for c in row if c.strip()] for row in csv.reader(io.StringIO(table))]
    return [r for r in rows if r]


def table_rows(quote: str, tables_csv: Sequence[str]) -> tuple[list[list[str]], list[str]]:
    """The quoted rows, as the table's own cells, when the quote is made of rows of the chunk's
    tables. The gate writes a row as "cell, cell" (or "header: cell; …"), and a cell may hold a
    comma itself, so a quoted row is recognised by its letters and digits against the CSV rows."""
    rows = _csv_rows(tables_csv)
    if not rows:
        return [], [quote]
    header = rows[0]
    by_fold: dict[str, list[str]] = {}
    for row in rows:
        by_fold.setdefault(fold("".join(row))[0], row)
        labelled = "".join(f"{h}{c}" for h, c in zip(header, row, strict=False))
        by_fold.setdefault(fold(labelled)[0], row)
    found: list[list[str]] = []
    prose: list[str] = []
    for segment in quote.split(SEGMENT_SEPARATOR):
        pieces = segment.split("; ")
        i = 0
        rows_before = len(found)
        while i < len(pieces):
            # a cell may hold "; " too: take the shortest run of pieces that is a whole row
            for j in range(i + 1, min(len(pieces), i + 4) + 1):
                row = by_fold.get(fold("".join(pieces[i:j]))[0])
                if row is not None:
                    found.append(row)
                    i = j
                    break
            else:
                i += 1
        if len(found) == rows_before and segment.strip():
            prose.append(segment)  # a sentence quoted beside the rows
    return found, prose


def _common_prefix(page: str, p: int, cell: str, q: int) -> int:
    n = 0
    while p + n < len(page) and q + n < len(cell) and page[p + n] == cell[q + n]:
        n += 1
    return n


def _cell_fragments(page: str, cell: str, at: int, window: int = 900) -> list[tuple[int, int]] | None:
    """A cell that starts at `at`, as contiguous runs of the page: a cell that wraps over lines is
    interleaved, in pdfium's order, with the lines of its neighbours."""
    fragments: list[tuple[int, int]] = []
    q, p = 0, at
    while q < len(cell) and len(fragments) < 8:
        n = _common_prefix(page, p, cell, q)
        if n == 0 or (n < 3 and q + n < len(cell)):
            return None
        fragments.append((p, p + n))
        q += n
        if q >= len(cell):
            break
        rest = cell[q:q + min(6, len(cell) - q)]
        p = page.find(rest, p + n, at + window)
        if p < 0:
            return None
    return fragments


def _band(boxes: Sequence[Box], where: list[int], fragments: list[tuple[int, int]]) -> tuple[float, float]:
    ys = [(boxes[where[i]][1], boxes[where[i]][3]) for start, end in fragments for i in range(start, end)
          if _visible(boxes[where[i]])]
    if not ys:
        return 0.0, 0.0
    return min(y for y, _ in ys), max(y for _, y in ys)


def _cell_candidates(page: str, cell: str, limit: int) -> list[list[tuple[int, int]]]:
    out = []
    for at in _occurrences(page, cell[:8], limit):
        fragments = _cell_fragments(page, cell, at)
        if fragments:
            out.append(fragments)
    return sorted(out, key=len)  # a cell read in one run before one pieced together


def _table_highlight(chars: PageChars, page_folded: str, where: list[int], rows: list[list[str]]) -> Highlight:
    rects: list[Rect] = []
    wanted = found = 0
    for cells in rows:
        folded = [f for f in (fold(c)[0] for c in cells) if f]
        wanted += len(folded)
        if not folded:
            continue
        anchor = max(folded, key=len)
        best: list[list[tuple[int, int]]] = []
        for anchored in _cell_candidates(page_folded, anchor, 40):
            low, high = _band(chars.boxes, where, anchored)
            picked = [anchored]
            for cell in folded:
                if cell == anchor:
                    continue
                # on the row's band; else the nearest one above or below: a cell spanning rows
                nearest: tuple[float, list[tuple[int, int]]] | None = None
                for fragments in _cell_candidates(page_folded, cell, 80):
                    c_low, c_high = _band(chars.boxes, where, fragments)
                    if min(high, c_high) - max(low, c_low) > 0.3 * min(high - low, c_high - c_low):
                        nearest = (0.0, fragments)
                        break
                    gap = max(c_low - high, low - c_high)
                    if gap < SPANNED_CELL_REACH and (nearest is None or gap < nearest[0]):
                        nearest = (gap, fragments)
                if nearest is not None:
                    picked.append(nearest[1])
            if len(picked) > len(best):
                best = picked
        found += len(best)
        for fragments in best:
            cell_rects = [r for start, end in fragments
                          for r in line_rects(chars.boxes, range(where[start], where[end - 1] + 1))]
            if cell_rects:
                rects.append(Rect(min(r.left for r in cell_rects), min(r.bottom for r in cell_rects),
                                  max(r.right for r in cell_rects), max(r.top for r in cell_rects)))
    if not rects or not wanted:
        return NO_HIGHLIGHT
    return Highlight(tuple(rects), found / wanted, False, False, kind="table")


def highlight(chars: PageChars, quote: str, tables_csv: Sequence[str] = ()) -> Highlight:
    """The rectangles of `quote` on this page (empty when it is not there)."""
    if not quote.strip() or not chars.text:
        return NO_HIGHLIGHT
    page_folded, where = fold_page(chars.text)
    rows, prose = table_rows(quote, tables_csv) if tables_csv else ([], [quote])
    table = _table_highlight(chars, page_folded, where, rows) if rows else NO_HIGHLIGHT
    if not table.found:
        return _text_highlight(chars, page_folded, where, quote)
    if not prose:
        return table
    text = _text_highlight(chars, page_folded, where, SEGMENT_SEPARATOR.join(prose))
    return Highlight(table.rects + text.rects, min(table.covered, text.covered) if text.found else table.covered,
                     text.continues_after, text.began_before, kind="table")


def read_back(chars: PageChars, rects: Sequence[Rect], pad: float = 0.0) -> str:
    """The text of the characters whose centres lie inside the rectangles, in reading order."""
    grown = [Rect(r.left - pad, r.bottom - pad, r.right + pad, r.top + pad) for r in rects]
    return "".join(ch for ch, box in zip(chars.text, chars.boxes, strict=False)
                   if _visible(box) and any(r.contains_centre(box) for r in grown))
