"""Which page of a cited chunk a quote is on.

A chunk may run over a page break; the indexer records where each following page begins in the
chunk's text (`ChunkPayload.page_breaks`: the character offsets at which page_start+1,
page_start+2, … begin). A citation names the page that holds most of its quoted span (the page it starts on unless
more of its words are on the next), so that the link opens the PDF where the reader finds the
words: a sentence that starts with a few lines at the foot of page 12 and says what the reader
came for on page 13 is cited on page 13. Chunks indexed before `page_breaks` existed
(empty list) cite their first page, as before.

The quote is found in the chunk's text by its letters and digits only: a quoted sentence has its
white space collapsed, and a quoted table row is written "header: cell; …" or "cell, cell" while
the chunk holds CSV — none of that punctuation or spacing matters for where it starts.
"""

from __future__ import annotations

import bisect
import re
import unicodedata

from knowledge.payload import ChunkPayload

PROBE_CHARS = 60  # letters and digits of the quote's opening that locate it
_PIECES = re.compile(r";|…")  # where the answer joined the rows or sentences it picked
MIN_OPENING_WORDS = 8  # a quote found only by its opening moves on only when fewer words are on its first page


def _alnum_with_offsets(text: str) -> tuple[str, list[int]]:
    chars: list[str] = []
    offsets: list[int] = []
    for offset, ch in enumerate(text):
        if ch.isalnum():
            # one character may fold to several ("ﬁ" -> "fi", "ß" -> "ss"): each keeps its source offset
            folded = unicodedata.normalize("NFKC", ch).casefold()
            chars.append(folded)
            offsets.extend([offset] * len(folded))
    return "".join(chars), offsets


def quote_span(text: str, quote: str) -> tuple[int, int] | None:
    """Where in `text` the quote starts and ends (character offsets), or None when it is not found.
    When only its opening is found, the end is estimated from the quote's length."""
    found = _find(text, quote)
    return None if found is None else found[:2]


def _find(text: str, quote: str) -> tuple[int, int, bool] | None:
    """`quote_span` and whether the whole quote was found (False: only its opening, end estimated)."""
    haystack, offsets = _alnum_with_offsets(text)
    needle, _ = _alnum_with_offsets(quote)
    if not needle:
        return None
    probes = [needle, needle[:PROBE_CHARS], needle[:PROBE_CHARS // 2]]
    pieces = _PIECES.split(quote, maxsplit=1)
    if len(pieces) > 1:
        # a quote of rows or sentences the answer picked apart ("row; row", "sentence … sentence") is found by
        # its first piece when the pieces do not follow one another in the chunk
        probes.append(_alnum_with_offsets(pieces[0])[0][:PROBE_CHARS])
    for probe in dict.fromkeys(p for p in probes if p):
        at = haystack.find(probe)
        if at >= 0:
            if probe is needle:
                return offsets[at], offsets[at + len(needle) - 1] + 1, True
            return offsets[at], min(len(text), offsets[at] + len(quote)), False
    return None


def page_at(chunk: ChunkPayload, offset: int) -> int:
    """The page that holds character `offset` of the chunk's text."""
    breaks = list(getattr(chunk, "page_breaks", None) or [])
    page = chunk.page_start + bisect.bisect_right(breaks, offset)
    return min(page, max(chunk.page_end, chunk.page_start))


def page_of_quote(chunk: ChunkPayload, quote: str) -> int:
    """The page that holds most of `quote`'s words in the chunk; its first page when that cannot be
    told. A quote that runs over a page break is cited on the page it starts on, unless fewer than
    half of its words are there ("• HHD V1.3.2" / next page: "Bei dieser Version …"; "Addendum: If
    the requested execution date …" / next page: "… If the batch requires extra authorization …")."""
    if chunk.page_end <= chunk.page_start or not getattr(chunk, "page_breaks", None) or not quote:
        return chunk.page_start
    found = _find(chunk.text, quote)
    if found is None:
        return chunk.page_start
    start, end, whole = found
    page = page_at(chunk, start)
    last = page_at(chunk, max(start, end - 1))
    total = len(chunk.text[start:end].split())
    while page < last:
        next_page_at = chunk.page_breaks[page - chunk.page_start]
        before = len(chunk.text[start:next_page_at].split())
        # where only the opening was found, the end is a guess: move on only for a few opening words
        if before * 2 >= total or (not whole and before >= MIN_OPENING_WORDS):
            break
        start, total, page = next_page_at, total - before, page + 1
    return page
