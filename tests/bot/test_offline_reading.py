"""The offline model's reading rules on their own: advice requests, place names, section
references, what counts as a heading, and sentences the PDF broke in two."""

from __future__ import annotations

from bot.offline.advice_request import is_advice_request
from bot.offline.cross_reference import SectionReference, asked_section, references, wants_whole_section
from bot.offline.exonyms import other_forms, rendering_in
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_scoring import asked_fact, chunk_spans, is_heading, prose
from knowledge.payload import ChunkPayload


def _chunk(text: str, **fields: object) -> ChunkPayload:
    base = {"chunk_id": "PS-02:14", "rulebook_id": "PS-02", "rulebook_title": "Aurora Credit Transfer Rulebook",
            "page_start": 5, "page_end": 5, "chunk_index": 14, "content_hash": "h", "section_path": ["4", "4.1"],
            "section_title": "Execution and cut-off times", "text": text}
    return ChunkPayload.model_validate({**base, **fields})


def test_advice_requests_are_recognised_in_four_languages_and_rule_questions_are_not():
    advice = ["Should I invest my savings in the Aurora Kapitaalbescherming 2030 bond?",
              "Which savings product would you recommend for my retired mother?",
              "Is it a good investment for me?",
              "Moet ik beleggen in dit product?", "Raadt u mij dit product aan?",
              "Est-ce que je devrais conseiller à mon client d'acheter le produit BE6493028177 ?",
              "Dois-je acheter ce certificat ?", "Que me conseillez-vous ?",
              "Sollte ich das Zertifikat kaufen?", "Was empfehlen Sie mir?"]
    rules = ["Within what time must a payer report a lost payment device?",
             "Should a beneficiary PSP reject a transfer with an invalid IBAN?",
             "Which savings product pays a loyalty bonus?", "Welke code moet de handelaar vermelden?",
             "Quel numéro les commerçants doivent-ils indiquer ?", "Welche Länderkennung ist vorgesehen?"]
    assert [q for q in advice if not is_advice_request(q)] == []
    assert [q for q in rules if is_advice_request(q)] == []


def test_place_names_are_found_in_their_other_languages_only():
    assert "Nederland" in other_forms("Pays-Bas") and "Luxembourg" in other_forms("Luxemburg")
    assert rendering_in("Pays-Bas", "handelaars die in nederland gevestigd zijn") == "Nederland"
    assert rendering_in("Luxemburg", "les commercants etablis au luxembourg") == "Luxembourg"
    assert other_forms("Visa") == () and rendering_in("PayPal", "paypal is not a place") is None


def test_section_references_in_passages_and_questions():
    assert references("The beneficiary PSP may charge a recall fee as set out in Rulebook PS-08, section 3.3.") == [
        SectionReference("PS-08", "3.3")]
    assert references("see section 4.3.2.3 and section 3.2 of Rulebook PS-06.") == [
        SectionReference(None, "4.3.2.3"), SectionReference("PS-06", "3.2")]
    assert asked_section("Summarise section 2.2 'Description of Scope of the Scheme' of the SCT rulebook.") == \
        SectionReference(None, "2.2")
    assert wants_whole_section("What does section 4.3 'Change management cycle' say?")
    assert not wants_whole_section("What is the fee in section 3.3?")
    assert asked_section("What is the fee for a recall?") is None


def test_headings_titles_questions_and_tables_of_contents_are_not_quoted():
    chunk = _chunk("x")
    for line in ["4.1 Execution and cut-off times", "Execution and cut-off times", "Chapitre 2 Affiliation des "
                 "commerçants", "3.3.1 Can a biller use only a QR-IBAN?", "Aurora Credit Transfer Rulebook",
                 "5Y Jump Certificate SOLEDVSP with 87.50% Protection", "ISIN BE6493028177",
                 "Table of Contents 0 Document Information 6 0.1 References 6 0.1.1 Defined Terms 7 0.2 Change "
                 "History 7 0.3 Purpose of Document 12",
                 "6 2 Information about the QR-IID .............................................................",
                 "1.3.2 QR-IID . . . . . . . . . . . . 6"]:
        assert is_heading(line, chunk), line
    for sentence in ["The originator PSP submits payments to the CSM before the cut-off, 15:30 CET.",
                     "A file may contain at most 100,000 transactions and may not exceed 50 MB."]:
        assert not is_heading(sentence, chunk), sentence


def test_a_sentence_broken_over_two_paragraphs_is_one_span_again():
    chunk = _chunk("4.1 Execution and cut-off times\n\nThe originator PSP submits payments to the CSM before the "
                   "cut-off of the last settlement cycle, 15:30\n\nCET. A payment submitted after 15:30 CET is "
                   "settled in the next cycle.\n\nEnthält Control einen Wert, den das HHD nicht unterstützt, so "
                   "ist die Übertragung mit der Meldung\n\n\"Fehler 25\"\n\nabzubrechen.")
    assert "cycle, 15:30 CET. A payment" in prose(chunk)
    texts = [s.text for s in chunk_spans("S1", chunk, 0)]
    assert texts == ["The originator PSP submits payments to the CSM before the cut-off of the last settlement "
                     "cycle, 15:30 CET.", "A payment submitted after 15:30 CET is settled in the next cycle.",
                     "Enthält Control einen Wert, den das HHD nicht unterstützt, so ist die Übertragung mit der "
                     "Meldung \"Fehler 25\" abzubrechen."]


def test_what_kind_of_fact_a_question_asks_for():
    assert asked_fact("Which ISO 20022 message does the originator PSP use?") == "identifier"
    assert asked_fact("Under which reason code can a debtor claim a refund?") == "identifier"
    assert asked_fact("Which missing-information code would its UnableToApply carry?") == "identifier"  # hyphenated
    # plural: "which … codes" asks for codes as much as "which code" (a "when" later is no quantity asked)
    assert asked_fact("Which status reason codes can a provider use when it rejects an enrolment?") == "identifier"
    assert asked_fact("Welche Codes kennt die Nachricht?") == "identifier"
    assert asked_fact("Quels codes de motif sont utilisés ?") == "identifier"
    assert asked_fact("Welke berichten stuurt de bank?") == "identifier"
    assert asked_fact("How long is a Device Certificate valid?") == "quantity"
    assert asked_fact("Hoeveel kost een terugbetaling?") == "quantity"
    assert asked_fact("Can I pay with my fridge?") is None
    # where to send, find or ask: an e-mail or web address, in each language
    for question in ["Where do I send a change request for the guidelines?",
                     "Which website does the addendum point to for the calendar?",
                     "Waar kan ik de codelijst downloaden?", "Où envoyer une demande de modification ?",
                     "Wohin sende ich Änderungswünsche?"]:
        assert asked_fact(question) == "contact", question
    # a place in a message or on a page, or contact details as a subject, are not
    for question in ["Where must the payment part be positioned?", "Waar moet ik op letten?",
                     "For contact details of a party, is the channel type mandatory?"]:
        assert asked_fact(question) != "contact", question


def test_a_question_asking_where_to_send_quotes_the_address():
    """The sentence naming the change requests and the guidelines shares most words with the question;
    the one with the e-mail address is what it asks for, and it is quoted too (two sentences further on:
    not as the sentence after the best quote)."""
    chunk = _chunk("Change requests for the implementation guidelines are collected and reviewed by the "
                   "standards team once a year.\n\nThe team publishes its decisions in November.\n\n"
                   "Requests can be submitted at any time via changes@example-scheme.org.",
                   chunk_id="IG:3", rulebook_id="IG", section_title="Changes")
    question = "Where do I send a change request for the implementation guidelines?"
    answer = OfflineRulebookModel(min_lexical=0.3).compose(question, "en", [("S1", chunk)])
    assert "changes@example-scheme.org" in answer
    without = OfflineRulebookModel(min_lexical=0.3).compose(
        question.replace("Where do I send", "Who reviews"), "en", [("S1", chunk)])
    assert "changes@example-scheme.org" not in without


def test_a_lead_in_and_its_short_list_are_one_span_but_long_items_stay_apart():
    chunk = _chunk("Before initiating the Recall procedure, the PSP checks one of the following reasons only:\n\n"
                   "• Duplicate sending;\n\n• Technical problems;\n\n• Fraudulent origination.\n\n"
                   "The main characteristics of a reject are:\n\n• the transferred amount will be the Original "
                   "Amount of the Credit Transfer Instruction, whatever the reason for the reject may be;\n\n"
                   "• the reject is sent back at the latest on the next Banking Business Day after it was rejected.")
    texts = [s.text for s in chunk_spans("S1", chunk, 0)]
    assert texts[0] == ("Before initiating the Recall procedure, the PSP checks one of the following reasons only: "
                        "• Duplicate sending; • Technical problems; • Fraudulent origination.")
    assert "• the reject is sent back at the latest on the next Banking Business Day after it was rejected." in texts


def test_a_rulebook_named_by_its_title_is_covered_and_the_passage_pointing_to_the_answer_is_cited():
    """The question names "the Disputes rulebook", which no passage repeats, and starts from its
    sentence that points to PS-03 section 5.1: the answer quotes both rulebooks."""
    disputes = _chunk("Direct debit refunds follow their own deadlines: see Rulebook PS-03, section 5.1.",
                      chunk_id="PS-09:7", rulebook_id="PS-09", rulebook_title="Disputes and Chargebacks Rulebook",
                      section_path=["4", "4.2", "4.2.1"], section_title="Refund deadlines")
    refunds = _chunk("A debtor may claim an MD06 refund of a direct debit within 8 weeks after the debit date.",
                     chunk_id="PS-03:9", rulebook_id="PS-03", rulebook_title="Aurora Direct Debit Rulebook",
                     section_path=["5", "5.1"], section_title="Refund rights", page_start=6, page_end=6)
    question = ("The Disputes rulebook says direct debit refunds follow their own deadlines. "
                "Within what period can a debtor claim an MD06 refund?")
    # what is cited, not the answer/refuse bar: without an encoder only word overlap counts
    answer = OfflineRulebookModel(min_lexical=0.5).compose(question, "en", [("S1", refunds), ("S2", disputes)])
    assert "8 weeks" in answer and "[S1]" in answer and "[S2]" in answer
    unnamed = question.replace("Disputes", "Tariffs")
    assert "Tariffs" in OfflineRulebookModel().compose(unnamed, "en", [("S1", refunds), ("S2", disputes)])
