"""Which span the offline model quotes, by question type (no encoder: lexical scoring only)."""

from __future__ import annotations

import pytest

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


def test_every_row_of_a_two_column_record_table_belongs_to_the_identifier_in_its_header():
    # the EPC rulebook lays each dataset out as "Identification: | DS-02" over "Name: | …", "Attributes contained:"
    record = chunk("x", ["Identification:,DS-02\nName:,The Inter-PSP Payment Dataset\n"
                         "Attributes contained:,T001 The identification code of the Scheme\n",
                         "Identification: DS-01,\nName:,Customer-to-PSP Information\n",
                         "Code,Name\nDS-02,Inter-PSP\n", "Attribute,Name,Remarks\nT001,Scheme,DS-02 only\n"])
    assert defines(Span("S1", record, 0, "x", table=0, row=["Attributes contained:", "T001 The identification"]),
                   {"ds-02"})
    assert defines(Span("S1", record, 0, "x", table=1, row=["Name:", "Customer-to-PSP Information"]), {"ds-01"})
    assert not defines(Span("S1", record, 0, "x", table=0, row=["Name:", "The Inter-PSP Payment Dataset"]),
                       {"ds-01"})
    # a header of column names is no record's: its rows are keyed by their own first cells
    assert not defines(Span("S1", record, 0, "x", table=3, row=["T001", "Scheme", "DS-02 only"]), {"ds-02"})
    assert defines(Span("S1", record, 0, "x", table=2, row=["DS-02", "Inter-PSP"]), {"ds-02"})


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


GUIDE = ("10.1.9.1 CreditorServiceEnrolment1\n\nDefinition: Specifies the service details for the creditor enrolment.\n\n"
         "10.1.9.1.1 EnrolmentStartDate <EnrlmntStartDt>\n\nPresence: [0..1]\n\n"
         "Definition: Start date when the creditor enrolment becomes effective.\n\n"
         "Datatype: \"ISODate\" on page 9\n\n"
         "10.1.9.1.2 RejectionReason <RjctnRsn>\n\nPresence: [1..1]\n\n"
         "Definition: Reason for the rejection of a case assignment, in a coded form.\n\n"
         "Datatype: \"InvestigationRejection1Code\" on page 4\n\n")
CODES = ("CodeName,Name,Definition\nNFND,UnderlyingPaymentNotFound,Underlying instruction can not be found.\n"
         "NAUT,NotAuthorisedToInvestigate,Case assignee is not allowed to investigate.\n"
         "UKNW,UnknownCase,Case has never been assigned before.\n")
CODE_SET = ("19.2.3.42 InvestigationRejection1Code\n\n"
            "Definition: Specifies the reason for rejecting an investigation case.\n\n" + CODES)


def test_a_field_record_is_one_span_with_its_element_name():
    from bot.offline.span_scoring import chunk_spans

    texts = [s.text for s in chunk_spans("S1", chunk(GUIDE), 0) if s.table is None]
    assert "EnrolmentStartDate <EnrlmntStartDt> Presence: [0..1] Definition: Start date when the creditor " \
           "enrolment becomes effective. Datatype: \"ISODate\" on page 9" in texts, texts
    assert "Definition: Specifies the service details for the creditor enrolment." in texts  # one field: no record
    text = OfflineRulebookModel(min_lexical=0.25).compose("What is the EnrolmentStartDate?", "en", [("S1", chunk(GUIDE))])
    assert "Start date when the creditor enrolment becomes effective [S1]." in text, text
    assert "Datatype: \"ISODate\" on page 9 [S1]" in text  # each sentence of a record carries the citation


def test_the_values_a_record_lists_after_its_last_field_are_part_of_the_record():
    """"Datatype: One of the following values must be used (…): • Meaning When True: Requested • …": the
    meanings are the record's; alone each is a fragment, and the answer to "what do true and false mean"
    was lost with them."""
    from bot.offline.span_scoring import chunk_spans

    record = ("10.1.9.3 Requested <Reqd>\n\nPresence: [1..1]\n\nDefinition: Specifies whether the identification "
              "is requested.\n\nDatatype: One of the following values must be used (see \"RequestedIndicator\" on "
              "page 113):\n\n• Meaning When True: Requested\n\n• Meaning When False: Not Requested\n\n"
              "10.1.9.4 SchemeName <SchmeNm>\n\nPresence: [1..1]\n\nDefinition: Name of the identification scheme.")
    texts = [s.text for s in chunk_spans("S1", chunk(record), 0) if s.table is None]
    assert texts[0].startswith("Requested <Reqd> Presence: [1..1]"), texts
    assert texts[0].endswith("page 113): • Meaning When True: Requested • Meaning When False: Not Requested"), texts
    # the next record starts its own span
    assert texts[1] == "SchemeName <SchmeNm> Presence: [1..1] Definition: Name of the identification scheme.", texts


def test_a_type_pointer_is_answered_by_the_definition_and_the_code_list_it_points_to():
    hits = [("S1", chunk(GUIDE)), ("S2", chunk(CODE_SET, [CODES], index=1))]
    model = OfflineRulebookModel(min_lexical=0.2)
    text = model.compose("List all the rejection reason codes of a RejectionReason.", "en", hits)
    for code in ("NFND", "NAUT", "UKNW"):
        assert f"| {code} |" in text, text
    from bot.offline.offline_model import Reading

    alone = Reading(hits=hits[:1], search_hits=hits[:1], section_ids=set(), read=[])
    search = model._pointer_search("What reason codes can a RejectionReason have?", "en", alone, listing=True)
    assert search == {"query": "InvestigationRejection1Code What reason codes can a RejectionReason have?",
                      "rulebook_ids": ["GUIDE-1"]}
    shown = Reading(hits=hits, search_hits=hits, section_ids=set(), read=[])
    assert model._pointer_search("What reason codes can a RejectionReason have?", "en", shown, listing=True) is None
    assert model._pointer_search("What reason codes can a RejectionReason have?", "en", alone) is None  # not a pointer


CONTROL = ("7.4.1.2 ControlData <CtrlData>\n\nPresence: [0..1]\n\n"
           "Definition: Provides details on the number of transactions and the control sum of the message.\n\n"
           "7.4.1.2.1 NumberOfTransactions <NbOfTxs>\n\nPresence: [1..1]\n\n"
           "Definition: Number of individual transactions contained in the message.\n\n"
           "Datatype: \"Max15NumericText\" on page 9\n\n")
TEXT_TYPES = ("19.3.1.4 Max140Text\n\nDefinition: Specifies a character string with a maximum length of 140 "
              "characters.\n\n19.3.1.5 Max15NumericText\n\nDefinition: Specifies a numeric string with a "
              "maximum length of 15 digits.\n\n")


def test_a_record_giving_its_length_by_type_is_answered_with_the_type_definition():
    from bot.offline.offline_model import Reading

    hits = [("S1", chunk(CONTROL)), ("S2", chunk(TEXT_TYPES, index=1))]
    model = OfflineRulebookModel(min_lexical=0.2)
    question = "In the control data, how many digits can the NumberOfTransactions have?"
    text = model.compose(question, "en", hits)
    assert "Specifies a numeric string with a maximum length of 15 digits [S2]." in text, text
    assert "Max140Text" not in text and "140 characters" not in text, text
    alone = Reading(hits=hits[:1], search_hits=hits[:1], section_ids=set(), read=[])
    assert model._pointer_search(question, "en", alone, asks_value=True) == {
        "query": "Max15NumericText", "rulebook_ids": ["GUIDE-1"]}
    assert model._pointer_search(question, "en", alone) is None  # no value asked: the record answers


def test_question_types_plural_values():
    assert asks_for_list("What frequency codes does Frequency6Code offer?")
    assert asks_for_list("Which status codes can a service request have?")
    assert not asks_for_list("Which code means that the account is closed?")


def test_a_change_question_is_answered_from_the_changes_only_when_they_hold_what_it_names():
    from bot.offline.offline_model import _names_missing

    changed = [chunk("Section 4.2 now allows returns within ten days.")]
    changed[0].version = "2.3"
    assert _names_missing("What changed in version 2.3 of the message guide?", "en", changed) == []
    assert _names_missing("What changed in version 2.4 of the message guide?", "en", changed) == ["2.4"]
    assert _names_missing("What changed in camt.029.001.11?", "en", changed) == ["camt.029.001.11"]


def test_a_lead_in_ending_in_a_colon_is_quoted_with_the_items_after_it():
    hits = [("S1", chunk("Rejecting a case assignment occurs when:\n\n"
                         "the assignee is unable to trace the original payment instruction at all.\n\n"
                         "the message carries a wrong message indicator for the case concerned.\n\n"
                         "the query is a non-cash related query that the assignee does not handle."))]
    text = OfflineRulebookModel(min_lexical=0.25).compose("In which situations is a case assignment rejected?",
                                                           "en", hits)
    assert "occurs when:" in text and "unable to trace" in text and "non-cash related query" in text, text


def test_a_sentence_about_the_document_itself_yields_unless_the_document_is_asked_about():
    from bot.offline.span_ranker import WEIGHTS
    from bot.offline.span_scoring import SpanScorer, is_about_document

    assert is_about_document("This addendum describes the additions to the implementation guidelines.")
    assert not is_about_document("This message is sent by the case assignee.")
    hits = [("S1", chunk("This addendum describes the additions for incoming credit transfers.\n\n"
                         "For an incoming credit transfer the debtor account is reported under /IBAN/."))]
    spans = SpanScorer(None, None).score("What is reported for an incoming credit transfer under /IBAN/?", hits, set())
    about = next(s for s in spans if s.text.startswith("This addendum"))
    assert about.signals.get("about_document") == 1.0 and about.bonus <= WEIGHTS["about_document"] + 0.05
    spans = SpanScorer(None, None).score("What does the addendum cover?", hits, set())
    assert "about_document" not in next(s for s in spans if s.text.startswith("This addendum")).signals


def test_the_record_of_an_element_the_question_asks_about_is_preferred():
    from bot.offline.span_scoring import SpanScorer, asks_about_element, element_names

    assert element_names("What is the data type of AdditionalMissingInformation <AddtlMssngInf>?") == {
        "additionalmissinginformation"}
    assert asks_about_element("Is DebitAuthorisation mandatory?")
    assert not asks_about_element("When must the case assigner send a ResolutionOfInvestigation?")
    # how many an element may occur, in a user's words: the structure's multiplicity answers
    assert asks_about_element("Can one status report give the status of several enrolment requests at once?")
    assert asks_about_element("May a message carry more than one Envelope?")
    hits = [("S1", chunk("The AdditionalMissingInformation element is used with a code in each case.\n\n"
                         "AdditionalMissingInformation <AddtlMssngInf> Presence: [0..10] Definition: Further "
                         "details on missing information. Datatype: Max140Text"))]
    best = SpanScorer(None, None).score("What is the data type of AdditionalMissingInformation?", hits, set())[0]
    assert best.text.startswith("AdditionalMissingInformation <AddtlMssngInf>") and best.defining


def test_a_record_under_the_message_the_question_names_is_quoted_first_though_its_heading_is_versioned():
    record = ("19.4.2 CancellationReason <CxlRsn>\n\nPresence: {presence}\n\n"
              "Definition: Provides detailed information on the cancellation reason.\n\n")
    other = chunk(record.format(presence="[0..1]"), index=1)
    other.parent_titles = ["10 RequestToPayDebtorActivationCancellationRequestV01"]
    named = chunk(record.format(presence="[1..1]"), index=2)
    named.parent_titles = ["19 camt.037.001.07 DebitAuthorisationRequestV07"]
    text = OfflineRulebookModel(min_lexical=0.2).compose(
        "In a DebitAuthorisationRequest, is CancellationReason mandatory?", "en", [("S1", other), ("S2", named)])
    quotes = [line for line in text.splitlines() if line.startswith("- ")]
    assert quotes and "[S2]" in quotes[0] and ("(1..1)" in quotes[0] or "[1..1]" in quotes[0]), text


@pytest.mark.parametrize(("label", "body", "asked", "plain", "answer"), [
    ("Figure 1: Relationship between the kind of account number, the reference and message options",
     "For example, when a QR-IBAN is used, a QR reference must always be sent with the payment.",
     "Which figure shows which kind of reference goes with which kind of account number?",
     "Which kind of reference goes with which kind of account number?", "QR reference must always be sent"),
    ("3.4 Posting of an incoming Sepa Credit Transfer (Credit)",
     "Incoming credit transfers are reported as single credits with the debtor's name and account.",
     "Under which section number is the posting of an incoming Sepa credit transfer described?",
     "How is an incoming Sepa credit transfer posted?", "reported as single credits"),
], ids=["figure caption", "section heading"])
def test_a_question_asking_which_figure_or_section_is_answered_by_its_label_and_only_then(label, body, asked, plain,
                                                                                      answer):
    hits = [("S1", chunk(f"{body}\n\n{label}\n\nImportant: this is a further sentence of the same page."))]
    model = OfflineRulebookModel(min_lexical=0.2)
    text = model.compose(asked, "en", hits)
    assert label in text, text
    # elsewhere a caption or heading is a label, not an answer
    other = model.compose(plain, "en", hits)
    assert label not in other and answer in other, other


def test_which_questions_ask_about_a_figure():
    from bot.offline.span_scoring import asks_about_figure
    assert asks_about_figure("Which figure of the SIX document shows the IBAN's structure?", "en")
    assert asks_about_figure("Welche Abbildung zeigt den Zahlungsprozess?", "de")
    assert asks_about_figure("Welke figuur toont de opbouw van de QR-IBAN?", "nl")
    assert asks_about_figure("Que montre la figure 3 du guide ?", "fr")
    # French "figure" is also a verb; "figure out" is no figure either
    assert not asks_about_figure("Quel libellé figure sur le relevé papier d'ABN AMRO ?", "fr")
    assert not asks_about_figure("How do I figure out the check digit of a QR reference?", "en")
    assert not asks_about_figure("May I adjust net income before arriving at the figure used for the dividend?", "en")


def test_which_questions_ask_for_a_section():
    from bot.offline.span_scoring import asks_for_section
    assert asks_for_section("Which chapter of the guidelines covers the Swiss QR Code database?")
    assert asks_for_section("Under which section number does the addendum describe returns?")
    assert asks_for_section("In welchem Kapitel steht die Zeichensatz-Regel?")
    assert asks_for_section("Dans quel chapitre le guide décrit-il la QR-IBAN ?")
    assert not asks_for_section("What does section 2.2 say about the scheme's participants?")


def test_the_names_of_a_leading_in_phrase_place_the_element_asked_about_and_do_not_answer():
    from bot.offline.span_scoring import SpanScorer

    hits = [("S1", chunk("ModificationDetails <ModDtls> Presence: [0..1] Definition: Specifies the details of the "
                         "underlying transaction being modified.", index=0)),
            ("S2", chunk("Assigner <Assgnr> Presence: [0..1] Definition: Party who assigns the case. Datatype: "
                         "Party40Choice", index=1))]
    question = "In the ModificationDetails of a camt.029 ResolutionOfInvestigation, is the Assigner mandatory?"
    spans = SpanScorer(None, None).score(question, hits, set())
    defining = [s.text.split()[0] for s in spans if s.defining]
    assert defining == ["Assigner"], defining
    # a question naming no other element keeps the named one as the one asked about
    alone = SpanScorer(None, None).score("In a camt.029, is ModificationDetails mandatory?", hits, set())
    assert [s.text.split()[0] for s in alone if s.defining] == ["ModificationDetails"]


def test_a_component_the_question_names_is_defined_by_its_own_section():
    from bot.offline.span_scoring import SpanScorer

    table = ("Or,MessageElement<XML Tag>,Mult.,Type\n"
             ",Unstructured <Ustrd>,[0..*],Text\n"
             ",Structured <Strd>,[0..*],\n")
    own = ChunkPayload(chunk_id="GUIDE-1:7", rulebook_id="GUIDE-1", rulebook_title="Message guide", page_start=338,
                       page_end=338, section_path=["19", "19.1.20.3"], section_key="19.1.20.3",
                       section_title="RemittanceInformation16", chunk_index=7,
                       text="19.1.20.3 RemittanceInformation16\n\nDefinition: Information supplied to enable the "
                            "matching of an entry with the items that the payment is intended to settle.\n\n" + table,
                       tables_csv=[table], content_hash="h7")
    other = chunk("Structured remittance information is used by the creditor to match a payment to its invoices.")
    hits = [("S1", other), ("S2", own)]
    spans = SpanScorer(None, None).score("How many structured blocks may RemittanceInformation16 hold?", hits, set())
    # its structure table's rows define it (the definition under its heading is no answer to what it holds)
    assert {s.text for s in spans if s.defining} == {s.text for s in spans if s.chunk is own and s.row is not None}
    assert len([s for s in spans if s.defining]) == 2
    # asked what it is, the definition under its heading defines it
    what = SpanScorer(None, None).score("How is RemittanceInformation16 defined?", hits, set())
    assert [s.text[:12] for s in what if s.defining] == ["Definition: "]
    # a question that names no component finds nothing defining there
    plain = SpanScorer(None, None).score("How many structured blocks may a remittance hold?", hits, set())
    assert not any(s.defining for s in plain)
