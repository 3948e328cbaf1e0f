"""Draft chunks + catalog entry -> `ChunkPayload`s, with the content hash that drives re-embedding."""

from __future__ import annotations

import hashlib

from indexing.blob_source import blob_url_for
from indexing.chunker import DraftChunk
from indexing.instruction_text import find_instruction_spans
from indexing.lifecycle import InventoryItem
from knowledge.language_id import document_language as identify_document_language
from knowledge.payload import ChunkPayload

# Bump when a change to text extraction, sectioning or chunking changes chunks of unchanged
# files: the changelog of what changed the chunks on purpose. (Any edit of the code that makes
# stored chunks re-reads every document anyway: `indexing.pipeline_code`.)
PIPELINE_VERSION = "13"  # 13: a message guide's constraints each a section (section_detector._constraint); 12: text-alignment tables cut at numbered headings (borderless_tables.split_at_headings)
# 11: words split at a line break joined again (indexing.line_break_hyphens)
# 10: section numbers past .99 ("2.100 Structured") open their own sections
# 9: a table at a page edge whose header row body tables share is kept (not furniture)
# 8: page furniture found where a line stands on the page (indexing.page_furniture)
MAX_PARENT_CHARS = 160  # of enclosing section titles in the encoders' input: the chunk's own text leads


def embedding_input(payload: ChunkPayload) -> str:
    """What the dense encoder sees: the chunk with its rulebook and section named, so a chunk
    that only says "the fee is EUR 0.20" is still found by "fee for device payments in PS-08".
    The enclosing sections are named too: in a message guide only the top heading says which
    message ("18 camt.087.001.07"), and "may camt.087 change the currency" must find its rules."""
    own = " ".join(p for p in (payload.section_key, payload.section_title) if p)
    section = " - ".join(p for p in (*_enclosing(payload.parent_titles), own) if p)
    head = f"{payload.rulebook_title} ({payload.rulebook_id})" + (f" - {section}" if section else "")
    return f"{head}\n{payload.text}"


def _enclosing(parent_titles: list[str]) -> list[str]:
    """The enclosing titles the head names: all of them up to MAX_PARENT_CHARS, else the
    outermost (which message, which chapter) and the nearest, leaving out the middle."""
    kept = list(parent_titles)
    while len(kept) > 2 and sum(len(t) + 3 for t in kept) > MAX_PARENT_CHARS:
        del kept[1]
    return kept


def content_hash(payload: ChunkPayload) -> str:
    material = "\x1f".join([embedding_input(payload), "\x1e".join(payload.tables_csv), payload.language])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def document_language(item: InventoryItem, sample: str, catalogued: bool) -> str:
    """The catalog's word where there is a catalog; otherwise guessed from the text."""
    if catalogued and item.entry is not None and item.entry.language:
        return item.entry.language
    return identify_document_language(sample[:5000]) or "en"


def build_payloads(item: InventoryItem, chunks: list[DraftChunk], summary: str, title: str,
                   language: str, rulebook_type: str) -> list[ChunkPayload]:
    entry = item.entry
    payloads: list[ChunkPayload] = []
    # a release downloaded from Blob Storage links to the blob, not to the local cache copy
    source_uri = blob_url_for(item.path) or str(item.path.resolve())
    for index, chunk in enumerate(chunks):
        section = chunk.section
        payload = ChunkPayload(
            chunk_id=f"{item.rulebook_id}:{index}",
            rulebook_id=item.rulebook_id,
            rulebook_title=title,
            version=entry.version if entry else "",
            status="vetted_archived" if item.bucket == "vetted_archived" else "vetted_active",
            withdrawn_on=entry.withdrawn_on if entry and item.bucket == "vetted_archived" else None,
            vetted_on=entry.vetted_on if entry else None,
            language=language,
            page_start=chunk.page_start,
            page_end=chunk.page_end,
            page_breaks=chunk.page_breaks,
            section_path=list(section.path),
            section_title=section.title,
            parent_titles=list(section.parent_titles),
            section_key=section.key,
            chunk_index=index,
            text=chunk.text,
            tables_csv=chunk.tables_csv,
            has_table=bool(chunk.tables_csv),
            rulebook_type=rulebook_type,
            roles=list(entry.roles) if entry else [],
            summary=summary,
            isin=entry.isin if entry else None,
            series=entry.series if entry else None,
            content_hash="",
            source_uri=source_uri,
            changed_by=entry.changed_by if entry else None,
        )
        payload.instruction_spans = find_instruction_spans(chunk.text)
        payload.has_instruction_text = bool(payload.instruction_spans)
        payload.content_hash = content_hash(payload)
        payloads.append(payload)
    return payloads
