"""A question about an element of a named message that the message does not have is refused, naming
both (and the refusal the user reads says so, through the gate and the server); an element the message's chapter or one of the components it details holds is answered as before
(bot/offline/message_elements.py, OfflineRulebookModel.compose)."""

from __future__ import annotations

import time

from bot.gate.refusal import refusal_text
from bot.offline.message_elements import (
    MessageWords,
    MissingElement,
    elements_outside_messages,
    missing_elements,
)
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload
from tests.bot.conftest import collect, final_of, gate_refusal, offline_service_over
from tests.bot.test_subject_terms import _Store


def _chunk(index: int, parents: list[str], title: str, text: str, tables: list[str] | None = None,
           rulebook: str = "EI") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title="E&I guide",
                        page_start=index, page_end=index, section_path=[str(index)], section_key=str(index),
                        section_title=title, parent_titles=parents, chunk_index=index, text=text,
                        tables_csv=tables or [], content_hash=f"h{rulebook}{index}")


CSR = "15 camt.039.001.05 CaseStatusReportV05"
CXL = "16 camt.056.001.08 FIToFIPaymentCancellationRequestV08"
GUIDE = [
    _chunk(1, [CSR], "Structure", "Structure",
           ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Assignee <Assgne>,[1..1],±,,230\n"
            ",Status <Sts>,[1..1],±,,231\n"]),
    _chunk(2, [CSR, "15.4 Message Building Blocks"], "Status <Sts>",
           "15.4.3 Status <Sts>\n\nPresence: [1..1]\n\nDefinition: Defines the status of the case.\n\n"
           "Status <Sts> contains the following elements (see \"CaseStatus2\" on page 240 for details)"),
    _chunk(3, [CXL], "Structure", "Structure",
           ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Assignment <Assgnmt>,[1..1],±,,300\n"
            ",ClearingSystem <ClrSys>,[0..1],±,,301\n"]),
    _chunk(4, [CXL, "16.4 Message Building Blocks"], "ClearingSystem <ClrSys>",
           "16.4.2 ClearingSystem <ClrSys>\n\nPresence: [0..1]\n\nDefinition: Specifies the clearing system "
           "used to settle the payment instruction."),
    # a component the CaseStatusReport details in the shared chapter: its elements are the message's too
    _chunk(5, ["19 Message Items Types", "19.1 MessageComponents"], "CaseStatus2",
           "19.1.7 CaseStatus2\n\nDefinition: Status of a case.\n\nDateTime <DtTm> Presence: [1..1] "
           "Definition: Date and time of the status.\n\nReason <Rsn> Presence: [0..1] Definition: Reason."),
]


def _index():
    words = MessageWords()
    for chunk in GUIDE:
        words.add(chunk)
    return words.freeze()


def _hits():
    return [(f"S{i}", c) for i, c in enumerate(GUIDE)]


def test_an_element_only_another_message_has_is_named_missing_from_the_one_asked():
    index = _index()
    assert elements_outside_messages("What is the multiplicity of ClearingSystem in camt.039?", _hits(), index) \
        == ["ClearingSystem in camt.039 (CaseStatusReport)"]
    # named by the message's name, versioned or not
    assert elements_outside_messages(
        "Is ClearingSystem mandatory in a CaseStatusReport message?", _hits(), index) != []
    assert elements_outside_messages(
        "How often can ClearingSystem occur in the CaseStatusReportV05 message?", _hits(), index) != []
    # a one-word element the question capitalises
    assert elements_outside_messages("Is Assignment mandatory in camt.039?", _hits(), index) \
        == ["Assignment in camt.039 (CaseStatusReport)"]


def test_an_element_of_the_message_or_of_a_component_it_details_elsewhere_is_not_missing():
    index = _index()
    assert elements_outside_messages("What is the multiplicity of ClearingSystem in camt.056?", _hits(), index) == []
    assert elements_outside_messages("Is Assignee mandatory in camt.039?", _hits(), index) == []
    # Reason is detailed in CaseStatus2, which the CaseStatusReport's Status points to
    assert elements_outside_messages("Is Reason mandatory in camt.039?", _hits(), index) == []


def test_no_check_without_a_named_message_an_element_asked_about_or_a_guide_shown():
    index = _index()
    assert elements_outside_messages("What is the multiplicity of ClearingSystem?", _hits(), index) == []
    # a condition asks about a rule, not about the element itself
    assert elements_outside_messages("When is ClearingSystem required in camt.039?", _hits(), index) == []
    # a name no message of the guide has is no element of it: another check's business
    assert elements_outside_messages("What is the multiplicity of CreditorEnrolment in camt.039?", _hits(),
                                     index) == []
    # the guide is not among what the caller was shown: its chapters decide nothing
    other = [("S0", _chunk(9, [], "Scope", "Another guide.", rulebook="QR"))]
    assert elements_outside_messages("What is the multiplicity of ClearingSystem in camt.039?", other, index) == []
    assert elements_outside_messages("What is the multiplicity of ClearingSystem in camt.039?", _hits(), None) == []


def test_the_offline_model_refuses_an_element_the_named_message_lacks_and_answers_one_it_has():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    text = model.compose("What is ClearingSystem in the CaseStatusReport message?", "en", _hits())
    assert text.startswith("[not covered]") and "ClearingSystem in camt.039 (CaseStatusReport)" in text, text
    text = model.compose("What is ClearingSystem in the FIToFIPaymentCancellationRequest message?", "en", _hits())
    assert not text.startswith("[not covered]") and "clearing system used to settle" in text, text


def test_a_message_heading_the_pdf_wrapped_still_names_its_message():
    from bot.offline.span_scoring import message_chapter

    wrapped = _chunk(6, ["5 reda.069.001.01 RequestToPayCreditorEnrolmentStatusRepor tV01"], "Structure", "…")
    split = _chunk(7, ["3 reda.067.001.01 RequestToPayCreditorEnrolmentAmendment RequestV01"], "Structure", "…")
    assert message_chapter(wrapped)[:2] == ("reda.069", "RequestToPayCreditorEnrolmentStatusReport")
    assert message_chapter(split)[:2] == ("reda.067", "RequestToPayCreditorEnrolmentAmendmentRequest")
    assert message_chapter(_chunk(8, ["6 camt.030.001.05 NotificationOfCaseAssignmentV05"], "Scope", "…"))[:2] \
        == ("camt.030", "NotificationOfCaseAssignment")


def _with(*extra: ChunkPayload):
    words = MessageWords()
    for chunk in [*GUIDE, *extra]:
        words.add(chunk)
    return words.freeze()


def _structure(index: int, heading: str, *rows: str) -> ChunkPayload:
    return _chunk(index, [heading], "Structure", "Structure",
                  ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n" + "".join(f",{r},[0..1],±,,300\n"
                                                                                      for r in rows)])


def test_an_element_spelled_out_in_words_is_checked_like_its_name():
    index = _index()
    # "clearing system" is ClearingSystem, which only the cancellation request lists
    assert elements_outside_messages("Is the clearing system mandatory in a CaseStatusReport message?", _hits(),
                                     index) == ["clearing system in camt.039 (CaseStatusReport)"]
    assert elements_outside_messages("How often can the clearing system occur in camt.056?", _hits(), index) == []
    # words no message lists as an element name nothing: "case status" is a component (CaseStatus2) and
    # "settlement date" is written nowhere
    assert elements_outside_messages("Is the case status mandatory in camt.056?", _hits(), index) == []
    assert elements_outside_messages("Is the settlement date mandatory in camt.039?", _hits(), index) == []
    # the refusal of the model names the words the user wrote
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    text = model.compose("Is the clearing system mandatory in a CaseStatusReport message?", "en", _hits())
    assert text.startswith("[not covered]") and "clearing system in camt.039" in text, text


def test_the_longest_element_a_question_spells_is_the_one_it_asks_about():
    index = _with(_structure(6, CXL, "SystemStatus <SysSts>", "InstructedAmount <InstdAmt>"))
    # "clearing system status" holds ClearingSystem and SystemStatus: both elements, neither inside the other
    assert index.spelled_elements("Is the clearing system status mandatory?") == {"clearingsystem", "systemstatus"}
    # "the instructed amount" is InstructedAmount, with or without its article
    assert index.spelled_elements("How often can the instructed amount occur?") == {"instructedamount"}
    long_name = "OriginalPaymentInformationAndCancellation"
    index = _with(_structure(6, CXL, f"{long_name} <OrgnlPmtInfAndCxl>"),
                  _structure(7, CSR, "PaymentInformation <PmtInf>"))
    question = "Is the original payment information and cancellation mandatory in camt.039?"
    # five words: the whole name, not PaymentInformation, which camt.039 has
    assert index.spelled_elements(question) == {long_name.casefold()}
    assert elements_outside_messages(question, _hits(), index) \
        == ["original payment information and cancellation in camt.039 (CaseStatusReport)"]


def test_an_element_spelled_in_words_the_named_message_writes_inside_a_name_is_not_missing():
    enrolment = "4 reda.068.001.01 CreditorEnrolmentCancellationRequestV01"
    index = _with(
        _structure(6, CXL, "RejectionReason <RjctnRsn>", "CreditorEnrolment <CdtrEnrlmnt>"),
        # the status report writes the reason only inside a choice's name, and with another word form
        _chunk(7, [CSR, "15.4 Message Building Blocks"], "Reason <Rsn>",
               "15.4.5 Reason <Rsn>\n\nPresence: [0..1]\n\nDefinition: Reason.\n\nType: "
               "ClaimNonReceiptRejectReason1Choice"),
        _structure(8, enrolment, "Cancellation <Cxl>"),
    )
    hits = [(f"S{i}", c) for i, c in enumerate(GUIDE)] + [("S9", _chunk(8, [enrolment], "Scope", "…"))]
    # "rejection reason" is RejectionReason, an element of camt.056 only; camt.039 writes its words (stemmed)
    # in a row inside ClaimNonReceiptRejectReason1Choice: the user may mean that, so nothing is refused
    assert elements_outside_messages("Is the rejection reason mandatory in camt.039?", hits, index) == []
    # the named message's own name spelled out holds CreditorEnrolment, another message's element
    assert elements_outside_messages(
        "How often can the creditor enrolment occur in the creditor enrolment cancellation request reda.068?",
        hits, index) == []
    # ... while written run together, a name is matched exactly, as the guide writes it
    assert elements_outside_messages("Is RejectionReason mandatory in camt.039?", hits, index) \
        == ["RejectionReason in camt.039 (CaseStatusReport)"]


def test_the_refusal_says_which_element_the_named_message_lacks_in_the_guides_own_names():
    missing = missing_elements("Is the clearing system mandatory in a CaseStatusReport message?", _hits(), _index())
    assert missing == [MissingElement("ClearingSystem", "clearing system", (("camt.039", "CaseStatusReport"),))]
    text = refusal_text("en", "Is the clearing system mandatory in a CaseStatusReport message?", GUIDE, ["EI"], missing)
    assert text == ("The rulebooks I can consult do not cover this question. The message camt.039 (CaseStatusReport) "
                    "has no element ClearingSystem; other messages of the guide have it. Searched: EI.")
    assert "n'a pas d'élément ClearingSystem" in refusal_text("fr", "…", GUIDE, ["EI"], missing)
    assert "has no element" not in refusal_text("en", "Is Assignee mandatory in camt.039?", GUIDE, ["EI"])


async def test_the_gate_names_the_missing_element_only_from_the_guides_and_never_waits_for_them():
    index = _index()
    text = await gate_refusal(GUIDE, "What is ClearingSystem in camt.039?", message_words=lambda: index)
    assert "The message camt.039 (CaseStatusReport) has no element ClearingSystem" in text
    # an element the message has, or no vocabulary read yet: the plain refusal
    assert "has no element" not in await gate_refusal(GUIDE, "What is Assignee in camt.039?", message_words=lambda: index)
    assert "has no element" not in await gate_refusal(GUIDE, "What is ClearingSystem in camt.039?", message_words=lambda: None)
    # the vocabulary is not built on the event loop: the first ask starts a build and answers None
    store = _Store(GUIDE)
    vocabulary = CorpusVocabulary(store)
    first = vocabulary.message_words(wait=False)
    deadline = time.monotonic() + 10
    while vocabulary.message_words(wait=False) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert first is None and store.scrolls == 1
    assert "ClearingSystem" in await gate_refusal(GUIDE, "What is ClearingSystem in camt.039?",
                                                   message_words=lambda: vocabulary.message_words(wait=False))


def test_one_vocabulary_per_store():
    class Knowledge:
        def __init__(self, store: _Store) -> None:
            self.store = store

    store = _Store(GUIDE)
    assert CorpusVocabulary.of(Knowledge(store)) is CorpusVocabulary.of(Knowledge(store))
    assert CorpusVocabulary.of(Knowledge(_Store(GUIDE))) is not CorpusVocabulary.of(Knowledge(store))
    assert CorpusVocabulary.of(object()) is None


async def test_the_server_refuses_an_element_the_named_message_lacks_and_says_so(tmp_path, sample_index):
    with offline_service_over(GUIDE, tmp_path, sample_index) as service:
        answer = final_of(await collect(service, "Is the clearing system mandatory in a CaseStatusReport message?")).answer
        assert answer.outcome == "refused", answer.text
        assert "The message camt.039 (CaseStatusReport) has no element ClearingSystem" in answer.text
        assert service.vocabulary is service.model.vocabulary  # the model and the gate read one table
        answer = final_of(await collect(service, "What is ClearingSystem in the FIToFIPaymentCancellationRequest?")).answer
        assert answer.outcome == "answered" and "clearing system used to settle" in answer.text, answer.text


RULES = _chunk(10, [CSR], "Constraints",
               "15.3 Constraints\n\nC1 AssigneeRule\n\nIf Creator is present, then Assignee must be present.\n\n"
               "C2 StatusRule\n\nIf Status/Confirmation is present, then Reason is not allowed.")
RULES = RULES.model_copy(update={"section_path": ["15", "15.3"], "section_key": "15.3"})
SCOPE = _chunk(11, [CSR], "Scope", "15.1 Scope\n\nIf a case is closed, the CaseStatusReport message must be present in "
                                   "the case file.")
SCOPE = SCOPE.model_copy(update={"section_path": ["15", "15.1"], "section_key": "15.1"})


def test_a_condition_on_an_element_of_a_named_message_reads_that_messages_constraints():
    from bot.offline.offline_model import Reading

    index = _with(RULES, SCOPE)
    assert index.constraints[("EI", "camt.039")][0] == "15.3"
    assert index.constraints_naming("When must Assignee be present in a CaseStatusReport?", ["EI"]) == [("EI", "15.3")]
    # no element its rules name, no message named, or the guide not shown: nothing to read
    assert index.constraints_naming("When must a CaseStatusReport be sent?", ["EI"]) == []
    assert index.constraints_naming("When must Assignee be present?", ["EI"]) == []
    assert index.constraints_naming("When must Assignee be present in camt.039?", ["QR"]) == []
    model = OfflineRulebookModel(vocabulary=CorpusVocabulary(_Store([*GUIDE, RULES, SCOPE])))
    hits = [("S1", GUIDE[0]), ("S2", SCOPE)]
    unread = Reading(hits=hits, search_hits=hits, section_ids=set(), read=[("EI", "15.1")])
    question = "In camt.039, under which condition is Assignee required?"
    assert model._section_to_read(question, question, unread) == ("EI", "15.3")
    # a question about the element itself reads the message's chapter (the top section of its hit), as before
    assert model._section_to_read("Is Assignee mandatory in camt.039?", "Is Assignee mandatory in camt.039?",
                                  unread) == ("EI", GUIDE[0].section_path[0])


def _rule(index: int, number: str, name: str, text: str) -> ChunkPayload:
    chunk = _chunk(index, [CSR, "15.3 Constraints"], name, f"{number} {name}\n\n{text}")
    return chunk.model_copy(update={"section_path": ["15", "15.3", f"15.3 {number}"], "section_key": f"15.3 {number}"})


def test_constraints_read_one_rule_a_section_are_still_the_messages_constraints():
    """An index of a message guide holds each rule as a section of its own under "15.3 Constraints"
    ("15.3 C1"); the constraints to read are still the whole "15.3", whose words are every rule's."""
    heading = _chunk(10, [CSR], "Constraints", "15.3 Constraints").model_copy(
        update={"section_path": ["15", "15.3"], "section_key": "15.3"})
    index = _with(_rule(12, "C2", "StatusRule", "If Status/Confirmation is present, then Reason is not allowed."),
                  heading, _rule(11, "C1", "AssigneeRule", "If Creator is present, then Assignee must be present."), SCOPE)
    assert index.constraints[("EI", "camt.039")][0] == "15.3"
    assert index.constraints_naming("When must Assignee be present in a CaseStatusReport?", ["EI"]) == [("EI", "15.3")]
    assert index.constraints_naming("When is Reason not allowed in a CaseStatusReport?", ["EI"]) == [("EI", "15.3")]


def test_the_rule_that_states_the_condition_of_the_element_asked_is_quoted_not_one_about_the_message():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store([*GUIDE, RULES, SCOPE])))
    # the sentence about the message shares more of the question's words and was found first; only the rule
    # names the element
    hits = [("S1", SCOPE), ("S2", RULES)]
    text = model.compose("When must Assignee be present in a CaseStatusReport message?", "en", hits)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines[0] == "- If Creator is present, then Assignee must be present [S2].", text


def test_a_long_element_spelled_in_words_is_quoted_whole_not_by_a_shorter_name_inside_it():
    # five words: longer than the runs the span scorer reads alone; the guides' list of elements (the corpus
    # vocabulary) knows the whole name, so its row is quoted, not the record of the name inside it
    short = _chunk(12, [CXL, "16.4 Message Building Blocks"], "EndToEndIdentification <EndToEndId>",
                   "16.4.5 EndToEndIdentification <EndToEndId>\n\nPresence: [0..1]\n\nDefinition: Unique "
                   "identification, as assigned by the initiating party, to identify the transaction.")
    long = _structure(13, CSR, "OriginalEndToEndIdentification <OrgnlEndToEndId>")
    chunks = [*GUIDE, short, long]
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(chunks)))
    question = "Is the original end to end identification mandatory in a CaseStatusReport message?"
    text = model.compose(question, "en", [("S1", short), ("S2", long)])
    assert text.startswith("Here is what") and "OriginalEndToEndIdentification" in text.split("\n- ")[0], text
    without = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", [("S1", short), ("S2", long)])
    assert "OriginalEndToEndIdentification" not in without.split("\n- ")[0], without
