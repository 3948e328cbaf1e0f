"""Which span the offline model quotes, by question type (no encoder: lexical scoring only)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import Span, asks_for_list, defines, depends_on_previous, is_condition
from knowledge.payload import ChunkPayload


def chunk(text: str, tables: list[str] | None = None, index: int = 0) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"GUIDE-1:{index}", rulebook_id="GUIDE-1", rulebook_title="Message guide",
                        page_start=3, page_end=3, section_path=["2"], section_key="2", section_title="Codes",
                        chunk_index=index, text=text, tables_csv=tables or [], content_hash=f"h{index}")


def test_the_row_whose_key_cell_is_the_identifier_defines_it():
    c = chunk("x")
    assert defines(Span("S1", c, 0, "x", table=0, row=["AC01", "IncorrectAccountNumber", "Wrong format"]), {"ac01"})
    assert not defines(Span("S1", c, 0, "x", table=0, row=["AM05", "Duplicate", "Not AC01"]), {"ac01"})
    assert defines(Span("S1", c, 0, "AC01 means that the account number is invalid."), {"ac01"})
    assert not defines(Span("S1", c, 0, "Use the code AC01 only when the account is invalid."), {"ac01"})


def test_a_question_about_a_code_quotes_the_row_that_defines_it_not_one_that_mentions_it():
    table = ("Code,Name,Definition\n"
             "AM05,Duplication,Payment is a duplicate of another payment (not to be confused with AC01 code)\n"
             "AC01,IncorrectAccountNumber,Account number is invalid or missing\n"
             "AC04,ClosedAccountNumber,Account number specified has been closed\n")
    hits = [("S1", chunk("Reason codes for a return.\n\n" + table, [table]))]
    # span choice, not the answer/refuse bar: without an encoder only word overlap counts
    text = OfflineRulebookModel(min_lexical=0.25).compose("What does reason code AC01 mean?", "en", hits)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1].startswith("| AC01 | IncorrectAccountNumber"), text


def test_a_number_is_quoted_with_the_condition_that_follows_it():
    hits = [("S1", chunk("A refund claim must be submitted within eight weeks of the debit date.\n\n"
                         "If the debit was not authorised, the claim period is thirteen months instead.\n\n"
                         "Claims are handled by the payer's bank in every case that is described here."))]
    text = OfflineRulebookModel().compose("Within how many weeks must a refund claim be submitted?", "en", hits)
    assert "eight weeks" in text and "thirteen months" in text, text


def test_a_sentence_that_leans_on_the_one_before_is_quoted_with_it():
    hits = [("S1", chunk("The participant must keep a record of every rejected payment message.\n\n"
                         "This record must be kept for a retention period of five years at the least."))]
    text = OfflineRulebookModel().compose("How long is the retention period of the record?", "en", hits)
    assert "keep a record of every rejected" in text and "five years" in text, text


def test_a_list_question_gets_the_whole_list():
    items = [f"({letter}) the participant shall provide the {what} to the operator of the scheme without delay;"
             for letter, what in zip("abcde", ["name", "address", "licence", "auditor", "contact"], strict=True)]
    hits = [("S1", chunk("A new participant must meet the following requirements:\n\n" + "\n\n".join(items)))]
    text = OfflineRulebookModel().compose("List all the requirements a new participant must meet.", "en", hits)
    for what in ("name", "address", "licence", "auditor", "contact"):
        assert f"the {what} to the operator" in text, text


def test_question_types():
    assert asks_for_list("What are the conditions for a refund?")
    assert asks_for_list("Quelles sont les exigences ?")
    assert not asks_for_list("What is the maximum amount?")
    assert depends_on_previous("This period starts on the debit date.")
    assert not depends_on_previous("The period starts on the debit date.")
    assert is_condition("If the payer objects, the claim is void.") and not is_condition("The payer objects.")
