"""Key facts in the offline model's answers: the neighbour holding the condition asked about, the row
keyed by an element the question spells out in words, whole lists, and no quote repeated (no encoder:
lexical scoring only, as the sample corpus tests run)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import SpanScorer, is_heading, is_record, spelled_element_names
from knowledge.payload import ChunkPayload
from tests.bot.conftest import recording_scorer


def chunk(text: str, tables: list[str] | None = None, index: int = 0, page: int = 3) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"GUIDE-1:{index}", rulebook_id="GUIDE-1", rulebook_title="Message guide",
                        page_start=page, page_end=page, section_path=["2"], section_key="2",
                        section_title="Elements", chunk_index=index, text=text, tables_csv=tables or [],
                        content_hash=f"h{index}")


def bullets(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("- ")]


def test_the_run_of_alternative_conditions_after_a_record_is_quoted_whole():
    record = ("10.1.9.1.4 ServiceActivationAllowed <SvcActvtnAllwd>\n\nPresence: [1..1]\n\n"
              "Definition: Define the acceptance of activation requests through the scheme.\n\n"
              "When true, it is possible for the debtor to send activation requests through its provider.\n\n"
              "When false, it is not possible for the debtor to send activation requests through servicing messages.\n\n"
              "The element is repeated in every status report that the scheme sends back to the creditor.")
    text = OfflineRulebookModel(min_lexical=0.25).compose(
        "What does ServiceActivationAllowed mean?", "en", [("S1", chunk(record))])
    assert "When true, it is possible" in text and "When false, it is not possible" in text, text
    assert "repeated in every status report" not in text, text  # not a condition: the run ends before it


def test_a_sentence_repeated_across_chunks_is_quoted_once():
    repeated = "The number of fractional digits of the amount must comply with the currency standard."
    hits = [("S1", chunk(f"The amount type holds a currency attribute.\n\n{repeated}", index=0)),
            ("S2", chunk(f"The other amount type holds a currency attribute too.\n\n{repeated}", index=1, page=4))]
    text = OfflineRulebookModel(min_lexical=0.25).compose(
        "What must the fractional digits of the amount comply with?", "en", hits)
    assert sum(repeated[:-1] in line for line in bullets(text)) == 1, text


ELEMENTS = ("Or,MessageElement<XML Tag>,Mult.,Type,Page\n"
            ",Creditor <Cdtr>,[1..1],±,9\n"
            ",MerchantCategoryCode <MrchntCtgyCd>,[1..1],IdentifierSet,9\n"
            ",CreditorLogo <CdtrLogo>,[0..1],Binary,10\n")


def test_an_element_spelled_out_in_words_is_answered_by_the_row_it_keys_first():
    # the sentence scores best on words (no encoder here), the row close behind it; the sentence only
    # mentions the element, the row keyed by it answers
    hits = [("S1", chunk("The merchant category is classified by the goods it sells.\n\n"
                         + ELEMENTS, [ELEMENTS]))]
    text = OfflineRulebookModel(min_lexical=0.0).compose(  # span choice, not the answer/refuse bar
        "Is the merchant category code mandatory in the enrolment request?", "en", hits)
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[1].startswith("|  | MerchantCategoryCode <MrchntCtgyCd> | [1..1] | IdentifierSet"), text
    # the defining row comes before the sentence that only mentions the element
    assert text.index("MerchantCategoryCode <MrchntCtgyCd>") < text.index("classified by the goods"), text


def test_spelled_names_match_only_rows_and_records():
    assert "merchantcategorycode" in spelled_element_names("Is the merchant category code mandatory?")
    assert is_record("CaseStatus <CaseSts> Presence: [1..1] Definition: Status of the case.")
    assert not is_record("CaseStatus <CaseSts> contains the following elements")
    c = chunk("CaseStatus <CaseSts> contains the following elements for every report that is sent.")
    spans = SpanScorer(None, None).score("How often must the case status occur?", [("S1", c)], set())
    assert spans and not any(s.defining for s in spans)  # a sentence opening with the name does not define it


def test_an_element_spelled_in_the_plural_is_defined_by_its_record_in_the_singular():
    assert "addressline" in spelled_element_names("How many address lines can a postal address have?")
    assert "theaddres" not in spelled_element_names("the address")  # "-ss" is no plural
    record = ("10.1.8.1.16 AddressLine <AdrLine>\n\nPresence: [0..7]\n\n"
              "Definition: Information that locates and identifies a specific address, in free format text.\n\n"
              'Datatype: "Max70Text" on page 115')
    spans = SpanScorer(None, None).score("How many address lines can a postal address have?",
                                         [("S1", chunk(record))], set())
    assert spans[0].text.startswith("AddressLine <AdrLine> Presence: [0..7]") and spans[0].defining


def test_an_element_spelled_with_a_hyphenated_word_is_defined_by_its_record():
    """"e-mail address" is EmailAddress: the one-letter "e" makes no run of its own, the word joined does."""
    names = spelled_element_names("How long may a contact person's e-mail address be?")
    assert "emailaddress" in names and "contactpersonemailaddress" in names
    assert "endtoendidentification" in spelled_element_names("Is the end-to-end identification mandatory?")
    record = ("7.1.4.2 EmailAddress <EmailAdr>\n\nPresence: [0..1]\n\nDefinition: Address for electronic mail "
              '(e-mail).\n\nDatatype: "Max2048Text" on page 114')
    other = "Every contact person named in the enrolment must be reachable by the creditor at an address."
    spans = SpanScorer(None, None).score("How long may a contact person's e-mail address be?",
                                         [("S1", chunk(other)), ("S2", chunk(record))], set())
    assert spans[0].text.startswith("EmailAddress <EmailAdr> Presence: [0..1]") and spans[0].defining


def test_an_element_named_with_its_component_is_defined_by_the_record_under_that_components_heading():
    """"the account name" is the record "Name <Nm>" under "19.1.1 Account" / "19.1.1.4 CashAccount38": guides
    name an element within its component, users name both; the same record under another component is no
    account name."""
    from bot.offline.span_scoring import qualified_names

    record = ("19.1.1.4.4 Name <Nm>\n\nPresence: [0..1]\n\nDefinition: Name of the account, as assigned by the "
              'account servicing institution.\n\nDatatype: "Max70Text" on page 388')
    under_account = chunk(record, index=1).model_copy(update={
        "parent_titles": ["19 Message Items Types", "19.1 MessageComponents", "19.1.1 Account", "19.1.1.4 CashAccount38"],
        "section_path": ["19", "19.1", "19.1.1", "19.1.1.4", "19.1.1.4.4"]})
    under_street = chunk(record.replace("of the account", "of the street"), index=2).model_copy(update={
        "parent_titles": ["19 Message Items Types", "19.1 MessageComponents", "19.1.30 PostalAddress"],
        "section_path": ["19", "19.1", "19.1.30", "19.1.30.1"]})
    spans = SpanScorer(None, None).score("How long can an account name be?",
                                         [("S1", under_street), ("S2", under_account)], set())
    named = {s.chunk.chunk_id: s for s in spans if s.text.startswith("Name <Nm>")}
    assert named["GUIDE-1:1"].defining and not named["GUIDE-1:2"].defining
    assert spans[0] is named["GUIDE-1:1"]
    assert {"accountname", "cashaccountname"} <= qualified_names(named["GUIDE-1:1"])
    sentence = SpanScorer(None, None).score("How long can an account name be?", [("S1", chunk(
        "The account name is used in certain user communities to identify the account."))], set())[0]
    assert qualified_names(sentence) == set() and not sentence.defining  # only a record is defined by it


def test_the_question_words_inside_run_together_names_are_a_signal_of_their_own():
    c = chunk("Format minInclusive 0 totalDigits 18 fractionDigits 5\n\nThe decimal separator of the amount is a dot.")
    spans = SpanScorer(None, None).score("How many fraction digits may the amount have?", [("S1", c)], set())
    digits = next(s for s in spans if "totalDigits" in s.text)
    assert digits.lexical == 0.0 and digits.signals["name_parts"] > 0  # "fraction", "digits" only inside names
    assert "name_parts" not in next(s for s in spans if "separator" in s.text).signals


def test_the_sentence_that_concludes_from_a_quote_is_quoted_with_it():
    text = ("A status report is sent when the assigner asks for the status of the case.\n\n"
            "In such a situation it would be redundant to send a status report before the resolution message.\n\n"
            "It is therefore acceptable for the assignee to skip the status report and send the resolution message.\n\n"
            "Other messages of the case follow the usual rules of the scheme for every participant.")
    answer = OfflineRulebookModel(min_lexical=0.25).compose(
        "Is it redundant to send a status report before the resolution message?", "en", [("S1", chunk(text))])
    assert "redundant to send a status report" in answer, answer
    assert "skip the status report" in answer, answer


def test_a_list_of_titled_items_is_one_span_with_every_title():
    text = ("The enrolment request is composed of 3 building blocks:\n\nA. Header\n\n"
            "Set of characteristics to identify the message and the parties of the request.\n\n"
            "B. CreditorEnrolment\n\nSpecific attributes of the creditor and of its enrolment.\n\n"
            "C. ActivationData")
    spans = SpanScorer(None, None).score("Which building blocks make up the enrolment request?",
                                         [("S1", chunk(text))], set())
    assert any(all(t in s.text for t in ("A. Header", "B. CreditorEnrolment", "C. ActivationData"))
               for s in spans), [s.text for s in spans]


def test_a_list_cut_by_the_chunker_goes_on_in_the_next_chunk_shown():
    first = ("A participant must meet the following requirements:\n\n"
             "(a) the participant shall provide its name to the operator of the scheme without delay;\n\n"
             "(b) the participant shall provide its address to the operator of the scheme without delay;")
    second = ("(c) the participant shall provide its licence to the operator of the scheme without delay;\n\n"
              "(d) the participant shall provide its auditor to the operator of the scheme without delay.")
    hits = [("S1", chunk(first, index=4)), ("S2", chunk(second, index=5, page=4))]
    text = OfflineRulebookModel().compose("List all the requirements a participant must meet.", "en", hits)
    for what in ("name", "address", "licence", "auditor"):
        assert f"its {what} to the operator" in text, text


def test_a_code_list_broken_over_two_pages_is_listed_whole():
    first = "CodeName,Name,Definition\nCLSD,Closed,Case has been closed.\nASGN,Assigned,Case has been assigned.\n"
    second = "CodeName,Name,Definition\nINVE,UnderInvestigation,Case is under investigation.\n"
    other = "CodeName,Name,Definition\nFTHI,FurtherInvestigation,Case has been forwarded.\n"
    text = ("15.4.3.2 CaseStatus <CaseSts>\n\nThe status of the case is one of the following codes of the list:\n\n"
            f"{first}\n\n{second}\n\n19.2.3.5 CaseForwardingNotification3Code\n\n"
            f"Definition: Specifies the action requested when forwarding a case.\n\n{other}")
    answer = OfflineRulebookModel(min_lexical=0.25).compose(
        "What are all the codes the status of the case can have?", "en",
        [("S1", chunk(text, [first, second, other]))])
    for code in ("CLSD", "ASGN", "INVE"):
        assert f"| {code} |" in answer, answer
    assert "FTHI" not in answer, answer  # the next type's list, under its own heading


def test_the_third_item_of_a_list_is_not_taken_for_a_copyright_line():
    c = chunk("x")
    assert not is_heading("(c) the participant shall provide its licence to the operator without delay;", c)
    assert is_heading("(c) 2019 SWIFT all rights reserved, including the right of reproduction.", c)


def test_a_span_holding_the_value_asked_is_measured_however_far_down_its_chunk_was_shown():
    """The evidence-coverage check compares the closest span holding a value of the kind asked with its
    bar: a fee sentence in the last of 25 chunks shown, sharing no word with the question, is measured too
    (unmeasured, it passed the check unseen)."""
    from bot.offline.span_scoring import DENSE_CHUNKS

    def chunk(i: int, text: str) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"R:{i}", rulebook_id="R", rulebook_title="Scheme rulebook", page_start=i + 1,
                            page_end=i + 1, section_path=[str(i)], section_title=f"Part {i}", chunk_index=i,
                            text=text, content_hash=f"h{i}")

    # more chunks below the first four whose sentences share the question's words than the lexical picks take
    shown = [chunk(i, f"The scheme participation rules of part {i} apply to every participant.") for i in range(24)]
    shown.append(chunk(24, "A handling charge of EUR 50 is levied."))
    scorer, measured = recording_scorer()
    spans = scorer.score(
        "How much is the annual participation fee of the scheme?", [(f"S{i}", c) for i, c in enumerate(shown)], set())
    fee = next(s for s in spans if "EUR 50" in s.text)
    assert fee.rank >= DENSE_CHUNKS and fee.holds_value
    assert fee.dense is not None and "A handling charge of EUR 50 is levied." in measured


GLOSSARY = ("7 Defined Terms in the Rulebook\n\n"
            "Term Definition Acceptance Date As defined in section 4.2.1 of the Rulebook.\n\n"
            "Banking Business Day A day on which the Participants are open for the execution of payments, "
            "being a T2 day.\n\n"
            "CSM A Clearing and Settlement Mechanism.")
EXECUTION = ("The definition of Banking Business Day is therefore to be construed in accordance with this "
             "provision, and a Participant defines its own days of business.")


def test_a_defined_term_is_answered_by_its_entry_in_the_list_of_defined_terms():
    """The sentence that talks about the term shares more of the question's words; the entry that opens
    with the term, capitalised, is its definition."""
    from bot.offline.offline_model import OfflineRulebookModel
    from bot.offline.span_scoring import defined_terms, opens_with_term
    from knowledge.payload import ChunkPayload

    def chunk(i: int, text: str, title: str) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"SCT:{i}", rulebook_id="SCT", rulebook_title="SCT rulebook", page_start=80 + i,
                            page_end=80 + i, section_path=[str(i)], section_title=title, chunk_index=i, text=text,
                            content_hash=f"h{i}")

    question = "How does the rulebook define a Banking Business Day?"
    assert "banking business day" in defined_terms(question)
    assert not opens_with_term("The Banking Business Day ends at noon.", {"banking business day"})
    hits = [("S1", chunk(2, GLOSSARY, "Defined Terms")), ("S2", chunk(0, EXECUTION, "Execution time"))]
    text = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", hits)
    first = next(line for line in text.splitlines() if line.startswith("- "))
    assert first.startswith("- Banking Business Day A day on which"), text


def test_a_spelled_element_name_leaves_out_articles_and_the_name_inside_a_longer_one_does_not_define():
    """"the instruction for the debtor agent" is InstructionForDebtorAgent: its record defines it, the row
    keyed DebtorAgent (a name inside the longer one) does not."""
    from bot.offline.span_scoring import SpanScorer, spelled_element_names
    from knowledge.payload import ChunkPayload

    question = "How many characters can the instruction for the debtor agent have?"
    assert {"instructionfordebtoragent", "debtoragent"} <= spelled_element_names(question)
    record = ChunkPayload(
        chunk_id="EI:1", rulebook_id="EI", rulebook_title="E&I guide", page_start=49, page_end=49,
        section_path=["4.4.4.29"], section_title="InstructionForDebtorAgent <InstrForDbtrAgt>", chunk_index=1,
        text="InstructionForDebtorAgent <InstrForDbtrAgt> Presence: [0..1] Definition: Further information for the "
             "debtor agent. Datatype: \"Max140Text\" on page 387", content_hash="h1")
    table = ChunkPayload(
        chunk_id="EI:0", rulebook_id="EI", rulebook_title="E&I guide", page_start=42, page_end=42,
        section_path=["4.4.4"], section_title="Structure", chunk_index=0, has_table=True,
        text="Or,MessageElement<XML Tag>,Mult.\n,DebtorAgent <DbtrAgt>,[0..1]\n",
        tables_csv=["Or,MessageElement<XML Tag>,Mult.\n,DebtorAgent <DbtrAgt>,[0..1]\n"], content_hash="h0")
    spans = SpanScorer(None, None).score(question, [("S1", table), ("S2", record)], set())
    defining = [s.text for s in spans if s.signals.get("element_defines")]
    assert defining and all("InstructionForDebtorAgent" in t for t in defining), defining


def test_a_term_a_section_is_titled_with_is_defined_by_the_sections_first_sentence():
    """"What is an IID?": the first sentence of the section titled "1.3.1 IID" defines it (though "IID" also
    names the guide), not a later sentence of it nor a table row sharing the question's other words."""
    from bot.offline.span_scoring import SpanScorer
    from knowledge.payload import ChunkPayload

    def chunk(i: int, text: str, title: str, tables: list[str] | None = None) -> ChunkPayload:
        return ChunkPayload(chunk_id=f"IID:{i}", rulebook_id="IID", rulebook_title="QR-IID guide", page_start=5 + i,
                            page_end=5 + i, section_path=[title.split()[0]], section_title=title, chunk_index=i,
                            text=text, tables_csv=tables or [], has_table=bool(tables), content_hash=f"h{i}")

    links = "Organisation,Link\nHarmonization of Swiss payments,www.paymentstandards.ch\n"
    hits = [("S1", chunk(0, links, "1.2 Reference documents", [links])),
            ("S2", chunk(1, "The IID (institution identification) identifies financial institutions in the RTGS "
                            "systems. Every institution is assigned at least one IID.", "1.3.1 IID"))]
    spans = SpanScorer(None, None).score("What is an IID in Swiss payments?", hits, set())
    defining = [s.text for s in spans if s.signals.get("defines")]
    assert defining == ["The IID (institution identification) identifies financial institutions in the RTGS systems."]
    assert not SpanScorer(None, None).score("Who assigns an IID?", hits, set())[0].signals.get("defines")



def test_a_type_defined_under_its_own_name_is_quoted_with_that_name():
    """A code set's or component's section opens with its name and a definition alone ("10.2.2.6
    ExternalDebtorActivationAmendmentReason1Code" / "Definition: Specifies the … reason code"): the definition
    says what the named thing is for, the heading what it is called, and the answer quotes both; a heading of
    words is no name, and a definition further down its section keeps to itself."""
    code_set = chunk("10.2.2.6 ExternalDebtorActivationAmendmentReason1Code\n\nDefinition: Specifies the debtor "
                     "activation amendment reason code, as published in an external code set.\n\nExternal code "
                     "sets can be downloaded from www.iso20022.org.\n\nType: CodeSet")
    model = OfflineRulebookModel(min_lexical=0.0)
    question = "Which external code set holds the reason codes for amending a debtor activation?"
    text = model.compose(question, "en", [("S1", code_set)])
    assert "- ExternalDebtorActivationAmendmentReason1Code Definition: Specifies the debtor activation" in text, text
    worded = chunk("3.2 Amendment reasons\n\nDefinition: Specifies the debtor activation amendment reason code.")
    assert "- Definition: Specifies the debtor activation" in model.compose(question, "en", [("S1", worded)])
    later = chunk("10.2.2.6 ExternalDebtorActivationAmendmentReason1Code\n\nThe code set is external.\n\n"
                  "Definition: Specifies the debtor activation amendment reason code.")
    assert "- Definition: Specifies the debtor activation" in model.compose(question, "en", [("S1", later)])


def test_words_that_spell_the_message_name_ask_about_no_element_inside_it():
    """"one creditor enrolment amendment request" spells the message RequestToPayCreditorEnrolmentAmendmentRequest:
    the row keyed CreditorEnrolment (an element of another block) does not define what is asked, the record of
    the element the question does ask about (the amendments) stays the answer."""
    from bot.offline.span_scoring import inside_spelled_messages

    runs = spelled_element_names("How many amendments can one creditor enrolment amendment request carry?")
    messages = {"requesttopaycreditorenrolmentamendmentrequest", "requesttopaycreditorenrolmentamendmentrequestv01"}
    inside = inside_spelled_messages(runs, messages)
    assert {"creditorenrolment", "enrolmentamendment"} <= inside
    assert "creditorenrolmentamendmentrequest" not in inside  # the run that spells the message itself stays
    assert not inside_spelled_messages(spelled_element_names("Is the merchant category code mandatory?"), messages)

    chapter = ["3 reda.067.001.01 RequestToPayCreditorEnrolmentAmendmentRequestV01", "3.4 Structure"]
    table = ("Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n"
             ",CreditorEnrolment <CdtrEnrlmnt>,[0..1],,,73\n,Enrolment <Enrlmnt>,[0..1],±,,73\n")
    rows = chunk("The elements of the enrolment are listed below.", tables=[table], index=1).model_copy(
        update={"parent_titles": chapter})
    record = chunk("AmendmentData <AmdmntData> Presence: [1..*] Definition: Provides further details on the "
                   "creditor enrolment amendment request.", index=2).model_copy(update={"parent_titles": chapter})
    spans = SpanScorer(None, None).score("How many amendments can one creditor enrolment amendment request carry?",
                                         [("S1", rows), ("S2", record)], set())
    keyed = [s for s in spans if s.row is not None and "CreditorEnrolment" in s.text]
    assert keyed and not any(s.defining for s in keyed), [(s.text, s.signals) for s in keyed]



def test_the_row_holding_the_code_asked_keeps_its_place_before_a_table_a_quote_announces():
    """"Which mandate classification code …?": a quote's pointer announces the choice table (Code or
    Proprietary), the code list row keyed USGB answers; only two tables are shown, so the code list's row
    stays ahead of the announced table, and the other rows follow it."""
    from types import SimpleNamespace

    from bot.offline.offline_model import _with_announced_table

    choice, other, code_row = (SimpleNamespace(name=n, signals={"asked_identifier": 1.0} if h else {})
                               for n, h in (("choice", False), ("other", False), ("USGB", True)))
    order = _with_announced_table([other, code_row, choice], choice)
    assert [r.name for r in order] == ["USGB", "choice", "other"]
    assert [r.name for r in _with_announced_table([other], choice)] == ["choice", "other"]


def test_when_the_best_span_is_a_row_its_table_stays_first_and_the_announced_table_follows():
    """"… what kind of element holds the copied message under Data?": the best span is the row "Data <Data>
    [1..1]"; the quote "Data <Data> contains the following ProprietaryData6 elements" announces the table
    whose row Any <Any> answers. The best row's table leads, the announced one comes second (of two shown),
    ahead of other rows, whatever identifiers they hold."""
    from types import SimpleNamespace

    import bot.offline.offline_model as offline_model

    def row(name: str, chunk_id: str, asked: bool = False) -> SimpleNamespace:
        return SimpleNamespace(name=name, chunk=SimpleNamespace(chunk_id=chunk_id), table=0,
                               signals={"asked_identifier": 1.0} if asked else {})

    best, structure, announced = row("Data", "GUIDE:224"), row("SplmtryData C4", "GUIDE:219", True), row(
        "Any", "GUIDE:226")
    order = offline_model._with_announced_table([best, structure, announced], announced, best)
    assert [r.name for r in order] == ["Data", "Any", "SplmtryData C4"]
