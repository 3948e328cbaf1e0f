"""`GET /sources/{rulebook_id}?page=N`: log the click, then open the rulebook's PDF at page N.

The route answers with a redirect to `/sources/{rulebook_id}/{file name}.pdf?…#page=N`, which
serves the file's bytes as application/pdf; browsers' PDF viewers honour the `#page=N`
fragment, and the file route checks access again, so a copied file link grants nothing more.
A PDF kept in Blob Storage is redirected to a short-lived read-only link instead.

What the caller may see comes from the link itself (`adapters.source_server_links`): a rulebook outside
the link's roles, a rulebook that does not exist and a rulebook without a file all answer the
same 404.

A PDF that holds active content (JavaScript, launch or automatic actions; `knowledge.pdf_actions`)
is served with `Content-Disposition: attachment`: the browser saves it instead of opening it in a
tab, where its scripts could run in the bot's origin. The check is cached per file version.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, unquote, urlencode, urlsplit

from aiohttp import web
from cachetools import LRUCache

from adapters.source_server_links import SourceLinks
from events.usage_event import EventSink, SourceClickData, emit_usage

log = logging.getLogger("rulebook.sources")

# (rulebook_id, roles) -> source_uri, or None when missing or not visible with those roles
SourceLocator = Callable[[str, tuple[str, ...]], "str | None"]
BlobLinker = Callable[[str, int], str]  # (blob source_uri, page) -> time-limited URL



_active_content_cache: LRUCache[tuple[str, int, int], bool] = LRUCache(maxsize=1024)
_active_content_lock = threading.Lock()


def _has_active_content(path: Path) -> bool:
    """Does the PDF run code (cached by path, size and modification time: a new version is checked)?"""
    from knowledge.pdf_actions import active_content

    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    with _active_content_lock:
        if key in _active_content_cache:
            return _active_content_cache[key]
    found = bool(active_content(path))
    with _active_content_lock:
        _active_content_cache[key] = found
    return found


def page_number(request: web.Request) -> int:
    """The `page` query parameter (1 when absent); not a whole number: 400."""
    raw = request.query.get("page", "1")
    try:
        return max(1, int(raw))
    except ValueError as exc:
        raise web.HTTPBadRequest(reason="page must be a whole number") from exc


def local_pdf_path(source_uri: str) -> Path | None:
    """The file behind a chunk's `source_uri`, or None for a remote (Blob) URL."""
    if source_uri.startswith("file://"):
        return Path(unquote(urlsplit(source_uri).path))
    if "://" in source_uri:
        return None
    return Path(source_uri)


class SourceRoutes:
    def __init__(self, locate: SourceLocator, links: SourceLinks, sink: EventSink | None,
                 blob_link: BlobLinker | None = None) -> None:
        self._locate = locate
        self._links = links
        self._sink = sink
        self._blob_link = blob_link

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/sources/{rulebook_id}", self.open_at_page)
        app.router.add_get("/sources/{rulebook_id}/{file_name}", self.pdf_file)

    async def _visible_source(self, request: web.Request) -> tuple[str, tuple[str, ...], str]:
        rulebook_id = request.match_info["rulebook_id"]
        roles = self._links.granted_roles(rulebook_id, request.query.get("roles", ""),
                                          request.query.get("sig", ""))
        source_uri = await asyncio.to_thread(self._locate, rulebook_id, roles)
        if not source_uri:
            raise web.HTTPNotFound(text='{"error": "no such rulebook"}', content_type="application/json")
        return rulebook_id, roles, source_uri

    async def open_at_page(self, request: web.Request) -> web.StreamResponse:
        page = page_number(request)
        rulebook_id, roles, source_uri = await self._visible_source(request)
        self._log_click(request, rulebook_id, page)
        path = local_pdf_path(source_uri)
        if path is None:
            if self._blob_link is None:
                raise web.HTTPFound(f"{source_uri}#page={page}")
            raise web.HTTPFound(self._blob_link(source_uri, page))
        file_name = path.name if path.suffix.lower() == ".pdf" else f"{path.name}.pdf"
        keep = [(k, request.query[k]) for k in ("roles", "sig") if k in request.query]
        query = f"?{urlencode(keep)}" if keep else ""
        raise web.HTTPFound(f"/sources/{quote(rulebook_id, safe='')}/{quote(file_name)}{query}#page={page}")

    async def pdf_file(self, request: web.Request) -> web.StreamResponse:
        _, _, source_uri = await self._visible_source(request)
        path = local_pdf_path(source_uri)
        if path is None or not path.is_file():
            if path is not None:
                log.error("the PDF of %s is missing at %s", request.match_info["rulebook_id"], path)
            raise web.HTTPNotFound(text='{"error": "no such rulebook"}', content_type="application/json")
        disposition = "attachment" if await asyncio.to_thread(_has_active_content, path) else "inline"
        response = web.FileResponse(path, headers={
            "Content-Type": "application/pdf",
            "Content-Disposition": f"{disposition}; filename=\"{path.name}\"",
            "X-Content-Type-Options": "nosniff",
        })
        return response

    def _log_click(self, request: web.Request, rulebook_id: str, page: int) -> None:
        emit_usage(self._sink, "source_click", SourceClickData(rulebook_id=rulebook_id, page=page),
                   platform=request.query.get("via", "") or "web", message_id=request.query.get("m", ""))
