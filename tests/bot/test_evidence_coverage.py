"""Evidence coverage: a passage on the question's topic that holds no value of the kind asked (no fee,
no duration, no count), or that leaves the question's own subject unmentioned, does not answer it."""

from __future__ import annotations

import pytest

from bot.offline.asked_value import asked_unit, asked_value, holds_value
from bot.offline.offline_model import Decision, OfflineRulebookModel
from bot.offline.span_scoring import uncovered_terms
from knowledge.payload import ChunkPayload


@pytest.mark.parametrize(("question", "kind"), [
    ("How much does SIX charge a bank for assigning a QR-IID?", "money"),
    ("What does a directory provider charge for an enrolment?", "money"),
    ("What is the maximum amount of an instant payment?", "money"),
    ("Wie hoch ist die Gebühr für eine QR-IID?", "money"),
    ("Hoeveel kost een terugbetaling?", "money"),
    ("Quels sont les frais d'un virement ?", "money"),
    ("After how many days should the assigner send a status request?", "duration"),
    ("How much notice must a participant give to leave the scheme?", "duration"),
    ("Binnen hoeveel werkdagen moet de bank antwoorden?", "duration"),
    ("What is the daily cut-off time for credit transfer files?", "duration"),
    ("How many address lines can a postal address have?", "count"),
    ("What is the maximum number of transactions in a batch?", "count"),
    ("What is ChargeBearerType1Code SLEV?", None),  # "Charge" inside a code name asks for no amount
    ("How long can the creditor's instruction be?", "length"),  # a length, not a duration
    ("How long may a creditor reference (SCOR) be on a QR-bill?", "length"),
    ("What is the maximum length of an ExternalCancellationReason1Code?", "length"),
    ("How many characters of remittance data can a credit transfer carry?", "length"),
    ("Combien de caractères numériques comporte une référence QR ?", "length"),
    ("Wie lang ist die IBAN auf einer QR-Rechnung?", "length"),
    # Dutch "hoe lang mag … zijn" is "how long may … be"; "hoe lang moet … uniek zijn" asks how long in time
    ("Wat bevat het element TaxIdentification en hoe lang mag het zijn?", "length"),
    ("Hoe lang kan de referentie maximaal zijn?", "length"),
    ("Hoe lang moet de Message Identification uniek zijn bij ABN AMRO?", "duration"),
    ("Hoe lang kunnen gegevens bewaard worden?", "duration"),
    ("How long is the mandate valid?", "duration"),  # "valid": how long in time
    ("Who may send a cancellation request?", None),
    # "the Commission" is an institution, not a charge; "after how many runs" counts runs, not time
    ("How many infringement procedures did the Commission launch for failures to transpose PSD2?", "count"),
    ("After how many failed checksum runs does the device abort the transfer?", "count"),
    ("What commission does the acquirer charge?", "money"),
    # a rate named as the setting of another question asks for no amount (ObliQA: "When determining the
    # appropriate discount rate …, what rating must the securities hold?")
    ("When determining the discount rate, what rating must the sovereign securities hold?", None),
    # a printed part's width or height is a length in millimetres
    ("Quelle largeur doit avoir la bordure autour du Swiss QR Code ?", "length"),
    ("How wide is the receipt of a QR-bill?", "length"),
    # French elides "de" before a vowel: "combien d'années" asks for years as "combien de jours" asks for days
    ("Pendant combien d'années une banque doit-elle archiver les messages camt.029 ?", "duration"),
    ("Combien d'éléments le bloc peut-il contenir ?", "count"),
    # a date asked is a time ("21 November 2025"), in each language; a date's format or field is not
    ("Bis zu welchem Datum mussten die Banken eine QR-IBAN zuteilen?", "duration"),
    ("By which date must banks give their customers a QR-IBAN?", "duration"),
    ("Tot welke datum is versie 2.2 geldig?", "duration"),
    ("Jusqu'à quelle date la version 2.2 reste-t-elle valable ?", "duration"),
    ("Which date format is used for the requested execution date?", None),
    # the hours of a day a service is open are a time, in each language
    ("During which hours is the online tool for looking up QR-IBANs available?", "duration"),
    ("Tijdens welke uren is de tool beschikbaar?", "duration"),
    ("À quelles heures le service est-il ouvert ?", "duration"),
    ("Zu welchen Uhrzeiten ist das Tool erreichbar?", "duration"),
    # "how much … pay / cost" in each language asks for money; "how much time" still for a duration
    ("Combien un établissement de paiement doit-il payer pour adhérer au schéma ?", "money"),
    ("Combien coûte une recherche de QR-IBAN ?", "money"),
    ("Hoeveel moet een deelnemer betalen om toe te treden?", "money"),
    ("Wie viel muss die Bank für den Beitritt zahlen?", "money"),
    ("Combien de temps la banque a-t-elle pour répondre ?", "duration"),
    ("Hoeveel dagen heeft de bank om te antwoorden?", "duration"),
    # the number of characters is a length, the number of transactions a count
    ("What is the maximum number of characters allowed for the beneficiary's name?", "length"),
    ("Quel est le nombre maximal de caractères du nom du bénéficiaire ?", "length"),
    ("Wie hoch ist die maximale Anzahl der Zeichen im Verwendungszweck?", "length"),
    # a period or duration asked by that word, in each language; a period that names a code asks for none
    ("By what maximum period can the reference date be set after the fund is established?", "duration"),
    ("Within which period can a debtor claim an unconditional refund?", "duration"),
    ("Quelle est la durée maximale entre la StartDate et l'EndDate ?", "duration"),
    ("Wat is de looptijd van het product?", "duration"),
    ("Welche Laufzeit hat das Zertifikat?", "duration"),
    ("What does HLF2 mean as a tax record period?", None),
    ("What is a Dauerauftrag?", None),
    # a penalty asked as an amount is money; a penalty regime is not
    ("What penalty does a bank pay if its customer sends a QR reference with an IBAN?", "money"),
    ("What is the maximum financial penalty in euro the committee can impose?", "money"),
    ("What penalties or actions can be expected if a fund manager fails to notify the regulator?", None),
])
def test_the_kind_of_value_a_question_asks_for(question, kind):
    assert asked_value(question) == kind


@pytest.mark.parametrize(("text", "kind", "unit", "held"), [
    ("Refund processing fee EUR 0.25 per refund.", "money", None, True),
    ("The fee is 0.18 % of the amount.", "money", None, True),
    ("Enrolment is free of charge.", "money", None, True),
    ("A QR-IID is assigned to each financial institution.", "money", None, False),
    ("In the Swiss QR Code, 100 alphanumeric characters are available per element.", "money", None, False),
    ("The assignee answers within 10 business days.", "duration", "day", True),
    ("The assignee answers within two weeks.", "duration", "day", True),
    ("The assignee answers within 2 hours.", "duration", "day", False),
    # a calendar date says when, not how many days: it answers "by which date", not "how many days"
    ("Approved by Payments SEG on 29 September 2020.", "duration", "day", False),
    ("Approved by Payments SEG on 29 September 2020.", "duration", None, True),
    ("The version is valid until 2030-06-03, that is 30 days after publication.", "duration", "day", True),
    ("Files received after 15:30 CET are executed the next day.", "duration", None, True),
    ("The message is sent when no information has been received.", "duration", None, False),
    ("MissingInformation <MssngInf> [0..10]", "count", None, True),
    ("The message is composed of 10 MessageBuildingBlocks.", "count", None, True),
    ("SIX Interbank Clearing archives deleted QR-IIDs for 10 years.", "count", None, False),  # years count no IIDs
    ("See section 3 and page 250 of Release 4.6 (2019).", "count", None, False),  # references, not counts
    ("| Seite 12 von 14 | Version 1.0 – 15.11.2018 |", "count", None, False),  # a page's own number
    # a date's day counts nothing ("21 November 2025"); a count beside a date still does
    ("Version 2.3 of 21 November 2025 replaces 2.2 (22 February 2021).", "count", None, False),
    ("On 21 November 2025 the guide gained 12 new fields.", "count", None, True),
    ("The technical maximum of a batch is different per channel.", "count", None, True),  # "it varies" answers
    ("The fee depends on the agreement with the acquirer.", "money", None, True),
    # what depends here is the assignee's course of action, not a time: no deadline is stated
    ("Depending on the result of the investigation by a case assignee, the payment is returned.", "duration", "day",
     False),
    ("It would be redundant to send a report when followed immediately by a resolution.", "duration", "day", False),
    ("It would be redundant to send a report when followed immediately by a resolution.", "duration", None, True),
    ("Settlement takes place on the next business day.", "duration", "day", True),
    ("… a dealer in precious metals for a price of USD15,000 or more.", "money", None, True),  # code against amount
    ("The EUROSTAT figures were published.", "money", None, False),
    # a length as the guides write it, and numbers that are no length
    ("The creditor reference may have up to 25 characters.", "length", None, True),
    ("Type: Text Format pattern (a-zA-Z0-9){4}", "length", None, True),
    ("Datatype: \"Max140Text\" on page 366", "length", None, True),
    ("ActiveCurrencyAndAmount fractionDigits: 5 totalDigits: 18", "length", None, True),
    ("The QR reference is a 27-digit number.", "length", None, True),
    ("The QR reference must always have 26 numerical characters followed by a check digit.", "length", None, True),
    ("See table 5 of the characters annex.", "length", None, False),
    ("In the Swiss QR Code section the 5 mm wide border must be ensured.", "length", None, True),
    ("The payment part is 210 mm wide and 105 mm high.", "length", None, True),
    ("QR-IIDs consist exclusively of numbers from 30000 to 31999.", "length", None, False),
    ("The message is composed of 10 MessageBuildingBlocks.", "length", None, False),
])
def test_whether_a_passage_holds_a_value_of_that_kind(text, kind, unit, held):
    assert holds_value(text, kind, unit) is held


@pytest.mark.parametrize(("question", "unit"), [
    ("At what time of day is the cut-off for credit transfers?", "clock"),
    ("What is the daily cut-off time for credit transfer files?", "clock"),
    ("Om hoe laat worden handelaars in Luxemburg uiterlijk uitbetaald?", "clock"),
    ("À quelle heure le paiement au commerçant a-t-il lieu ?", "clock"),
    ("Um wie viel Uhr schließt das System?", "clock"),
    ("During which hours is the online tool for looking up QR-IBANs available?", "clock"),
    ("Tijdens welke uren is de tool beschikbaar?", "clock"),
    ("How many hours does the assignee have?", "hour"),  # a period counted in hours, not the hours of a day
    ("Within what time must a payer report a lost payment device?", None),  # a period, not a time of day
    ("How long does it take?", None),
])
def test_a_question_asking_a_time_of_day(question, unit):
    assert asked_unit(question) == unit


@pytest.mark.parametrize(("text", "held"), [
    ("Files received after 15:30 CET are executed the next day.", True),
    ("Le versement a lieu au plus tard à 08h00 le premier jour ouvrable.", True),
    ("Files are accepted until 4 p.m. on business days.", True),
    ("Cut-off times differ per PSP.", True),  # "it varies" answers a time of day too
    # a period says how long, not when
    ("The amount is credited within one Banking Business Day following the receipt.", False),
    ("Cut-off Times must be advised by an Originator PSP to the Originator.", False),
    # what depends on the reason is a period, in another quote than the cut-off
    ("Cut-off Times must be advised by an Originator PSP.\n"
     "The Recall is sent within 10 Banking Business Days or 13 months (depending on the reason).", False),
])
def test_whether_a_passage_states_a_time_of_day(text, held):
    assert holds_value(text, "duration", "clock") is held


def test_what_differs_must_be_the_value_in_the_same_quote():
    # the amount and the "depends on" sit in two quotes of one answer: no amount is stated
    answer = ("The maximum amount of the transfer is set in the attribute AT-04.\n"
              "The period depends on the reason code.")
    assert not holds_value(answer, "money")
    assert holds_value("The fee depends on the agreement with the acquirer.\nIt is paid monthly.", "money")


def test_a_duration_asked_in_years_wants_months_or_years():
    assert asked_unit("For how many years must a participant keep records?") == "year"
    assert not holds_value("The participant must execute this obligation on the next Banking Business Day.",
                           "duration", "year")
    assert not holds_value("The Secretariat decides within 60 Calendar Days.", "duration", "year")
    assert holds_value("Records are kept for 18 months after the transaction.", "duration", "year")
    assert holds_value("Records are kept for five years.", "duration", "year")
    assert holds_value("The Secretariat decides within 60 Calendar Days.", "duration", "day")


def test_a_duration_asked_in_days_wants_days_or_longer():
    assert asked_unit("How many business days does the assignee have?") == "day"
    assert asked_unit("Within how many hours must it reply?") == "hour"
    assert asked_unit("How long does it take?") is None


def _chunk(text: str, language: str = "en") -> ChunkPayload:
    return ChunkPayload(chunk_id="PS-01:0", rulebook_id="PS-01", rulebook_title="Acceptance", page_start=1,
                        page_end=1, section_path=["1"], section_key="1", section_title="Collateral", chunk_index=0,
                        text=text, tables_csv=[], content_hash="h", language=language)


def test_the_questions_own_terms_that_no_passage_holds():
    hits = [("S1", _chunk("Participants pledge government bonds as collateral for their settlement account."))]
    missing, asked = uncovered_terms("What haircut applies to government bonds?", "en", hits)
    assert missing == ["haircut", "appli"] and asked == 4  # haircut, appli, govern, bond: "what" is no term
    # the words that say how it is asked ("how many", "what does it say") need no passage
    missing, _ = uncovered_terms("How many government bonds must they pledge?", "en", hits)
    assert missing == []
    # a passage in another language cannot be compared word by word
    assert uncovered_terms("What haircut applies?", "en", [("S1", _chunk("Les obligations…", "fr"))]) is None


def _decision(slot=None, slot_dense=None, uncovered=None, dense=0.9, lexical=0.6):
    return Decision("q", 5, [], dense, lexical, False, None, 0, True, slot=slot, max_dense_slot=slot_dense,
                    uncovered=uncovered)


def test_a_question_asking_for_a_value_no_close_span_holds_is_refused():
    model = OfflineRulebookModel(min_dense_slot=0.84, max_uncovered=0.5)
    assert not model.answers(_decision(slot="money"))  # the passages on topic state no fee at all
    assert not model.answers(_decision(slot="duration", slot_dense=0.80))  # only a span far off holds one
    assert model.answers(_decision(slot="duration", slot_dense=0.87))  # covered: answered
    assert model.answers(_decision())  # a question asking for no value is not checked
    assert not model.answers(_decision(uncovered=0.6))  # most of its subject is in no passage
    assert model.answers(_decision(uncovered=0.25))
    assert model.answers(_decision(uncovered=None))  # not measured (another language)
    model.answer_everything()  # a calibration run answers everything, coverage or not
    assert model.answers(_decision(slot="money", uncovered=1.0))


def test_without_an_encoder_a_span_holding_the_value_is_enough():
    model = OfflineRulebookModel(min_dense_slot=0.84)
    unmeasured = Decision("q", 5, [], None, 0.6, False, None, 0, True, slot="money", slot_held=True)
    assert model.answers(unmeasured)
    assert not model.answers(Decision("q", 5, [], None, 0.6, False, None, 0, True, slot="money"))


async def test_a_fee_question_is_refused_when_no_passage_left_states_the_fee(make_service, knowledge):
    from evals.exclusion import HiddenRulebooks
    from tests.bot.conftest import collect, final_of

    question = "What is the scheme fee for a domestic card-present payment?"
    seen: list[Decision] = []
    model = OfflineRulebookModel(encoder=knowledge.searcher.encoder, observer=seen.append)
    covered = final_of(await collect(make_service(model=model), question)).answer
    assert covered.outcome == "answered" and "0.18 %" in covered.text
    assert seen[-1].slot == "money" and seen[-1].max_dense_slot is not None
    # the fee schedule hidden: what is left speaks of scheme fees (who sets them, where they are set)
    # but states none, and a loosely related quote is worse than a refusal
    seen.clear()
    hidden = HiddenRulebooks(knowledge, ["PS-08", "PS-05-FR", "PS-05-NL"])
    uncovered = final_of(await collect(make_service(model=model, knowledge=hidden), question)).answer
    assert uncovered.outcome == "refused", uncovered.text
    assert seen[-1].max_dense is not None and seen[-1].max_dense >= 0.8  # close in meaning, all the same
    assert not model.covers(seen[-1])  # refused for want of a fee, whatever the other bars say
    assert "Searched:" in uncovered.text and "PS-08" not in uncovered.text


def test_a_version_or_a_quoted_title_no_passage_holds_is_absent():
    seen: list[Decision] = []
    model = OfflineRulebookModel(observer=seen.append)
    hits = [("S1", _chunk("Version 6.0 of the addendum adds the batch booking field. 4.3 Change requests: "
                          "participants submit change requests once a year."))]
    assert model.compose("What is new in version 7.0 of the addendum?", "en", hits).startswith("[not covered]")
    assert seen[-1].absent == ["version 7.0"]
    model.compose("What is new in version 6.0 of the addendum?", "en", hits)
    assert seen[-1].absent == []
    model.compose("What does section 4.3 'Change management cycle' say?", "en", hits)
    assert seen[-1].absent == ["'Change management cycle'"]
    model.compose("What does section 4.3 'Change requests' say?", "en", hits)
    assert seen[-1].absent == []
    # a guide writes an element's name run together: the quoted words name its record
    records = [("S1", _chunk("CreditorTradingName <CdtrTradgNm> Presence: [0..1] Definition: Name used by a "
                             "business for commercial purposes."))]
    model.compose("What does 'creditor trading name' mean in the enrolment data?", "en", records)
    assert seen[-1].absent == []
    model.compose("What does 'creditor legal name' mean in the enrolment data?", "en", records)
    assert seen[-1].absent == ["'creditor legal name'"]


def test_an_answer_whose_quotes_hold_no_value_of_the_kind_asked_is_refused():
    """The topic found, the value not: "The EPC may set an annual participation fee …" names the fee
    and states no amount. The slot bar is off here (no encoder to measure spans with), so only the
    check on the composed answer decides."""
    seen: list[Decision] = []
    hits = [("S1", _chunk("The EPC may set an annual scheme participation fee to recover the costs of scheme "
                          "management. The fee is levied per participant."))]
    question = "How much is the annual scheme participation fee?"
    model = OfflineRulebookModel(min_dense_slot=None, observer=seen.append)
    assert model.compose(question, "en", hits).startswith("[not covered]")
    assert seen[-1].slot == "money" and seen[-1].value_quoted is False
    assert OfflineRulebookModel(min_dense_slot=None, require_value_quoted=False).compose(
        question, "en", hits).startswith("Here is what the rulebooks say")
    stated = [("S1", _chunk("The annual scheme participation fee is EUR 45,000 per participant."))]
    assert "EUR 45,000" in model.compose(question, "en", stated)
    assert seen[-1].value_quoted is True
    # naming the fee without asking for it: who sets it, or whether it may be charged
    for other in ("Who sets the annual scheme participation fee?", "Can the EPC set an annual participation fee?"):
        assert model.compose(other, "en", hits).startswith("Here is what the rulebooks say"), other
        assert seen[-1].value_quoted is None


def test_a_version_written_after_a_name_that_the_passages_never_give_that_name_is_absent():
    """"the QR-bill 2.4 delta guide": the passages write the guide's versions ("IG QR-bill 2.2 … 2.3") and hold
    2.4 only as a chapter's number, which is no version 2.4."""
    seen: list[Decision] = []
    model = OfflineRulebookModel(observer=seen.append)
    hits = [("S1", _chunk("This change document informs the reader of changes between the versions of IG QR-bill "
                          "2.2 and 2.3. Chapter 2.4 now describes the alternative procedures field."))]
    assert model.compose("What does the QR-bill 2.4 delta guide change for the alternative procedures field?",
                         "en", hits).startswith("[not covered]")
    assert seen[-1].absent == ["QR-bill 2.4"]
    for held in ("What does the QR-bill 2.3 delta guide change for the alternative procedures field?",
                 "What does Chapter 2.4 say about the alternative procedures field?",  # a place, not a version
                 "What does the IG 2.4 say about the alternative procedures field?"):  # IG is written with none
        model.compose(held, "en", hits)
        assert seen[-1].absent == [], held
