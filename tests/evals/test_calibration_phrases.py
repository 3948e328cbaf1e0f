"""The calibration sweep replays the phrase check exactly as the offline model applies it
(evals/calibration.py `Bar.min_dense_phrase`, `phrase_sweep`)."""

from __future__ import annotations

import random

from evals.calibration import Bar, Signal, _Columns, bar_of, phrase_sweep, point, prune


def _signals(n: int = 300) -> list[Signal]:
    rng = random.Random(11)
    views = ("normal", "excluded", "unanswerable")
    return [Signal("real2", rng.choice(views), rng.choice([None, rng.uniform(0.8, 0.95)]), rng.random(),
                   rng.random() < 0.1, rng.random() < 0.95, rng.random() < 0.7,
                   rng.choice([None, rng.uniform(0.78, 0.9)]), agree=rng.choice([None, True, False]),
                   phrases=rng.choice([None, tuple((f"p{i}", rng.choice([0.001, 0.01, 0.03]), *(rng.random() < 0.6
                                                                                             for _ in range(3)))
                                                   for i in range(rng.randint(0, 3)))]))
            for _ in range(n)]


def test_the_vectorised_phrase_check_replays_exactly_what_the_reference_does():
    signals = _signals()
    columns = _Columns(signals)
    for bar in (Bar(0.86, 0.5, 0.82, 0.88, min_dense_phrase=0.89, phrase_max_share=0.02, phrase_scope="document"),
                Bar(0.84, 0.6, 0.83, None, min_dense_phrase=0.9, phrase_max_share=0.005, phrase_scope="passage"),
                Bar(0.86, 0.5, 0.82, 0.92, min_dense_phrase=0.87, phrase_max_share=0.05, phrase_scope="section")):
        assert columns.point(bar) == point(signals, bar)
    loose = point(signals, Bar(0.86, 0.5))
    strict = point(signals, Bar(0.86, 0.5, min_dense_phrase=0.9, phrase_max_share=0.05))
    assert strict["answered_share"] <= loose["answered_share"]
    assert strict["refused_when_excluded"] >= loose["refused_when_excluded"]
    # the swept points carry their settings back into a bar
    points = phrase_sweep(signals, Bar(0.86, 0.5))
    assert {p["phrase_scope"] for p in points if p["min_dense_phrase"] is not None} == {"passage", "section", "document",
                                                                                     "rulebook"}
    assert any(p["min_dense_phrase"] is None for p in points)
    chosen = max(points, key=lambda p: p["f1"])
    assert columns.point(bar_of(chosen)) == chosen


def test_a_phrase_check_that_changes_one_dev_outcome_is_switched_off():
    def sig(view, dense, held, right=True):
        return Signal("real2", view, dense, 0.6, False, True, right, phrases=(("euro sign", 0.001, held, held, held),))

    bar = Bar(0.86, 0.5, min_dense_phrase=0.9, phrase_max_share=0.02)
    one = [sig("normal", 0.92, False), sig("normal", 0.88, True), sig("excluded", 0.87, False, False)]
    assert prune(one, bar).min_dense_phrase is None
    two = [*one, sig("excluded", 0.88, False, False)]
    assert prune(two, bar).min_dense_phrase == 0.9


def test_a_retuned_check_that_changes_one_dev_outcome_stays_as_today():
    def sig(view, subject, right=True):
        return Signal("real2", view, 0.9, 0.6, False, True, right, subject=subject)

    rare = (("mandat", 0.04, 1, False, False, False), ("direct", 0.3, 1, True, True, True))
    today = Bar(0.86, 0.5, max_missing_subject=0.2, subject_max_share=0.05, subject_max_headings=3)
    retuned = Bar(0.86, 0.5, max_missing_subject=0.2, subject_max_share=0.5, subject_max_headings=3)
    # the retune refuses one more case ("direct" becomes a subject term): not evidence enough
    one = [sig("normal", rare), sig("excluded", (("direct", 0.3, 1, False, False, False),), False),
           sig("excluded", rare, False), sig("excluded", rare, False)]
    assert prune(one, retuned, today).subject_max_share == 0.05
    two = [*one, sig("excluded", (("direct", 0.3, 1, False, False, False),), False)]
    assert prune(two, retuned, today).subject_max_share == 0.5
    assert prune(one, retuned).subject_max_share == 0.5  # without today's bars: only checks switched off


def test_no_dev_set_may_answer_fewer_questions_than_today():
    from evals.calibration import choose

    today = {"f1": 0.80, "answered_share": 0.9, "answered_by_source": {"obliqa": 43, "real2": 98}}
    trade = {"f1": 0.85, "answered_share": 0.9, "answered_by_source": {"obliqa": 42, "real2": 99}}
    same = {"f1": 0.82, "answered_share": 0.9, "answered_by_source": {"obliqa": 43, "real2": 98}}
    for p in (today, trade, same):
        p.update(min_dense=0.86, min_lexical=0.5, min_dense_other_language=0.82)
    assert choose([today, trade, same], 0.9) is trade  # the share in all alone lets one set pay for another
    assert choose([today, trade, same], 0.9, today["answered_by_source"]) is same
