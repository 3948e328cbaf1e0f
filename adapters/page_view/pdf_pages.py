"""PDF pages as images and as character boxes, read with pypdfium2 and cached by content hash.

pdfium is not thread-safe, so every call into it holds one process-wide lock; callers on the
event loop run these functions in a worker thread. Rendering to PNG never runs the PDF's
JavaScript (pdfium's form/JS environment is not even initialised), so a hostile PDF can show
its pages but do nothing else. The caches are bounded (cachetools) and keyed by the file's
sha256, so a re-released PDF at the same path is never served from a stale entry.
"""

from __future__ import annotations

import hashlib
import io
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import cachetools
import pypdfium2 as pdfium

PDFIUM_LOCK = threading.RLock()
SCALES = (1.0, 1.5, 2.0)  # the only render scales served: a URL cannot make us render huge images
MAX_PIXELS = 6_000_000  # a page with absurd dimensions renders at a smaller scale instead

Box = tuple[float, float, float, float]  # (left, bottom, right, top) in PDF points, origin bottom-left


class PageOutOfRange(ValueError):
    pass


@dataclass(frozen=True)
class PageChars:
    """One page's text in pdfium's order, one character per index, with tight boxes."""

    number: int
    width: float
    height: float
    text: str
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class PdfInfo:
    content_hash: str
    pages: int


_hash_cache: cachetools.LRUCache = cachetools.LRUCache(maxsize=256)
_info_cache: cachetools.LRUCache = cachetools.LRUCache(maxsize=256)
_chars_cache: cachetools.LRUCache = cachetools.LRUCache(maxsize=64)
_image_cache: cachetools.LRUCache = cachetools.LRUCache(maxsize=48_000_000, getsizeof=len)  # bytes of PNG
_cache_lock = threading.Lock()
T = TypeVar("T")


def _cached(cache: cachetools.Cache, key: Hashable, compute: Callable[[], T]) -> T:
    """The cached value, else computed outside the cache lock (two threads may compute one entry
    once each; never a torn one) and kept."""
    with _cache_lock:
        found = cache.get(key)
    if found:
        return found
    value = compute()
    with _cache_lock:
        cache[key] = value
    return value


def content_hash(path: Path) -> str:
    """sha256 of the file, remembered per (path, size, mtime) so a page request does not reread it."""
    stat = path.stat()

    def compute() -> str:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()

    return _cached(_hash_cache, (str(path), stat.st_size, stat.st_mtime_ns), compute)


def _open(path: Path) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(str(path))


@contextmanager
def _opened_page(path: Path, number: int) -> Iterator[Any]:
    """Page `number` (1-based) of the PDF, open under the pdfium lock (pdfium is not thread-safe)."""
    with PDFIUM_LOCK:
        document = _open(path)
        try:
            if not 1 <= number <= len(document):
                raise PageOutOfRange(f"page {number} is outside 1..{len(document)}")
            page = document[number - 1]
            try:
                yield page
            finally:
                page.close()
        finally:
            document.close()


def pdf_info(path: Path) -> PdfInfo:
    digest = content_hash(path)

    def compute() -> PdfInfo:
        with PDFIUM_LOCK:
            document = _open(path)
            try:
                return PdfInfo(digest, len(document))
            finally:
                document.close()

    return _cached(_info_cache, digest, compute)


def page_chars(path: Path, number: int) -> PageChars:
    """Page `number` (1-based): its characters and their boxes."""

    def compute() -> PageChars:
        with _opened_page(path, number) as page:
            width, height = page.get_size()
            textpage = page.get_textpage()
            try:
                count = textpage.count_chars()
                text = textpage.get_text_range() if count else ""
                if len(text) != count:  # surrogate pairs: read one index at a time instead
                    text = "".join(textpage.get_text_range(i, 1)[:1] or " " for i in range(count))
                boxes = tuple(textpage.get_charbox(i) for i in range(count))
            finally:
                textpage.close()
        return PageChars(number, float(width), float(height), text, boxes)

    return _cached(_chars_cache, (content_hash(path), number), compute)


def allowed_scale(raw: str | float | None) -> float:
    try:
        value = float(raw) if raw not in (None, "") else 2.0
    except (TypeError, ValueError):
        value = 2.0
    return min(SCALES, key=lambda s: abs(s - value))


def page_png(path: Path, number: int, scale: float) -> bytes:
    """Page `number` rendered as PNG at one of `SCALES` (cached by content hash, page and scale)."""
    scale = allowed_scale(scale)

    def compute() -> bytes:
        with _opened_page(path, number) as page:
            width, height = page.get_size()
            fit = (MAX_PIXELS / max(width * height, 1.0)) ** 0.5
            image = page.render(scale=min(scale, fit), may_draw_forms=False).to_pil()
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format="PNG", optimize=False)
        return buffer.getvalue()

    return _cached(_image_cache, (content_hash(path), number, scale), compute)


def thumbnail_png(path: Path, number: int, rects: list[Box], width: int = 480) -> bytes:
    """The highlighted region of a page (all of its width, the lines around the highlight), the
    highlight drawn in, at most `width` pixels wide: small enough for a chat card."""
    from PIL import Image, ImageDraw

    scale = 1.5
    full = Image.open(io.BytesIO(page_png(path, number, scale))).convert("RGBA")
    page_height = full.height / scale
    if rects:
        top = max(r[3] for r in rects)
        bottom = min(r[1] for r in rects)
        y0 = max(0.0, page_height - top - 36)
        y1 = min(page_height, page_height - bottom + 36)
    else:
        y0, y1 = 0.0, min(page_height, 220.0)
    y1 = max(y1, min(page_height, y0 + 120))
    overlay = Image.new("RGBA", full.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for left, bottom_, right, top_ in rects:
        box = [left * scale - 2, (page_height - top_) * scale - 2, right * scale + 2, (page_height - bottom_) * scale + 2]
        draw.rectangle(box, fill=(255, 214, 0, 96), outline=(230, 150, 0, 230), width=2)
    marked = Image.alpha_composite(full, overlay).crop((0, int(y0 * scale), full.width, int(y1 * scale)))
    if marked.width > width:
        marked = marked.resize((width, max(1, round(marked.height * width / marked.width))))
    buffer = io.BytesIO()
    marked.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()
