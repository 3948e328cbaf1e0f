"""The span weights fit (evals.span_ranking) and how the offline model reads its weights file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bot.offline import span_ranker
from evals.span_ranking import (
    COLUMNS,
    LEGACY_COLUMNS,
    SpanCase,
    _bfgs,
    calibrate,
    cross_validate,
    fit,
    top_right,
)


def _case(qid: str, split: str, rng: np.random.Generator, n: int = 12) -> SpanCase:
    """Spans whose right one has the highest `defines` clue but not always the highest dense."""
    features = np.zeros((n, len(COLUMNS)))
    features[:, 0] = 0.8 + 0.05 * rng.random(n)  # dense
    features[:, COLUMNS.index("lexical")] = rng.random(n)
    right = np.zeros(n, dtype=bool)
    k = int(rng.integers(n))
    right[k] = True
    features[k, 0] = 0.86  # the right span is close in meaning ...
    features[k, COLUMNS.index("defines")] = 1.0
    decoy = (k + 1) % n
    features[decoy, 0] = 0.99  # ... but the densest span is a decoy, further ahead than the hand weights make up
    return SpanCase(qid, "synthetic", split, features, right, right.copy())


def test_bfgs_finds_the_minimum_of_a_curved_valley():
    def rosenbrock(x: np.ndarray) -> tuple[float, np.ndarray]:
        a, b = x
        value = (1 - a) ** 2 + 100 * (b - a * a) ** 2
        grad = np.array([-2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a)])
        return float(value), grad

    x = _bfgs(rosenbrock, np.array([-1.2, 1.0]), iterations=2000, tolerance=1e-9)
    assert np.allclose(x, [1.0, 1.0], atol=1e-3)


def test_the_fit_learns_the_clue_that_marks_the_right_span_and_keeps_dense_as_unit():
    rng = np.random.default_rng(7)
    cases = [_case(f"q{i}", "dev", rng) for i in range(40)]
    w = fit(cases, strength=0.001)
    assert w[0] == pytest.approx(1.0)
    assert w[COLUMNS.index("defines")] > 0.13  # must beat the decoy's 0.13 dense lead (hand weight: 0.1)
    assert top_right(cases, w) == 1.0
    dense_only = np.zeros(len(COLUMNS))
    dense_only[0] = 1.0
    assert top_right(cases, dense_only) == 0.0


def test_cross_validation_scores_held_out_questions_and_a_strong_penalty_keeps_the_hand_weights():
    from evals.span_ranking import hand_vector

    rng = np.random.default_rng(3)
    dev = [_case(f"q{i}", "dev", rng) for i in range(30)]
    weak = cross_validate(dev, 0.001)
    strong = cross_validate(dev, 1000.0)
    assert weak["cv_top1_right"] == 1.0
    assert strong["cv_top1_right"] == top_right(dev, hand_vector()) < 0.2  # the hand weights lose to the decoy
    assert np.allclose(fit(dev, 1000.0), hand_vector(), atol=0.01)


def test_calibrate_fits_on_dev_only_and_reports_test_beside_the_hand_weights():
    rng = np.random.default_rng(11)
    dev = [_case(f"d{i}", "dev", rng) for i in range(25)]
    # test questions where the clue points the other way: a fit that looked at them could not reach 1.0 on dev
    test = []
    for i in range(10):
        c = _case(f"t{i}", "test", rng)
        c.right = ~c.right
        c.best = c.right.copy()
        test.append(c)
    report = calibrate([*dev, *test], strengths=(0.001, 1.0))
    assert report["dev"]["fitted_in_sample"]["top1_right"] == 1.0
    assert report["weights"]["defines"] > 0
    assert report["test"]["fitted"]["top1_right"] < 0.5
    assert {row["strength"] for row in report["curve"]} == {0.001, 1.0}


def test_cases_survive_their_json_round_trip():
    rng = np.random.default_rng(5)
    case = _case("q1", "test", rng)
    again = SpanCase.from_json(json.loads(json.dumps(case.to_json())))
    assert again.question_id == "q1" and again.split == "test"
    assert np.allclose(again.features, case.features, atol=1e-5)
    assert (again.right == case.right).all()


def test_cases_recorded_before_a_signal_was_added_read_it_as_zero():
    rng = np.random.default_rng(7)
    case = _case("q2", "dev", rng)
    legacy = case.to_json()
    del legacy["columns"]
    legacy["features"] = case.features[:, [COLUMNS.index(c) for c in LEGACY_COLUMNS]].tolist()
    again = SpanCase.from_json(legacy)
    assert again.features.shape == case.features.shape
    assert (again.features[:, COLUMNS.index("name_parts")] == 0).all()
    assert np.allclose(again.features[:, COLUMNS.index("defines")], case.features[:, COLUMNS.index("defines")])
    with pytest.raises(ValueError, match="shoe_size"):
        SpanCase.from_json({**case.to_json(), "columns": [*COLUMNS[:-1], "shoe_size"]})


def test_the_weights_file_is_read_whole_and_a_signal_it_does_not_know_is_an_error(tmp_path):
    path = tmp_path / "span_weights.json"
    path.write_text(json.dumps({"weights": {"defines": 0.3}}), encoding="utf-8")
    weights = span_ranker.load_weights(path)
    assert weights["defines"] == 0.3 and weights["identifier"] == 0.0 and set(weights) == set(span_ranker.SIGNALS)
    path.write_text(json.dumps({"weights": {"shoe_size": 1.0}}), encoding="utf-8")
    with pytest.raises(ValueError, match="shoe_size"):
        span_ranker.load_weights(path)
    assert span_ranker.load_weights(tmp_path / "absent.json") is span_ranker.HAND_WEIGHTS


def test_the_model_scores_with_the_committed_weights():
    from bot.offline.span_scoring import Span

    assert span_ranker.load_weights() == span_ranker.WEIGHTS
    span = Span("S1", None, 0, "text", lexical=1.0, dense=0.8, dense_full=0.8,  # type: ignore[arg-type]
                signals={"lexical": 1.0, "defines": 1.0})
    w = span_ranker.WEIGHTS
    assert span.score == pytest.approx(0.8 + w["lexical"] + w["defines"])


def test_the_cases_of_one_question_share_a_fold():
    from evals.span_ranking import folds

    rng = np.random.default_rng(2)
    cases = [_case(f"q{i % 7}", "dev", rng) for i in range(21)]  # each question recorded three times
    parts = folds(cases, 5)
    where = {}
    for i, part in enumerate(parts):
        for c in part:
            assert where.setdefault(c.question_id, i) == i
    assert sum(len(p) for p in parts) == 21


def test_the_quote_margin_keeps_the_hand_weights_quoting_budget():
    from evals.span_ranking import equal_budget_margin, hand_vector, quoted

    rng = np.random.default_rng(9)
    dev = [_case(f"q{i}", "dev", rng) for i in range(20)]
    hand = hand_vector()
    stretched = hand.copy()
    stretched[1:] *= 3.0  # clues three times as strong: scores spread, fewer spans within the hand margin
    stretched[0] = 1.0
    budget = np.mean([len(quoted(c, hand, 0.03)) for c in dev])
    margin = equal_budget_margin(dev, stretched)
    at_hand_margin = abs(np.mean([len(quoted(c, stretched, 0.03)) for c in dev]) - budget)
    assert margin > 0.03
    assert abs(np.mean([len(quoted(c, stretched, margin)) for c in dev]) - budget) < at_hand_margin
    # the best span is always quoted, and never more sentences than an answer quotes
    from bot.offline.offline_model import MAX_QUOTES, MAX_TABLES

    for c in dev:
        picked = quoted(c, stretched, 1.0)
        assert int(np.argmax(c.features @ stretched)) in picked and len(picked) <= MAX_QUOTES + MAX_TABLES
