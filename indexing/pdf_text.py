"""Open a PDF with pdfium and read each page as positioned lines, leaving table areas out.

pdfium opens PDFs encrypted with an owner password only (permission flags) without asking, so
those index like any other. A corrupt file, a file that needs a user password and a file with no
text layer are refused with a `PdfRejected` whose reason the summary reports by file name.

Positions are PDF points, origin bottom-left (the same space camelot reports table boxes in), so a
character whose centre lies inside a table's box is left out of the prose: the table is indexed
once, as CSV, at the place in the reading order where its first character was.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from indexing.line_break_hyphens import BreakHyphens
from indexing.text_repair import repair_line

BBox = tuple[float, float, float, float]  # x0, y0, x1, y1 (PDF points, origin bottom-left)

MIN_TEXT_CHARS_PER_DOCUMENT = 40
_IMAGE_OBJECT = 3  # FPDF_PAGEOBJ_IMAGE
_MIN_SCAN_COVERAGE = 0.5  # of the page area


class PdfRejected(Exception):
    """The PDF cannot be indexed; `reason` says why in words a document owner understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Line:
    text: str
    page: int  # 1-based
    top: float
    bottom: float
    x0: float
    x1: float
    height: float  # loose glyph box height of the first letter: a font-size proxy
    bold: bool = False  # the line's letters are mostly set in a bold font


@dataclass
class TableSlot:
    """Where a table sits in the reading order of its page."""

    page: int
    table_index: int  # index into that page's tables
    top: float


@dataclass
class PageLines:
    number: int  # 1-based
    width: float
    height: float
    items: list[Line | TableSlot] = field(default_factory=list)

    @property
    def lines(self) -> list[Line]:
        return [item for item in self.items if isinstance(item, Line)]


def open_pdf(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc).lower()
        if "password" in message:
            raise PdfRejected("encrypted: needs a user password to open") from exc
        if "not found" in message or "could not be opened" in message:
            raise PdfRejected("file could not be opened") from exc
        raise PdfRejected(f"corrupt or not a PDF ({exc})") from exc


def plain_text(document: pdfium.PdfDocument) -> str:
    """The whole document's text as pdfium reads it (pages joined by a blank line), tables included:
    for checks that look at what a document says, not at where it says it."""
    pages = []
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        try:
            pages.append(textpage.get_text_range().replace("\r\n", "\n"))
        finally:
            textpage.close()
    return "\n\n".join(pages)


def read_pages(document: pdfium.PdfDocument, table_boxes: dict[int, Sequence[BBox]] | None = None
               ) -> list[PageLines]:
    """Every page's lines in pdfium's reading order; raises PdfRejected without a text layer."""
    table_boxes = table_boxes or {}
    pages: list[PageLines] = []
    total_chars = 0
    for index in range(len(document)):
        page = document[index]
        width, height = page.get_size()
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
            total_chars += sum(1 for ch in text if not ch.isspace())
            items = _page_items(textpage, text, index + 1, table_boxes.get(index + 1, ()))
        finally:
            textpage.close()
            page.close()
        pages.append(PageLines(number=index + 1, width=width, height=height, items=items))
    hyphens = BreakHyphens(line.text for page in pages for line in page.lines)
    for page in pages:
        for line in page.lines:
            line.text = hyphens.resolve(line.text)
    if total_chars < MIN_TEXT_CHARS_PER_DOCUMENT:
        if any(_image_coverage(document, page.number - 1, page.width * page.height) >= _MIN_SCAN_COVERAGE
               for page in pages):
            raise PdfRejected("no text layer (a scanned image?): nothing to index without OCR")
        raise PdfRejected("no text: the pages are blank (no text and no images)")
    return pages


def _image_coverage(document: pdfium.PdfDocument, index: int, area: float) -> float:
    """The share of a page's area that its images cover."""
    page = document[index]
    try:
        covered = 0.0
        for obj in page.get_objects(max_depth=2):
            if obj.type == _IMAGE_OBJECT:
                left, bottom, right, top = obj.get_bounds()
                covered += max(right - left, 0.0) * max(top - bottom, 0.0)
        return covered / max(area, 1.0)
    finally:
        page.close()


def image_only_pages(document: pdfium.PdfDocument, pages: list[PageLines]) -> list[int]:
    """Pages with no text at all but an image over much of the page: scanned pages, whose
    content the index cannot hold without OCR. (A blank page has no image; it is not one.)"""
    return [page.number for page in pages if not page.items
            and _image_coverage(document, page.number - 1, page.width * page.height) >= _MIN_SCAN_COVERAGE]


def _page_items(textpage: pdfium.PdfTextPage, text: str, page_number: int,
                boxes: Sequence[BBox]) -> list[Line | TableSlot]:
    items: list[Line | TableSlot] = []
    placed: set[int] = set()
    start = 0
    for raw_line in text.split("\r\n"):
        end = start + len(raw_line)
        kept, hit_tables = _keep_outside_tables(textpage, raw_line, start, boxes)
        for table_index in hit_tables:
            if table_index not in placed:
                placed.add(table_index)
                items.append(TableSlot(page=page_number, table_index=table_index,
                                       top=boxes[table_index][3]))
        line = _make_line(textpage, kept, page_number)
        if line is not None:
            items.append(line)
        start = end + 2
    for table_index in range(len(boxes)):  # a table without extractable text still gets its place
        if table_index not in placed:
            _insert_by_position(items, TableSlot(page=page_number, table_index=table_index,
                                                 top=boxes[table_index][3]))
    return items


def _keep_outside_tables(textpage: pdfium.PdfTextPage, raw_line: str, start: int,
                         boxes: Sequence[BBox]) -> tuple[list[tuple[int, str]], list[int]]:
    """The line's characters (with their pdfium indices) that lie outside every table box."""
    chars = [(start + offset, ch) for offset, ch in enumerate(raw_line)]
    if not boxes or not _may_touch(textpage, chars, boxes):
        return chars, []
    kept: list[tuple[int, str]] = []
    hits: list[int] = []
    for index, ch in chars:
        if ch.isspace():
            kept.append((index, ch))
            continue
        x0, y0, x1, y1 = textpage.get_charbox(index)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        inside = next((i for i, (bx0, by0, bx1, by1) in enumerate(boxes)
                       if bx0 - 1 <= cx <= bx1 + 1 and by0 - 1 <= cy <= by1 + 1), None)
        if inside is None:
            kept.append((index, ch))
        elif inside not in hits:
            hits.append(inside)
    return kept, hits


_LINE_BAND_MARGIN = 6.0  # points: a line's first and last letters may sit lower or higher than the rest


def _may_touch(textpage: pdfium.PdfTextPage, chars: list[tuple[int, str]], boxes: Sequence[BBox]) -> bool:
    """Whether any table box lies within the line's height band (from its first and last
    letters, widened by a margin): most lines of a page with a table are prose above or below
    it, and this spares them a box look-up per character (~40% of the text stage there)."""
    visible = [i for i, ch in chars if not ch.isspace()]
    if not visible:
        return False
    first, last = textpage.get_charbox(visible[0]), textpage.get_charbox(visible[-1])
    low = min(first[1], last[1]) - _LINE_BAND_MARGIN
    high = max(first[3], last[3]) + _LINE_BAND_MARGIN
    return any(by0 - 1 <= high and low <= by1 + 1 for _, by0, _, by1 in boxes)


def _make_line(textpage: pdfium.PdfTextPage, chars: list[tuple[int, str]], page_number: int
               ) -> Line | None:
    visible = [(i, ch) for i, ch in chars if not ch.isspace()]
    if not visible:
        return None
    text = repair_line("".join(ch for _, ch in chars), keep_break_hyphens=True)
    if not text:
        return None
    first = next(((i, ch) for i, ch in visible if ch.isalpha()), visible[0])[0]
    fx0, fy0, fx1, fy1 = textpage.get_charbox(first, loose=True)
    lx0, ly0, lx1, ly1 = textpage.get_charbox(visible[-1][0], loose=True)
    sx0, _, _, _ = textpage.get_charbox(visible[0][0], loose=True)
    return Line(text=text, page=page_number, top=max(fy1, ly1), bottom=min(fy0, ly0),
                x0=sx0, x1=lx1, height=round(fy1 - fy0, 1), bold=_mostly_bold(textpage, visible))


def _mostly_bold(textpage: pdfium.PdfTextPage, visible: list[tuple[int, str]]) -> bool:
    """Weight 600+ (or a font named bold) for most letters; a sample of up to 12 is enough."""
    letters = [i for i, ch in visible if ch.isalpha()] or [i for i, _ in visible]
    step = max(1, len(letters) // 12)
    sample = letters[::step]
    bold = sum(1 for i in sample if _is_bold(textpage, i))
    return bold * 2 > len(sample)


def _is_bold(textpage: pdfium.PdfTextPage, index: int) -> bool:
    weight = pdfium_c.FPDFText_GetFontWeight(textpage.raw, index)
    if weight >= 600:
        return True
    if weight > 0:
        return False
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int(0)
    size = pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, buffer, len(buffer), ctypes.byref(flags))
    return size > 0 and b"bold" in buffer.value.lower()


def _insert_by_position(items: list[Line | TableSlot], slot: TableSlot) -> None:
    for position, item in enumerate(items):
        if isinstance(item, Line) and item.top < slot.top:
            items.insert(position, slot)
            return
    items.append(slot)
