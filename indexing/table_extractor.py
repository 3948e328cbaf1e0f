"""Tables as CSV with camelot: lattice where cells have ruling lines, text alignment as the fallback.

camelot is the costliest parsing stage, so it runs only where a table is likely, and cheaply:
- pages are chosen from what pdfium sees in ~2 ms a page: enough horizontal and vertical rules
  (or filled cell rectangles) for a grid -> lattice; rules without a grid, or several text rows
  split by wide gaps -> the text-alignment parser ("network") only;
- lattice runs with camelot's vector engine: it builds the grid from the PDF's own line and
  rectangle objects instead of rendering the page at 300 dpi and finding lines in the raster
  (~30 ms instead of ~300 ms a page, the same tables cell for cell on the sample corpus and the
  EPC rulebook). Pages are chosen by those same vector objects, so the raster path would see
  nothing the vector path cannot;
- both flavours go through one camelot call per batch of pages (one parse of the PDF), batches
  spread over a process pool when there are enough pages (see table_workers.py);
- each page's tables are cached by the page's content fingerprint (see table_cache.py), so
  re-indexing an edited document extracts only its changed pages.

Lattice runs with copy_text=["h", "v"] so a spanned cell's text is repeated in every row and
column it covers, which is what makes each CSV row readable on its own ("Domestic, SEPA, 0.20"
rather than ", SEPA, 0.20"). Text-alignment tables are trimmed to their core and wrapped rows
merged (see borderless_tables.py), and kept only when they look like a real table.

camelot also returns garbage: 1x1 "tables" around a framed paragraph, mostly empty grids, and
the boxed page header some documents repeat on every page. Those are dropped; a repeated header
box is still returned as furniture so its text stays out of the prose as well.
"""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from indexing.borderless_tables import (
    column_char_means,
    looks_like_list,
    merge_wrapped_rows,
    split_at_headings,
)
from indexing.pdf_text import BBox
from indexing.pipeline_code import table_code_digest
from indexing.table_cache import CachedTable
from indexing.text_repair import repair_line

if TYPE_CHECKING:
    from indexing.table_cache import TableCache
    from indexing.table_workers import TablePool

log = logging.getLogger(__name__)

# Part of every table cache key (with camelot's version and the table code's digest,
# `indexing.pipeline_code.table_code_digest`): the changelog of what changed a page's tables on purpose.
EXTRACTOR_VERSION = "6"  # 6: text-alignment tables cut at numbered headings (split_at_headings)
LATTICE_OPTIONS: dict[str, Any] = {"flavor": "lattice", "copy_text": ["h", "v"], "engine": "vector"}
# camelot's layout analysis (pdfminer's LAParams, run by playa) is most of its time. Its last
# step orders text boxes hierarchically ("boxes_flow"); camelot reads text lines and characters,
# never that order, so it is switched off: -18% CPU on the chipTAN specification's 26 table
# pages, every table cell for cell the same (benchmarks/indexing.py prints both).
LAYOUT_OPTIONS: dict[str, Any] = {"boxes_flow": None}

# camelot's "network" flavour is its refined stream parser (text alignment, no ruling lines):
# on key information documents it keeps scenario tables whole where plain stream cuts them up.
FALLBACK_FLAVOR = "network"
_PATH_OBJECT = 2  # FPDF_PAGEOBJ_PATH
_RULE_THICKNESS = 3.0
_MIN_RULE_LENGTH = 8.0
_MIN_FILL_RATIO = 0.3
_MIN_STREAM_FILL_RATIO = 0.6
_PAGE_NUMBER = re.compile(r"\d{1,3}")
_EDGE_ZONE = 0.2
_COLUMN_GAP = 20.0  # points of white space between two runs of one text row
_COLUMN_SNAP = 3.0  # points: runs starting this close are one column
_MIN_KEY_WIDTH = 9.0  # points: narrower runs before a gap are bullets and list numbers
_MIN_ALIGNED_ROWS = 3
_MAX_KEY_COLUMN_CHARS = 30
_MAX_CELL_COLUMN_CHARS = 120
_LEADERS = re.compile(r"\.{5,}|…{2,}")


@dataclass
class ExtractedTable:
    page: int  # 1-based
    bbox: BBox
    rows: list[list[str]]
    flavor: str  # lattice | network | stream

    @property
    def csv(self) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(self.rows)
        return out.getvalue().rstrip("\n")

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), max((len(r) for r in self.rows), default=0)


@dataclass
class PageTables:
    tables: dict[int, list[ExtractedTable]]  # page -> tables in reading order
    furniture: dict[int, list[BBox]]  # page -> boxes of repeated header/footer tables
    pages_examined: int
    pages_cached: int = 0  # of those, answered by the table cache
    worker_cpu_seconds: float = 0.0  # CPU time spent in worker processes (not in this one)


@dataclass(frozen=True)
class PagePlan:
    page: int  # 1-based
    flavor: str  # "lattice": ruling lines make a grid; "stream": text alignment only
    fingerprint: str = field(default="", compare=False)

    @property
    def cache_key(self) -> str:
        # the table code's own digest too: a cache filled by other code under the same version is not served
        return f"{EXTRACTOR_VERSION}:{table_code_digest()[:16]}:{_camelot_version()}:{self.flavor}:{self.fingerprint}"


@dataclass(frozen=True)
class RuleCounts:
    horizontal: int
    vertical: int
    boxes: int

    @property
    def looks_like_grid(self) -> bool:
        return (self.horizontal >= 3 and self.vertical >= 3) or self.boxes >= 6

    @property
    def has_rules_only(self) -> bool:
        return self.horizontal >= 3 and self.vertical < 2


def object_bounds(page: pdfium.PdfPage) -> list[tuple[int, BBox]]:
    """(type, bounds) of every object drawn on the page: read once, used for the rule counts and
    the fingerprint (each a walk over pdfium's objects otherwise)."""
    return [(obj.type, obj.get_bounds()) for obj in page.get_objects(max_depth=3)]


def count_rules(page: pdfium.PdfPage, objects: list[tuple[int, BBox]] | None = None) -> RuleCounts:
    horizontal = vertical = boxes = 0
    for kind, (left, bottom, right, top) in objects if objects is not None else object_bounds(page):
        if kind != _PATH_OBJECT:
            continue
        width, height = right - left, top - bottom
        if height < _RULE_THICKNESS and width > _MIN_RULE_LENGTH:
            horizontal += 1
        elif width < _RULE_THICKNESS and height > _MIN_RULE_LENGTH:
            vertical += 1
        elif width > _MIN_RULE_LENGTH and height > _MIN_RULE_LENGTH:
            boxes += 1
    return RuleCounts(horizontal, vertical, boxes)


def aligned_rows(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage | None = None) -> int:
    """How many text rows (away from the page edges) have a wide gap followed by text that starts
    at one same x: a column. A table without ruling lines shows several; prose shows gaps only
    where justified spacing happens to be wide, each at another x. pdfium's text rects are runs
    of one text line; a run narrower than a word (a bullet, "1.") before the gap is a list's
    hanging indent, not a column."""
    own = textpage is None
    textpage = textpage or page.get_textpage()
    try:
        rects = [textpage.get_rect(i) for i in range(textpage.count_rects())]
    finally:
        if own:
            textpage.close()
    height = page.get_size()[1]
    rows: dict[int, list[tuple[float, float, float, float]]] = {}
    for rect in rects:
        if height * _EDGE_ZONE / 2 < rect[1] < height * (1 - _EDGE_ZONE / 2):
            rows.setdefault(round(rect[1] / 3), []).append(rect)
    columns: Counter[int] = Counter()
    for row in rows.values():
        row.sort()
        starts = {round(b[0] / _COLUMN_SNAP) for a, b in zip(row, row[1:], strict=False)
                  if b[0] - a[2] > _COLUMN_GAP and a[2] - a[0] >= _MIN_KEY_WIDTH}
        columns.update(starts)
    return max(columns.values(), default=0)


@cache
def _camelot_version() -> str:
    try:
        return metadata.version("camelot-py")
    except metadata.PackageNotFoundError:
        return "unknown"


def page_fingerprint(page: pdfium.PdfPage, objects: list[tuple[int, BBox]] | None = None,
                     textpage: pdfium.PdfTextPage | None = None) -> str:
    """What camelot reads from a page: its size, its text and where every object sits."""
    digest = hashlib.sha256(repr(page.get_size()).encode())
    for kind, bounds in objects if objects is not None else object_bounds(page):
        digest.update(f"{kind}:{','.join(f'{v:.1f}' for v in bounds)};".encode())
    own = textpage is None
    textpage = textpage or page.get_textpage()
    try:
        digest.update(textpage.get_text_range().encode("utf-8", "surrogatepass"))
    finally:
        if own:
            textpage.close()
    return digest.hexdigest()


def plan_pages(document: pdfium.PdfDocument, fingerprints: bool = True) -> list[PagePlan]:
    """The pages worth running camelot on, each with the flavour to run."""
    plans: list[PagePlan] = []
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        try:
            objects = object_bounds(page)
            rules = count_rules(page, objects)
            if rules.looks_like_grid:
                flavor = "lattice"
            elif rules.has_rules_only or aligned_rows(page, textpage) >= _MIN_ALIGNED_ROWS:
                flavor = "stream"
            else:
                continue
            plans.append(PagePlan(index + 1, flavor, page_fingerprint(page, objects, textpage) if fingerprints else ""))
        finally:
            textpage.close()
            page.close()
    return plans


def candidate_pages(document: pdfium.PdfDocument) -> tuple[list[int], list[int]]:
    """(pages for lattice, pages for the text-alignment fallback only), 1-based."""
    plans = plan_pages(document, fingerprints=False)
    return ([p.page for p in plans if p.flavor == "lattice"], [p.page for p in plans if p.flavor == "stream"])


def extract_tables(path: Path, document: pdfium.PdfDocument, cache: TableCache | None = None,
                   pool: TablePool | None = None) -> PageTables:
    plans = plan_pages(document)
    cached = cache.get_many([plan.cache_key for plan in plans]) if cache is not None else {}
    todo = [plan for plan in plans if plan.cache_key not in cached]
    by_page: dict[int, list[CachedTable]] = {plan.page: cached[plan.cache_key] for plan in plans
                                             if plan.cache_key in cached}
    worker_cpu = 0.0
    if todo:
        jobs = [(plan.page, plan.flavor) for plan in todo]
        with _readable_path(path, document) as source:
            results = []
            if pool is not None and pool.worth_it(len(todo)):
                batches = [jobs[i::pool.workers * 2] for i in range(pool.workers * 2)]
                try:
                    results = pool.map(extract_pages, [(source, path.name, b, LAYOUT_OPTIONS) for b in batches if b])
                    worker_cpu = sum(cpu for _, _, cpu in results)
                except Exception as exc:  # noqa: BLE001 — a worker died (memory, a signal): do it here
                    log.warning("%s: table workers failed (%s); extracting in this process", path.name, exc)
                    pool.close()
                    results = []
            if not results:
                results = [extract_pages(source, path.name, jobs, LAYOUT_OPTIONS)]
        fresh: dict[str, list[CachedTable]] = {}
        keys = {plan.page: plan.cache_key for plan in todo}
        for found, failed, _ in results:
            by_page.update(found)
            fresh.update({keys[page]: tables for page, tables in found.items() if page not in failed})
        if cache is not None and fresh:
            cache.put_many(fresh)
    tables = [ExtractedTable(page, box, rows, flavor)
              for page, found in by_page.items() for box, rows, flavor in found]
    tables.sort(key=lambda t: (t.page, -t.bbox[3]))
    heights = {i + 1: document[i].get_size()[1] for i in range(len(document))}
    kept, furniture = _split_furniture(tables, heights)
    return PageTables(tables=kept, furniture=furniture, pages_examined=len(plans),
                      pages_cached=len(plans) - len(todo), worker_cpu_seconds=worker_cpu)


def extract_pages(source: str, name: str, jobs: list[tuple[int, str]], layout: dict[str, Any] | None = None
                  ) -> tuple[dict[int, list[CachedTable]], set[int], float]:
    """camelot on some pages of one PDF: (page -> real tables, pages that failed, CPU seconds).
    Runs in a worker process or in this one; one camelot call reads every page, a second one
    re-reads with text alignment the grid pages whose lattice found no real table."""
    started = time.process_time()
    flavors = dict(jobs)
    found: dict[int, list[CachedTable]] = {page: [] for page in flavors}
    failed: set[int] = set()
    per_page = {page: LATTICE_OPTIONS for page, flavor in flavors.items() if flavor == "lattice"}
    layout = LAYOUT_OPTIONS if layout is None else layout
    for table in _run_camelot(source, name, sorted(flavors), per_page, failed, min_columns=2, layout=layout):
        if table.page in found:
            found[table.page].append((table.bbox, table.rows, table.flavor))
    misses = [page for page, flavor in flavors.items() if flavor == "lattice" and not found[page]]
    # on a page with ruling lines that lattice could not read, two-column "tables" are mostly
    # prose beside a margin heading
    for table in _run_camelot(source, name, misses, {}, failed, min_columns=3, layout=layout):
        if table.page in found:
            found[table.page].append((table.bbox, table.rows, table.flavor))
    return found, failed, time.process_time() - started


@contextmanager
def _readable_path(path: Path, document: pdfium.PdfDocument) -> Iterator[str]:
    """camelot's text layer reader refuses PDFs whose permission flags forbid extraction (an
    owner password only); pdfium opened it already, so hand camelot a copy without security."""
    if pdfium_c.FPDF_GetSecurityHandlerRevision(document) == -1:
        yield str(path)
        return
    handle, copy = tempfile.mkstemp(prefix="rulebook-tables-", suffix=".pdf")
    try:
        with os.fdopen(handle, "wb") as out:
            document.save(out, flags=pdfium_c.FPDF_REMOVE_SECURITY)
        yield copy
    finally:
        Path(copy).unlink(missing_ok=True)


def _run_camelot(source: str, name: str, pages: list[int], per_page: dict[int, dict[str, Any]],
                 failed: set[int], min_columns: int, layout: dict[str, Any] | None = None) -> list[ExtractedTable]:
    """Every table camelot finds on `pages`: text alignment unless `per_page` says lattice.
    Grid tables are kept when real; text-alignment tables are trimmed, merged and checked."""
    if not pages:
        return []
    import camelot  # heavy import (opencv); only documents with tables pay for it

    # camelot's PDF reader (playa) logs every malformed marked-content operator it skips
    logging.getLogger("playa").setLevel(logging.ERROR)
    try:
        found = camelot.read_pdf(source, pages=",".join(map(str, pages)), flavor=FALLBACK_FLAVOR,
                                 per_page=per_page or None, suppress_stdout=True, layout_kwargs=layout or {})
    except Exception as exc:  # noqa: BLE001 — camelot's failure costs the tables, not the document
        log.warning("%s: camelot failed on pages %s: %s", name, pages, exc)
        failed.update(pages)
        return []
    out: list[ExtractedTable] = []
    for table in found:
        page = int(table.page)
        rows = [[_clean_cell(cell) for cell in row] for row in table.df.values.tolist()]
        bbox: BBox = tuple(table._bbox)  # type: ignore[assignment]
        if page in per_page:
            extracted = ExtractedTable(page, bbox, _drop_empty_rows_and_columns(rows), "lattice")
            if _is_real_table(extracted):
                out.append(extracted)
            continue
        for part, box in split_at_headings(rows, [tuple(r) for r in table.rows], bbox):
            extracted = ExtractedTable(page, box, _drop_empty_rows_and_columns(merge_wrapped_rows(part)),
                                       FALLBACK_FLAVOR)
            if _stream_table_is_plausible(extracted, min_columns=min_columns):
                out.append(extracted)
    return out


def _clean_cell(cell: object) -> str:
    return repair_line(str(cell).replace("\n", " ")) if cell is not None else ""


def _drop_empty_rows_and_columns(rows: list[list[str]]) -> list[list[str]]:
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    width = max(len(r) for r in rows)
    keep = [c for c in range(width) if any(c < len(r) and r[c] for r in rows)]
    return [[r[c] if c < len(r) else "" for c in keep] for r in rows]


def _fill_ratio(table: ExtractedTable) -> float:
    cells = [cell for row in table.rows for cell in row]
    return sum(1 for c in cells if c) / len(cells) if cells else 0.0


def _is_real_table(table: ExtractedTable) -> bool:
    n_rows, n_cols = table.shape
    if n_rows < 2 or n_cols < 2:
        return False
    distinct = {cell for row in table.rows for cell in row if cell}
    return len(distinct) >= 3 and _fill_ratio(table) >= _MIN_FILL_RATIO


def _stream_table_is_plausible(table: ExtractedTable, min_columns: int = 3) -> bool:
    """Text-alignment tables are guesses. A table of contents is prose the section detector
    reads better; so is a list set with a hanging indent; prose cut into columns has no column
    of short cells (keys, codes, amounts)."""
    n_rows, n_cols = table.shape
    if n_rows < 3 or n_cols < min_columns or _fill_ratio(table) < _MIN_STREAM_FILL_RATIO:
        return False
    if not _is_real_table(table) or _looks_like_contents(table) or looks_like_list(table.rows):
        return False
    means = column_char_means(table.rows)
    return min(means) < _MAX_KEY_COLUMN_CHARS and max(means) < _MAX_CELL_COLUMN_CHARS


def _looks_like_contents(table: ExtractedTable) -> bool:
    ends_with_page = sum(1 for row in table.rows if row and _PAGE_NUMBER.fullmatch(row[-1].strip()))
    leaders = sum(1 for row in table.rows if any(_LEADERS.search(cell) for cell in row))
    return max(ends_with_page, leaders) >= 0.6 * len(table.rows)


def _split_furniture(tables: list[ExtractedTable], page_heights: dict[int, float]
                     ) -> tuple[dict[int, list[ExtractedTable]], dict[int, list[BBox]]]:
    """A small table at the same page edge, with the same shape, on several pages is a boxed
    page header or footer (its text changes with the chapter and page number, its place not).
    Unless its header row is that of a table in the body of a page: a message guide's short
    structure tables ("Or, MessageElement<XML Tag>, Mult., …" with the two rows of a choice) often
    fall at the top of a page, at the same height and in the same shape, and are content like
    the hundreds of their kind further down (41 of them were dropped from the two ISO 20022 guides)."""
    def signature(t: ExtractedTable) -> tuple[object, ...] | None:
        height = page_heights.get(t.page, 842.0)
        if t.bbox[1] > height * (1 - _EDGE_ZONE):
            edge = "top"
        elif t.bbox[3] < height * _EDGE_ZONE:
            edge = "bottom"
        else:
            return None
        return (edge, *t.shape, round(t.bbox[1] / 10), round(t.bbox[3] / 10))

    keys = [signature(t) for t in tables]
    repeats = Counter(keys)
    body_headers = {tuple(t.rows[0]) for t, key in zip(tables, keys, strict=True) if t.rows and key is None}
    threshold = 3 if len(page_heights) >= 6 else 2
    kept: dict[int, list[ExtractedTable]] = {}
    furniture: dict[int, list[BBox]] = {}
    for table, key in zip(tables, keys, strict=True):
        if key is not None and len(page_heights) > 1 and repeats[key] >= threshold \
                and not (table.rows and tuple(table.rows[0]) in body_headers):
            furniture.setdefault(table.page, []).append(table.bbox)
        else:
            kept.setdefault(table.page, []).append(table)
    return kept, furniture
