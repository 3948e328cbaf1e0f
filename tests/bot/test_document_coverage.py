"""A question that names two documents gets a quote from each (bot/offline/document_coverage.py,
OfflineRulebookModel._quote)."""

from __future__ import annotations

from bot.offline.document_coverage import named_slots, uncovered_slots
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import Span
from bot.offline.subject_terms import CorpusVocabulary
from tests.bot.test_named_documents import ADDENDUM, DELTA, EI, IID, RTP, _chunk, _titles
from tests.bot.test_subject_terms import _Store

EI_ID, RTP_ID = EI[0].rulebook_id, RTP[0].rulebook_id
IID_DE = [_chunk("six_qr-iid_qr-iban-de", 0, 1, "Version 1.0 – 15.11.2018 Schweizer QR-Rechnung Technische "
                                                 "Informationen zur QR-IID und QR-IBAN", language="de")]
APPROVAL = "When and by whom were the Exceptions and Investigations 2019-2020 and the Request To Pay message " \
           "definitions approved?"


def test_a_name_is_a_run_of_capitalised_words_that_fits_some_shown_rulebooks_but_not_all():
    titles = _titles(EI, RTP, ADDENDUM, IID, IID_DE, DELTA)
    shown = [EI_ID, RTP_ID, ADDENDUM[0].rulebook_id]
    assert named_slots(APPROVAL, shown, titles) == [frozenset({EI_ID}), frozenset({RTP_ID})]
    # "E&I" as the initials of title words, "ABN AMRO" joined; a sentence's first word names nothing
    assert named_slots("Does ABN AMRO follow the E&I rules? Exceptions differ.", shown, titles) == [
        frozenset({ADDENDUM[0].rulebook_id}), frozenset({EI_ID})]
    # a word in camel case names an element, never a document, whatever title words it spells
    assert named_slots("Is the MessageDefinitionReport element used in ABN AMRO files?", shown, titles) == [
        frozenset({ADDENDUM[0].rulebook_id})]
    # a number alone is a version or a field: many title pages hold one
    assert named_slots("What did version 1.0 of the ABN AMRO addendum change?", [
        IID[0].rulebook_id, ADDENDUM[0].rulebook_id, EI_ID], titles) == [frozenset({ADDENDUM[0].rulebook_id})]
    # a name every shown rulebook fits tells none apart; the English and German guide share one
    assert named_slots("What does the Message Definition Report say?", [EI_ID, RTP_ID], titles) == []
    assert named_slots("How is a QR-IBAN told apart in the IG QR-bill 2.3?", [
        IID[0].rulebook_id, IID_DE[0].rulebook_id, DELTA[0].rulebook_id], titles) == [
        frozenset({IID[0].rulebook_id, IID_DE[0].rulebook_id}), frozenset({DELTA[0].rulebook_id})]
    # "and" between two names that no title holds together joins two names
    assert named_slots("Give it as worded in the English and German versions of the SIX document.", [
        IID[0].rulebook_id, IID_DE[0].rulebook_id, DELTA[0].rulebook_id], titles) == [
        frozenset({IID[0].rulebook_id, DELTA[0].rulebook_id}), frozenset({IID_DE[0].rulebook_id})]
    # a rulebook whose title page was never read: nothing can be told
    assert named_slots(APPROVAL, [EI_ID, "unknown"], titles) == []


def test_only_a_question_naming_two_documents_asks_for_the_one_no_quote_comes_from():
    titles = _titles(EI, RTP, ADDENDUM)
    shown = [EI_ID, RTP_ID, ADDENDUM[0].rulebook_id]
    assert uncovered_slots(APPROVAL, [EI_ID, EI_ID], shown, titles) == [frozenset({RTP_ID})]
    assert uncovered_slots(APPROVAL, [RTP_ID, EI_ID], shown, titles) == []
    assert uncovered_slots("When was the Request To Pay report approved?", [EI_ID], shown, titles) == []


def test_the_offline_model_quotes_each_named_document():
    ei = _chunk(EI_ID, 1, 5, "The message definitions of the Exceptions and Investigations 2019-2020 set were approved "
                             "by the Payments Standards Evaluation Group on 09 January 2020.")
    rtp = _chunk(RTP_ID, 1, 4, "Approved by Payments SEG on 29 September 2020 as message definitions.")
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store([*EI, *RTP, ei, rtp])))
    hits = [("S1", ei), ("S2", rtp), ("S3", EI[0]), ("S4", RTP[0])]
    text = model.compose(APPROVAL, "en", hits)
    assert "09 January 2020" in text and "29 September 2020" in text, text
    # without the names of both, the closest passages answer alone
    text = model.compose("When and by whom were the message definitions of the Exceptions and Investigations "
                         "2019-2020 approved?", "en", hits)
    assert "09 January 2020" in text and "29 September 2020" not in text, text


def test_a_named_documents_span_in_another_language_is_held_to_the_other_language_bar():
    model = OfflineRulebookModel()
    german = Span("S1", IID_DE[0], 0, "Die QR-IBAN …", dense=0.84)
    english = Span("S2", IID[0], 0, "The QR-IBAN …", dense=0.84)
    assert model._relevant(german, "en") and not model._relevant(english, "en")
    assert not model._relevant(german)  # without the question's language: the question's own bar
