"""A table laid out without rules, which the extractor read as lines of text: each numbered line is a
row the answer can quote, not a heading to drop."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import chunk_spans
from knowledge.payload import ChunkPayload

POSTING = ("3.4 Posting of an incoming Sepa Credit Transfer (Credit)\n\n"
           "Field Nr Swift code word Reference to the message Specific Values\n\n"
           "1 /TRTP/ The transaction type See 3.5 Overview\n\ntransaction types\n\n"
           "2 /IBAN/ 2.20 Debtor Account\n\n3 /BIC/ 2.21 Debtor Agent\n\n4 /NAME/ 2.19 Debtor - Name\n\n"
           "5 /RTRN/ The reason code for non-acceptance of the credit transfer 6 /REMI/ 2.98 Remittance Information\n\n"
           "7 /EREF/ 2.30 End To End Identification")
CONTENTS = "1 Introduction 4\n\n2 Scope of the addendum 5\n\n3 Posting of transactions 6\n\n4 Contact details 9"


def chunk(text: str, title: str = "Posting of an incoming Sepa Credit Transfer (Credit)") -> ChunkPayload:
    return ChunkPayload(chunk_id="ADD-1:0", rulebook_id="ADD-1", rulebook_title="Bank addendum", page_start=20,
                        page_end=20, section_path=["3", "3.4"], section_key="3.4", section_title=title,
                        chunk_index=0, text=text, content_hash="h0")


def test_each_numbered_line_is_a_row_with_its_wrapped_end():
    texts = [s.text for s in chunk_spans("S1", chunk(POSTING), 0)]
    assert "2 /IBAN/ 2.20 Debtor Account" in texts
    assert "1 /TRTP/ The transaction type See 3.5 Overview transaction types" in texts
    # two rows the text ran into one line stay one row; the numbering goes on after them
    assert any(t.startswith("5 /RTRN/ The reason code") for t in texts)
    assert "7 /EREF/ 2.30 End To End Identification" in texts


def test_a_contents_list_is_not_read_as_rows():
    texts = [s.text for s in chunk_spans("S1", chunk(CONTENTS, "Contents"), 0)]
    assert not any(t.startswith(("1 Introduction", "2 Scope")) for t in texts), texts


def test_the_row_keyed_by_the_code_asked_is_quoted():
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What is reported for an incoming SEPA credit transfer under /IBAN/?", "en", [("S1", chunk(POSTING))])
    assert "2 /IBAN/ 2.20 Debtor Account" in text, text
