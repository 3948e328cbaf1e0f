"""A message definition report's own structure answers questions about a message as a whole: its root
tag is the row that opens the structure table, its building blocks are listed under the sentence that
counts them, whose short items ("B. Case") are list items, not headings (no encoder: lexical scoring
only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer, chunk_spans
from knowledge.payload import ChunkPayload

STRUCTURE = ("Or,MessageElement/BuildingBlock<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",Message root <Document> <ReqToPayDbtrActvtnAmdmntReq>,[1..1],,C3,\n"
             ",Header <Hdr>,[1..1],±,,31\n"
             ",AmendmentData <AmdmntData>,[1..*],,,31\n")
OUTLINE = ("The RequestToPayDebtorActivationAmendmentRequest message is sent by the debtor RTP provider to the "
           "creditor RTP provider to request the amendment of a debtor activation.\n\n"
           "The NotificationOfCaseAssignmentV05 MessageDefinition is composed of 3 MessageBuildingBlocks:\n\n"
           "A. Header\n\nSpecifies generic information about the notification.\n\n"
           "The receiver of a notification must be the party which assigned the case to the sender.\n\n"
           "B. Case\n\nIdentifies the investigation case.\n\n"
           "C. Assignment\n\nIdentifies the assignment of an investigation case from an assigner to an assignee.")


def _chunk(text: str, tables: list[str], title: str, index: int) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"RTP:{index}", rulebook_id="RTP", rulebook_title="Request To Pay message guide",
                        page_start=30, page_end=30, section_path=["7", f"7.{index}"], section_key=f"7.{index}",
                        section_title=title, chunk_index=index, text=text, tables_csv=tables, content_hash=f"h{index}",
                        parent_titles=["7 reda.071.001.01 RequestToPayDebtorActivationAmendmentRequestV01"])


HITS = [("S1", _chunk(OUTLINE, [], "MessageDefinition Functionality", 1)),
        ("S2", _chunk(STRUCTURE, [STRUCTURE], "Structure", 2))]


def test_the_row_opening_the_structure_table_defines_the_messages_root():
    spans = SpanScorer(None, None).score("What is the XML root tag of reda.071?", HITS, set())
    defining = [s.row[1] for s in spans if s.row is not None and s.signals.get("element_defines")]
    assert defining == ["Message root <Document> <ReqToPayDbtrActvtnAmdmntReq>"]
    other = SpanScorer(None, None).score("Who sends reda.071?", HITS, set())
    assert not [s for s in other if s.signals.get("element_defines")]


def test_the_sentence_counting_the_building_blocks_defines_them_and_brings_its_items():
    spans = SpanScorer(None, None).score("What are the building blocks of a NotificationOfCaseAssignment message?",
                                         HITS, set())
    assert [s.text for s in spans if s.signals.get("defines")] == [
        "The NotificationOfCaseAssignmentV05 MessageDefinition is composed of 3 MessageBuildingBlocks:"]
    answer = OfflineRulebookModel(min_lexical=0.0).compose(
        "What are the building blocks of a NotificationOfCaseAssignment message?", "en", HITS)
    for item in ("A. Header", "B. Case", "C. Assignment"):
        assert item in answer, answer


def test_a_lists_short_items_are_quotable_while_the_same_short_line_elsewhere_is_a_heading():
    texts = [s.text for s in chunk_spans("S1", HITS[0][1], 0)]
    assert "B. Case" in texts and "C. Assignment" in texts
    heading = _chunk("B. Case\n\nIdentifies the investigation case in the message.", [], "Case", 3)
    assert "B. Case" not in [s.text for s in chunk_spans("S3", heading, 0)]
