"""A code made of several codes ("SCTI SAL") is defined by the row keyed by all of them, not by the row
keyed by its first part (no encoder: lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer
from knowledge.payload import ChunkPayload
from tests.bot.conftest import recording_scorer

TYPES = ("Transaction Type,SWIFT CODE,Label on paper statement\n"
         "TRTP,SCT,SEPA Overboeking\n"
         "TRTP,SCTI,SEPA Overboeking Individueel\n"
         "TRTP,SCTI SAL,SEPA Overboeking Salaris\n")


def chunk() -> ChunkPayload:
    return ChunkPayload(chunk_id="ADD-1:0", rulebook_id="ADD-1", rulebook_title="Bank addendum", page_start=21,
                        page_end=21, section_path=["3", "3.5"], section_key="3.5",
                        section_title="Overview transaction types", chunk_index=0, text=TYPES, tables_csv=[TYPES],
                        content_hash="h0")


def test_the_row_keyed_by_every_code_asked_defines_it():
    spans = SpanScorer(None, None).score("What is the label of transaction type SCTI SAL?", [("S1", chunk())], set())
    keyed = [s.row[1] for s in spans if s.signals.get("code_row")]
    assert keyed == ["SCTI SAL"]
    single = SpanScorer(None, None).score("What is the label of transaction type SCTI?", [("S1", chunk())], set())
    assert [s.row[1] for s in single if s.signals.get("code_row")] == ["SCTI"]


def test_the_answer_quotes_that_row_first():
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "Welk label staat op het rekeningafschrift bij transactietype SCTI SAL?", "nl", [("S1", chunk())])
    rows = [line for line in text.splitlines() if line.startswith("| TRTP")]
    assert rows and rows[0].startswith("| TRTP | SCTI SAL | SEPA Overboeking Salaris"), text


def test_a_row_defining_the_code_asked_is_measured_however_far_down_its_chunk_was_shown():
    """The row keyed by the code asked, in the last of many chunks shown and sharing fewer of the
    question's words than the rows above it, is measured by the encoder like the top chunks' spans:
    unmeasured, it scored on the lexical scale and lost to every measured span, and the decision's
    bar for a defining span (MIN_DENSE_DEFINING) never saw it."""
    from bot.offline.span_scoring import DENSE_CHUNKS, LEXICAL_PICKS

    def listing(i: int, rows: str) -> ChunkPayload:
        table = "CodeName,Name,Definition\n" + rows
        return ChunkPayload(chunk_id=f"G:{i}", rulebook_id="G", rulebook_title="Message guide", page_start=300 + i,
                            page_end=300 + i, section_path=["19", f"19.{i}"], section_title=f"DocumentType{i}Code",
                            chunk_index=i, text=table, tables_csv=[table], content_hash=f"h{i}")

    # more rows sharing the question's words ("document type code") below the top chunks than the lexical picks take
    shown = [listing(i, "".join(f"D{i}{j:02d},Invoice,Document type code {j} of the document type list for an invoice.\n"
                                for j in range(4))) for i in range(LEXICAL_PICKS)]
    shown.append(listing(LEXICAL_PICKS, "BOLD,BillOfLading,Document is a shipping notice.\n"))
    scorer, measured = recording_scorer()
    spans = scorer.score(
        "Which document type code is used for a bill of lading?", [(f"S{i}", c) for i, c in enumerate(shown)], set())
    bold = next(s for s in spans if s.row and s.row[0] == "BOLD")
    assert bold.rank >= DENSE_CHUNKS and bold.defining
    assert bold.dense is not None and bold.text in measured
    assert spans[0] is bold


def test_a_code_list_row_holds_the_code_a_question_asks_for_whether_or_not_the_code_has_a_digit():
    """"Which … code says …?" asks for a code: a code list row keyed by one holds the fact asked (the
    clue an identifier with a digit, MS13, always gave) also when the code is all letters (FIXE), as the
    element record pointing to the list does by its type's name; a row keyed by the code the question
    names is no new fact."""
    from bot.offline.span_scoring import listed_code

    codes = "CodeName,Name,Definition\nFIXE,Fixed,Direct debit amount is fixed.\nVARI,Variable,Direct debit amount is variable.\n"
    record = ("19.1.12.1.1 Classification <Clssfctn>\n\nPresence: [0..1]\n\nDefinition: Type of direct debit "
              "instruction.\n\nDatatype: \"MandateClassification1Code\" on page 375")
    listing = ChunkPayload(chunk_id="EI:375", rulebook_id="EI", rulebook_title="Message guide", page_start=375,
                           page_end=375, section_path=["19", "19.2"], section_key="19.2",
                           section_title="MandateClassification1Code", chunk_index=375, text=f"{record}\n\n{codes}",
                           tables_csv=[codes], content_hash="h375")
    spans = SpanScorer(None, None).score(
        "Which mandate classification code says that the direct debit amount is fixed?", [("S1", listing)], set())
    rows = {listed_code(s): s for s in spans if s.row is not None}
    assert set(rows) == {"fixe", "vari"}
    assert all(s.signals.get("asked_identifier") == 1.0 and s.holds_asked_fact for s in rows.values())
    assert next(s for s in spans if s.text.startswith("Classification <Clssfctn>")).signals.get("asked_identifier")
    named = SpanScorer(None, None).score("Which code list holds the code FIXE?", [("S1", listing)], set())
    assert not next(s for s in named if s.row is not None and listed_code(s) == "fixe").signals.get("asked_identifier")
