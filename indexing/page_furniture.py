"""Running headers, footers and page numbers: text that repeats at the page edges.

A line is furniture when it sits among the first or last few lines of a page and, with its digits
masked ("www.epc-cep.eu 20" -> "www.epc-cep.eu #"), repeats at the edge of several pages, or when it
is a bare page number ("12", "Page 3 of 10", "3 / 103"). Left in, it would split paragraphs that
run across a page break and fill chunks with noise.

Furniture also keeps its place: most of a running header's or footer's repeats stand at the same
distance from their edge of the page (within about EDGE_BAND points; a page laid out differently
may move it, and it is still furniture there). An element record that happens to start near a page
edge ("Presence: [1..*]") repeats in form but all over the page.

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
PLACED_SHARE = 0.5  # of a repeated line's occurrences that stand in one place, for it to be furniture
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
    counts: Counter[str] = Counter()
    placed: Counter[tuple[str, str, int]] = Counter()
    signatures: dict[int, str] = {}  # id(edge line) -> its signature
    for page in pages:
        edge_lines = _edge_lines(page)
        signatures.update((id(line), _signature(line, body)) for line in edge_lines)
        counts.update({signatures[id(line)] for line in edge_lines})
        placed.update({(signatures[id(line)], *_place(line, page)) for line in edge_lines})
    in_place: Counter[str] = Counter()
    for (signature, edge, band) in placed:
        near = sum(placed[(signature, edge, b)] for b in (band - 1, band, band + 1))
        in_place[signature] = max(in_place[signature], near)
    furniture = {signature for signature, total in counts.items()
                 if total >= threshold and in_place[signature] >= max(threshold, PLACED_SHARE * total)}

    removed = 0
    for page in pages:
        kept = []
        for item in page.items:
            if isinstance(item, Line) and id(item) in signatures and (
                    _PAGE_NUMBER.match(item.text) or (len(pages) > 1 and signatures[id(item)] in furniture)):
                removed += 1
                continue
            kept.append(item)
        page.items = kept
    return removed
