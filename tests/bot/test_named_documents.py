"""A question that names its document by title ("the QR-bill 2.3 change document", "the E&I messages")
is refused when no rulebook shown is that document, rather than answered from a sibling
(bot/offline/named_documents.py, OfflineRulebookModel.compose)."""

from __future__ import annotations

from bot.offline.named_documents import TitlePages, document_references, title_of, unnamed_documents
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload
from tests.bot.test_subject_terms import _Store


def _chunk(rulebook_id: str, index: int, page: int, text: str, language: str = "en") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook_id}:{index}", rulebook_id=rulebook_id,
                        rulebook_title=rulebook_id.replace("_", " "), page_start=page, page_end=page,
                        section_path=[str(index)], section_key=str(index), section_title=f"Part {index}",
                        parent_titles=[], chunk_index=index, text=text, language=language,
                        content_hash=f"{rulebook_id}{index}")


DELTA = [
    _chunk("six_ig-qr-bill-delta-guide-v2.3-en", 0, 1,
           "Version 2.3 – 20.11.2023 Swiss Payment Standards Swiss Implementation Guidelines for the QR-bill "
           "Documentation of changes between versions 2.2 and 2.3"),
    _chunk("six_ig-qr-bill-delta-guide-v2.3-en", 1, 9,
           "The rights to the Swiss cross image in the Swiss QR Code are held by the Swiss Confederation."),
]
IID = [
    _chunk("six_qr-iid_qr-iban-en", 0, 1,
           "Version 1.0 – 15.11.2018 Swiss QR-bill Technical information about the QR-IID and QR-IBAN"),
    _chunk("six_qr-iid_qr-iban-en", 1, 5,
           "The document can only be changed by SIX Interbank Clearing Ltd, which holds the rights to it. The "
           "payment part of the QR-bill shows the Swiss cross image in the Swiss QR Code."),
]
EI = [_chunk("iso20022_mdr2_exceptions_investigations_2019_2020", 0, 1,
             "Exceptions and Investigations - Maintenance 2019 - 2020 Message Definition Report - Part 2")]
RTP = [_chunk("iso20022_mdr2_request_to_pay_v1", 0, 1,
              "Request To Pay (RTP) Service Message Definition Report - Part 2"),
       _chunk("iso20022_mdr2_request_to_pay_v1", 1, 40,
              "Version 1.0 of this report was based on the NVB Implementation Guidelines for the Netherlands.")]
ADDENDUM = [_chunk("nl_addendum_xml_sct_initiation_6-0", 0, 1,
                   "ABNAMRO addendum on the XML message for SEPA Credit Transfer Initiation Implementation "
                   "Guidelines for the Netherlands Version 6.0")]


def _titles(*rulebooks: list[ChunkPayload]):
    pages = TitlePages()
    for chunk in (c for rulebook in rulebooks for c in rulebook):
        pages.add(chunk)
    return pages.freeze()


def test_a_document_is_named_by_the_article_qualifiers_with_a_name_and_a_document_noun():
    named = [r.text for r in document_references(
        "Who holds the rights to the Swiss cross image according to the QR-bill 2.3 change document?", "en")]
    assert named == ["the QR-bill 2.3 change document"]
    assert [r.text for r in document_references("How long can a name be in the E&I messages?", "en")] == [
        "the E&I messages"]
    # no name among the qualifiers, no article, a field or a kind after the noun, a possessive, a message
    for question in ("Which reference documents does the guide list?", "How many identifications must a "
                     "referred document line carry?", "What is document type SCOR?", "What is the rulebook's "
                     "amount attribute?", "In the debtor activation status report, when is X required?",
                     "What does the change document say?",
                     # a verb's object or the verb itself, several documents, a possessive, a comma in between
                     "Does the ADGM provide guidelines on AML?", "How should the MLRO document the checks?",
                     "How does the ADGM expect firms to document their risks?", "In the FSMR and AML Rulebooks, "
                     "who acts?", "What must the Fund's prospectus or equivalent document state?",
                     "What should the IRAP and ICAAP, including any specific documentation, show?"):
        assert document_references(question, "en") == [], question
    # other languages are not read
    assert document_references("Was sagt das Änderungsdokument zur QR-Rechnung 2.3?", "de") == []


def test_a_title_holds_stems_parts_joined_names_and_acronyms_of_its_words():
    titles = _titles(DELTA, IID, EI, RTP, ADDENDUM)
    delta, iid = titles["six_ig-qr-bill-delta-guide-v2.3-en"], titles["six_qr-iid_qr-iban-en"]
    assert delta.holds(("QR-bill", "2.3", "change")) and not iid.holds(("QR-bill", "2.3", "change"))
    assert delta.holds(("IG", "QR-bill")) and iid.holds(("SIX", "QR-IID", "and", "QR-IBAN", "technical"))
    assert titles["iso20022_mdr2_exceptions_investigations_2019_2020"].holds(("E&I",))
    assert not titles["iso20022_mdr2_request_to_pay_v1"].holds(("E&I",))
    assert titles["iso20022_mdr2_request_to_pay_v1"].holds(("RTP",))
    assert titles["iso20022_mdr2_exceptions_investigations_2019_2020"].holds(("Exceptions", "2019-2020"))
    assert titles["nl_addendum_xml_sct_initiation_6-0"].holds(("ABN", "AMRO"))
    assert not title_of("SEPA Credit Transfer Scheme Rulebook", "en").holds(("SEPA", "Core", "Direct", "Debit"))
    # the language a document is written in names it too ("the German HHD-UC specification")
    tan = title_of("de tan hhd uc v14 HandHeld-Device (HHD) zur TAN-Erzeugung", "de")
    assert tan.holds(("German", "HHD-UC")) and not tan.holds(("French", "HHD-UC"))


def test_only_documents_no_shown_rulebook_is_and_no_passage_names_are_unnamed():
    titles = _titles(DELTA, IID, EI, RTP, ADDENDUM)
    question = "Which chapter of the QR-bill 2.2 to 2.3 change documentation covers the database?"
    assert unnamed_documents(question, "en", ["six_qr-iid_qr-iban-en"], titles, IID[1].text) == [
        "the QR-bill 2.2 to 2.3 change documentation"]
    assert unnamed_documents(question, "en", ["six_qr-iid_qr-iban-en", "six_ig-qr-bill-delta-guide-v2.3-en"],
                             titles, IID[1].text) == []
    # a document the passages write about ("based on the NVB Implementation Guidelines") may be asked about
    based = "Which version of the NVB implementation guideline was version 1.0 based on?"
    assert unnamed_documents(based, "en", ["iso20022_mdr2_request_to_pay_v1"], titles, RTP[1].text) == []
    assert unnamed_documents(based, "en", ["iso20022_mdr2_request_to_pay_v1"], titles, RTP[0].text) == [
        "the NVB implementation guideline"]
    # a title the question shortens, written whole by a passage: "the SCT Implementation Guidelines" is the
    # rulebook's "SCT Inter-PSP Implementation Guidelines", two words between are the most
    shortened = "What does the rulebook say about the SCT Implementation Guidelines?"
    assert unnamed_documents(shortened, "en", ["iso20022_mdr2_request_to_pay_v1"], titles,
                             "defined in the SCT Inter-PSP Implementation Guidelines (IG)") == []
    assert unnamed_documents(shortened, "en", ["iso20022_mdr2_request_to_pay_v1"], titles,
                             "the SCT scheme as set out in the EPC's rules for Implementation Guidelines") == [
        "the SCT Implementation Guidelines"]
    # an acronym of the question spelled out by the passage, in capitalised words: "SCT" is "SEPA Credit Transfer"
    assert unnamed_documents(shortened, "en", ["iso20022_mdr2_request_to_pay_v1"], titles,
                             "The SEPA Credit Transfer Scheme Implementation Guidelines are available as") == []
    assert unnamed_documents(shortened, "en", ["iso20022_mdr2_request_to_pay_v1"], titles,
                             "some common things about Implementation Guidelines") == [
        "the SCT Implementation Guidelines"]
    # a rulebook whose title page was never read: nothing can be told
    assert unnamed_documents(question, "en", ["unknown"], titles, "") == []


def test_the_offline_model_refuses_naming_the_document_when_only_a_sibling_is_shown():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store([*DELTA, *IID])))
    question = "Who holds the rights to the Swiss cross image in the QR code according to the 2.3 change document?"
    sibling = [("S1", IID[1])]
    text = model.compose(question, "en", sibling)
    assert text.startswith("[not covered]") and "the 2.3 change document" in text, text
    text = model.compose(question, "en", [("S1", DELTA[1]), ("S2", IID[1])])
    assert not text.startswith("[not covered]") and "Swiss Confederation" in text, text
    # without a vocabulary no title page is known: the sibling's quotes are weighed as before
    text = OfflineRulebookModel(min_lexical=0.0).compose(question, "en", sibling)
    assert not text.startswith("[not covered]"), text
