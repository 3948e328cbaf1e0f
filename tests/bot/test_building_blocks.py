"""A quote listing a message's building blocks ("… is composed of 3 MessageBuildingBlocks: A. Assignment …")
shows, for a question about presence or count, the rows of that message's structure table keyed by those
blocks (bot/offline/building_blocks.py, OfflineRulebookModel._quote)."""

from __future__ import annotations

from bot.offline.building_blocks import block_rows, listed_blocks
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer
from knowledge.payload import ChunkPayload

HEADER = "Or,MessageElement/BuildingBlock<XML Tag>,Mult.,Type,Constr. No.,Page\n"
OUTLINE_TEXT = ("The RequestToModifyPaymentV07 MessageDefinition is composed of 3 MessageBuildingBlocks: A. Assignment "
                "Identifies the assignment of an investigation case. B. Case Identifies the investigation case. "
                "C. Modification Identifies the list of modifications requested.")


def _chunk(index: int, path: list[str], title: str, text: str, tables: list[str] | None = None) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"EI:{index}", rulebook_id="EI", rulebook_title="E&I guide", page_start=150 + index,
                        page_end=150 + index, section_path=path, section_key=path[-1], section_title=title,
                        parent_titles=[f"{path[0]} camt.0{path[0]}"], chunk_index=index, text=text,
                        tables_csv=tables or [], content_hash=f"h{index}")


OUTLINE = _chunk(1, ["18", "18.1"], "MessageDefinition Functionality", OUTLINE_TEXT)
STRUCTURE = _chunk(2, ["18", "18.2"], "Structure", "18.2 Structure", [
    HEADER + ",Message root <Document> <ReqToModfyPmt>,[1..1],,,\n,Assignment <Assgnmt>,[1..1],±,,162\n"
    ",Assigner <Assgnr>,[1..1],±,,162\n,Case <Case>,[0..1],±,,162\n,Modification <Mod>,[1..1],,,163\n"
    ",InstructionForNextAgent <InstrForNxtAgt>,[0..*],±,,164\n"])
# another message's chapter keys the same block names with other multiplicities
OTHER = _chunk(3, ["19", "19.2"], "Structure", "19.2 Structure", [
    HEADER + ",Assignment <Assgnmt>,[0..1],±,,170\n,Case <Case>,[1..1],±,,170\n,Modification <Mod>,[0..*],,,171\n"])
HITS = [("S1", OUTLINE), ("S2", OTHER), ("S3", STRUCTURE)]
QUESTION = "In a RequestToModifyPayment, which building block carries the changes we ask for, and is it mandatory?"


def test_the_blocks_a_sentence_lists_are_read_in_letter_order():
    assert listed_blocks(OUTLINE_TEXT) == ["Assignment", "Case", "Modification"]
    assert listed_blocks("The payment is composed of the following parts: A. Header B. Body") == []
    # a letter out of order ends the list
    assert listed_blocks("It is composed of 2 MessageBuildingBlocks: A. Header The header. C. Body The body.") \
        == ["Header"]


def test_the_blocks_rows_come_from_the_same_messages_structure_table():
    spans = SpanScorer(None, None).score(QUESTION, HITS, set())
    quote = next(s for s in spans if s.table is None and listed_blocks(s.text))
    rows = block_rows(quote, spans)
    assert [r.row[1] for r in rows if r.row] == ["Assignment <Assgnmt>", "Case <Case>", "Modification <Mod>"]
    assert {r.chunk.chunk_id for r in rows} == {STRUCTURE.chunk_id}
    # without that chapter's table shown, another chapter's rows are not taken for it
    alone = SpanScorer(None, None).score(QUESTION, [("S1", OUTLINE), ("S2", OTHER)], set())
    assert block_rows(next(s for s in alone if s.table is None and listed_blocks(s.text)), alone) == []


def test_the_answer_shows_each_blocks_multiplicity_when_the_question_asks_about_presence():
    model = OfflineRulebookModel(min_lexical=0.0)
    text = model.compose(QUESTION, "en", HITS, set())
    assert "| Modification <Mod> | [1..1] |" in text and "| Case <Case> | [0..1] |" in text, text
    # the nested rows of the table are not the blocks
    assert "Assigner <Assgnr>" not in text and "[0..*]" not in text, text
    # a question about what the blocks are for, not their presence, keeps the sentence alone
    purpose = "In a RequestToModifyPayment, which building block carries the changes we ask for?"
    assert "| Modification <Mod> |" not in model.compose(purpose, "en", HITS, set())


def test_the_best_row_of_the_structure_table_stays_beside_the_blocks_rows():
    # "What is the root element?": the root row answers; the outline's blocks add their rows, not replace it
    model = OfflineRulebookModel(min_lexical=0.0)
    text = model.compose("What is the message root element of the RequestToModifyPaymentV07 message?", "en",
                         HITS, set())
    assert "Message root <Document> <ReqToModfyPmt>" in text and "| Modification <Mod> |" in text, text
