from __future__ import annotations

from pathlib import Path

from langchain_core.tools import BaseTool

from knowledge.citation_ledger import ToolResultLedger
from knowledge.edge_store import EdgeStore
from knowledge.embedding_cache import CachedDenseEncoder
from knowledge.knowledge_base import KnowledgeBase
from knowledge.store import StoredChunk
from knowledge.zoom_tools import make_zoom_tools


def tools_by_name(knowledge: KnowledgeBase, roles: tuple[str, ...] = (), ledger: ToolResultLedger | None = None
                  ) -> dict[str, BaseTool]:
    return {t.name: t for t in make_zoom_tools(knowledge, roles, ledger)}


def test_the_four_tools_never_take_roles_as_an_argument(knowledge: KnowledgeBase) -> None:
    tools = tools_by_name(knowledge)
    assert set(tools) == {"search_rulebooks", "retrieve_rulebook_sections", "retrieve_full_rulebook",
                          "list_available_rulebooks"}
    for tool in tools.values():
        assert "role" not in str(tool.args).lower()
        assert len(tool.description) > 80


def test_search_hits_carry_handles_that_the_ledger_resolves(knowledge: KnowledgeBase) -> None:
    ledger = ToolResultLedger()
    tools = tools_by_name(knowledge, ledger=ledger)
    text = tools["search_rulebooks"].invoke({"query": "annual scheme fee"})
    assert text.startswith("[S1] PS-01 — Credit Transfer Scheme Rulebook v2.0 · section 5 Fees · page 11")
    cited = ledger.lookup("[S1]")
    assert cited is not None and "EUR 2,500" in cited.text
    # the same chunk shown again keeps its handle; structured results ride along as the artifact
    message = tools["retrieve_rulebook_sections"].invoke(
        {"type": "tool_call", "id": "c1", "name": "retrieve_rulebook_sections",
         "args": {"rulebook_id": "PS-01", "section_path": "5"}})
    assert "[S1]" in message.content and message.artifact[0]["handle"] == "S1"
    assert ledger.lookup("PS-01:8") == cited and ledger.lookup("S99") is None


def test_section_retrieval_reassembles_the_section_in_order(knowledge: KnowledgeBase) -> None:
    result = knowledge.section("PS-01", "3")
    assert [c.chunk_id for c in result.chunks] == ["PS-01:2", "PS-01:3", "PS-01:4"]
    assert result.text.startswith("A payer may request a refund") and "thirty calendar days" in result.text
    assert [c.chunk_id for c in knowledge.section("PS-01", "Section 3.2").chunks] == ["PS-01:3", "PS-01:4"]
    assert [c.chunk_id for c in knowledge.section("PS-01", "refund deadlines").chunks] == ["PS-01:3", "PS-01:4"]
    text = tools_by_name(knowledge)["retrieve_rulebook_sections"].invoke(
        {"rulebook_id": "PS-01", "section_path": "3.2"})
    assert text.index("ten business days") < text.index("thirty calendar days")


def test_a_misspelled_section_returns_the_closest_candidates(knowledge: KnowledgeBase) -> None:
    result = knowledge.section("PS-01", "4.21")
    assert not result.found and result.candidates
    assert result.candidates[0].key == "4.2.1"
    by_title = knowledge.section("PS-01", "Refund dedlines")
    assert by_title.candidates[0].section_title == "Refund deadlines"
    text = tools_by_name(knowledge)["retrieve_rulebook_sections"].invoke(
        {"rulebook_id": "PS-01", "section_path": "Mesage formats"})
    assert "not found" in text and "4.2.1 Message formats" in text


def test_full_rulebook_guard_refuses_with_the_section_list(knowledge: KnowledgeBase) -> None:
    # the fixture's limit is 100 tokens: PS-01 is ~300, PS-03 (reason codes) about as long, KID-NL is short
    refused = knowledge.full_rulebook("PS-01")
    assert refused.refused and not refused.chunks and refused.tokens > refused.limit
    assert [s.key for s in refused.sections][:3] == ["", "1", "3"]
    text = tools_by_name(knowledge)["retrieve_full_rulebook"].invoke({"rulebook_id": "PS-01"})
    assert text.startswith("WARNING: rulebook PS-01 is too long") and "- 3.2 Refund deadlines" in text
    whole = knowledge.full_rulebook("KID-NL")
    assert not whole.refused and [c.chunk_index for c in whole.chunks] == [0, 1]


def test_list_available_rulebooks_respects_roles(knowledge: KnowledgeBase) -> None:
    public = tools_by_name(knowledge)["list_available_rulebooks"].invoke({})
    assert "PS-01: Credit Transfer Scheme Rulebook" in public and "RISK-9" not in public
    assert "PS-01-2023" not in public  # archived: not offered
    assert "RISK-9" in tools_by_name(knowledge, ("risk",))["list_available_rulebooks"].invoke({})
    info = {r.rulebook_id: r for r in knowledge.list_rulebooks()}
    assert info["KID-NL"].isin == "NL0000009165" and info["PS-01"].pages == 12


def test_no_access_reads_byte_for_byte_like_does_not_exist(
        knowledge: KnowledgeBase, tmp_path: Path, encoder: CachedDenseEncoder, mini_chunks: list[StoredChunk]) -> None:
    without = EdgeStore(tmp_path / "without-risk")
    without.ensure_collection(encoder.dim)
    without.upsert([c for c in mini_chunks if c.payload.rulebook_id != "RISK-9"])
    absent = KnowledgeBase(without, encoder)
    calls = [("search_rulebooks", {"query": "treasury desk limits", "rulebook_ids": ["RISK-9"]}),
             ("search_rulebooks", {"query": "treasury desk open currency positions"}),
             ("retrieve_rulebook_sections", {"rulebook_id": "RISK-9", "section_path": "1"}),
             ("retrieve_full_rulebook", {"rulebook_id": "RISK-9"}),
             ("list_available_rulebooks", {})]
    restricted_tools, absent_tools = tools_by_name(knowledge, ("ops",)), tools_by_name(absent, ("ops",))
    for name, args in calls:
        assert restricted_tools[name].invoke(args) == absent_tools[name].invoke(args), name
    assert knowledge.source_uri("RISK-9") is None and absent.source_uri("RISK-9") is None
    assert knowledge.source_uri("RISK-9", ("risk",)) == "/pdfs/RISK-9.pdf"
    absent.close()
