"""Running headers, footers and page numbers: text that repeats at the page edges.

A line is furniture when it sits at the top or bottom edge of a page and, with its digits
masked ("www.epc-cep.eu 20" -> "www.epc-cep.eu #"), repeats at the edge of several pages, or when it
is a bare page number ("12", "Page 3 of 10", "3 / 103"). Left in, it would split paragraphs that
run across a page break and fill chunks with noise.

Furniture also keeps its place: most of a running header's or footer's repeats stand at the same
distance from their edge of the page (within about EDGE_BAND points; a page laid out differently
may move it, and it is still furniture there). An element record that happens to start near a page
edge ("Presence: [1..*]") repeats in form but all over the page.

The edge is where a line stands on the page, not where it comes in the text stream: a PDF may
write its header block after the footer ("Approved by Payments SEG on … reda.067.001.01" above the
body), and the last lines of its stream are then body text. The edge is peeled a row at a time: a
round weighs the highest and the lowest row of each page (a header laid out as a table row is one
row of several lines); what is furniture goes, and the next round weighs the row under it, but only
where it touches the furniture gone (within BLOCK_GAP). So a block of furniture goes whole, while
the body's first lines, which also stand at the same distance from the top on many pages
("Presence: [0..1]" under an element's heading, "Term Definition" over a table), stay: a margin
separates them from the header. Last, a line that has furniture's form in furniture's place goes
too, where a page has something else outside it (a cover's address block under its footer).

A line set clearly larger than the body text is a heading unless it repeats word for word: a
message guide opens every message at the top of a page with "18 camt.087.001.07" and
"18.1 MessageDefinition Functionality", which repeat only once their digits are masked.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from indexing.pdf_text import Line, PageLines
from indexing.section_detector import body_height

EDGE_LINES = 3  # rounds of peeling: the deepest a header or footer block goes
EDGE_BAND = 4.0  # points: a running header or footer keeps its place on the page to within this
PLACED_SHARE = 0.5  # of a repeated line's occurrences that stand in one place, for it to be furniture
BLOCK_GAP = 1.0  # body-text heights: the widest gap between two lines of one header or footer block
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
    """The outermost lines of the page: the highest row on it and the lowest."""
    lines = page.lines
    if len(lines) <= 2:
        return lines
    # a header laid out as a table row ("Kapitel:", "Version:", the title) is one row of several
    # lines: those reaching past the middle of the outermost line
    highest = max(lines, key=lambda line: line.top)
    lowest = min(lines, key=lambda line: line.bottom)
    return [line for line in lines
            if line.top > (highest.top + highest.bottom) / 2 or line.bottom < (lowest.top + lowest.bottom) / 2]


def strip_page_furniture(pages: list[PageLines]) -> int:
    """Remove running headers/footers and page numbers in place; returns how many lines went."""
    threshold = 3 if len(pages) >= 6 else 2
    body = body_height([line for page in pages for line in page.lines])
    gone: dict[int, list[Line]] = {}  # page number -> its furniture lines removed so far
    places: dict[str, set[tuple[str, int]]] = {}  # furniture's signature -> where it stood
    for round_ in range(EDGE_LINES):
        if not _peel(pages, threshold, body, gone, places, first=not round_):
            break
    # a page with something else outside its footer (a cover's address block under "www.epc-cep.eu
    # 1 / 150"): the footer still stands in its place there
    if len(pages) > 1:
        for page in pages:
            _drop(page, lambda line, page=page: _in_its_place(line, page, body, places), gone)
    return sum(len(lines) for lines in gone.values())


def _drop(page: PageLines, is_furniture: Callable[[Line], bool], gone: dict[int, list[Line]]) -> list[Line]:
    """Remove the page's lines that are furniture, gathering them in `gone`; returns them."""
    dropped = [item for item in page.items if isinstance(item, Line) and is_furniture(item)]
    if dropped:
        ids = {id(line) for line in dropped}
        page.items = [item for item in page.items if id(item) not in ids]
        gone.setdefault(page.number, []).extend(dropped)
    return dropped


def _in_its_place(line: Line, page: PageLines, body: float, places: dict[str, set[tuple[str, int]]]) -> bool:
    edge, band = _place(line, page)
    return any((edge, b) in places.get(_signature(line, body), ()) for b in (band - 1, band, band + 1))


def _in_block(line: Line, removed: list[Line], body: float) -> bool:
    """The line touches furniture already removed from its page (within BLOCK_GAP body heights)."""
    return any(min(abs(line.bottom - other.top), abs(other.bottom - line.top)) <= BLOCK_GAP * max(body, 1.0)
               for other in removed)


def _peel(pages: list[PageLines], threshold: int, body: float, gone: dict[int, list[Line]],
          places: dict[str, set[tuple[str, int]]], first: bool) -> int:
    """One round: the outermost lines that are furniture go (after the first round, only those in a
    block with furniture already gone); `gone` gathers them and `places` where furniture stood.
    Returns how many went."""
    counts: Counter[str] = Counter()
    placed: Counter[tuple[str, str, int]] = Counter()
    signatures: dict[int, str] = {}  # id(edge line) -> its signature
    for page in pages:
        edge_lines = _edge_lines(page)
        if not first:
            edge_lines = [line for line in edge_lines if _in_block(line, gone.get(page.number, []), body)]
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
        for line in _drop(page, lambda line: id(line) in signatures and (
                _PAGE_NUMBER.match(line.text) is not None or (len(pages) > 1 and signatures[id(line)] in furniture)),
                gone):
            places.setdefault(signatures[id(line)], set()).add(_place(line, page))
            removed += 1
    return removed
