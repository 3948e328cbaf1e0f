"""The one place that turns (rulebook, page) into a link that opens the PDF at that page.

By default the bot's own server serves the PDFs (`GET /sources/{rulebook_id}?page=N`, which logs
the click); the `#page=N` fragment makes browsers' PDF viewers open at the page. Blob Storage
deployments pass their own `SourceLink` (a time-limited SAS URL) to the service instead.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from knowledge.payload import ChunkPayload

SourceLink = Callable[[ChunkPayload, int], str]  # (cited chunk, page) -> URL


def served_source_link(public_base_url: str) -> SourceLink:
    base = public_base_url.rstrip("/")

    def link(chunk: ChunkPayload, page: int) -> str:
        return f"{base}/sources/{quote(chunk.rulebook_id, safe='')}?page={page}#page={page}"

    return link
