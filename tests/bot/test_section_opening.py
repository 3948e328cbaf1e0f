"""A question asking what a named thing is for is answered by the opening of the section its heading
names ("2 camt.026.001.08 UnableToApplyV08" > "2.1 MessageDefinition Functionality" / "The UnableToApply
message is sent by … This message is used to …"), not by a constraint that merely says "used"."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.section_opening import asks_purpose, headed_section, opening_chunks, to_read
from bot.offline.span_scoring import SpanScorer, purpose_identifiers
from knowledge.payload import ChunkPayload

MESSAGE = "2 camt.026.001.08 UnableToApplyV08"
SCOPE = ("2.1 MessageDefinition Functionality\n\nScope\n\nThe UnableToApply message is sent by a case creator "
         "or a case assigner to a case assignee.\n\nThis message is used to initiate an investigation of a "
         "payment instruction that cannot be executed or reconciled.\n\nUsage\n\nThe UnableToApply case "
         "occurs in two situations described below in this guide.")
CONSTRAINTS = ("2.3 Constraints\n\nC20 SupplementaryDataRule\n\nThis component may not be used without the "
               "explicit approval of a SEG and submission to the RA of ISO 20022 compliant structure(s) to be "
               "used in the Envelope element.")


def _chunk(index: int, path: list[str], title: str, text: str, parents: list[str] | None = None) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"ei:{index}", rulebook_id="ei", rulebook_title="Exceptions and Investigations",
                        page_start=index, page_end=index, section_path=path, section_title=title,
                        section_key=path[-1], parent_titles=parents if parents is not None else [MESSAGE][:len(path) - 1],
                        chunk_index=index, text=text, content_hash=f"h{index}")


HEADING = _chunk(14, ["2"], "camt.026.001.08 UnableToApplyV08", MESSAGE)
FUNCTIONALITY = _chunk(15, ["2", "2.1"], "MessageDefinition Functionality", SCOPE)
RULES = _chunk(18, ["2", "2.3"], "Constraints", CONSTRAINTS)


def test_questions_asking_what_a_thing_is_for():
    for question in ("What is camt.026 used for?", "What is the purpose of reda.072?",
                     "What does a RejectInvestigation message (camt.031) do?", "What is camt.032 CancelCaseAssignment for?",
                     "What does the reda.070 message request?", "Waarvoor dient camt.026?", "Qu’est-ce que camt.056 ?"):
        assert asks_purpose(question), question
    for question in ("What is the XML message root tag of UnableToApplyV08?", "What is the data type of AnyInformation?",
                     "Who sends camt.028 AdditionalPaymentInformation and to whom?",
                     "What is the maximum amount of a payment under camt.026?", "What are the fees for camt.056?"):
        assert not asks_purpose(question), question


def test_the_section_a_heading_names_by_its_identifier_or_the_identifiers_leading_parts():
    assert headed_section(RULES, {"camt.026"}) == "2"
    assert headed_section(HEADING, {"camt.026.001.08"}) == "2"
    assert headed_section(RULES, {"camt.027"}) is None
    assert headed_section(_chunk(3, ["1", "1.1"], "List", "x", parents=["1 Overview"]), {"camt.026"}) is None


def test_what_opens_a_section_the_chunk_after_a_bare_heading_or_the_first_subsections_first_chunk():
    assert opening_chunks([HEADING, FUNCTIONALITY, RULES], "ei", "2") == [FUNCTIONALITY]
    assert opening_chunks([FUNCTIONALITY, RULES], "ei", "2") == [FUNCTIONALITY]  # "2.1" under "2"
    assert opening_chunks([HEADING, RULES], "ei", "2") == []  # "2.3" opens nothing
    continued = _chunk(16, ["2", "2.1"], "MessageDefinition Functionality", "- RequestToModifyPayment message, sent on.")
    assert opening_chunks([continued], "ei", "2") == []  # the second chunk of "2.1"
    prose = _chunk(4, ["4"], "Refunds", "4 Refunds\n\nA refund claim must be made within eight weeks.", parents=[])
    assert opening_chunks([prose], "ei", "4") == [prose]  # a heading with its own prose opens its section


def test_the_section_is_read_when_its_opening_was_not_shown():
    hits = [("S1", HEADING), ("S2", RULES)]
    assert purpose_identifiers("What is camt.026 used for?", hits) == {"camt.026"}
    assert to_read({"camt.026"}, hits) == ("ei", "2")
    assert to_read({"camt.026"}, [*hits, ("S3", FUNCTIONALITY)]) is None
    assert purpose_identifiers("Which constraints apply to camt.026?", hits) == set()
    # a code named with its type asks about the code (its row), not the type's section
    assert purpose_identifiers("What is the InvestigationRejection1Code NAUT?", hits) == set()


def test_the_opening_defines_what_the_question_names_over_a_constraint_that_says_used():
    question = "What is camt.026 used for?"
    spans = SpanScorer(None, None).score(question, [("S1", RULES), ("S2", FUNCTIONALITY)], set(), language="en")
    assert spans[0].chunk is FUNCTIONALITY and spans[0].defining, [(s.text, s.score) for s in spans[:3]]
    assert {s.position for s in spans if s.defining} == {0, 1}  # the opening's two sentences, not "Usage"
    other = SpanScorer(None, None).score("Which constraints apply to camt.026?", [("S1", RULES), ("S2", FUNCTIONALITY)],
                                         set(), language="en")
    assert not any(s.defining for s in other)


def test_the_answer_is_the_definition_under_the_heading_that_names_it():
    hits = [("S1", HEADING), ("S2", RULES), ("S3", FUNCTIONALITY)]
    text = OfflineRulebookModel(min_lexical=0.25).compose("What is camt.026 used for?", "en", hits)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == ["- 2 camt.026.001.08 UnableToApplyV08 [S1]",
                     "- The UnableToApply message is sent by a case creator or a case assigner to a case assignee [S3].",
                     "- This message is used to initiate an investigation of a payment instruction that cannot be "
                     "executed or reconciled [S3]."], text


def test_the_model_reads_the_section_a_bare_heading_names_before_answering():
    from bot.offline.offline_model import Reading

    model = OfflineRulebookModel()
    hits = [("S1", HEADING), ("S2", RULES)]
    unread = Reading(hits=hits, search_hits=hits, section_ids=set(), read=[])
    assert model._section_to_read("What is camt.026 used for?", "What is camt.026 used for?", unread) == ("ei", "2")
    # once read (its opening among the chunks shown), no more
    read = Reading(hits=[*hits, ("S3", FUNCTIONALITY)], search_hits=hits, section_ids={FUNCTIONALITY.chunk_id},
                   read=[("ei", "2")])
    assert model._section_to_read("What is camt.026 used for?", "What is camt.026 used for?", read) is None
    assert model._section_to_read("Which constraints apply to camt.026?", "Which constraints apply to camt.026?",
                                  unread) is None
