"""The ObliQA ablations: a passage is given the enclosing passages that read as headings,
as our PDF indexer gives a chunk its `parent_titles`, and nothing from another document; and the
dense query without the request wrapped around a question."""

from __future__ import annotations

from evals.obliqa import passage_path
from evals.obliqa_sweep import MAX_HEADING_CHARS, passage_headings
from knowledge.payload import ChunkPayload


def passage(rulebook_id: str, passage_id: str, text: str, index: int) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook_id}:{index}", rulebook_id=rulebook_id, rulebook_title=rulebook_id,
                        page_start=1, page_end=1, section_path=passage_path(passage_id), section_key=passage_id,
                        chunk_index=index, text=text, content_hash=str(index))


LEAD_IN = "A Professional Client has the right to elect to be classified as a Retail Client, and " * 3


def test_a_passage_is_given_its_enclosing_headings_outermost_first() -> None:
    chunks = [
        passage("adgm-3", "2.", "CLIENT CLASSIFICATION ", 0),
        passage("adgm-3", "2.6", "Client Classification Procedures ", 1),
        passage("adgm-3", "2.6.1", LEAD_IN, 2),
        passage("adgm-3", "2.6.1.(a)", "An Authorised Person must, when first establishing a relationship …", 3),
        passage("adgm-3", "2.6.1.Guidance.1.", "The obligation in Rule 2.6.1(a) applies …", 4),
        passage("adgm-7", "2.6", "Another rulebook's heading", 0),
    ]
    headings = passage_headings(chunks)
    assert len(LEAD_IN.strip()) > MAX_HEADING_CHARS  # a rule's lead-in is not a heading
    assert headings[3] == ["CLIENT CLASSIFICATION", "Client Classification Procedures"]
    assert headings[4] == ["CLIENT CLASSIFICATION", "Client Classification Procedures"]
    assert headings[1] == ["CLIENT CLASSIFICATION"]
    assert headings[0] == []
    assert headings[5] == []  # "2" of adgm-7 does not exist: adgm-3's chapter title is not borrowed


def test_the_query_frame_ablation_strips_a_request_wrapped_around_a_question() -> None:
    from evals.obliqa_sweep import without_request_frame

    assert without_request_frame("Could the FSRA clarify the thresholds or criteria that trigger the reporting "
                                 "obligation?") == "Thresholds or criteria that trigger the reporting obligation?"
    assert without_request_frame("Can you provide specific guidance on the process for reconciling client "
                                 "balances?") == "The process for reconciling client balances?"
    assert without_request_frame("What are the  conditions for a waiver?") == "What are the conditions for a waiver?"
    assert without_request_frame("Can you provide examples?") == "Can you provide examples?"  # nothing would be left
