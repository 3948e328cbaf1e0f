"""A section that is only its heading, in a guide that numbers its items flat: the section tool gives
the headings that follow it, up to text of a section's own, a higher level or the cap."""

from __future__ import annotations

import hashlib
from pathlib import Path

from knowledge.bm25 import Bm25Encoder
from knowledge.edge_store import EdgeStore
from knowledge.embedding_cache import CachedDenseEncoder
from knowledge.heading_runs import MAX_HEADING_RUN, heading_only, headings_after
from knowledge.knowledge_base import KnowledgeBase
from knowledge.payload import ChunkPayload
from knowledge.store import StoredChunk
from knowledge.zoom_tools import make_zoom_tools

# (section path, title, text): "2.3 Remittance Information" and its items, numbered flat as the
# ABN AMRO addendum numbers them
GUIDE = [
    (["2"], "Message items", "2 Message items\n\nThis chapter lists the items of the message."),
    (["2", "2.1"], "Batch Booking", "2.1 Batch Booking\n\nAddendum: batch booking is the default."),
    (["2", "2.2"], "Remittance Information", "2.2 Remittance Information"),
    (["2", "2.3"], "Unstructured", "2.3 Unstructured"),
    (["2", "2.4"], "Structured", "2.4  Structured"),
    (["2", "2.5"], "Creditor Reference", "2.5 Creditor Reference\n\nAddendum: only SCOR references are used."),
    (["2", "2.6"], "Purpose", "2.6 Purpose"),
    (["3"], "Reporting", "3 Reporting"),
    (["3", "3.1"], "Statements", "3.1 Statements"),
]


def _payloads(rows: list[tuple[list[str], str, str]]) -> list[ChunkPayload]:
    return [ChunkPayload(chunk_id=f"ADD-1:{i}", rulebook_id="ADD-1", rulebook_title="Bank addendum", page_start=17,
                         page_end=17, section_path=path, section_title=title, section_key=path[-1], chunk_index=i,
                         text=text, content_hash=hashlib.sha256(text.encode()).hexdigest())
            for i, (path, title, text) in enumerate(rows)]


def test_a_heading_only_chunk_holds_its_number_and_title_and_nothing_else():
    chunks = _payloads(GUIDE)
    assert [heading_only(c) for c in chunks] == [False, False, True, True, True, False, True, True, True]


def test_the_headings_after_a_heading_only_section_stop_at_text_a_higher_level_or_the_cap():
    chunks = _payloads(GUIDE)
    assert [c.section_key for c in headings_after([chunks[2]], chunks)] == ["2.3", "2.4"]  # 2.5 has text
    assert headings_after([chunks[1]], chunks) == []  # a section with text of its own lists nothing more
    assert [c.section_key for c in headings_after([chunks[6]], chunks)] == []  # "3 Reporting" is a level up
    assert [c.section_key for c in headings_after([chunks[7]], chunks)] == ["3.1"]  # below it, 3.1 follows
    # given only the chunks a caller was shown, a chunk missing between them ends the run
    assert [c.section_key for c in headings_after([chunks[2]], [chunks[2], chunks[4]])] == []
    assert [c.section_key for c in headings_after([chunks[2]], [chunks[4], chunks[3], chunks[2]])] == ["2.3", "2.4"]
    long = _payloads([(["2", f"2.{i}"], f"Item {i}", f"2.{i} Item {i}") for i in range(1, 40)])
    assert len(headings_after([long[0]], long)) == MAX_HEADING_RUN


def test_the_section_tool_shows_the_run_and_says_the_nesting_is_not_marked(
        tmp_path: Path, encoder: CachedDenseEncoder) -> None:
    payloads = _payloads(GUIDE)
    bm25 = Bm25Encoder()
    store = EdgeStore(tmp_path / "store")
    store.ensure_collection(encoder.dim)
    store.upsert([StoredChunk(p, v, bm25.encode_document(p.text, p.language))
                  for p, v in zip(payloads, encoder.embed_passages([p.text for p in payloads]), strict=True)])
    knowledge = KnowledgeBase(store, encoder)
    try:
        result = knowledge.section("ADD-1", "2.2")
        assert [c.section_key for c in result.chunks] == ["2.2"]
        assert [c.section_key for c in result.headings_after] == ["2.3", "2.4"]
        assert knowledge.section("ADD-1", "2.5").headings_after == []
        tool = next(t for t in make_zoom_tools(knowledge, ()) if t.name == "retrieve_rulebook_sections")
        text = tool.invoke({"rulebook_id": "ADD-1", "section_path": "2.2"})
        assert "is only a heading" in text and "does not mark which belong to it" in text
        assert text.index("2.2 Remittance Information") < text.index("2.3 Unstructured") < text.index("2.4")
        assert "2.5 Creditor Reference" not in text
        plain = tool.invoke({"rulebook_id": "ADD-1", "section_path": "2.5"})
        assert plain.startswith("Section 2.5 of ADD-1, in order:") and "2.6 Purpose" not in plain
    finally:
        knowledge.close()
