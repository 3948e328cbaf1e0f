"""A passage is about what the headings above it name: a message guide names the message only in
the top heading ("2 camt.026.001.08 UnableToApplyV08"), its sentences say "the UnableToApply message"."""

from __future__ import annotations

from bot.offline.offline_model import _name_coverage
from bot.offline.span_scoring import SpanScorer, heading_identifiers
from bot.offline.subject_terms import heading_text
from knowledge.payload import ChunkPayload

PURPOSE = ("Scope The UnableToApply message is sent by a case creator or a case assigner to a case "
           "assignee. This message is used to initiate an investigation of a payment instruction that "
           "cannot be executed or reconciled.")


def _chunk(parents: list[str], text: str = PURPOSE, title: str = "MessageDefinition Functionality") -> ChunkPayload:
    return ChunkPayload(chunk_id="ei:9", rulebook_id="ei", rulebook_title="Exceptions and Investigations",
                        page_start=9, page_end=9, section_path=["2", "2.1"], section_title=title,
                        section_key="2.1", parent_titles=parents, chunk_index=9, text=text, content_hash="")


def test_the_identifier_of_an_enclosing_heading_is_held_by_the_passages_under_it():
    under = _chunk(["2 camt.026.001.08 UnableToApplyV08"])
    assert {"camt.026", "camt.026.001.08"} <= heading_identifiers(under)
    assert "2" not in heading_identifiers(under)  # a section number is no subject
    assert heading_identifiers(_chunk([])) == frozenset()
    assert "camt.026.001.08" in heading_text(under)


def test_a_question_naming_the_message_finds_it_named_above_the_passage():
    question = "What is camt.026 used for?"
    absent, _, _ = _name_coverage(question, "en", [("h1", _chunk(["2 camt.026.001.08 UnableToApplyV08"]))])
    assert absent == []
    absent, _, _ = _name_coverage(question, "en", [("h1", _chunk([]))])
    assert absent == ["camt.026"]


def test_spans_under_the_named_message_share_the_questions_identifier():
    question = "What is camt.026 used for?"
    scorer = SpanScorer(None, None)
    under = scorer.score(question, [("h1", _chunk(["2 camt.026.001.08 UnableToApplyV08"]))], set(), language="en")
    bare = scorer.score(question, [("h1", _chunk([]))], set(), language="en")
    assert max(s.lexical for s in under) > max(s.lexical for s in bare)
