"""A question asking which codes a set holds is refused when the composed answer states none: the element
carrying the code names its set, not its codes (bot/offline/asked_codes.py, OfflineRulebookModel.compose,
and the calibration's replay of the check)."""

from __future__ import annotations

from bot.offline.asked_codes import asks_for_codes, states_codes
from bot.offline.offline_model import Decision, OfflineRulebookModel
from evals.calibration import Bar, Signal, _Columns, point
from knowledge.payload import ChunkPayload
from tests.bot.test_evidence_coverage import _chunk

RECORD = ("Reason <Rsn> Presence: [1..1] Definition: Specifies the reason for the status of the creditor enrolment, "
          "in a coded form. Datatype: ExternalStatusReason1Code on page 40. The status reason codes are published "
          "in the external code list.")
CODE_LIST = "CodeName,Name,Definition\nHIGH,High,Priority level is high.\nNORM,Normal,Priority level is normal.\n"
QUESTION = "Which status reason codes can a provider use when it rejects a creditor enrolment, and what do they mean?"


def test_a_question_asking_first_of_all_for_the_codes_of_a_set():
    assert asks_for_codes(QUESTION)
    assert asks_for_codes("Which code values does ExternalDiscountAmountType1Code contain?")
    assert asks_for_codes("Welke redenen en welke codes gebruikt ABN AMRO?")
    assert asks_for_codes("Quels codes de motif sont autorisés ?")
    assert asks_for_codes("List all the reason codes for an inquiry.")
    # one code asked about, or codes asked only in a later part of the question
    assert not asks_for_codes("What does the code MS03 mean?")
    assert not asks_for_codes("Which numbers are reserved for QR-IIDs, and which country codes may the IBAN hold?")


def test_an_answer_states_codes_in_a_code_list_or_by_naming_two():
    assert states_codes("| CodeName | Name | Definition |\n| --- | --- | --- |\n| HIGH | High | Priority level is high. |")
    assert states_codes("- The reason codes AC01 (incorrect account number) and AC04 (closed account) apply.")
    # the EPC rulebooks list a set's codes by name
    assert states_codes("| Value range: | Codes are: Wrong amount • Duplicate sending |")
    assert states_codes("- The Beneficiary PSP uses one of the following reason codes: Account closed, Legal reasons.")
    # a structure table's rows about a Code element, one code, or a field tag between slashes state no codes
    assert not states_codes("| Or | MessageElement | Mult. |\n| --- | --- | --- |\n| {Or | Code <Cd> | (1..1) |")
    assert not states_codes("- Use the code RJCT when the request is rejected.")
    assert not states_codes("- 5 /RTRN/ The reason code for non-acceptance of the credit transfer")


def test_the_codes_of_a_set_the_passages_only_name_are_refused_and_a_code_list_answers():
    seen: list[Decision] = []
    model = OfflineRulebookModel(min_dense_slot=None, observer=seen.append)
    assert model.compose(QUESTION, "en", [("S1", _chunk(RECORD))]).startswith("[not covered]")
    assert seen[-1].codes_quoted is False
    # the check belongs to require_value_quoted: without it the record is quoted
    assert OfflineRulebookModel(min_dense_slot=None, require_value_quoted=False).compose(
        QUESTION, "en", [("S1", _chunk(RECORD))]).startswith("Here is what the rulebooks say")
    text = f"Priority2Code Definition: Specifies the priority level of an event. Type: CodeSet\n{CODE_LIST}"
    listed = [("S1", ChunkPayload(chunk_id="rtp:7", rulebook_id="rtp", rulebook_title="Request to Pay", page_start=7,
                                  page_end=7, section_path=["7"], section_key="7", section_title="Priority2Code",
                                  chunk_index=7, text=text, tables_csv=[CODE_LIST], content_hash="p", language="en"))]
    answer = model.compose("Which priority level codes does Priority2Code specify for an event: high or normal?", "en",
                           listed)
    assert "HIGH" in answer and seen[-1].codes_quoted is True
    # a question asking no codes is not checked
    model.compose("What does the Reason element of the status report specify?", "en", [("S1", _chunk(RECORD))])
    assert seen[-1].codes_quoted is None


def test_the_calibration_replays_the_codes_check_with_the_value_check():
    missing = Signal("real2", "unanswerable", 0.9, 0.6, False, True, False, codes_quoted=False)
    stated = Signal("real2", "normal", 0.9, 0.6, False, True, True, codes_quoted=True)
    on, off = Bar(0.86, 0.5, require_value_quoted=True), Bar(0.86, 0.5)
    assert point([missing], off)["refused_unanswerable"] == 0.0
    assert point([missing], on)["refused_unanswerable"] == 1.0
    assert point([stated], on)["answered_share"] == 1.0
    assert _Columns([missing, stated]).point(on) == point([missing, stated], on)
