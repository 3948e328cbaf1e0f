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
TITLE_WRAP_MIN_RATIO = 1.3  # of the body text's size: a display heading, not a body-size header
TITLE_WRAP_HEIGHT_DELTA = 0.3  # points: the same type
MAX_WRAPPED_TITLE_CHARS = 120
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
    # "key title" of each enclosing section, outermost first: a message guide names the message
    # ("18 camt.087.001.07") only in the heading above "18.1 MessageDefinition Functionality"
    parent_titles: list[str] = field(default_factory=list)
    heading_height: float = 0.0
    heading_bold: bool = False

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
            if not detector.kid and _continues_title(sections[-1], item, detector.body):
                sections[-1].title = f"{sections[-1].title} {item.text.strip()}"
                sections[-1].blocks[0].text = f"{sections[-1].blocks[0].text} {item.text.strip()}"
                continue
            if paragraph and _starts_paragraph(paragraph[-1], item, right_margin):
                flush()
            paragraph.append(item)
    flush()
    sections = [s for s in sections if s.blocks]
    _make_keys_unique(sections)
    _name_parents(sections)
    return sections


def _continues_title(section: Section, line: Line, body: float) -> bool:
    """A display heading wrapped onto a second line in the same type ("18 camt.087.001.07" /
    "RequestToModifyPaymentV07"): the second line belongs to the title, not to the body. Only
    for headings set clearly larger than the body, where a body line cannot look the same."""
    if len(section.blocks) != 1 or section.blocks[0].is_table or not section.path or not body:
        return False
    first = section.blocks[0]
    heading = section.title
    return (first.page_end == line.page and first.text.endswith(heading)
            and section.heading_height >= body * TITLE_WRAP_MIN_RATIO
            and abs(line.height - section.heading_height) <= TITLE_WRAP_HEIGHT_DELTA
            and line.bold == section.heading_bold
            and len(heading) + len(line.text) <= MAX_WRAPPED_TITLE_CHARS
            and not line.text.rstrip().endswith(_SENTENCE_END))


def _name_parents(sections: list[Section]) -> None:
    """Each section learns the titles of the sections that enclose it (by path prefix, the
    latest one opened before it)."""
    open_titles: dict[tuple[str, ...], str] = {}
    for section in sections:
        if not section.path:
            continue
        path = tuple(section.path)
        section.parent_titles = [open_titles[path[:depth]] for depth in range(1, len(path))
                                 if path[:depth] in open_titles]
        label = section.title if section.title.startswith(section.key) else f"{section.key} {section.title}"
        open_titles[path] = label.strip()


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
                   blocks=[Block(text=line.text, page_start=line.page, page_end=line.page)],
                   heading_height=line.height, heading_bold=line.bold)


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
