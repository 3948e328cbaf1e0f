"""Questions that ask for a list, however they are phrased, and lists the answer quotes whole: items
marked with a minus sign, numbered items without a full stop, and an item's second sentence that does
not count as an item (no encoder: lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

import pytest

from bot.offline.offline_model import QUOTE_MARGIN, OfflineRulebookModel, _named_element_list
from bot.offline.span_scoring import asks_for_list, chunk_spans
from knowledge.payload import ChunkPayload


@pytest.mark.parametrize("question", [
    "Which layout rules apply to the payment part?",
    "What message building blocks make up the enrolment request?",
    "In which situations is a case assignment rejected?",
    "Which contact details can be given for a party?",
    "What are the building blocks of a NotificationOfCaseAssignment message?",
    "Welche Zeichen sind im Swiss QR Code zusätzlich erlaubt?",
    "Welke velden zijn verplicht in een batch?",
])
def test_a_plural_asks_for_the_whole_list(question):
    assert asks_for_list(question)


@pytest.mark.parametrize("question", [
    "Which status does the case have after the assignment?",
    "What loyalty bonus does the savings account pay?",
    "Which address must be given for the creditor?",
    "What is the maximum length of the reference?",
])
def test_a_singular_does_not(question):
    assert not asks_for_list(question)


RULES = ("For the payment part with a receipt, the following layout rules apply to all three appearances:\n\n"
         "− The payment part must be positioned on the lower edge of the bill.\n\n"
         "− The payment part must be positioned to the right of the receipt. Both come to the length of an A4 side.\n\n"
         "− Only the defined headings may be imprinted.\n\n"
         "− Advertising is not permitted. The reverse side must not be imprinted.\n\n"
         "− Fields are to be provided for entry by hand.\n\n"
         "If the payment part is integrated into a paper bill, the following requirements apply in addition:\n\n"
         "− A perforation is mandatory.")
APPEARANCES = ("The payment part can have the following appearances:\n\n1. integrated part of a paper bill\n\n"
               "2. an enclosure to a paper bill\n\n"
               "3. integrated part of an electronic bill or enclosure to a bill as a PDF file (see chapter 3.7 "
               "on the notes about the bill in PDF format, which apply to every such file).")


def chunk(text: str) -> ChunkPayload:
    return ChunkPayload(chunk_id="QR-1:0", rulebook_id="QR-1", rulebook_title="QR-bill guide", page_start=6,
                        page_end=6, section_path=["3"], section_key="3", section_title="Layout rules",
                        chunk_index=0, text=text, content_hash="h0")


def test_numbered_items_without_a_full_stop_are_quotable():
    texts = [s.text for s in chunk_spans("S1", chunk(APPEARANCES), 0)]
    assert "1. integrated part of a paper bill" in texts and "2. an enclosure to a paper bill" in texts


def test_a_lettered_contents_line_is_no_list_item():
    """The chipTAN specification's contents ("A. Einleitung ........ 6", "B. Generelle Festlegungen …")
    are lettered like a list's items, but a contents line is never quoted."""
    contents = ("A. Einleitung ................................................................ 6\n\n"
                "B. Generelle Festlegungen zu HHDUC ........................................ 6\n\n"
                "C. Spezielle Festlegungen zur optischen HHDUC-Kopplung ..................... 19")
    items = "A. the payment part is printed on perforated paper\n\nB. the receipt is on its left"
    assert [s.text for s in chunk_spans("S1", chunk(contents), 0)] == []
    assert len(chunk_spans("S1", chunk(items), 0)) == 2


def test_every_item_after_the_lead_in_is_quoted_and_the_next_lead_in_ends_the_list():
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What layout rules apply to the payment part with a receipt in all three appearances?", "en",
        [("S1", chunk(RULES))])
    for item in ("lower edge", "right of the receipt", "defined headings", "Advertising is not", "entry by hand"):
        assert item in text, (item, text)
    assert "perforation" not in text, text  # the items of the next lead-in's list


OUTLINE = ("The CaseNotice message is one of the building blocks of case management, sent by a case assignee.\n\n"
           "The CaseNotice message covers one case at a time.\n\n"
           "If the assignee must notify about several cases, then several CaseNotice messages must be sent.\n\n"
           "The CaseNotice message must be forwarded by every agent in the chain.\n\n"
           "The CaseNotice message definition is composed of 3 message building blocks:\n\n"
           "A. Header\n\nSpecifies generic information about the notice.\n\n"
           "B. Case\n\nIdentifies the investigation case.\n\n"
           "C. Justification\n\nGives the reason for the notice.")


def test_a_list_question_is_answered_from_the_sentence_that_opens_the_list():
    """The section's opening sentence shares as many of the question's words as the lead-in further
    down; the lead-in, with the items after it, is what a "list all" question asks for."""
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What are the building blocks of a CaseNotice message?", "en", [("S1", chunk(OUTLINE))])
    quotes = [line for line in text.splitlines() if line.startswith("- ")]
    assert quotes[0].startswith("- The CaseNotice message definition is composed of 3"), text
    for item in ("A. Header", "B. Case", "C. Justification"):
        assert item in text, (item, text)


def _record(index: int, name: str, tag: str, definition: str, component: str, rows: list[str]) -> ChunkPayload:
    table = "Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n" + "".join(f",{row},[0..1],Text,,3{index}\n"
                                                                               for row in rows)
    text = (f"19.1.20.1.{index} {name} <{tag}>\n\nPresence: [0..1]\n\nDefinition: {definition} {name} <{tag}> "
            f"contains the following elements (see \"{component}\" on page 33{index} for details)\n\n{table}")
    return ChunkPayload(chunk_id=f"EI:{index}", rulebook_id="EI", rulebook_title="E&I guide", page_start=330 + index,
                        page_end=330 + index, section_path=["19", "19.1.20.1", f"19.1.20.1.{index}"],
                        section_key=f"19.1.20.1.{index}", section_title=f"{name} <{tag}>", chunk_index=index,
                        text=text, tables_csv=[table], content_hash=f"h{index}")


def test_a_list_of_a_named_elements_parts_is_the_table_after_that_elements_record():
    """"List all the elements of the GarnishmentRemittance block in structured remittance information": the
    record of the enclosing RemittanceInformation shares more of the question's words, but its table lists
    its own elements; the named element's record, close enough, brings its table."""
    outer = _record(1, "RemittanceInformation", "RmtInf", "Structured remittance information that enables the "
                    "matching of a payment with the items it settles, structured remittance information.",
                    "RemittanceInformation16", ["Unstructured <Ustrd>", "Structured <Strd>"])
    inner = _record(2, "GarnishmentRemittance", "GrnshmtRmt", "Provides remittance information about a payment for "
                    "garnishment-related purposes.", "Garnishment3",
                    ["Type <Tp>", "Garnishee <Grnshee>", "FamilyMedicalInsuranceIndicator <FmlyMdclInsrncInd>"])
    question = "List all the elements of the GarnishmentRemittance block in structured remittance information."
    text = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", [("S1", outer), ("S2", inner)])
    assert "Garnishee <Grnshee>" in text and "FamilyMedicalInsuranceIndicator" in text, text
    assert "Unstructured <Ustrd>" not in text, text
    # the encoder may well put the enclosing record first: the named one, close enough, still leads
    spans = [*chunk_spans("S1", outer, 0), *chunk_spans("S2", inner, 1)]
    def scored(inner_below: float) -> None:
        for span in spans:
            span.dense, span.lexical, span.signals = 1.0 - (span.chunk is inner) * inner_below, 0.0, {}

    scored(QUOTE_MARGIN / 2)
    own = _named_element_list(spans, spans[0], question)
    assert own is not None and own.text.startswith("GarnishmentRemittance <GrnshmtRmt>")
    # ... named in words as a user writes it
    spelled = _named_element_list(spans, spans[0], "List every element of the garnishment remittance block.")
    assert spelled is not None and spelled.text.startswith("GarnishmentRemittance <GrnshmtRmt>")
    assert _named_element_list(spans, spans[0], "List all the elements of the remittance block.") is None
    # words spelling the enclosing element name it: its own record is the list
    outer_named = _named_element_list(spans, spans[0], "List all the elements of structured remittance information.")
    assert outer_named is not None and outer_named.text.startswith("RemittanceInformation <RmtInf>")
    scored(2 * QUOTE_MARGIN)
    assert _named_element_list(spans, spans[0], question) is None  # not close enough
    # a list question naming no element keeps the best record's table
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "List all the elements of structured remittance information.", "en", [("S1", outer), ("S2", inner)])
    assert "Unstructured <Ustrd>" in text, text


def test_a_records_table_is_found_when_the_records_last_words_stand_after_the_table():
    """Without its table the text runs "… contains the following ActivationStatus2 elements Constraints": the
    word after the table joins the record, so the table starts inside the record's text, not after it."""
    from bot.offline.offline_model import _table_after

    table = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,OriginalBusinessInstruction <OrgnlBizInstr>,"
             "[0..1],±,,41\n,Status <Sts>,[1..1],±,,41\n,StatusReason <StsRsn>,[0..1],±,,42\n")
    text = ("9.4.2 OriginalActivationAndStatus <OrgnlActvtnAndSts>\n\nPresence: [1..*]\n\nDefinition: Status of the "
            "debtor activation instruction.\n\nImpacted by: C3 \"OriginalActivationPresenceRule\"\n\nOriginalActivationAndStatus <OrgnlActvtnAndSts> contains the following "
            f"ActivationStatus2 elements\n\n{table}\nConstraints\n\n9.4.3 SupplementaryData <SplmtryData>\n\n"
            "Presence: [0..*]\n\nDefinition: Additional information that cannot be captured elsewhere.")
    chunk = ChunkPayload(chunk_id="RTP:103", rulebook_id="RTP", rulebook_title="RTP guide", page_start=40,
                         page_end=40, section_path=["9", "9.4", "9.4.2"], section_key="9.4.2",
                         section_title="OriginalActivationAndStatus <OrgnlActvtnAndSts>", chunk_index=103, text=text,
                         tables_csv=[table], content_hash="h103")
    spans = chunk_spans("S1", chunk, 0)
    record = next(s for s in spans if s.table is None and s.text.startswith("OriginalActivationAndStatus"))
    assert record.text.endswith("elements Constraints"), record.text  # how prose joins it (the case this guards)
    after = _table_after(record, spans)
    assert after is not None and after.table == 0
    later = next(s for s in spans if s.table is None and s.text.startswith("SupplementaryData"))
    assert _table_after(later, spans) is None  # a table before a record is not after it
    question = "What can a debtor activation status report tell about each original activation? List all its elements."
    answer = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", [("S1", chunk)])
    assert "| Status <Sts> | [1..1] |" in answer and "StatusReason <StsRsn>" in answer, answer
