"""The subject check: the question's subject terms (rare in the corpus, in its headings) must be held
by the evidence an answer would quote (bot/offline/subject_terms.py)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from bot.offline.span_scoring import Span
from bot.offline.subject_terms import (
    CorpusVocabulary,
    evidence_spans,
    missing_subject,
    question_terms,
    subject_coverage,
    value_gap,
)
from knowledge.payload import ChunkPayload


def _chunk(rulebook: str, index: int, title: str, section: str, text: str, language: str = "en") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title=title, language=language,
                        page_start=1, page_end=1, section_path=[section], section_title=section, chunk_index=index,
                        text=text, content_hash=f"{rulebook}{index}")


FEES = _chunk("FEES", 0, "Fees and Charges Schedule", "Handling fees",
              "A handling fee of EUR 50 applies to every manual correction of a payment.")
DEVICES = _chunk("DEV", 0, "Card and Device Acceptance Rulebook", "Device certification",
                 "The certification of a payment device model costs EUR 2,500 per model.")
FILLER = [_chunk(f"R{i}", 0, f"Rulebook {i}", "General provisions",
                 "Participants must apply the rules of this rulebook to every payment they process.")
          for i in range(8)]


class _Store:
    def __init__(self, chunks: list[ChunkPayload]) -> None:
        self.chunks = chunks
        self.scrolls = 0

    def scroll(self, access=None):
        self.scrolls += 1
        yield from self.chunks


def _span(chunk: ChunkPayload, text: str, dense: float, holds_value: bool = False) -> Span:
    return Span(handle="1", chunk=chunk, rank=0, text=text, dense=dense, holds_value=holds_value)


def test_the_vocabulary_counts_chunks_and_the_rulebooks_whose_headings_hold_a_term():
    store = _Store([FEES, DEVICES, *FILLER])
    vocabulary = CorpusVocabulary(store)
    rarity = vocabulary.rarity(["certif", "payment", "rulebook", "model"])
    assert rarity["certif"].heading_rulebooks == 1 and rarity["certif"].chunk_share == 1 / 10
    assert rarity["payment"].heading_rulebooks == 0 and rarity["payment"].chunk_share == 1.0
    assert rarity["rulebook"].heading_rulebooks == 9  # in every title but the schedule's
    assert rarity["model"].heading_rulebooks == 0  # rare, but in no heading: phrasing, not subject
    vocabulary.rarity(["certif"])
    assert store.scrolls == 1  # built once, not for every question
    # older than its refresh period (a rulebook indexed since): rebuilt on a thread of its own, the
    # question reading the last table meanwhile
    stale = CorpusVocabulary(store, refresh_seconds=0.0)
    stale.rarity(["x"])
    store.chunks = [*store.chunks, _chunk("NEW", 0, "Mandate Rulebook", "Mandate expiry", "A mandate expires.")]
    stale.rarity(["mandat"])
    deadline = time.monotonic() + 5
    while stale.rarity(["mandat"])["mandat"].heading_rulebooks == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stale.rarity(["mandat"])["mandat"].heading_rulebooks == 1


def test_evidence_about_another_subject_misses_the_questions_subject_term():
    vocabulary = CorpusVocabulary(_Store([FEES, DEVICES, *FILLER]))
    question = "How much does it cost to certify a payment device model?"
    assert "much" not in question_terms(question, "en")  # asking words are not the subject
    # the device rulebook hidden: the densest evidence left is the handling fee
    elsewhere = subject_coverage(question, "en", [_span(FEES, FEES.text, 0.86, True)], vocabulary)
    assert missing_subject(elsewhere, 0.2, 2) == ["devic"]  # "Card and Device …": one rulebook's heading
    held = subject_coverage(question, "en", [_span(DEVICES, DEVICES.text, 0.9, True)], vocabulary)
    assert missing_subject(held, 0.2, 2) == []
    assert {row[0]: row[3] for row in held}["certifi"]  # "certify" / "certification": one stem family
    # a term in the headings of more rulebooks than the bar allows is not distinctive
    assert missing_subject(elsewhere, 0.2, 0) == []


def test_evidence_in_another_language_is_not_compared_word_for_word():
    dutch = _chunk("NL", 0, "Handelaarsreglement", "Certificering", "De certificering van een toestel kost EUR 2.500.",
                   language="nl")
    vocabulary = CorpusVocabulary(_Store([dutch, FEES, *FILLER]))
    assert subject_coverage("How much does certification cost?", "en", [_span(dutch, dutch.text, 0.85)],
                            vocabulary) is None
    assert subject_coverage("How much does certification cost?", "en", [], vocabulary) is None
    assert subject_coverage("How much does certification cost?", "en", [_span(FEES, FEES.text, 0.85)], None) is None


def test_the_evidence_is_what_an_answer_would_quote():
    best, close, far = (_span(FEES, "a", 0.90), _span(DEVICES, "b", 0.88), _span(DEVICES, "c", 0.80))
    assert evidence_spans([best, close, far]) == [best, best, close]


def test_how_far_below_the_best_span_the_value_of_the_kind_asked_is():
    best = _span(FEES, "no value here", 0.90)
    value = _span(DEVICES, "EUR 2,500", 0.84, holds_value=True)
    assert value_gap([best, value]) == 0.06
    assert value_gap([value]) == 0.0
    assert value_gap([best]) is None


def test_the_model_refuses_evidence_about_another_subject_and_a_value_far_from_it():
    from bot.offline.offline_model import Decision, OfflineRulebookModel

    def decision(subject=None, slot=None, gap=None):
        return Decision("q", 5, [], 0.9, 0.6, False, None, 0, True, slot=slot, max_dense_slot=0.9 if slot else None,
                        subject=subject, slot_gap=gap)

    model = OfflineRulebookModel(max_missing_subject=0.2, subject_max_share=0.05, subject_max_headings=2,
                                 max_slot_gap=0.05)
    other_subject = [("mandat", 0.04, 1, False), ("direct", 0.17, 4, True)]
    assert not model.answers(decision(other_subject))  # the mandate is the subject; the evidence is about refunds
    assert model.answers(decision([("mandat", 0.04, 1, True), ("direct", 0.17, 4, True)]))
    assert model.answers(decision([("direct", 0.17, 4, False)]))  # a common word missing: phrasing, not subject
    assert model.answers(decision(None))  # not measured (evidence in another language)
    assert not model.answers(decision(slot="money", gap=0.08))  # the only fee in view is far from the evidence
    assert model.answers(decision(slot="money", gap=0.02))
    model.answer_everything()  # a calibration run answers everything
    assert model.answers(decision(other_subject, slot="money", gap=0.5))


def test_missing_subject_terms_weigh_by_their_rarity():
    from bot.offline.subject_terms import missing_subject_weight

    rare_missing = [("mandat", 0.01, 1, False), ("direct", 0.2, 4, True), ("debit", 0.2, 4, True)]
    common_missing = [("bank", 0.05, 2, False), ("claimnonreceipt", 0.001, 0, True), ("creditor", 0.01, 1, True),
                      ("fund", 0.01, 1, True), ("miss", 0.02, 0, True)]
    assert missing_subject_weight(rare_missing, 0.05, 2) > 0.5  # the mandate is most of what is asked
    assert 0 < missing_subject_weight(common_missing, 0.05, 2) < 0.15  # a side word of a long question
    assert missing_subject_weight(None, 0.05, 2) == 0.0


@pytest.mark.parametrize("question, hidden, subject", [
    ("When does a direct debit mandate expire?", ["PS-03"], "mandat"),
    ("How much does it cost to certify a payment device model?", ["PS-04"], "model"),
])
async def test_an_answer_from_a_document_about_another_subject_is_refused(make_service, knowledge, question, hidden,
                                                                          subject):
    """The rulebook that answers hidden from the caller: what is left is close in meaning (refund
    deadlines, fee tables) but about another subject, and a refusal is better than a loose quote."""
    from bot.agent.chat_models import load_chat_model
    from bot.offline.subject_terms import missing_subject
    from evals.exclusion import HiddenRulebooks
    from tests.bot.conftest import collect, final_of

    seen: list = []
    model = load_chat_model("offline", knowledge, observer=seen.append)
    assert model.vocabulary is not None
    model.max_missing_subject = 0.2  # the check at the bar calibrated before session 9 (off by default now)
    answered = final_of(await collect(make_service(model=model), question)).answer
    assert answered.outcome == "answered", answered.text
    seen.clear()
    view = HiddenRulebooks(knowledge, hidden)
    refused = final_of(await collect(make_service(model=model, knowledge=view), question)).answer
    assert refused.outcome == "refused", refused.text
    decision = seen[-1]
    # the subject refused it, named by a word ("mandat" missing) or by a phrase ("mandate expiry" in no
    # document left in view; bot.offline.subject_phrases): which one depends on the spans the ranking
    # surfaces, and without the subject checks the same evidence would be quoted
    from bot.offline.subject_phrases import missing_phrases

    assert (subject in missing_subject(decision.subject, model.subject_max_share, model.subject_max_headings,
                                       model.subject_scope)
            or any(subject in p for p in missing_phrases(decision.phrases, model.phrase_max_share, model.phrase_scope)))
    assert not model.answers(decision)
    assert model.answers(replace(decision, subject=None, phrases=None))  # the subject, and nothing else, refused it
    assert "Searched:" in refused.text and hidden[0] not in refused.text  # which rulebooks, never the hidden one


def test_a_subject_term_may_be_held_by_the_evidences_section_or_document_as_shown():
    parent = _chunk("DEV", 1, "Card and Device Acceptance Rulebook", "Certification", "Devices are certified.")
    parent = parent.model_copy(update={"section_path": ["3"], "section_title": "Javascript coupling"})
    deep = DEVICES.model_copy(update={"section_path": ["3", "3.2"], "chunk_id": "DEV:2"})
    other = _chunk("DEV", 3, "Card and Device Acceptance Rulebook", "Annex", "The javascript variant is optional.")
    other = other.model_copy(update={"section_path": ["9"]})
    vocabulary = CorpusVocabulary(_Store([parent, deep, other, FEES, *FILLER]))
    spans = [_span(deep, deep.text, 0.9), _span(parent, parent.text, 0.7), _span(other, other.text, 0.6)]
    row = {r[0]: r for r in subject_coverage("What does the javascript coupling require?", "en", spans, vocabulary)}
    # the quoted passage sits in section 3.2; its parent section's title holds the subject
    assert row["javascript"][3:] == (False, True, True)
    assert missing_subject(list(row.values()), 1.0, 5, "passage") == ["javascript", "coupl"]
    assert missing_subject(list(row.values()), 1.0, 5, "section") == []
