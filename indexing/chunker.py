"""Pack a section's blocks into chunks of at most `MAX_CHUNK_CHARS`, never overlapping.

The joining rule (tested): a section's chunks, sorted by chunk_index and concatenated with
nothing in between ("".join), give back the section's text exactly. To make that hold, every
chunk but a section's last keeps the separator that followed its last piece: "\n\n" between
blocks, or the white space between two sentences of a paragraph that was too long for one chunk.

A table is one piece and is never split; a table longer than a chunk becomes a chunk of its own.
A paragraph longer than a chunk is cut between sentences (or, for one endless sentence, between
words). Chunks never cross a section boundary, so a short section gives a short chunk.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from indexing.section_builder import BLOCK_SEPARATOR, Section

MAX_CHUNK_CHARS = 2000
_SENTENCE_BREAK = re.compile(r"(?<=[.!?;:])\s+(?=\S)")
_WORD_BREAK = re.compile(r"\s+")


@dataclass
class Piece:
    text: str
    separator: str  # what follows the piece inside the section ("" at the section's end)
    page_start: int
    page_end: int
    table_csv: str | None = None
    page_breaks: list[int] = field(default_factory=list)  # offsets in text where page_start+1, … begin

    @property
    def size(self) -> int:
        return len(self.text) + len(self.separator)


@dataclass
class DraftChunk:
    section: Section
    pieces: list[Piece] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(p.text + p.separator for p in self.pieces)

    @property
    def tables_csv(self) -> list[str]:
        return [p.table_csv for p in self.pieces if p.table_csv is not None]

    @property
    def page_start(self) -> int:
        return min(p.page_start for p in self.pieces)

    @property
    def page_end(self) -> int:
        return max(p.page_end for p in self.pieces)

    @property
    def page_breaks(self) -> list[int]:
        """Offsets in `text` where page_start+1, page_start+2, … begin (a citation names the page
        its quote starts on)."""
        breaks: list[int] = []
        page, offset = self.page_start, 0
        for piece in self.pieces:
            starts = [(offset, piece.page_start)] + [(offset + at, piece.page_start + 1 + i)
                                                     for i, at in enumerate(piece.page_breaks)]
            for at, on in starts:
                while page < on:
                    breaks.append(at)
                    page += 1
            offset += piece.size
        return breaks


def section_pieces(section: Section, max_chars: int = MAX_CHUNK_CHARS) -> list[Piece]:
    pieces: list[Piece] = []
    for number, block in enumerate(section.blocks):
        separator = BLOCK_SEPARATOR if number < len(section.blocks) - 1 else ""
        if block.is_table or len(block.text) + len(separator) <= max_chars:
            pieces.append(Piece(block.text, separator, block.page_start, block.page_end, block.table_csv,
                                block.page_breaks))
            continue
        parts = _split_long(block.text, max_chars - len(BLOCK_SEPARATOR))
        start = 0
        for i, (text, gap) in enumerate(parts):
            last = i == len(parts) - 1
            pieces.append(_part_of(block.page_start, block.page_breaks, start, text, separator if last else gap))
            start += len(text) + len(gap)
    return pieces


def _part_of(page_start: int, breaks: list[int], start: int, text: str, separator: str) -> Piece:
    """A piece cut from a long paragraph at `start`, with its own pages and page breaks."""
    first = page_start + bisect.bisect_right(breaks, start)
    inner = [at - start for at in breaks if start < at < start + len(text)]
    return Piece(text, separator, first, first + len(inner), page_breaks=inner)


def _split_long(text: str, limit: int) -> list[tuple[str, str]]:
    """(piece, the white space after it) pairs, each piece at most `limit` characters."""
    out: list[tuple[str, str]] = []
    for sentence, gap in _split_keeping_gaps(text, _SENTENCE_BREAK):
        if len(sentence) + len(gap) <= limit:
            out.append((sentence, gap))
            continue
        words = _split_keeping_gaps(sentence, _WORD_BREAK)
        words[-1] = (words[-1][0], gap)
        current, current_gap = "", ""
        for word, word_gap in words:
            while len(word) > limit:  # a "word" longer than a chunk (a data dump): cut it hard
                if current:
                    out.append((current, current_gap))
                    current, current_gap = "", ""
                out.append((word[:limit], ""))
                word = word[limit:]
            if current and len(current) + len(current_gap) + len(word) + len(word_gap) > limit:
                out.append((current, current_gap))
                current, current_gap = "", ""
            current = current + current_gap + word if current else word
            current_gap = word_gap
        if current:
            out.append((current, current_gap))
    return out


def _split_keeping_gaps(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    start = 0
    for match in pattern.finditer(text):
        out.append((text[start:match.start()], match.group()))
        start = match.end()
    out.append((text[start:], ""))
    return out


def chunk_section(section: Section, max_chars: int = MAX_CHUNK_CHARS) -> list[DraftChunk]:
    chunks: list[DraftChunk] = []
    current = DraftChunk(section)
    size = 0
    for piece in section_pieces(section, max_chars):
        if current.pieces and size + piece.size > max_chars:
            chunks.append(current)
            current, size = DraftChunk(section), 0
        current.pieces.append(piece)
        size += piece.size
    if current.pieces:
        chunks.append(current)
    return chunks


def chunk_sections(sections: list[Section], max_chars: int = MAX_CHUNK_CHARS) -> list[DraftChunk]:
    return [chunk for section in sections for chunk in chunk_section(section, max_chars)]


def reassemble(texts: list[str]) -> str:
    """The joining rule in one place: a section is its chunks' texts, in order, concatenated."""
    return "".join(texts)
