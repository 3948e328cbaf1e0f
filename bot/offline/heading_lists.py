"""A question about the items a guide lists under a numbered heading ("Which items does the addendum
list under 2.101 Referred Document Information?"), where that heading has no text of its own.

Users name such a heading by its number and title, without the word "section". When a search showed
the heading with that very number and title, the offline model reads the section
(`titled_target`); the section tool then gives the headings that follow it (`knowledge.heading_runs`),
and those headings are the answer (`heading_list`): the guide numbers its items flat, so it cannot be
told which of them nest under the one asked about, and the whole run is quoted, in order, each heading
citing its own page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from knowledge.heading_runs import heading_only, headings_after
from knowledge.payload import ChunkPayload
from knowledge.word_forms import fold_accents

# a section number written bare, as a heading is ("2.101", "4.3.2"): two parts at least, so that a
# plain number ("5 days") is none; the words after it must be the heading's whole title, so that a
# version ("the QR-bill 2.3 guide") is none either
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+)(?![\w.]*\d)\s+")
_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(fold_accents(text).casefold())


def _titled(question: str, chunk: ChunkPayload) -> bool:
    """The question writes the chunk's section number followed by its whole title."""
    if not chunk.section_path or not chunk.section_title:
        return False
    title = _words(chunk.section_title)
    for m in _NUMBER.finditer(question):
        if m.group(1) == chunk.section_path[-1] and title and _words(question[m.end():])[:len(title)] == title:
            return True
    return False


def titled_target(question: str, search_hits: Sequence[tuple[str, ChunkPayload]]) -> tuple[str, str] | None:
    """(rulebook id, section number) of the heading-only section the question names by number and
    title, when a search showed it; else None."""
    for _, chunk in search_hits:
        if heading_only(chunk) and _titled(question, chunk):
            return chunk.rulebook_id, chunk.section_path[-1]
    return None


def heading_list(question: str, hits: Sequence[tuple[str, ChunkPayload]], read: Sequence[tuple[str, str]]
                 ) -> list[tuple[str, ChunkPayload]]:
    """The named heading and the headings that follow it, in reading order, as the section tool showed
    them for a section read (`read`) that the question names by number and title; [] when there is
    none, or when no heading follows it (then it is answered like any other question)."""
    read_keys = {(rb.casefold(), section.casefold()) for rb, section in read}
    for handle, chunk in hits:
        key = (chunk.rulebook_id.casefold(), (chunk.section_path[-1:] or [""])[0].casefold())
        if key not in read_keys or not heading_only(chunk) or not _titled(question, chunk):
            continue
        # the run the section tool gave, found again among the chunks shown (`knowledge.heading_runs`)
        shown = {c.chunk_index: (h, c) for h, c in hits if c.rulebook_id == chunk.rulebook_id}
        after = headings_after([chunk], [c for _, c in shown.values()])
        return [(handle, chunk), *(shown[c.chunk_index] for c in after)] if after else []
    return []
