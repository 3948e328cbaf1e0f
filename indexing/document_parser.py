"""One PDF in, its sections out: text, tables, furniture, sections, with a time per stage.

Each stage is timed twice: wall clock, and CPU time (this process plus table workers), which
is what a shared or loaded machine does not distort."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from indexing.page_furniture import strip_page_furniture
from indexing.pdf_text import BBox, image_only_pages, open_pdf, read_pages
from indexing.section_builder import Section, build_sections
from indexing.table_extractor import extract_tables

if TYPE_CHECKING:
    from indexing.table_cache import TableCache
    from indexing.table_workers import TablePool


@dataclass
class ParsedDocument:
    path: Path
    page_count: int
    sections: list[Section]
    table_count: int
    seconds: dict[str, float] = field(default_factory=dict)  # stage -> seconds
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # stage -> CPU seconds
    image_only_pages: list[int] = field(default_factory=list)  # pages without any text (scans)
    table_pages_cached: int = 0

    @property
    def text(self) -> str:
        return "\n\n".join(section.text for section in self.sections)


def parse_document(path: Path, kid: bool | None = None, table_cache: TableCache | None = None,
                   table_pool: TablePool | None = None) -> ParsedDocument:
    """Raises `PdfRejected` for a PDF that cannot be indexed (corrupt, password, no text)."""
    seconds: dict[str, float] = {}
    cpu: dict[str, float] = {}
    clock = _StageClock(seconds, cpu)
    document = open_pdf(path)
    try:
        page_count = len(document)
        clock.lap("open")

        found = extract_tables(path, document, cache=table_cache, pool=table_pool)
        clock.lap("tables", extra_cpu=found.worker_cpu_seconds)

        boxes: dict[int, list[BBox]] = {}
        for page, tables in found.tables.items():
            boxes.setdefault(page, []).extend(t.bbox for t in tables)
        furniture_boxes = {page: list(b) for page, b in found.furniture.items()}
        pages = read_pages(document, _with_furniture(boxes, furniture_boxes))
        # furniture boxes were appended after the real tables: their slots are dropped here
        for page in pages:
            real = len(found.tables.get(page.number, []))
            page.items = [item for item in page.items
                          if not (hasattr(item, "table_index") and item.table_index >= real)]
        image_only = image_only_pages(document, pages)
        strip_page_furniture(pages)
        clock.lap("text")

        sections = build_sections(pages, found.tables, kid=kid)
        clock.lap("sections")
    finally:
        document.close()
    return ParsedDocument(path=path, page_count=page_count, sections=sections,
                          table_count=sum(len(t) for t in found.tables.values()), seconds=seconds,
                          cpu_seconds=cpu, image_only_pages=image_only,
                          table_pages_cached=found.pages_cached)


class _StageClock:
    def __init__(self, seconds: dict[str, float], cpu: dict[str, float]) -> None:
        self.seconds, self.cpu = seconds, cpu
        self._wall, self._cpu = time.perf_counter(), time.process_time()

    def lap(self, stage: str, extra_cpu: float = 0.0) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.seconds[stage] = self.seconds.get(stage, 0.0) + wall - self._wall
        self.cpu[stage] = self.cpu.get(stage, 0.0) + cpu - self._cpu + extra_cpu
        self._wall, self._cpu = wall, cpu


def _with_furniture(boxes: dict[int, list[BBox]], furniture: dict[int, list[BBox]]
                    ) -> dict[int, list[BBox]]:
    merged = {page: list(b) for page, b in boxes.items()}
    for page, extra in furniture.items():
        merged.setdefault(page, []).extend(extra)
    return merged
