"""What the offline model quotes around its best sentence, and how it picks rows and conditions
(no encoder: lexical scoring only; the answer/refuse bar is lowered where a test is about span
choice, not the decision)."""

from __future__ import annotations

from bot.gate.citation_pages import page_of_quote
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.quote_context import asks_yes_no
from bot.offline.span_scoring import Span, SpanScorer, asks_for_condition, asks_meaning, is_heading, keys_row
from knowledge.payload import ChunkPayload


def chunk(text: str, tables: list[str] | None = None, index: int = 0, rulebook: str = "GUIDE-1") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title="Message guide",
                        page_start=3 + index, page_end=3 + index, section_path=["2"], section_key="2",
                        section_title="Rules", chunk_index=index, text=text, tables_csv=tables or [],
                        content_hash=f"h{rulebook}{index}")


def bullets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_a_yes_no_question_gets_the_prohibition_next_to_the_best_sentence():
    hits = [("S1", chunk("The cancellation of a payment for which cover is provided by a separate instruction "
                         "always results in the cancellation of the whole transaction, including the cover.\n\n"
                         "The case assignee performing the cancellation must initiate the return of funds.\n\n"
                         "The case assigner must not request the cancellation of the cover separately.\n\n"
                         "A report is produced every night by the central system for all participants."))]
    question = "When a payment with a separate cover is cancelled, may the cover be cancelled separately?"
    assert asks_yes_no(question) and asks_yes_no("Can we put advertising on the back side?")
    assert not asks_yes_no("What happens to the cover?")
    text = OfflineRulebookModel(min_lexical=0.2).compose(question, "en", hits)
    assert "must not request the cancellation of the cover separately" in text, text
    assert "every night" not in text, text


CODES = ("CodeName,Name,Definition\n"
         "CRED,BorneByCreditor,All transaction charges are to be borne by the creditor.\n"
         "SLEV,FollowingServiceLevel,Charges are to be applied following the rules agreed in the service level.\n")


def test_a_code_in_capitals_is_defined_by_the_row_it_keys():
    record = ("ChargeBearer <ChrgBr> Presence: [0..1] Definition: Specifies which party will bear the charges "
              "of the ChargeBearerType1Code payment. Datatype: \"ChargeBearerType1Code\" on page 40")
    hits = [("S1", chunk(record, index=0)),
            ("S2", chunk("19.1.2 ChargeBearerType1Code\n\nDefinition: Specifies which party will bear the charges.\n\n"
                         + CODES, [CODES], index=1))]
    text = OfflineRulebookModel(min_lexical=0.2).compose("What is ChargeBearerType1Code SLEV?", "en", hits)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1:] == ["| SLEV | FollowingServiceLevel | Charges are to be applied following the rules agreed in "
                        "the service level. |"], text
    # a code named in a question about a rule is not asked to be defined
    assert asks_meaning("What does NAUT mean?") and asks_meaning("What is code SLEV?")
    assert not asks_meaning("Does ABN AMRO process HIGH priority payments faster?")
    # after a clause saying where, not after one setting a condition
    assert asks_meaning("In ClearingChannel2Code, what does the code MPNS stand for?")
    assert asks_meaning("Dans la liste des codes, que signifie UKNW ?")
    assert not asks_meaning("If SettlementMethod is INDA or INGA, what is not allowed?")
    text = OfflineRulebookModel(min_lexical=0.2).compose("In ChargeBearerType1Code, what does SLEV stand for?", "en", hits)
    assert "| SLEV | FollowingServiceLevel |" in text, text
    c = chunk("x")
    assert keys_row(Span("S1", c, 0, "x", table=0, row=["SLEV", "FollowingServiceLevel", "…"]), {"slev"})
    assert not keys_row(Span("S1", c, 0, "x", table=0, row=["CRED", "Borne", "not SLEV"]), {"slev"})


def test_a_question_asking_when_something_must_be_present_prefers_the_sentence_stating_the_condition():
    hits = [("S1", chunk("CancellationDetails <CxlDtls> Presence: [0..*] Definition: Specifies the details of the "
                         "underlying transactions being cancelled, present in the resolution.")),
            ("S2", chunk("If Status/Confirmation is present and equal to PECR or RJCR then CancellationDetails must "
                         "be present in the resolution.", index=1))]
    question = "When must CancellationDetails be present in the resolution?"
    assert asks_for_condition(question) and asks_for_condition("In the report, when is the reference required?")
    assert not asks_for_condition("When a payment is cancelled, may the cover be cancelled?")
    spans = SpanScorer(None, None).score(question, hits, set())
    assert spans[0].text.startswith("If Status/Confirmation"), [s.text for s in spans]


def test_a_copyright_line_is_not_quoted():
    c = chunk("x")
    assert is_heading("© Copyright 2023 SIX Interbank Clearing Ltd, all rights reserved, including the right of "
                      "reproduction.", c)
    assert not is_heading("The copyright of the scheme's logo rests with the scheme owner.", c)


def test_a_quote_is_cited_where_most_of_it_is():
    text = ("Short opening line of a rule that starts here and\n\ncontinues on the next page with most of its words "
            "and the condition that matters to the reader of it.")
    c = ChunkPayload(chunk_id="G:1", rulebook_id="G", rulebook_title="G", page_start=5, page_end=6, chunk_index=1,
                     content_hash="h", text=text, page_breaks=[text.index("continues")])
    assert page_of_quote(c, " ".join(text.split())) == 6


def test_asked_when_an_element_is_required_the_rule_outranks_the_element_record():
    hits = [("S1", chunk("10.4.2.4 OriginalActivationReference <OrgnlActvtnRef>\n\nPresence: [0..1]\n\n"
                         "Definition: Provides the reference of the original activation request in the report.",
                         index=0)),
            ("S2", chunk("When Status/Code is \"Accepted\" then OriginalActivationReference must be present.",
                         index=1))]
    spans = SpanScorer(None, None).score("In the status report, when is OriginalActivationReference required?",
                                         hits, set())
    assert spans[0].text.startswith("When Status/Code"), [s.text for s in spans]
