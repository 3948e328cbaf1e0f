"""Disagreeing signals meet the usual dense bar when the passages shown hold the question's rare phrases:
the offline model and the calibration sweep apply the relief alike (`Bar.held_phrase_share`,
`held_sweep`, bot.offline.subject_phrases.phrases_held)."""

from __future__ import annotations

import random

from bot.offline.subject_phrases import phrases_held
from evals.calibration import Bar, Signal, _Columns, bar_of, current_bar, held_sweep, point, prune


def _row(phrase: str, share: float, in_passage: bool, elsewhere: bool = True) -> tuple:
    return (phrase, share, in_passage, elsewhere, elsewhere, elsewhere)


def test_rare_phrases_the_passages_hold_count_and_common_ones_do_not():
    rows = [_row("creditor trade", 0.002, True), _row("trade name", 0.004, False), _row("request pay", 0.2, False)]
    assert phrases_held(rows, 0.005, 0.5)  # one of the two rare phrases missing: half
    assert not phrases_held(rows, 0.005, 0.34)
    assert phrases_held(rows, 0.003, 0.0)  # at this rarity only the held one counts
    assert not phrases_held(rows, 0.001, 1.0)  # no phrase that rare: nothing to hold
    assert not phrases_held(rows, None, 1.0)  # no relief
    assert not phrases_held(None, 0.005, 1.0)  # not measured
    # held elsewhere in the document is not enough: the passages shown must hold them
    assert not phrases_held([_row("creditor trade", 0.002, False, True)], 0.005, 0.5)


def test_the_offline_model_lowers_the_disagreeing_bar_only_for_evidence_holding_the_rare_phrases():
    from bot.offline.offline_model import Decision, OfflineRulebookModel

    model = OfflineRulebookModel(min_dense=0.86, min_dense_disagree=0.88, min_lexical=0.5,
                                 held_phrase_share=0.005, held_max_missing=0.5)

    def decision(dense, phrases, agree=False):
        return Decision("q", 5, [], dense, 0.2, False, None, 0, agree, phrases=phrases)

    held = [_row("groupcancel fals", 0.003, True), _row("cancel request", 0.04, False)]
    missing = [_row("groupcancel fals", 0.003, False), _row("cancel request", 0.04, True)]
    assert model.answers(decision(0.87, held))
    assert not model.answers(decision(0.87, missing))
    assert not model.answers(decision(0.87, None))
    assert not model.answers(decision(0.85, held))  # the usual bar still holds
    assert model.answers(decision(0.89, missing))  # and the disagreeing one still answers
    off = OfflineRulebookModel(min_dense=0.86, min_dense_disagree=0.88, min_lexical=0.5, held_phrase_share=None)
    assert not off.answers(decision(0.87, held))
    # today's bars carry the model's relief into the sweep
    today = current_bar()
    assert (today.held_phrase_share, today.held_max_missing) == (OfflineRulebookModel().held_phrase_share,
                                                                  OfflineRulebookModel().held_max_missing)


def _signals(n: int = 300) -> list[Signal]:
    rng = random.Random(23)
    views = ("normal", "excluded", "unanswerable")
    return [Signal("real2", rng.choice(views), rng.choice([None, rng.uniform(0.84, 0.9)]), rng.random() * 0.6,
                   rng.random() < 0.1, rng.random() < 0.95, rng.random() < 0.7, agree=rng.choice([None, True, False]),
                   phrases=rng.choice([None, tuple(_row(f"p{i}", rng.choice([0.001, 0.004, 0.03]), rng.random() < 0.6)
                                                   for i in range(rng.randint(0, 3)))]))
            for _ in range(n)]


def test_the_vectorised_relief_replays_exactly_what_the_reference_does():
    signals = _signals()
    columns = _Columns(signals)
    for bar in (Bar(0.86, 0.5, 0.82, 0.88, held_phrase_share=0.005, held_max_missing=0.5),
                Bar(0.86, 0.5, 0.82, 0.88, held_phrase_share=0.002, held_max_missing=0.0),
                Bar(0.86, 0.5, 0.82, 0.88, min_dense_phrase=0.875, held_phrase_share=0.02, held_max_missing=0.67),
                Bar(0.86, 0.5, 0.82, None, held_phrase_share=0.005)):
        assert columns.point(bar) == point(signals, bar)
    off = point(signals, Bar(0.86, 0.5, 0.82, 0.88))
    on = point(signals, Bar(0.86, 0.5, 0.82, 0.88, held_phrase_share=0.02, held_max_missing=1.0))
    assert on["answered_share"] > off["answered_share"]  # the relief only ever answers more
    points = held_sweep(signals, Bar(0.86, 0.5, 0.82, 0.88))
    assert any(p["held_phrase_share"] is None for p in points)
    assert {p["held_max_missing"] for p in points if p["held_phrase_share"] is not None} == {0.0, 0.34, 0.5, 0.67}
    chosen = max(points, key=lambda p: p["f1"])
    assert columns.point(bar_of(chosen)) == chosen


def test_a_relief_that_changes_one_dev_outcome_is_switched_off():
    def sig(view, right):
        return Signal("real2", view, 0.87, 0.2, False, True, right, agree=False,
                      phrases=(_row("creditor trade", 0.002, True),))

    bar = Bar(0.86, 0.5, 0.82, 0.88, held_phrase_share=0.005)
    assert prune([sig("normal", True)], bar).held_phrase_share is None
    assert prune([sig("normal", True), sig("unanswerable", False)], bar).held_phrase_share == 0.005
