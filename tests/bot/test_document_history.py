"""A document's change history answers questions about its versions, not about its content: its rows
name the topics each revision touched, so they share words with many questions (no encoder here:
lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer, asks_about_history, is_document_history
from knowledge.payload import ChunkPayload

HISTORY = ("Version number,Dated,Reason for revision\n"
           "1.0,November 2010,New version based on the guideline\n"
           "1.1,May 2011,Added clarification on the usage of the Category Purpose and Purpose Code fields\n")
RESULTS = ("Fiscal year,Revenue,Change\n"
           "2023,120,+4%\n")


def chunk(text: str, tables: list[str], index: int, title: str) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"ADD-1:{index}", rulebook_id="ADD-1", rulebook_title="Bank addendum",
                        page_start=index + 2, page_end=index + 2, section_path=[str(index + 1)],
                        section_key=str(index + 1), section_title=title, chunk_index=index, text=text,
                        tables_csv=tables, content_hash=f"h{index}")


HITS = [("S1", chunk(HISTORY, [HISTORY], 0, "Document information")),
        ("S2", chunk("Only the value SALA is supported, for salary payments.", [], 1,
                     "Category Purpose"))]


def test_history_rows_and_sections_are_recognised_and_other_tables_are_not():
    spans = SpanScorer(None, None).score("Which Category Purpose does the bank support?", HITS, set())
    rows = [s for s in spans if s.table is not None]
    assert rows and all(is_document_history(s) for s in rows)
    assert not any(is_document_history(s) for s in spans if s.table is None)
    results = SpanScorer(None, None).score("What was the revenue?", [("S3", chunk(RESULTS, [RESULTS], 2, "Results"))],
                                           set())
    assert not any(is_document_history(s) for s in results)  # a "Change" column alone is no history
    titled = SpanScorer(None, None).score(
        "What changed?", [("S4", chunk("Chapter 3 was rewritten.", [], 3, "Change history"))], set())
    assert all(is_document_history(s) for s in titled)


def test_a_question_about_content_quotes_the_section_not_the_history_row():
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "Which Category Purpose code value does the bank support?", "en", HITS)
    body = text.split("\n\n", 1)[1]
    # the history row shares more of the question's words than the answer does
    assert body.lstrip("- ").startswith("Only the value SALA is supported"), text


def test_a_question_about_versions_still_reads_the_history():
    assert asks_about_history("What changed in version 1.1 of the addendum?")
    assert not asks_about_history("Which Category Purpose value does the bank support?")
    spans = SpanScorer(None, None).score("What changed in version 1.1 about the Category Purpose fields?", HITS,
                                         set())
    assert spans[0].table is not None and "1.1" in spans[0].text and "about_document" not in spans[0].signals
