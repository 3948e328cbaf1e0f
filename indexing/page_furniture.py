"""Running headers, footers and page numbers: text that repeats at the page edges.

A line is furniture when it sits among the first or last few lines of a page and, with its digits
masked ("www.epc-cep.eu 20" -> "www.epc-cep.eu #"), repeats at the edge of several pages, or when it
is a bare page number ("12", "Page 3 of 10", "3 / 103"). Left in, it would split paragraphs that
run across a page break and fill chunks with noise.
"""

from __future__ import annotations

import re
from collections import Counter

from indexing.pdf_text import Line, PageLines

EDGE_LINES = 3
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"(?i)^(?:-\s*)?(?:page|pagina|seite|blz\.?|p\.)?\s*\d{1,4}(?:\s*(?:/|of|van|de|von|sur)\s*\d{1,4})?(?:\s*-)?$")


def _signature(text: str) -> str:
    return _DIGITS.sub("#", text.lower()).strip()


def _edge_lines(page: PageLines) -> list[Line]:
    lines = page.lines
    if len(lines) <= 2 * EDGE_LINES:
        return lines
    return lines[:EDGE_LINES] + lines[-EDGE_LINES:]


def strip_page_furniture(pages: list[PageLines]) -> int:
    """Remove running headers/footers and page numbers in place; returns how many lines went."""
    threshold = 3 if len(pages) >= 6 else 2
    counts: Counter[str] = Counter()
    for page in pages:
        counts.update({_signature(line.text) for line in _edge_lines(page)})
    removed = 0
    for page in pages:
        edge = {id(line) for line in _edge_lines(page)}
        kept = []
        for item in page.items:
            if isinstance(item, Line) and id(item) in edge and (
                    _PAGE_NUMBER.match(item.text)
                    or (len(pages) > 1 and counts[_signature(item.text)] >= threshold)):
                removed += 1
                continue
            kept.append(item)
        page.items = kept
    return removed
