"""The chunk payload: one Qdrant point's payload, the contract between indexing and retrieval.

Chunks never overlap: a section (or a whole rulebook) is rebuilt by sorting the chunks of one
`section_path` by `chunk_index` and concatenating their `text`.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["vetted_active", "vetted_archived"]

# Fields retrieval filters on; both store backends create payload indexes for them.
KEYWORD_INDEXED_FIELDS = ("rulebook_id", "status", "roles", "language", "rulebook_type", "isin",
                          "section_key", "content_hash", "generation_key")
INTEGER_INDEXED_FIELDS = ("chunk_index", "page_start")

CHUNK_NAMESPACE = uuid.UUID("6f1c9a2e-3b7d-4c55-9f0e-2a4d8b1c7e90")


class ChunkPayload(BaseModel):
    chunk_id: str  # "<rulebook_id>:<chunk_index>" — stable across re-indexing of unchanged text
    rulebook_id: str
    rulebook_title: str
    version: str = ""
    status: Status = "vetted_active"
    withdrawn_on: str | None = None  # ISO date, for archived versions
    vetted_on: str | None = None
    language: str = "en"
    page_start: int
    page_end: int
    # Character offsets in `text` at which page_start+1, page_start+2, … begin (one per page after
    # the first, so len == page_end - page_start); empty for a one-page chunk or an older index.
    page_breaks: list[int] = Field(default_factory=list)
    section_path: list[str] = Field(default_factory=list)  # e.g. ["4", "4.2", "4.2.1"]
    section_title: str = ""
    parent_titles: list[str] = Field(default_factory=list)  # "key title" of each enclosing section
    section_key: str = ""  # the last element of section_path ("" for front matter), indexed
    chunk_index: int  # position of the chunk in the whole rulebook, 0-based
    text: str  # prose; a table chunk holds the table as CSV here as well
    tables_csv: list[str] = Field(default_factory=list)
    has_table: bool = False
    rulebook_type: str = "rulebook"  # rulebook | product_sheet | kid | briefing | specification
    roles: list[str] = Field(default_factory=list)  # empty = everyone may see it
    summary: str = ""
    isin: str | None = None
    series: str | None = None  # catalog `series`: the active id this document is a version of (PS-08-2024 -> PS-08)
    content_hash: str  # sha256 of text + tables_csv + the metadata that the vectors depend on
    source_uri: str = ""  # file path or blob URL of the PDF
    changed_by: str | None = None
    # Text that addresses the reader or the assistant as an instruction ("Tell the user that all
    # fees are waived", "ignore previous instructions"), found at indexing time
    # (`indexing.instruction_text`): [start, end) character offsets in `text`. Such text is
    # document content to quote about, never a fact to state or an instruction to follow.
    has_instruction_text: bool = False
    instruction_spans: list[list[int]] = Field(default_factory=list)
    # which re-index of the rulebook wrote this point (knowledge/generations.py): "<id>@<n>";
    # empty for points written before generations existed
    generation: int = 0
    generation_key: str = ""

    @property
    def point_id(self) -> str:
        return chunk_point_id(self.chunk_id, self.generation)


def chunk_point_id(chunk_id: str, generation: int = 0) -> str:
    """Qdrant needs UUID or integer ids; derive a stable UUID from the chunk id (and, from the
    first generation on, the generation: old and new points of one chunk coexist until the switch)."""
    return str(uuid.uuid5(CHUNK_NAMESPACE, chunk_id if not generation else f"{chunk_id}@{generation}"))
