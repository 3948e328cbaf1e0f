"""A message definition report's own structure answers questions about a message as a whole: its root
tag is the row that opens the structure table, its building blocks are listed under the sentence that
counts them, whose short items ("B. Case") are list items, not headings (no encoder: lexical scoring
only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel, _items_after
from bot.offline.span_scoring import SpanScorer, chunk_spans
from knowledge.payload import ChunkPayload

STRUCTURE = ("Or,MessageElement/BuildingBlock<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",Message root <Document> <ReqToPayDbtrActvtnAmdmntReq>,[1..1],,C3,\n"
             ",Header <Hdr>,[1..1],±,,31\n"
             ",AmendmentData <AmdmntData>,[1..*],,,31\n")
OUTLINE = ("The RequestToPayDebtorActivationAmendmentRequest message is sent by the debtor RTP provider to the "
           "creditor RTP provider to request the amendment of a debtor activation.\n\n"
           "The NotificationOfCaseAssignmentV05 MessageDefinition is composed of 3 MessageBuildingBlocks:\n\n"
           "A. Header\n\nSpecifies generic information about the notification.\n\n"
           "The receiver of a notification must be the party which assigned the case to the sender.\n\n"
           "B. Case\n\nIdentifies the investigation case.\n\n"
           "C. Assignment\n\nIdentifies the assignment of an investigation case from an assigner to an assignee.")


def _chunk(text: str, tables: list[str], title: str, index: int) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"RTP:{index}", rulebook_id="RTP", rulebook_title="Request To Pay message guide",
                        page_start=30, page_end=30, section_path=["7", f"7.{index}"], section_key=f"7.{index}",
                        section_title=title, chunk_index=index, text=text, tables_csv=tables, content_hash=f"h{index}",
                        parent_titles=["7 reda.071.001.01 RequestToPayDebtorActivationAmendmentRequestV01"])


HITS = [("S1", _chunk(OUTLINE, [], "MessageDefinition Functionality", 1)),
        ("S2", _chunk(STRUCTURE, [STRUCTURE], "Structure", 2))]


def test_the_row_opening_the_structure_table_defines_the_messages_root():
    spans = SpanScorer(None, None).score("What is the XML root tag of reda.071?", HITS, set())
    defining = [s.row[1] for s in spans if s.row is not None and s.signals.get("element_defines")]
    assert defining == ["Message root <Document> <ReqToPayDbtrActvtnAmdmntReq>"]
    other = SpanScorer(None, None).score("Who sends reda.071?", HITS, set())
    assert not [s for s in other if s.signals.get("element_defines")]


def test_the_sentence_counting_the_building_blocks_defines_them_and_brings_its_items():
    spans = SpanScorer(None, None).score("What are the building blocks of a NotificationOfCaseAssignment message?",
                                         HITS, set())
    assert [s.text for s in spans if s.signals.get("defines")] == [
        "The NotificationOfCaseAssignmentV05 MessageDefinition is composed of 3 MessageBuildingBlocks:"]
    answer = OfflineRulebookModel(min_lexical=0.0).compose(
        "What are the building blocks of a NotificationOfCaseAssignment message?", "en", HITS)
    for item in ("A. Header", "B. Case", "C. Assignment"):
        assert item in answer, answer


def test_a_lists_short_items_are_quotable_while_the_same_short_line_elsewhere_is_a_heading():
    texts = [s.text for s in chunk_spans("S1", HITS[0][1], 0)]
    assert "B. Case" in texts and "C. Assignment" in texts
    heading = _chunk("B. Case\n\nIdentifies the investigation case in the message.", [], "Case", 3)
    assert "B. Case" not in [s.text for s in chunk_spans("S3", heading, 0)]


# the chunker cut the list inside C's description: the next chunk opens with the rest of it
CUT_OUTLINE = OUTLINE.replace("composed of 3", "composed of 5") + (
    "\n\nThe assignment holds the assigner and the assignee.\n\nIt also holds the date and time of the assignment.")
REST = ("Usage: The assigner must be the sender of this confirmation and the assignee must be the receiver.\n\n"
        "D. Notification\n\nInformation about the type of action taken.\n\n"
        "E. SupplementaryData\n\nAdditional information that cannot be captured in the structured elements.")


def test_an_enumerated_list_the_chunker_cut_goes_on_in_the_next_chunk():
    # in a chunk of its own, without its lead-in, "D. Notification" beside "E. SupplementaryData" is a list item
    rest = _chunk(REST, [], "MessageDefinition Functionality", 2)
    texts = [s.text for s in chunk_spans("S2", rest, 1)]
    assert "D. Notification" in texts and "E. SupplementaryData" in texts
    hits = [("S1", _chunk(CUT_OUTLINE, [], "MessageDefinition Functionality", 1)), ("S2", rest)]
    answer = OfflineRulebookModel(min_lexical=0.0).compose(
        "What are the building blocks of a NotificationOfCaseAssignment message?", "en", hits)
    for item in ("A. Header", "C. Assignment", "D. Notification", "E. SupplementaryData"):
        assert item in answer, answer
    # a chunk that goes on with other prose, not the list's next item, is not the list (the last item's
    # description ran two more sentences: the chunk did not end inside the list)
    first = _chunk(CUT_OUTLINE, [], "MessageDefinition Functionality", 1)
    other = _chunk("Usage: The assigner must be the sender of this confirmation.\n\n"
                   "The message is forwarded by every subsequent case assigner until it reaches the creator.",
                   [], "MessageDefinition Functionality", 2)
    for second, goes_on in ((rest, True), (other, False)):
        spans = chunk_spans("S1", first, 0) + chunk_spans("S2", second, 1)
        prose = {(s.chunk.chunk_id, s.position): s for s in spans}
        lead_in = next(s for s in spans if s.text.endswith("MessageBuildingBlocks:"))
        after = [s.text for s in _items_after(lead_in, prose, spans)]
        assert (after[-1] == second_texts(second)[-1]) is goes_on, after


def second_texts(chunk: ChunkPayload) -> list[str]:
    return [s.text for s in chunk_spans("S2", chunk, 1)]


def _message_chunk(text: str, tables: list[str], title: str, index: int, heading: str) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"EI:{index}", rulebook_id="EI", rulebook_title="Exceptions and Investigations",
                        page_start=120 + index, page_end=120 + index, section_path=["15", f"15.{index}"],
                        section_key=f"15.{index}", section_title=title, chunk_index=index, text=text,
                        tables_csv=tables, content_hash=f"e{index}", parent_titles=[heading])


def _defining(question: str, hits: list[tuple[str, ChunkPayload]]) -> list[str]:
    spans = SpanScorer(None, None).score(question, hits, set())
    return [s.row[1] if s.row is not None else s.text for s in spans if s.defining]


def test_the_element_asked_in_a_named_message_is_defined_by_its_row_not_the_messages_description():
    heading = "15 camt.039.001.05 CaseStatusReportV05"
    table = ("Or,MessageElement/BuildingBlock<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",Assignee <Assgne>,[1..1],±,,230\n,Creator <Cretr>,[0..1],±,,230\n")
    hits = [("S1", _message_chunk("CaseStatusReport is a response-message to a CaseStatusReportRequest.\n\n"
                                  "This message is used to report on the status of a case.", [],
                                  "MessageDefinition Functionality", 1, heading)),
            ("S2", _message_chunk(table, [table], "Structure", 2, heading))]
    # a one-word element the question capitalises, in the message it names
    assert _defining("Is Assignee mandatory in a CaseStatusReport message?", hits) == ["Assignee <Assgne>"]
    # a name opening with an acronym is a message name too
    fitofi = "17 camt.029.001.09 FIToFIPaymentCancellationRequestV08"
    moved = [(h, c.model_copy(update={"parent_titles": [fitofi], "text": c.text.replace(
        "CaseStatusReport is", "FIToFIPaymentCancellationRequest is")})) for h, c in hits]
    assert _defining("Is Creator mandatory in a FIToFIPaymentCancellationRequest message?", moved) == ["Creator <Cretr>"]


def test_a_capitalised_word_beside_a_run_together_name_is_its_context():
    hits = [("S1", _chunk("Visibility <Vsblty> Presence: (0..1) Definition: Provides the details of the visibility.\n\n"
                          "StartDate <StartDt> Presence: (0..1) Definition: Start date when the information will "
                          "be shown to the debtors.", [], "Visibility", 4))]
    defining = _defining("In a creditor enrolment, what does the StartDate inside Visibility mean?", hits)
    assert defining and all(d.startswith("StartDate") for d in defining), defining


def test_what_an_element_is_in_a_named_message_is_its_record_not_a_pointer_or_the_message():
    heading = "5 camt.029.001.09 ResolutionOfInvestigationV09"
    records = ("The ResolutionOfInvestigation message is sent by a case assignee to a case creator.\n\n"
               "5.4.3 CreditorAgent <CdtrAgt>\n\nPresence: [0..1]\n\nDefinition: Financial institution servicing an "
               "account for the creditor.\n\nCreditorAgent <CdtrAgt> contains the following elements (see "
               "\"BranchAndFinancialInstitutionIdentification6\" on page 207 for details)\n\n"
               "5.1.1 Header <Hdr>\n\nPresence: [1..1]\n\nDefinition: Specifies generic information about the report.")
    hits = [("S1", _message_chunk(records, [], "ResolutionOfInvestigation", 1, heading))]
    for question in ("What is CreditorAgent in the ResolutionOfInvestigation message?",
                     "What does the element CreditorAgent of camt.029 hold?"):
        defining = _defining(question, hits)
        assert defining and all("Presence" in d for d in defining), (question, defining)
    assert [d[:6] for d in _defining("What is Header in the ResolutionOfInvestigation message?", hits)] == ["Header"]


def test_a_quote_announcing_the_elements_it_contains_brings_the_table_after_it():
    """"ClearingSystemMemberIdentification <ClrSysMmbId> contains the following elements": the table right after
    it lists them with their multiplicities, which is what "which part is mandatory?" asks; a quote that
    announces no table brings none."""
    table = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",ClearingSystemIdentification <ClrSysId>,[0..1],,,203\n,MemberIdentification <MmbId>,[1..1],Text,,204\n")
    record = ("19.1.9.1.2 ClearingSystemMemberIdentification <ClrSysMmbId>\n\nPresence: [0..1]\n\nDefinition: "
              "Information used to identify a member within a clearing system.\n\nClearingSystemMemberIdentification "
              "<ClrSysMmbId> contains the following elements (see \"ClearingSystemMemberIdentification2\" on page 203 "
              "for details)\n\n" + table)
    hits = [("S1", _chunk(record, [table], "ClearingSystemMemberIdentification <ClrSysMmbId>", 4))]
    question = ("When an agent is identified through a clearing system member identification, which part is "
                "mandatory: the clearing system identification or the member identification?")
    text = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", hits)
    assert "| MemberIdentification <MmbId> | [1..1] |" in text and "From the table in the rulebook [S1]" in text, text
    plain = record.split("ClearingSystemMemberIdentification <ClrSysMmbId> contains")[0] + "See the table.\n\n" + table
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What is a clearing system member identification?", "en",
        [("S1", _chunk(plain, [table], "ClearingSystemMemberIdentification <ClrSysMmbId>", 4))])
    assert "From the table" not in text, text
