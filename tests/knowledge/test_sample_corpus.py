"""Retrieval on the real indexed sample corpus (examples/rulebooks): what the hand-written mini
corpus cannot show — the indexer's own chunks, roles and versions from the catalog, a rulebook
that exists only in another language."""

from __future__ import annotations

from knowledge.knowledge_base import KnowledgeBase


def found(kb: KnowledgeBase, query: str, mode: str = "hybrid", k: int = 10, **kw: object) -> list[tuple[str, str, int]]:
    """(rulebook id, last section path element, first page) of each hit, best first."""
    return [(h.payload.rulebook_id, (h.payload.section_path or [""])[-1], h.payload.page_start)
            for h in kb.search(query, k=k, mode=mode, **kw)]  # type: ignore[arg-type]


def test_ps07_is_found_only_with_the_risk_officer_role(sample_kb: KnowledgeBase) -> None:
    query = "Which fraud score leads to a payment being blocked?"
    for mode in ("dense", "bm25", "fused", "hybrid"):
        assert all(book != "PS-07" for book, _, _ in found(sample_kb, query, mode, k=30)), mode
    assert found(sample_kb, query, roles=("risk-officer",))[0] == ("PS-07", "3.1", 4)
    # asking for PS-07 by id without the role reads exactly like asking for a rulebook that does not exist
    assert sample_kb.search(query, rulebook_ids=["PS-07"]) == sample_kb.search(query, rulebook_ids=["PS-99"]) == []
    assert sample_kb.section("PS-07", "3.1").chunks == []
    assert sample_kb.section("PS-07", "3.1", roles=("risk-officer",)).found


def test_archived_ps08_2024_only_when_asked_and_then_below_ps08(sample_kb: KnowledgeBase) -> None:
    query = "What is the refund processing fee?"
    assert all(book != "PS-08-2024" for book, _, _ in found(sample_kb, query, k=30))
    hits = found(sample_kb, query, include_archived=True)
    assert ("PS-08", "3.2", 4) in hits and ("PS-08-2024", "3.2", 4) in hits
    assert hits.index(("PS-08", "3.2", 4)) < hits.index(("PS-08-2024", "3.2", 4))


def test_a_question_about_the_past_is_answered_from_the_archived_version(sample_kb: KnowledgeBase) -> None:
    hits = found(sample_kb, "What was the refund processing fee before 2025?", include_archived=True)
    assert hits[0] == ("PS-08-2024", "3.2", 4)  # "before 2025": the old figure is the answer


def test_a_dutch_question_finds_the_annex_that_exists_only_in_french(sample_kb: KnowledgeBase) -> None:
    query = "Om hoe laat worden handelaars in Luxemburg uiterlijk uitbetaald?"  # annex B, PS-05-FR p. 7
    assert ("PS-05-FR", "B.2", 7) not in found(sample_kb, query, "bm25", k=50)  # no word in common
    assert found(sample_kb, query, "dense", k=1) == [("PS-05-FR", "B.2", 7)]
    assert ("PS-05-FR", "B.2", 7) in found(sample_kb, query, k=5)  # fusion keeps dense's lone first hit


def test_an_identifier_question_ranks_its_rule_first(sample_kb: KnowledgeBase) -> None:
    assert found(sample_kb, "What does rule CT-R3 say about remittance information?")[0] == ("PS-02", "3.2", 4)


def test_section_and_subsections_come_back_in_reading_order(sample_kb: KnowledgeBase) -> None:
    result = sample_kb.section("PS-09", "4.2")
    assert result.found
    indexes = [c.chunk_index for c in result.chunks]
    assert indexes == sorted(indexes)
    assert {c.section_path[-1] for c in result.chunks} >= {"4.2.1", "4.2.2"}
