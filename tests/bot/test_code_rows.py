"""A code made of several codes ("SCTI SAL") is defined by the row keyed by all of them, not by the row
keyed by its first part (no encoder: lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer
from knowledge.payload import ChunkPayload

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
