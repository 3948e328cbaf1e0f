"""How many of a PDF's own bookmarks open a section of our index: the parser measured against a truth
nobody here wrote.

Most rulebooks and message guides carry an outline (bookmarks) made by the tool that typeset them. A
bookmark is a heading with its page. Our sections are found from the text alone (numbering, type
size: `indexing.section_detector`), so the outline says where that reading went wrong: a heading
read into another section's text opens nothing, and the facts under it are cited under the wrong
section and page range.

How a bookmark is matched (in this order, the first that holds decides):
1. **opened**: a section whose pages reach the bookmark's page (one page either side: a heading at a
   page's foot) has the bookmark's title, written as "key title", as "number title" (an annex's
   section "Annex II 3" prints "3.") or as the title alone, after folding
   (case, accents, punctuation and spacing ignored); a title cut short on either side still matches
   when the shorter one has at least `MIN_PREFIX_WORDS` words besides numbers (the outline and the page may wrap a
   long title differently);
2. **in a table**: the title's first `PROBE_CHARS` folded characters are inside a table of a chunk on
   those pages (a text-alignment table read the heading into a cell);
3. **in another section**: they are inside the text of such a chunk (the heading opened nothing);
4. **not found**: neither (a bookmark on a cover, or a title the page does not print).

Bookmarks longer than `MAX_TITLE_CHARS` (a briefing's summary sentences) and documents without an
outline are left out. Each document's figures are its own; the total adds them up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexing.pdf_text import open_pdf
from knowledge.payload import ChunkPayload
from knowledge.word_forms import fold_accents

MIN_PREFIX_WORDS = 3
PROBE_CHARS = 40
MAX_TITLE_CHARS = 150
PAGE_SLACK = 1
OPENED, IN_TABLE, IN_SECTION, NOT_FOUND = "opened", "in a table", "in another section", "not found"
OUTCOMES = (OPENED, IN_TABLE, IN_SECTION, NOT_FOUND)


@dataclass(frozen=True)
class Bookmark:
    title: str
    page: int  # 1-based, as chunks count pages


@dataclass(frozen=True)
class BookmarkResult:
    bookmark: Bookmark
    outcome: str
    where: str = ""  # the section the heading's words are in, when not opened


def fold(text: str) -> str:
    return " ".join(re.findall(r"\w+", fold_accents(text.casefold())))


def read_bookmarks(pdf: Path) -> list[Bookmark]:
    """The outline's entries that point at a page, in outline order."""
    document = open_pdf(pdf)  # the indexer's opener: an unreadable file is PdfRejected with its reason
    try:
        marks = []
        for item in document.get_toc():
            destination = item.get_dest()
            index = destination.get_index() if destination is not None else None
            title = (item.get_title() or "").strip()
            if index is not None and title and len(title) <= MAX_TITLE_CHARS:
                marks.append(Bookmark(title, index + 1))
        return marks
    finally:
        document.close()


@dataclass
class _Section:
    names: tuple[str, ...]  # folded "key title", "number title" and "title"
    page_start: int
    page_end: int


def _sections(chunks: Iterable[ChunkPayload]) -> list[_Section]:
    by_path: dict[tuple[str, ...], _Section] = {}
    for chunk in chunks:
        if not chunk.section_path:
            continue
        path = tuple(chunk.section_path)
        found = by_path.get(path)
        if found is None:
            # an annex's sections are keyed with its name ("Annex II 3") where the page prints "3."
            number = chunk.section_key.split(" ")[-1]
            names = {fold(f"{key} {chunk.section_title}") for key in (chunk.section_key, number)}
            by_path[path] = _Section(tuple(names | {fold(chunk.section_title)}), chunk.page_start, chunk.page_end)
        else:
            found.page_start = min(found.page_start, chunk.page_start)
            found.page_end = max(found.page_end, chunk.page_end)
    return list(by_path.values())


def _same_title(name: str, title: str) -> bool:
    if not name or not title:
        return False
    if name == title:
        return True
    shorter, longer = sorted((name, title), key=len)
    words = sum(1 for word in shorter.split() if not word.isdigit())  # "3 2 voting" is one word of title
    return words >= MIN_PREFIX_WORDS and longer.startswith(shorter)


def _near(page: int, start: int, end: int) -> bool:
    return start - PAGE_SLACK <= page <= end + PAGE_SLACK


def match_bookmarks(bookmarks: Sequence[Bookmark], chunks: Sequence[ChunkPayload]) -> list[BookmarkResult]:
    """Each bookmark's outcome against one document's chunks (see the module docstring)."""
    sections = _sections(chunks)
    results = []
    for mark in bookmarks:
        title = fold(mark.title)
        if any(_near(mark.page, s.page_start, s.page_end) and any(_same_title(n, title) for n in s.names)
               for s in sections):
            results.append(BookmarkResult(mark, OPENED))
            continue
        probe = title[:PROBE_CHARS]
        outcome, where = NOT_FOUND, ""
        for chunk in (c for c in chunks if _near(mark.page, c.page_start, c.page_end)):
            section = f"{chunk.section_key} {chunk.section_title}".strip() or "(front matter)"
            if any(probe in fold(table) for table in chunk.tables_csv):
                outcome, where = IN_TABLE, section
                break
            if probe in fold(chunk.text):
                outcome, where = IN_SECTION, section
                break
        results.append(BookmarkResult(mark, outcome, where))
    return results


def report(results_by_document: dict[str, list[BookmarkResult]], examples: int = 12) -> dict[str, Any]:
    """Counts per document and in total, the opened share, and the first misses of each document."""
    documents: dict[str, Any] = {}
    total: Counter[str] = Counter()
    for rulebook_id, results in sorted(results_by_document.items()):
        counts = Counter(r.outcome for r in results)
        total.update(counts)
        documents[rulebook_id] = {
            "bookmarks": len(results), **{outcome: counts[outcome] for outcome in OUTCOMES},
            "opened_share": round(counts[OPENED] / len(results), 4) if results else None,
            "misses": [{"page": r.bookmark.page, "title": r.bookmark.title, "outcome": r.outcome, "in": r.where}
                       for r in results if r.outcome != OPENED][:examples],
        }
    bookmarks = sum(total.values())
    return {"documents": documents, "bookmarks": bookmarks, **{outcome: total[outcome] for outcome in OUTCOMES},
            "opened_share": round(total[OPENED] / bookmarks, 4) if bookmarks else None}


def plot(figures: dict[str, Any], path: Path) -> None:
    """One bar a document: its bookmarks by outcome, as shares, with the count on the right."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(figures["documents"])
    rows = [figures["documents"][name] for name in names]
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(names) + 1.6))
    left = [0.0] * len(names)
    for outcome, colour in zip(OUTCOMES, ("#4c9a2a", "#d98c1f", "#c0392b", "#888888"), strict=True):
        shares = [row[outcome] / row["bookmarks"] for row in rows]
        ax.barh(names, shares, left=left, color=colour, label=outcome)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    for i, row in enumerate(rows):
        ax.text(1.01, i, str(row["bookmarks"]), va="center", fontsize=8)
    ax.set_xlim(0, 1.08)
    ax.invert_yaxis()
    ax.set_xlabel("share of the document's bookmarks")
    ax.set_title(f"PDF bookmarks that open a section: {figures[OPENED]} of {figures['bookmarks']} "
                 f"({figures['opened_share']:.1%})")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=8, ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
