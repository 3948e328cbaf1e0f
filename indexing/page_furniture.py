"""Running headers, footers and page numbers: text that repeats at the page edges.

A line is furniture when it sits among the first or last few lines of a page and, with its digits
masked ("www.epc-cep.eu 20" -> "www.epc-cep.eu #"), repeats at the edge of several pages, or when it
is a bare page number ("12", "Page 3 of 10", "3 / 103"). Left in, it would split paragraphs that
run across a page break and fill chunks with noise.

Furniture also stands where it stood on the other pages: a running header or footer repeats at
the same distance from its edge of the page (within EDGE_BAND points). An element record that
happens to start near a page edge ("Presence: [1..*]") repeats in form but not in place.

A line set clearly larger than the body text is a heading unless it repeats word for word: a
message guide opens every message at the top of a page with "18 camt.087.001.07" and
"18.1 MessageDefinition Functionality", which repeat only once their digits are masked.
"""

from __future__ import annotations

import re
from collections import Counter

from indexing.pdf_text import Line, PageLines
from indexing.section_detector import body_height

EDGE_LINES = 3
EDGE_BAND = 4.0  # points: a running header or footer keeps its place on the page to within this
HEADING_RATIO = 1.15  # of the body text's size: larger edge lines are furniture only verbatim
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"(?i)^(?:-\s*)?(?:page|pagina|seite|blz\.?|p\.)?\s*\d{1,4}(?:\s*(?:/|of|van|de|von|sur)\s*\d{1,4})?(?:\s*-)?$")


def _signature(line: Line, body: float) -> str:
    if body and line.height >= body * HEADING_RATIO:
        return "=" + line.text.lower().strip()
    return _DIGITS.sub("#", line.text.lower()).strip()


def _place(line: Line, page: PageLines) -> tuple[str, int]:
    """Which edge of the page the line is near, and its distance from that edge in bands."""
    from_top, from_bottom = page.height - line.top, line.bottom
    if from_top <= from_bottom:
        return "top", round(from_top / EDGE_BAND)
    return "bottom", round(from_bottom / EDGE_BAND)


def _edge_lines(page: PageLines) -> list[Line]:
    lines = page.lines
    if len(lines) <= 2 * EDGE_LINES:
        return lines
    return lines[:EDGE_LINES] + lines[-EDGE_LINES:]


def strip_page_furniture(pages: list[PageLines]) -> int:
    """Remove running headers/footers and page numbers in place; returns how many lines went."""
    threshold = 3 if len(pages) >= 6 else 2
    body = body_height([line for page in pages for line in page.lines])
    counts: Counter[tuple[str, str, int]] = Counter()
    for page in pages:
        counts.update({(_signature(line, body), *_place(line, page)) for line in _edge_lines(page)})

    def repeats(line: Line, page: PageLines) -> bool:
        signature, (edge, band) = _signature(line, body), _place(line, page)
        return sum(counts[(signature, edge, b)] for b in (band - 1, band, band + 1)) >= threshold

    removed = 0
    for page in pages:
        edge = {id(line) for line in _edge_lines(page)}
        kept = []
        for item in page.items:
            if isinstance(item, Line) and id(item) in edge and (
                    _PAGE_NUMBER.match(item.text) or (len(pages) > 1 and repeats(item, page))):
                removed += 1
                continue
            kept.append(item)
        page.items = kept
    return removed
