"""Sections that are only a heading, and the headings a guide lists after them.

An implementation guide often numbers every message item flat ("2.98 Remittance Information",
"2.99 Unstructured", "2.100 Structured", "2.101 Referred Document Information", "2.102 Type" …), each
a heading with no text of its own, and leaves the nesting to the message standard. Asked for "the
items under 2.101", the section itself holds nothing: what the document says is the run of headings
that follows it. `headings_after` gives that run, so that the section tool can show it (and say that
the document does not mark which of them belong to the section).

Where the run ends: at the first section with text of its own, at a section of a higher level (a
shorter number: "3 Reporting" after "2.129"), or after `MAX_HEADING_RUN` headings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from knowledge.payload import ChunkPayload

# a message block's items rarely number more than ten; twelve headings fit one chat card
MAX_HEADING_RUN = 12
_WHITESPACE = re.compile(r"\s+")


def heading_only(chunk: ChunkPayload) -> bool:
    """The chunk holds its section's number and title and nothing else (no sentence, no table)."""
    if chunk.tables_csv or not chunk.section_path:
        return False
    heading = _WHITESPACE.sub(" ", f"{chunk.section_path[-1]} {chunk.section_title}").strip().casefold()
    return _WHITESPACE.sub(" ", chunk.text).strip().casefold() == heading


def headings_after(section: Sequence[ChunkPayload], chunks: Sequence[ChunkPayload]) -> list[ChunkPayload]:
    """The heading-only sections that follow `section` (itself only headings) in reading order, at its
    level or below, with no chunk between; [] when the section has text of its own. `chunks` is the whole
    rulebook, or the part of it a caller was shown."""
    if not section or not all(heading_only(c) for c in section):
        return []
    depth = len(section[-1].section_path)
    following = max(c.chunk_index for c in section) + 1
    run: list[ChunkPayload] = []
    for chunk in sorted(chunks, key=lambda c: c.chunk_index):
        if chunk.chunk_index < following:
            continue
        # (a chunk missing from `chunks` ends the run too: a caller may pass only the chunks it was shown)
        if chunk.chunk_index != following or not heading_only(chunk) or len(chunk.section_path) < depth \
                or len(run) >= MAX_HEADING_RUN:
            break
        run.append(chunk)
        following += 1
    return run
