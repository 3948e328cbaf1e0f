"""Across languages, the question's acronyms and codes must be written in the evidence's documents
(bot/offline/neutral_terms.py, OfflineRulebookModel.covers)."""

from __future__ import annotations

from bot.offline.neutral_terms import missing_neutral_share, neutral_coverage, neutral_words
from bot.offline.subject_terms import CorpusVocabulary
from tests.bot.test_subject_terms import FILLER, _chunk, _span, _Store

QR = _chunk("QR", 0, "QR-bill guide", "QR reference", "The QR reference has 26 numerical characters.")
ISO = _chunk("ISO", 0, "ISO 20022 guide", "Data types", "Exact2NumericText: a numeric string of 2 digits.")


def test_neutral_words_are_acronyms_and_codes():
    assert neutral_words("Combien de caractères comporte une référence QR ?") == ["QR"]
    assert neutral_words("Welcher Nummernbereich ist für QR-IIDs reserviert?") == ["QR-IIDs"]
    assert neutral_words("Wat is de KvK en camt.056.001.08?") == ["KvK", "camt.056.001.08"]
    # a German word joined to the acronym is not written alike in every language ("QR-Rechnung": QR-bill)
    assert neutral_words("Dokumentiert das Änderungsdokument zur QR-Rechnung jede Anpassung?") == ["QR"]
    assert neutral_words("Que doivent indiquer les commerçants aux Pays-Bas en 2024 ?") == []  # a name, a year


def test_evidence_in_another_language_must_write_the_questions_codes():
    vocabulary = CorpusVocabulary(_Store([QR, ISO, *FILLER]))
    question = "Combien de caractères numériques comporte une référence QR ?"
    rows = neutral_coverage(question, "fr", [_span(ISO, ISO.text, 0.84)], vocabulary)
    assert rows == [("qr", round(1 / 10, 5), False)] and missing_neutral_share(rows) == 1.0
    held = neutral_coverage(question, "fr", [_span(QR, QR.text, 0.84)], vocabulary)
    assert held == [("qr", round(1 / 10, 5), True)] and missing_neutral_share(held) == 0.0
    french = ISO.model_copy(update={"language": "fr", "chunk_id": "ISO:1"})
    assert neutral_coverage(question, "fr", [_span(french, french.text, 0.84)], vocabulary) is None  # same language
    # a code no chunk holds is the absent-name check's business, not this one's
    assert neutral_coverage("Qu'est-ce que le XYZ9 ?", "fr", [_span(ISO, ISO.text, 0.84)], vocabulary) == []
    assert missing_neutral_share(None) == 0.0


def test_the_model_refuses_other_language_evidence_that_never_writes_the_code():
    from bot.offline.offline_model import Decision, OfflineRulebookModel

    def decision(neutral):
        return Decision("q", 5, [], None, 0.2, False, 0.86, 0, False, neutral=neutral)

    model = OfflineRulebookModel(max_missing_neutral=0.0, min_dense_other_language=0.82, max_missing_subject=None)
    assert not model.answers(decision([("qr", 0.1, False)]))
    assert model.answers(decision([("qr", 0.1, True)]))
    assert model.answers(decision(None)) and model.answers(decision([]))
    model.answer_everything()
    assert model.answers(decision([("qr", 0.1, False)]))
