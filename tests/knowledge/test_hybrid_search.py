from __future__ import annotations

from knowledge.knowledge_base import KnowledgeBase
from knowledge.model_rerank import LexicalReranker, apply_reranker, parse_scores
from knowledge.section_rerank import section_coherence_rerank
from knowledge.store import ScoredChunk

from .conftest import Clock


def ranked(knowledge: KnowledgeBase, query: str, mode: str, k: int = 10, **kw: object) -> list[str]:
    return [h.payload.chunk_id for h in knowledge.search(query, k=k, mode=mode, **kw)]  # type: ignore[arg-type]


def test_hybrid_finds_an_exact_identifier_that_dense_alone_misses(knowledge: KnowledgeBase) -> None:
    target = "PS-01:9"  # the only chunk naming pain.008.001.08; its neighbours name other versions
    assert target not in ranked(knowledge, "pain.008.001.08", "dense", k=3)
    assert target in ranked(knowledge, "pain.008.001.08", "hybrid", k=3)
    assert ranked(knowledge, "pain.008.001.08", "bm25", k=1) == [target]


def test_hybrid_finds_a_paraphrase_that_bm25_alone_misses(knowledge: KnowledgeBase) -> None:
    target = "PS-02:0"  # "a refrigerator with a touch screen": no word in common with "fridge"
    query = "Can I pay with my fridge?"
    assert target not in ranked(knowledge, query, "bm25", k=5)
    assert target in ranked(knowledge, query, "hybrid", k=5)
    assert ranked(knowledge, query, "dense", k=1) == [target]


def test_restricted_rulebook_is_never_returned_without_the_role(knowledge: KnowledgeBase) -> None:
    query = "treasury desk open currency positions overnight limit"
    for mode in ("dense", "bm25", "fused", "hybrid"):
        assert not any(c.startswith("RISK-9") for c in ranked(knowledge, query, mode, k=30)), mode
    assert ranked(knowledge, query, "hybrid", k=1, roles=("risk",)) == ["RISK-9:0"]


def test_restricted_and_missing_rulebook_answer_alike(knowledge: KnowledgeBase) -> None:
    restricted = knowledge.search("treasury limits", rulebook_ids=["RISK-9"])
    missing = knowledge.search("treasury limits", rulebook_ids=["NO-SUCH-BOOK"])
    assert restricted == missing == []


def test_archived_versions_only_when_asked_and_then_ranked_below_the_current(knowledge: KnowledgeBase) -> None:
    query = "how long can a payer request a refund of an unauthorised transaction"
    default = ranked(knowledge, query, "hybrid")
    assert default and not any(c.startswith("PS-01-2023") for c in default)
    with_archive = ranked(knowledge, query, "hybrid", include_archived=True)
    assert "PS-01-2023:0" in with_archive
    assert with_archive.index("PS-01:2") < with_archive.index("PS-01-2023:0")
    # a question worded like the old text: both legs rank the archived chunk first, the rerank demotes it
    worded_like_old = "refund of an unauthorised transaction within eight weeks"
    assert ranked(knowledge, worded_like_old, "fused", include_archived=True)[0] == "PS-01-2023:0"
    reranked = ranked(knowledge, worded_like_old, "hybrid", include_archived=True)
    assert reranked.index("PS-01:2") < reranked.index("PS-01-2023:0")


def test_two_versions_of_one_isin_rank_the_older_down() -> None:
    from knowledge.payload import ChunkPayload
    from knowledge.section_rerank import older_rulebook_ids

    def kid(rulebook_id: str, version: str, title: str) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"{rulebook_id}:0", rulebook_id=rulebook_id, rulebook_title=title,
                            version=version, isin="XS1914695009", page_start=1, page_end=1, chunk_index=0,
                            text="Costs over time", content_hash="h")

    old, new = kid("KID-A", "2024.1", "Note A"), kid("KID-B", "2025.2", "Structured note, edition 2")
    assert older_rulebook_ids([old, new]) == {"KID-A"}
    assert older_rulebook_ids([old]) == set()


def test_cache_serves_a_repeat_within_ten_seconds_and_not_after(knowledge: KnowledgeBase, clock: Clock) -> None:
    searcher = knowledge.searcher
    first = knowledge.search("annual scheme fee")
    calls = searcher.store_calls
    clock.now += 9.9
    assert knowledge.search("annual scheme fee") == first and searcher.store_calls == calls
    assert knowledge.search("annual scheme fee", roles=("risk",)) is not None  # other roles: not the cached entry
    assert searcher.store_calls == calls + 1
    clock.now += 0.2  # 10.1 s after the first search
    knowledge.search("annual scheme fee")
    assert searcher.store_calls == calls + 2


def test_section_coherence_lifts_a_section_with_several_hits_and_collapses_duplicates(
        knowledge: KnowledgeBase) -> None:
    fused = knowledge.search("refund request deadline days", k=30, mode="fused")
    payloads = {h.payload.chunk_id: h.payload for h in fused}
    top, lone, pair_a, pair_b = (payloads[c] for c in ("PS-01:8", "PS-01:2", "PS-01:3", "PS-01:4"))
    # the first hit, a lone hit, then two hits of one section (3.2): the pair passes the lone hit
    candidates = [ScoredChunk(top, 0.04), ScoredChunk(lone, 0.03), ScoredChunk(pair_a, 0.029),
                  ScoredChunk(pair_b, 0.028)]
    order = [c.payload.chunk_id for c in section_coherence_rerank(candidates)]
    assert order == ["PS-01:8", "PS-01:3", "PS-01:2", "PS-01:4"]
    duplicate = pair_a.model_copy(update={"chunk_id": "PS-01:99", "chunk_index": 99})
    collapsed = section_coherence_rerank([ScoredChunk(pair_a, 0.03), ScoredChunk(duplicate, 0.029)])
    assert [c.payload.chunk_id for c in collapsed] == ["PS-01:3"]


def test_reranker_drops_results_under_the_threshold(knowledge: KnowledgeBase) -> None:
    fused = knowledge.search("annual scheme fee per transaction", k=30, mode="fused")
    scored = apply_reranker(LexicalReranker(), "annual scheme fee per transaction", fused, threshold=0.42)
    assert scored and len(scored) < len(fused)
    assert all(s.score >= 0.42 for s in scored)
    assert scored[0].payload.chunk_id == "PS-01:8"
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)


def test_configured_reranker_runs_inside_hybrid_search(knowledge: KnowledgeBase) -> None:
    knowledge.searcher.reranker = LexicalReranker()
    hits = knowledge.search("annual scheme fee per transaction")
    assert hits[0].payload.chunk_id == "PS-01:8"
    assert len(hits) < 10  # everything the lexical judge scored under 0.42 is gone


def test_llm_reply_parsing_is_strict() -> None:
    assert parse_scores("Scores: [0.9, 0.2, 1.4]", 3) == [0.9, 0.2, 1.0]
    assert parse_scores("[0.9]", 3) == [0.0, 0.0, 0.0]  # wrong length: nothing passes
    assert parse_scores("no idea", 2) == [0.0, 0.0]


def test_a_top_ten_of_one_rulebook_gives_its_last_places_to_other_rulebooks() -> None:
    from knowledge.hybrid_search import other_documents_in_view
    from knowledge.payload import ChunkPayload

    def hit(rulebook_id: str, index: int, title: str = "") -> ScoredChunk:
        return ScoredChunk(ChunkPayload(chunk_id=f"{rulebook_id}:{index}", rulebook_id=rulebook_id,
                                        rulebook_title=title or f"Guide {rulebook_id}", page_start=1, page_end=1,
                                        chunk_index=index, text="t", content_hash=f"{rulebook_id}{index}"), 1.0)

    guide = [hit("ISO", i) for i in range(14)]
    addendum = [hit("NL-ADD", i) for i in range(3)]
    older = hit("ISO-2019", 0, title="Guide ISO")  # the same title family as ISO: not "another document"
    guide[0].payload.rulebook_title = "Guide ISO"
    candidates = guide[:12] + [older] + addendum[:1] + guide[12:] + addendum[1:] + [hit("EPC", 0)]
    top = other_documents_in_view(candidates, guide[:10], k=10)
    # the best candidate of each of two other rulebooks, in fused order, in the last two places
    assert [h.payload.chunk_id for h in top] == [*(f"ISO:{i}" for i in range(8)), "NL-ADD:0", "EPC:0"]
    mixed = guide[:9] + addendum[:1]
    assert other_documents_in_view(candidates, mixed, k=10) == mixed  # already spans two rulebooks
    assert other_documents_in_view(guide[:12], guide[:10], k=10) == guide[:10]  # no other rulebook found
    assert other_documents_in_view(candidates, guide[:3], k=3) == guide[:3]  # a short list is left alone
