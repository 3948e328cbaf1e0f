"""`GET /sources/{rulebook_id}/view?page=N&cite=…`: a cited page with the quoted span highlighted.

    /sources/{id}/view?page=N&cite=H     HTML: the page image, highlight rectangles (SVG), title,
                                         section path, version, previous / next page, and
                                         "Open the PDF at this page" (/sources/{id}?page=N)
    /sources/{id}/view/image?page=N      the page as PNG, rendered by pdfium on the server
    /static/page-view.css                the view's style sheet

The rules of `/sources/` apply unchanged: what the caller may see comes from the link's signed
roles; a rulebook outside them, one that does not exist and a page that does not exist all answer
the same 404. The page needs no script and its Content-Security-Policy allows none; the PDF is
never handed to a browser viewer here, so its own JavaScript never runs. Responses about a
restricted rulebook are `Cache-Control: private`; links carry signatures, so no Referer leaks them.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from aiohttp import web

from adapters.page_view.highlight import NO_HIGHLIGHT, Highlight, highlight
from adapters.page_view.page_sources import PageSources, RulebookPages
from adapters.page_view.pdf_pages import (
    PageOutOfRange,
    allowed_scale,
    page_chars,
    page_png,
    pdf_info,
    thumbnail_png,
)
from adapters.source_route import local_pdf_path, page_number
from adapters.source_server_links import SourceLinks
from bot.source_links import CitedSpan, read_cite_handle
from events.usage_event import EventSink, SourceClickData, emit_usage

log = logging.getLogger("rulebook.page_view")

CSS_FILE = Path(__file__).with_name("view.css")
ICON_FILE = Path(__file__).with_name("icon.svg")
CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
DISPLAY_SCALE = 2.0


def _not_found() -> web.HTTPNotFound:
    body = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title></head>"
            "<body><h1>Not found</h1><p>There is no such rulebook page.</p></body></html>")
    return web.HTTPNotFound(text=body, content_type="text/html",
                            headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"})


def _headers(restricted: bool, max_age: int) -> dict[str, str]:
    return {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Cache-Control": f"{'private' if restricted else 'public'}, max-age={max_age}",
            "Vary": "Cookie, Authorization"}


class PageViewRoutes:
    def __init__(self, knowledge: Callable[[], Any], links: SourceLinks, sink: EventSink | None) -> None:
        self._sources = PageSources(knowledge)
        self._links = links
        self._sink = sink

    def add_to(self, app: web.Application) -> None:
        """Register before `/sources/{id}/{file_name}`, which would otherwise take "view"."""
        app.router.add_get("/sources/{rulebook_id}/view", self.view)
        app.router.add_get("/sources/{rulebook_id}/view/image", self.image)
        app.router.add_get("/sources/{rulebook_id}/view/thumbnail", self.thumbnail)
        app.router.add_get("/static/page-view.css", self.css)
        app.router.add_get("/static/rulebook-icon.svg", self.icon)

    # -- access --------------------------------------------------------------------------------
    async def _visible(self, request: web.Request) -> tuple[str, tuple[str, ...], RulebookPages, Path]:
        rulebook_id = request.match_info["rulebook_id"]
        roles = self._links.granted_roles(rulebook_id, request.query.get("roles", ""),
                                          request.query.get("sig", ""))
        pages = await asyncio.to_thread(self._sources.rulebook, rulebook_id, roles)
        if pages is None:
            raise _not_found()
        path = local_pdf_path(pages.source_uri)
        if path is None:
            # a Blob-hosted PDF: the view cannot render it here; open the PDF at the page instead
            raise web.HTTPFound(self._links.url(rulebook_id, page_number(request), roles=roles))
        if not path.is_file():
            log.error("the PDF of %s is missing at %s", rulebook_id, path)
            raise _not_found()
        return rulebook_id, roles, pages, path

    def _access_query(self, request: web.Request) -> list[tuple[str, str]]:
        return [(k, request.query[k]) for k in ("roles", "sig") if request.query.get(k)]

    # -- handlers ------------------------------------------------------------------------------
    async def image(self, request: web.Request) -> web.Response:
        page = page_number(request)
        _, _, pages, path = await self._visible(request)
        scale = allowed_scale(request.query.get("scale"))
        try:
            data = await asyncio.to_thread(page_png, path, page, scale)
        except PageOutOfRange:
            raise _not_found() from None
        headers = _headers(pages.restricted, 86400)
        return web.Response(body=data, content_type="image/png", headers=headers)

    async def thumbnail(self, request: web.Request) -> web.Response:
        """The highlighted region as a small PNG, for source cards."""
        page = page_number(request)
        rulebook_id, roles, pages, path = await self._visible(request)
        span = read_cite_handle(self._links.secret, rulebook_id, request.query.get("cite", ""))
        try:
            rects: list[tuple[float, float, float, float]] = []
            if span is not None:
                chunk = await asyncio.to_thread(self._sources.chunk, span.chunk_id, roles)
                chars = await asyncio.to_thread(page_chars, path, page)
                marked = highlight(chars, span.quote, tuple(chunk.tables_csv) if chunk is not None else ())
                rects = [(r.left, r.bottom, r.right, r.top) for r in marked.rects]
            data = await asyncio.to_thread(thumbnail_png, path, page, rects)
        except PageOutOfRange:
            raise _not_found() from None
        return web.Response(body=data, content_type="image/png", headers=_headers(pages.restricted, 86400))

    async def css(self, _: web.Request) -> web.Response:
        return web.Response(text=CSS_FILE.read_text(encoding="utf-8"), content_type="text/css",
                            headers={"Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff"})

    async def icon(self, _: web.Request) -> web.Response:
        return web.Response(text=ICON_FILE.read_text(encoding="utf-8"), content_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"})

    async def view(self, request: web.Request) -> web.Response:
        page = page_number(request)
        rulebook_id, roles, pages, path = await self._visible(request)
        info = await asyncio.to_thread(pdf_info, path)
        if page > info.pages:
            raise _not_found()
        span = read_cite_handle(self._links.secret, rulebook_id, request.query.get("cite", ""))
        marked, chunk_tables = NO_HIGHLIGHT, ()
        chunk = None
        if span is not None:
            chunk = await asyncio.to_thread(self._sources.chunk, span.chunk_id, roles)
            chunk_tables = tuple(chunk.tables_csv) if chunk is not None else ()
            chars = await asyncio.to_thread(page_chars, path, page)
            marked = highlight(chars, span.quote, chunk_tables)
            width, height = chars.width, chars.height
        else:
            chars = await asyncio.to_thread(page_chars, path, page)
            width, height = chars.width, chars.height
        if "n" not in request.query:  # a click from a chat, not paging through the view
            self._log_click(request, rulebook_id, page)
        section = (tuple(chunk.section_path), chunk.section_title) if chunk is not None and \
            chunk.page_start <= page <= max(chunk.page_end, chunk.page_start) else None
        if section is None:
            found = pages.section_at(page)
            section = (found.section_path, found.section_title) if found else ((), "")
        body = self._html(request, rulebook_id, roles, pages, page, info.pages, width, height, span, marked,
                          section)
        return web.Response(text=body, content_type="text/html", headers=_headers(pages.restricted, 300))

    # -- the page ------------------------------------------------------------------------------
    def _view_link(self, request: web.Request, rulebook_id: str, page: int) -> str:
        params = [("page", str(page)), *self._access_query(request)]
        if request.query.get("cite"):
            params.append(("cite", request.query["cite"]))
        params.append(("n", "1"))
        return f"/sources/{quote(rulebook_id, safe='')}/view?{urlencode(params)}"

    def _html(self, request: web.Request, rulebook_id: str, roles: tuple[str, ...], pages: RulebookPages,
              page: int, page_count: int, width: float, height: float, span: CitedSpan | None,
              marked: Highlight, section: tuple[tuple[str, ...], str]) -> str:
        e = html.escape
        image_params = urlencode([("page", str(page)), ("scale", str(DISPLAY_SCALE)), *self._access_query(request)])
        image = f"/sources/{quote(rulebook_id, safe='')}/view/image?{image_params}"
        pdf = self._links.url(rulebook_id, page, roles=roles)
        pdf = pdf[pdf.index("/sources/"):] if "/sources/" in pdf else pdf
        path, title = section
        section_text = " › ".join(path) + (f" {title}" if title else "") if path or title else ""
        version = f"version {pages.version}" if pages.version else ""
        status = (f"archived{f' (withdrawn {pages.withdrawn_on})' if pages.withdrawn_on else ''}"
                  if pages.status == "vetted_archived" else "")
        meta = " · ".join(p for p in (e(rulebook_id), e(version), e(status)) if p)
        rects = "".join(
            f'<rect class="highlight" x="{r.left - 1.5:.2f}" y="{height - r.top - 1.5:.2f}" '
            f'width="{r.right - r.left + 3:.2f}" height="{r.top - r.bottom + 3:.2f}"/>'
            for r in marked.rects)
        nav = []
        if page > 1:
            nav.append(f'<a rel="prev" href="{e(self._view_link(request, rulebook_id, page - 1))}">‹ Previous page</a>')
        nav.append(f'<span class="page-number">Page {page} of {page_count}</span>')
        if page < page_count:
            nav.append(f'<a rel="next" href="{e(self._view_link(request, rulebook_id, page + 1))}">Next page ›</a>')
        notes = []
        if span is not None:
            if not marked.found:
                notes.append("The quoted passage could not be located on this page; it is shown below.")
            if marked.began_before and page > 1:
                notes.append(f'The passage begins on <a href="{e(self._view_link(request, rulebook_id, page - 1))}">'
                             f"page {page - 1}</a>.")
            if marked.continues_after and page < page_count:
                notes.append(f'The passage continues on <a href="{e(self._view_link(request, rulebook_id, page + 1))}">'
                             f"page {page + 1}</a>.")
        quote_block = (f'<blockquote class="cited">{e(span.quote)}</blockquote>' if span is not None else "")
        notes_block = "".join(f'<p class="note">{n}</p>' for n in notes)
        return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{e(pages.title)} — page {page}</title>
<link rel="stylesheet" href="/static/page-view.css">
<link rel="icon" href="/static/rulebook-icon.svg" type="image/svg+xml">
</head><body>
<header>
<h1>{e(pages.title)}</h1>
<p class="meta">{meta}</p>
<p class="section">{e(section_text) if section_text else "&nbsp;"}</p>
<nav>{"".join(nav)}<a class="pdf" href="{e(pdf)}">Open the PDF at this page</a></nav>
</header>
<main>
{notes_block}
<figure class="page" data-highlights="{len(marked.rects)}" data-kind="{marked.kind}">
<svg id="page" viewBox="0 0 {width:.2f} {height:.2f}" role="img" aria-label="Page {page} of {e(pages.title)}">
<image href="{e(image)}" x="0" y="0" width="{width:.2f}" height="{height:.2f}"/>
{rects}
</svg>
</figure>
{quote_block}
</main>
</body></html>"""

    def _log_click(self, request: web.Request, rulebook_id: str, page: int) -> None:
        data = SourceClickData(rulebook_id=rulebook_id, page=page, view=True,
                               highlight=bool(request.query.get("cite")))
        emit_usage(self._sink, "source_click", data, platform=request.query.get("via", "") or "web",
                   message_id=request.query.get("m", ""))


def add_page_view(app: web.Application, knowledge: Callable[[], Any], links: SourceLinks,
                  sink: EventSink | None) -> None:
    PageViewRoutes(knowledge, links, sink).add_to(app)
