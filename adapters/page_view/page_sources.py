"""What the page view needs to know about a rulebook page, asked of the index with the caller's roles.

The access filter goes inside the store query (as for `/sources/`): a rulebook the roles do not
grant yields None, exactly like one that does not exist.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cachetools

from knowledge.payload import ChunkPayload


@dataclass(frozen=True)
class PageSection:
    page_start: int
    page_end: int
    section_path: tuple[str, ...]
    section_title: str


@dataclass(frozen=True)
class RulebookPages:
    rulebook_id: str
    title: str
    version: str
    status: str
    withdrawn_on: str | None
    source_uri: str
    restricted: bool  # only some roles may see it: responses are private
    sections: tuple[PageSection, ...]

    def section_at(self, page: int) -> PageSection | None:
        """The first section that runs over `page` (the one a reader meets first)."""
        return next((s for s in self.sections if s.page_start <= page <= s.page_end), None)


class PageSources:
    """Rulebook metadata and cited chunks through the shared index (`KnowledgeBase`), cached briefly."""

    def __init__(self, knowledge: Callable[[], Any], ttl_seconds: float = 60.0) -> None:
        self._knowledge = knowledge
        self._cache: cachetools.TTLCache = cachetools.TTLCache(maxsize=512, ttl=ttl_seconds)
        self._lock = threading.Lock()

    def rulebook(self, rulebook_id: str, roles: tuple[str, ...]) -> RulebookPages | None:
        key = (rulebook_id, roles)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        from knowledge.store import AccessFilter

        access = AccessFilter(roles=roles, rulebook_ids=(rulebook_id,),
                              statuses=("vetted_active", "vetted_archived"))
        chunks: list[ChunkPayload] = list(self._knowledge().store.scroll(access))
        found = _describe(rulebook_id, chunks) if chunks else None
        with self._lock:
            self._cache[key] = found
        return found

    def chunk(self, chunk_id: str, roles: tuple[str, ...]) -> ChunkPayload | None:
        return self._knowledge().chunk(chunk_id, roles)


def _describe(rulebook_id: str, chunks: list[ChunkPayload]) -> RulebookPages:
    chunks.sort(key=lambda c: c.chunk_index)
    active = [c for c in chunks if c.status == "vetted_active"] or chunks
    first = active[0]
    sections = tuple(PageSection(c.page_start, max(c.page_end, c.page_start), tuple(c.section_path), c.section_title)
                     for c in active)
    return RulebookPages(rulebook_id=rulebook_id, title=first.rulebook_title, version=first.version,
                         status=first.status, withdrawn_on=first.withdrawn_on,
                         source_uri=next((c.source_uri for c in active if c.source_uri), ""),
                         restricted=any(c.roles for c in chunks), sections=sections)
