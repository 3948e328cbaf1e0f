"""Whether the value an answer quotes is about what the question asks.

"For how many months does a creditor enrolment stay valid by default?" is not answered by the ISO
date type's definition, though "a calendar year" is a duration; "How many working days does SIX need
to process a QR-IID order?" is not answered by "SIX archives deleted QR-IIDs for 10 years". The value
check on the composed answer (`OfflineRulebookModel.require_value_quoted`) saw a value of the asked
kind anywhere in the quotes. This check wants it in a quote from the evidence the answer/refuse decision
weighed (the best span and those close to it), or from a passage (its text, tables and the headings
above it) that holds one of the question's rare subject terms: a term at most `MAX_SHARE` of the
chunks hold, not a word of the value's own kind ("months", "maximum", "fee"). A passage in another
language counts with the question's payment terms in that language (`knowledge.payment_terms`).

Lengths are left out: message guides state them in a type's row ("Max35Text") apart from the element
that uses the type, so the row holding the value rarely names the subject.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from bot.offline.asked_value import COUNT, DURATION, MONEY, holds_value
from bot.offline.subject_terms import CorpusVocabulary, _held, _tokens, evidence_spans, question_terms
from knowledge.bm25 import tokenize
from knowledge.payload import ChunkPayload
from knowledge.payment_terms import translated_terms

KINDS = (MONEY, DURATION, COUNT)
# the bar: a subject term held by at most this share of the chunks ("enrolment", "qr-iid",
# "reopencaseindication"; not "payment", "bank", "message"). Off (None): swept on the dev cases of the
# final recording of session 31 (`python -m evals.value_subject_sweep`, evals/baselines/value_subject.json),
# the check changes one dev outcome at every bar from 0.002 to 0.5, fewer than a new check needs
# (evals.calibration.MIN_CASES_CHANGED). The measure is recorded on every decision, for a sweep to switch
# it on when the dev cases give it the evidence.
MAX_SHARE: float | None = None

# the words of a value's own kind: a passage holding "10 years" shares "year" with "how many years"
# and says nothing about the subject by it
_KIND_WORDS = """
second seconds minute minutes hour hours day days week weeks month months year years time times period periods
working business calendar banking number numbers count maximum minimum max min total amount amounts fee fees
cost costs price prices charge charges long many much
seconde seconden minuut minuten uur uren dag dagen werkdag werkdagen week weken maand maanden jaar jaren tijd
termijn aantal maximaal minimaal maximum minimum bedrag bedragen kosten prijs vergoeding
seconde secondes minute minutes heure heures jour jours ouvrable ouvrables semaine semaines mois an ans année
années délai durée nombre maximal maximale minimal minimale montant montants frais prix coût coûts
Sekunde Sekunden Minute Minuten Stunde Stunden Tag Tage Tagen Werktag Werktage Werktagen Woche Wochen Monat Monate
Monaten Jahr Jahre Jahren Frist Fristen Dauer Anzahl maximal minimal Höchstbetrag Betrag Beträge Gebühr Gebühren
Kosten Preis
"""


@lru_cache(maxsize=8)
def _kind_stems(language: str) -> frozenset[str]:
    return frozenset(tokenize(_KIND_WORDS, language))


def subject_terms(query: str, language: str, vocabulary: CorpusVocabulary) -> dict[str, float]:
    """The question's content terms without the words of the value's kind, each with its chunk share."""
    frame = _kind_stems(language)
    terms = [t for t in question_terms(query, language) if t not in frame]
    rarity = vocabulary.rarity(terms)
    return {t: rarity[t].chunk_share for t in terms}


def _rarest_held(chunk: ChunkPayload, wanted: dict[str, float]) -> float:
    """The chunk share of the rarest wanted term the passage (text, tables, headings) holds (1.0: none)."""
    held = _tokens([chunk])
    return min((share for t, share in wanted.items() if _held(t, held)), default=1.0)


class ValueSubject(NamedTuple):
    """What the check decides from, recorded so that a sweep can replay any `MAX_SHARE`."""

    value_share: float  # the rarest subject term held by a passage quoted for a value (0.0: an evidence passage)
    rarest_share: float  # the question's rarest subject term (above the bar: nothing to check)


def value_subject(query: str, language: str, lines: Sequence[tuple[str, Sequence[ChunkPayload]]],
                  spans: Sequence[Any], kind: str | None, unit: str | None,
                  vocabulary: CorpusVocabulary | None) -> ValueSubject | None:
    """How far the values of the composed answer are from the question's subject. `lines` are the
    answer's quotes and table rows, each with the passages it cites. For each line holding a value of
    the asked kind, its passages count 0.0 when they are evidence the answer/refuse decision weighed
    (`evidence_spans` of the scored `spans`) and otherwise the share of the rarest subject term they
    hold (in another language: with the question's payment terms in that language). None when there is
    nothing to check: another kind, no vocabulary, no subject term."""
    if kind not in KINDS or vocabulary is None:
        return None
    subject = subject_terms(query, language, vocabulary)
    if not subject:
        return None
    evidence = {s.chunk.chunk_id for s in evidence_spans(spans)}
    wanted: dict[str, dict[str, float]] = {language[:2]: subject}  # per passage language, made once

    def in_language(other: str) -> dict[str, float]:
        if other not in wanted:
            translated = list(translated_terms(query, language[:2], other))
            wanted[other] = {**subject, **{t: r.chunk_share for t, r in vocabulary.rarity(translated).items()}}
        return wanted[other]

    best = 1.0
    for line, chunks in lines:
        if not holds_value(line, kind, unit):
            continue
        for chunk in chunks:
            best = min(best, 0.0 if chunk.chunk_id in evidence
                       else _rarest_held(chunk, in_language(chunk.language[:2])))
    return ValueSubject(round(best, 5), round(min(subject.values()), 5))


def about_subject(measured: ValueSubject | Sequence[float] | None, max_share: float | None) -> bool:
    """The check at a bar: some value comes from the evidence or a passage holding a subject term at most
    `max_share` of the chunks hold, or the question has no term that rare (None bar: no check)."""
    if measured is None or max_share is None:
        return True
    value_share, rarest_share = measured
    return value_share <= max_share or rarest_share > max_share
