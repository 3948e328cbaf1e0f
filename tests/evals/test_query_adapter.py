"""The query adapter learns a map that brings questions back to their passages."""

from __future__ import annotations

import numpy as np

from evals.query_adapter import Setting, adapted, fit_adapter


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _top1(queries: np.ndarray, passages: np.ndarray, gold: list[int]) -> float:
    return float(np.mean(np.argmax(queries @ passages.T, axis=1) == np.array(gold)))


def test_a_diagonal_and_a_full_adapter_undo_a_distortion_of_the_questions():
    rng = np.random.default_rng(3)
    passages = _unit(rng.normal(size=(300, 12)))
    gold = list(rng.integers(0, 300, size=200))
    # questions see their passage through a distortion: four dimensions blown up, noise on all
    stretch = np.ones(12)
    stretch[:4] = 6.0
    queries = _unit(passages[gold] * stretch + rng.normal(scale=0.05, size=(200, 12))).astype(np.float32)
    before = _top1(queries, passages, gold)
    for setting in (Setting("diagonal", 0.05, 150), Setting("full", 0.02, 150)):
        w = fit_adapter(queries[:100], passages, [[g] for g in gold[:100]], setting, l2=0.0)
        # learned on the first 100 questions, it helps the 100 it never saw
        assert _top1(adapted(queries, w)[100:], passages, gold[100:]) > _top1(queries[100:], passages, gold[100:]) + 0.2
    assert before < 0.8
    diagonal = fit_adapter(queries[:100], passages, [[g] for g in gold[:100]], Setting("diagonal", 0.05, 20))
    assert np.count_nonzero(diagonal - np.diag(np.diag(diagonal))) == 0  # a weight per dimension only


def test_no_steps_is_the_identity():
    queries = _unit(np.random.default_rng(0).normal(size=(5, 4))).astype(np.float32)
    w = fit_adapter(queries, queries, [[i] for i in range(5)], Setting("full", 0.1, 0))
    assert np.array_equal(w, np.eye(4)) and np.allclose(adapted(queries, w), queries, atol=1e-6)
