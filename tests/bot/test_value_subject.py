"""A value of the asked kind answers only when it is quoted from a passage about the question's subject
(bot/offline/value_subject.py, OfflineRulebookModel's value check)."""

from __future__ import annotations

from bot.offline.asked_value import holds_value
from bot.offline.offline_model import _quoted_lines
from bot.offline.span_scoring import Span
from bot.offline.subject_terms import CorpusVocabulary
from bot.offline.value_subject import about_subject, subject_terms, value_subject
from tests.bot.test_subject_terms import _chunk, _Store

ENROL = _chunk("RTP", 0, "Request To Pay guide", "EnrolmentEndDate",
               "EnrolmentEndDate: end date when the creditor enrolment becomes effective.")
DATES = _chunk("RTP", 1, "Request To Pay guide", "ISODate",
               "ISODate: a particular point in the progression of time in a calendar year.")
ARCHIVE = _chunk("IID", 0, "QR-IID guide", "Deletion", "SIX archives deleted QR-IIDs for 10 years.")
FRENCH = _chunk("IIDFR", 0, "Guide QR-IID", "Suppression",
                "Les QR-IID supprimés sont archivés pendant 10 ans par l'établissement.", language="fr")
FILLER = [_chunk(f"R{i}", 0, f"Rulebook {i}", "General provisions",
                 "Participants must apply the rules of this rulebook to every payment they process.")
          for i in range(30)]
VOCABULARY = CorpusVocabulary(_Store([ENROL, DATES, ARCHIVE, FRENCH, *FILLER]))
HITS = [("S1", ENROL), ("S2", DATES), ("S3", ARCHIVE), ("S4", FRENCH)]
BAR = 0.05  # a bar to test at: the module's own is off (see MAX_SHARE)
QUESTION = "If no EnrolmentEndDate is given, for how many months does a creditor enrolment stay valid?"


def test_the_subject_is_the_questions_rare_terms_without_the_values_own_words():
    terms = subject_terms(QUESTION, "en", VOCABULARY)
    assert terms["enrol"] == terms["enrolmentendd"] == 1 / 34
    assert "month" not in terms  # the value's own kind
    assert terms["valid"] == 0.0  # in no chunk: as rare as can be


def test_a_value_quoted_from_another_subjects_passage_does_not_answer():
    text = ("Here is what the rulebooks say:\n\n"
            "- EnrolmentEndDate: end date when the creditor enrolment becomes effective [S1].\n"
            "- ISODate: a particular point in the progression of time in a calendar year [S2].")
    assert holds_value(text, "duration", "month")  # the whole answer holds "a calendar year"
    assert not about_subject(value_subject(QUESTION, "en", _quoted_lines(text, HITS), [], "duration", "month", VOCABULARY), BAR)
    # the same value from the enrolment's own passage answers
    own = text.replace("becomes effective [S1]", "stays valid for 12 months [S1]")
    assert about_subject(value_subject(QUESTION, "en", _quoted_lines(own, HITS), [], "duration", "month", VOCABULARY), BAR)


def test_a_tables_rows_cite_the_passage_of_the_line_above_them():
    question = "How many deleted QR-IIDs are kept?"
    rows = "Here is what the rulebooks say:\n\nFrom the table in the rulebook [S3]:\n\n| QR-IID | 2 per institution |"
    assert about_subject(value_subject(question, "en", _quoted_lines(rows, HITS), [], "count", None, VOCABULARY), BAR)
    assert not about_subject(value_subject(question, "en", _quoted_lines(rows.replace("[S3]", "[S2]"), HITS), [], "count", None, VOCABULARY), BAR)


def test_a_passage_in_another_language_counts_with_the_questions_terms_in_its_language():
    question = "Combien d'années les QR-IID supprimés sont-ils archivés ?"
    text = "Voici ce que disent les règlements :\n\n- SIX archives deleted QR-IIDs for 10 years [S3]."
    assert about_subject(value_subject(question, "fr", _quoted_lines(text, HITS), [], "duration", "year", VOCABULARY), BAR)


def test_nothing_to_check_answers():
    text = "Here is what the rulebooks say:\n\n- ISODate: a point in time in a calendar year [S2]."
    assert value_subject(QUESTION, "en", _quoted_lines(text, HITS), [], "length", None, VOCABULARY) is None  # lengths: type rows
    assert value_subject(QUESTION, "en", _quoted_lines(text, HITS), [], "duration", "month", None) is None  # no vocabulary
    assert value_subject("How many months?", "en", _quoted_lines(text, HITS), [], "duration", "month", VOCABULARY) is None
    assert about_subject(None, BAR)


def test_the_evidence_weighed_counts_as_about_the_subject_and_the_bar_replays():
    text = "Here is what the rulebooks say:\n\n- ISODate: a point in time in a calendar year [S2]."
    far = value_subject(QUESTION, "en", _quoted_lines(text, HITS), [], "duration", "month", VOCABULARY)
    assert far == (1.0, 0.0)  # the passage holds no subject term; "valid" is in no chunk
    assert not about_subject(far, BAR) and about_subject(far, None)  # no bar: no check
    best = [Span(handle="S2", chunk=DATES, rank=0, text=DATES.text, dense=0.9)]
    assert value_subject(QUESTION, "en", _quoted_lines(text, HITS), best, "duration", "month", VOCABULARY) == (0.0, 0.0)
    # a question whose rarest term is commoner than the bar has nothing rare to look for
    assert about_subject((1.0, 0.2), 0.05) and not about_subject((1.0, 0.2), 0.3)


def test_the_model_records_how_far_its_values_are_from_the_subject():
    from bot.offline.offline_model import Decision, OfflineRulebookModel

    seen: list[Decision] = []
    model = OfflineRulebookModel(min_lexical=0.0, min_dense_slot=None, vocabulary=VOCABULARY, observer=seen.append)
    stated = ENROL.model_copy(update={"text": "A creditor enrolment without EnrolmentEndDate stays valid for 12 months."})
    assert "12 months" in model.compose(QUESTION, "en", [("S1", stated), ("S2", DATES)])
    assert seen[-1].value_quoted is True and seen[-1].value_subject == (0.0, 0.0)  # the evidence itself
    # the enrolment's passage without a value: the answer quotes none, and the check has none to weigh
    assert model.compose(QUESTION, "en", [("S1", ENROL), ("S2", DATES)]).startswith("[not covered]")
    assert seen[-1].value_quoted is False and seen[-1].value_subject.value_share == 1.0


def test_a_duration_asked_in_days_is_not_answered_in_years():
    assert not holds_value("SIX archives deleted QR-IIDs for 10 years.", "duration", "day")
    assert holds_value("SIX archives deleted QR-IIDs for 10 years.", "duration", "month")
    assert holds_value("within two weeks", "duration", "day")
