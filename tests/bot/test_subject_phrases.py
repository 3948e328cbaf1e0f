"""The phrase check: a rare phrase of the question (two content terms in a row that the corpus holds
in few chunks) missing from the evidence's document raises the bar to closeness in meaning
(bot/offline/subject_phrases.py, OfflineRulebookModel.answers)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.offline.subject_phrases import (
    PhraseCounts,
    missing_phrases,
    phrase_coverage,
    phrases_of,
    question_phrases,
)
from bot.offline.subject_terms import CorpusVocabulary
from tests.bot.test_subject_terms import FILLER, _chunk, _span, _Store

REPORTING = _chunk("NL", 0, "Dutch addendum", "Reporting",
                   "The End To End Identification will be included in account reporting when postings are done "
                   "on individual level.")
ISO = _chunk("ISO", 0, "ISO 20022 guide", "Payment identification",
             "EndToEndIdentification <EndToEndId> Definition: unique identification assigned by the initiating "
             "party. It is reported to the account owner on every statement.")
QR = _chunk("QR", 0, "QR-bill guide", "Character set", "The euro sign is not permitted in the Swiss QR Code.")


def test_phrases_are_content_terms_in_a_row():
    assert phrases_of(["account", "report", "2024", "report"]) == {("account", "report")}
    # stop words and asking words drop out: "the cancellation of the cover" is one phrase
    assert ("cancel", "cover") in question_phrases("May the cancellation of the cover be requested?", "en")
    assert question_phrases("What is the fee?", "en") == []
    # an asking word, a number or a code between two words breaks the phrase: they were never neighbours
    assert question_phrases("What is code MM26 used for?", "en") == []
    assert ("iso", "messag") not in question_phrases("What is the ISO 20022 message for a change?", "en")
    assert ("use", "bank") not in question_phrases("Which message does a customer use to ask its bank?", "en")


def test_phrase_counts_count_a_chunk_once():
    counts = PhraseCounts(buckets=1 << 10)
    counts.add({("euro", "sign"), ("sign", "permit")})
    counts.add([("euro", "sign"), ("euro", "sign")])
    counts.add([])
    assert counts.count(("euro", "sign")) == 2 and counts.count(("sign", "permit")) == 1


_COLLISIONS = """
from bot.offline.subject_phrases import PhraseCounts
counts = PhraseCounts(buckets=1 << 6)  # few buckets: many phrases share one
phrases = [("term%d" % i, "word%d" % (i * 7)) for i in range(200)]
for i, p in enumerate(phrases):
    counts.add(phrases[: i % 5 + 1] + [p], rulebook_id="R%d" % (i % 3))
counts.freeze()
print([counts.count(p) for p in phrases], [counts.in_rulebook("R1", p) for p in phrases[:40]])
"""


def test_phrase_counts_are_the_same_in_every_process():
    # Python salts str hashes per process: with hash() the buckets two phrases share, and so their
    # counts and the answer/refuse decision, changed between runs of the same eval
    def run(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed}
        return subprocess.run([sys.executable, "-c", _COLLISIONS], env=env, capture_output=True, text=True,
                              check=True).stdout
    assert run("1") == run("2") == run("3")


def test_evidence_that_never_uses_the_questions_phrase_misses_it():
    vocabulary = CorpusVocabulary(_Store([REPORTING, ISO, QR, *FILLER]))
    question = "When will the End To End Identification show up in account reporting?"
    rows = {r[0]: r for r in phrase_coverage(question, "en", [_span(ISO, ISO.text, 0.88)], vocabulary)}
    # "account report" is in one chunk of eleven, and not in the ISO guide ("reported to the account")
    assert rows["account report"][1:] == (round(1 / 11, 5), False, False, False, False)
    # run together in one identifier, a phrase is held: EndToEndIdentification holds "end identif"
    assert rows["end identif"][2:] == (True, True, True, True)
    assert missing_phrases(list(rows.values()), 0.1) == ["account report"]
    assert missing_phrases(list(rows.values()), 0.05) == []  # less rare than the bar: not a subject phrase
    held = phrase_coverage(question, "en", [_span(REPORTING, REPORTING.text, 0.9)], vocabulary)
    assert missing_phrases(held, 1.0) == []
    # another form of the words holds it too ("accounts reported")
    forms = REPORTING.model_copy(update={"text": "Accounts reported on individual level.", "chunk_id": "NL:9"})
    rows = phrase_coverage(question, "en", [_span(forms, forms.text, 0.9)], vocabulary)
    assert "account report" not in missing_phrases(rows, 1.0)


def test_phrases_the_corpus_never_uses_and_other_languages_are_not_checked():
    vocabulary = CorpusVocabulary(_Store([REPORTING, ISO, QR, *FILLER]))
    # the question's own wording ("show up") is in no chunk: it says nothing about any document
    rows = phrase_coverage("Does it show up quickly?", "en", [_span(ISO, ISO.text, 0.88)], vocabulary)
    assert rows == []
    german = QR.model_copy(update={"language": "de", "chunk_id": "QR:1", "text": "Das Euro-Zeichen ist verboten."})
    assert phrase_coverage("Is the euro sign allowed?", "en", [_span(german, german.text, 0.85)], vocabulary) is None
    assert phrase_coverage("Is the euro sign allowed?", "en", [], vocabulary) is None
    assert phrase_coverage("Is the euro sign allowed?", "en", [_span(QR, QR.text, 0.9)], None) is None


def test_a_missing_phrase_lets_only_evidence_close_in_meaning_answer():
    from bot.offline.offline_model import Decision, OfflineRulebookModel

    def decision(dense, lexical, phrases, other=None):
        return Decision("q", 5, [], dense, lexical, False, other, 0, True, phrases=phrases)

    missing = [("account report", 0.0025, False, False, False)]
    held = [("account report", 0.0025, True, True, True)]
    model = OfflineRulebookModel(min_dense=0.86, min_lexical=0.5, min_dense_other_language=0.82,
                                 min_dense_phrase=0.89, phrase_max_share=0.02, phrase_scope="document",
                                 max_missing_subject=None, min_dense_slot=None)
    assert model.answers(decision(0.87, 0.6, held))
    assert not model.answers(decision(0.87, 0.6, missing))  # words shared, subject not: lexical alone no longer
    assert not model.answers(decision(None, 0.2, missing, other=0.9))  # nor a span in another language
    assert model.answers(decision(0.9, 0.2, missing))  # close in meaning: answered
    assert model.answers(decision(0.87, 0.6, [("account report", 0.05, False, False, False)]))  # not rare
    assert model.answers(decision(0.87, 0.6, None))  # not measured
    model.answer_everything()
    assert model.answers(decision(0.5, 0.0, missing))


@pytest.mark.parametrize("scope, expected", [("passage", ["euro sign"]), ("document", [])])
def test_the_phrase_may_be_held_by_the_evidences_document_as_shown(scope, expected):
    other = QR.model_copy(update={"chunk_id": "QR:2", "section_path": ["9"], "section_title": "Annex",
                                  "text": "Only Latin characters are permitted."})
    vocabulary = CorpusVocabulary(_Store([QR, other, REPORTING, *FILLER]))
    rows = phrase_coverage("Is the euro sign allowed?", "en", [_span(other, other.text, 0.9), _span(QR, QR.text, 0.6)],
                           vocabulary)
    assert missing_phrases(rows, 1.0, scope) == expected


def test_a_phrase_does_not_run_across_a_clause():
    phrases = question_phrases("Between which versions are the changes documented, and when were they dated?", "en")
    assert ("chang", "date") not in phrases and ("chang", "document") in phrases
    assert ("gebühr", "frist") not in question_phrases("Wie hoch ist die Gebühr und die Frist?", "de")


def test_the_bar_rises_when_enough_of_the_rare_phrases_are_missing():
    from bot.offline.subject_phrases import missing_phrase_share, phrase_missing

    rows = [("account report", 0.002, False, False, False), ("number transact", 0.004, True, True, True),
            ("payment inform", 0.3, False, False, False)]  # common: not counted
    assert missing_phrase_share(rows, 0.02) == 0.5
    assert phrase_missing(rows, 0.02, "document", 0.5) and not phrase_missing(rows, 0.02, "document", 0.67)
    assert phrase_missing(rows, 0.02, "document", 0.01)  # any one missing
    assert not phrase_missing(rows[1:], 0.02, "document", 0.01)  # every rare phrase held
    assert not phrase_missing(None, 0.02, "document", 0.01) and missing_phrase_share([], 0.02) == 0.0


def test_the_phrase_may_be_held_by_the_rulebooks_whole_text_though_not_shown():
    unshown = ISO.model_copy(update={"chunk_id": "ISO:7", "chunk_index": 7, "text": "Account reporting is daily."})
    vocabulary = CorpusVocabulary(_Store([REPORTING, ISO, unshown, QR, *FILLER]))
    rows = phrase_coverage("When is it included in account reporting?", "en", [_span(ISO, ISO.text, 0.88)], vocabulary)
    row = {r[0]: r for r in rows}["account report"]
    assert row[2:] == (False, False, False, True)  # in the ISO guide, on a page the search did not show
    assert "account report" in missing_phrases(rows, 1.0, "document")
    assert "account report" not in missing_phrases(rows, 1.0, "rulebook")
    # a rulebook the evidence is not from holding it does not count
    rows = phrase_coverage("When is it included in account reporting?", "en", [_span(QR, QR.text, 0.88)], vocabulary)
    assert "account report" in missing_phrases(rows, 1.0, "rulebook")
