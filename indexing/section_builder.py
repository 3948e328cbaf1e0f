"""From positioned lines and tables to sections made of blocks (paragraphs and tables).

A section is its header line, then its paragraphs and tables in reading order. Its text is the
blocks' text joined by a blank line (`BLOCK_SEPARATOR`); a table block's text is its CSV.
Lines are joined into a paragraph with a space; a new paragraph starts after a vertical gap,
at a bullet or enumeration, or after a line that ends a sentence well short of the margin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from indexing.pdf_text import Line, PageLines, TableSlot
from indexing.section_detector import Heading, SectionDetector
from indexing.table_extractor import ExtractedTable

BLOCK_SEPARATOR = "\n\n"
PARAGRAPH_GAP = 0.5  # of the line height: more white space than this between lines = new paragraph
_LIST_START = re.compile(r"^(?:[•●▪◦‣∙·\-–*]\s|\(?[a-zA-Z0-9]{1,3}[.)]\s)")
_SENTENCE_END = (".", ":", ";", "!", "?")


@dataclass
class Block:
    text: str
    page_start: int
    page_end: int
    table_csv: str | None = None
    page_breaks: list[int] = field(default_factory=list)  # offsets in text where page_start+1, … begin

    @property
    def is_table(self) -> bool:
        return self.table_csv is not None


@dataclass
class Section:
    path: list[str]
    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.path[-1] if self.path else ""

    @property
    def text(self) -> str:
        return BLOCK_SEPARATOR.join(block.text for block in self.blocks)


def build_sections(pages: list[PageLines], tables: dict[int, list[ExtractedTable]],
                   kid: bool | None = None) -> list[Section]:
    lines = [line for page in pages for line in page.lines]
    detector = SectionDetector(lines, kid=kid)
    right_margin = _right_margin(lines)
    sections = [Section(path=[], title="")]
    paragraph: list[Line] = []

    def flush() -> None:
        if paragraph:
            sections[-1].blocks.append(Block(text=" ".join(line.text for line in paragraph),
                                             page_start=paragraph[0].page, page_end=paragraph[-1].page,
                                             page_breaks=_page_breaks(paragraph)))
            paragraph.clear()

    for page in pages:
        for item in page.items:
            if isinstance(item, TableSlot):
                flush()
                table = tables[item.page][item.table_index]
                sections[-1].blocks.append(Block(text=table.csv, page_start=item.page,
                                                 page_end=item.page, table_csv=table.csv))
                continue
            heading = detector.detect(item)
            if heading is not None:
                flush()
                sections.append(_open(heading, item))
                continue
            if paragraph and _starts_paragraph(paragraph[-1], item, right_margin):
                flush()
            paragraph.append(item)
    flush()
    sections = [s for s in sections if s.blocks]
    _make_keys_unique(sections)
    return sections


def _page_breaks(lines: list[Line]) -> list[int]:
    """Where, in the lines joined by spaces, each page after the first line's page begins."""
    breaks: list[int] = []
    offset, page = 0, lines[0].page
    for line in lines:
        while page < line.page:
            breaks.append(offset)
            page += 1
        offset += len(line.text) + 1
    return breaks


def _open(heading: Heading, line: Line) -> Section:
    return Section(path=heading.path, title=heading.title,
                   blocks=[Block(text=line.text, page_start=line.page, page_end=line.page)])


def _right_margin(lines: list[Line]) -> float:
    ends = sorted(line.x1 for line in lines)
    return ends[int(len(ends) * 0.9)] if ends else 0.0


def _starts_paragraph(previous: Line, line: Line, right_margin: float) -> bool:
    if _LIST_START.match(line.text):
        return True
    if line.page == previous.page:
        gap = previous.bottom - line.top
        if gap > PARAGRAPH_GAP * max(line.height, 1.0) or line.top > previous.top:
            return True  # white space between, or a jump back up (next column)
    short = previous.x1 < right_margin - 0.15 * max(right_margin, 1.0)
    return previous.text.endswith(_SENTENCE_END) and short


def _make_keys_unique(sections: list[Section]) -> None:
    """Two sections with the same path (a numbering restart we did not see) get distinct keys."""
    seen: dict[tuple[str, ...], int] = {}
    for section in sections:
        if not section.path:
            continue
        key = tuple(section.path)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            section.path = [*section.path[:-1], f"{section.path[-1]} ({seen[key]})"]
