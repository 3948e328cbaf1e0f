"""A value of the rules of a document the passages only refer to (the pre-notification period of a
SEPA Core Direct Debit, named by the SCT rulebook) is refused, and the refusal says which document
the rulebooks refer to (bot/offline/referenced_documents.py, OfflineRulebookModel.compose,
bot/gate/refusal.py)."""

from __future__ import annotations

from bot.gate.refusal import refusal_text
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.referenced_documents import documents_elsewhere, references
from bot.offline.subject_terms import CorpusVocabulary
from tests.bot.conftest import collect, final_of, gate_refusal, offline_service_over
from tests.bot.test_named_documents import _chunk, _titles
from tests.bot.test_subject_terms import _Store

SCT = [
    _chunk("epc_sct_rulebook", 0, 1, "EPC125-05 2025 Version 1.0 SEPA CREDIT TRANSFER SCHEME RULEBOOK"),
    _chunk("epc_sct_rulebook", 1, 20,
           "The SEPA Core Direct Debit Scheme is the payments scheme for making direct debits across SEPA, as set "
           "out in the SEPA Core Direct Debit Scheme Rulebook. The One-Leg Out Instant Credit Transfer Scheme "
           "Rulebook is published under document number EPC158-22."),
    _chunk("epc_sct_rulebook", 2, 31,
           "The Originator PSP must send out the Recall within the period of 10 Banking Business Days following "
           "the execution date of the initial SEPA Credit Transfer Transaction."),
    _chunk("epc_sct_rulebook", 3, 40,
           "4.2 Process for Major Rulebook Changes\nThe Originator must send the SEPA Credit Transfer Scheme "
           "Rulebook's datasets in the format of the SEPA Credit Transfer Scheme Inter-PSP Implementation "
           "Guidelines."),
]
SDD = [_chunk("epc_sdd_core_rulebook", 0, 1, "EPC016-06 2025 Version 1.0 SEPA DIRECT DEBIT CORE SCHEME RULEBOOK "
                                              "(SEPA Core Direct Debit)"),
       _chunk("epc_sdd_core_rulebook", 1, 30,
              "The Creditor must send the pre-notification at least 14 Calendar Days before the due date of the "
              "collection.")]
PRE_NOTIFICATION = "How many days before the collection must a creditor send the pre-notification for a SEPA Core " \
                   "Direct Debit?"


def test_a_reference_is_an_article_capitalised_words_and_a_document_noun_on_one_line():
    assert references(SCT[1].text) == {
        "SEPA Core Direct Debit": "SEPA Core Direct Debit Scheme Rulebook",
        "One-Leg Out Instant Credit Transfer": "One-Leg Out Instant Credit Transfer Scheme Rulebook"}
    # "Scheme" and "Implementation" end no name; a heading has no article
    assert references(SCT[3].text) == {
        "SEPA Credit Transfer": "SEPA Credit Transfer Scheme Rulebook",
        "SEPA Credit Transfer Scheme Inter-PSP": "SEPA Credit Transfer Scheme Inter-PSP Implementation Guidelines"}
    assert references('As required by "Swiss Implementation Guidelines for the QR-bill"') == {}  # one word
    assert references("under the Rulebook, the SCT Rulebook and\nthe SEPA Instant Credit\nTransfer Rulebook") == {}


def test_only_documents_the_question_names_and_no_shown_rulebook_is_are_elsewhere():
    titles = _titles(SCT, SDD)
    assert documents_elsewhere(PRE_NOTIFICATION, SCT, titles) == ["SEPA Core Direct Debit Scheme Rulebook"]
    # case and spacing aside, whole words only
    assert documents_elsewhere("the maximum length under the sepa core  direct debit?", SCT, titles) == [
        "SEPA Core Direct Debit Scheme Rulebook"]
    assert documents_elsewhere("How long is the SEPA Core Direct Debiting window?", SCT, titles) == []
    # the referring rulebook's own name ("SEPA Credit Transfer"), a question naming no referenced document,
    # the document itself shown, a rulebook whose title page was never read
    assert documents_elsewhere("How long may a SEPA Credit Transfer Scheme Inter-PSP message be?", SCT, titles) == [
        "SEPA Credit Transfer Scheme Inter-PSP Implementation Guidelines"]
    assert documents_elsewhere("How many days may a SEPA Credit Transfer take?", SCT, titles) == []
    assert documents_elsewhere(PRE_NOTIFICATION, [*SCT, *SDD], titles) == []
    assert documents_elsewhere(PRE_NOTIFICATION, SCT, {}) == []


def test_the_offline_model_refuses_a_value_of_a_referenced_documents_rules_but_answers_about_the_document():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store([*SCT, *SDD])))
    hits = [(f"S{i}", c) for i, c in enumerate(SCT[1:])]
    text = model.compose(PRE_NOTIFICATION, "en", hits)
    assert text.startswith("[not covered]"), text
    # the draft says what is true (the gate writes the user's refusal from the same facts): the name is
    # mentioned, the document is elsewhere
    assert "they refer to the SEPA Core Direct Debit Scheme Rulebook" in text and "do not mention" not in text, text
    # the document the question names is shown: its own rule answers
    text = model.compose(PRE_NOTIFICATION, "en", [("S9", SDD[1]), *hits])
    assert not text.startswith("[not covered]") and "14 Calendar Days" in text, text
    # what the referring rulebook says about the other document is its own text: no value of its rules is asked
    number = "What is the document number of the One-Leg Out Instant Credit Transfer scheme rulebook?"
    text = model.compose(number, "en", hits)
    assert not text.startswith("[not covered]") and "EPC158-22" in text, text


def test_the_refusal_names_the_document_the_rulebooks_refer_to_in_the_askers_language():
    elsewhere = ["SEPA Core Direct Debit Scheme Rulebook"]
    assert refusal_text("en", PRE_NOTIFICATION, SCT, ["epc_sct_rulebook"], elsewhere=elsewhere) == (
        "The rulebooks I can consult do not cover this question. For this they refer to the SEPA Core Direct "
        "Debit Scheme Rulebook, which I cannot consult. Searched: epc_sct_rulebook.")
    assert 'verweisen sie auf "SEPA Core Direct Debit Scheme Rulebook"' in refusal_text(
        "de", "Wie viele Tage vor der SEPA Core Direct Debit?", SCT, elsewhere=elsewhere)


async def test_the_gate_says_so_from_the_passages_shown_and_only_once_the_titles_are_read():
    titles = _titles(SCT, SDD)
    text = await gate_refusal(SCT, PRE_NOTIFICATION, document_titles=lambda: titles)
    assert "they refer to the SEPA Core Direct Debit Scheme Rulebook" in text
    assert "refer to" not in await gate_refusal([*SCT, *SDD], PRE_NOTIFICATION, document_titles=lambda: titles)
    assert "refer to" not in await gate_refusal(SCT, PRE_NOTIFICATION, document_titles=lambda: None)


async def test_the_server_refuses_naming_the_document_referred_to(tmp_path, sample_index):
    with offline_service_over(SCT, tmp_path, sample_index) as service:
        answer = final_of(await collect(service, PRE_NOTIFICATION)).answer
        assert answer.outcome == "refused", answer.text
        assert "they refer to the SEPA Core Direct Debit Scheme Rulebook, which I cannot consult" in answer.text
        answer = final_of(await collect(service, "Within which period must the Originator PSP send out the Recall?"))
        assert answer.answer.outcome == "answered" and "10 Banking Business Days" in answer.answer.text
