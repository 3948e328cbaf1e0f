"""One set of span weights or one per kind of question (evals.span_kinds), on synthetic spans whose right
one is marked by a different clue in each kind."""

from __future__ import annotations

import numpy as np

from evals.span_kinds import PROBE, compare, element_question
from evals.span_ranking import COLUMNS, SpanCase


def _case(qid: str, corpus: str, split: str, clue: str, rng: np.random.Generator, n: int = 10) -> SpanCase:
    """The right span holds `clue`; a decoy holds the other kind's clue and is denser."""
    other = "lexical" if clue == "element_defines" else "element_defines"
    features = np.zeros((n, len(COLUMNS)))
    features[:, 0] = 0.70 + 0.10 * rng.random(n)
    right = np.zeros(n, dtype=bool)
    k = int(rng.integers(n))
    right[k] = True
    features[k, 0] = 0.85
    features[k, COLUMNS.index(clue)] = 1.0
    decoy = (k + 1) % n
    # in half the questions a little closer in meaning than the right span (dense alone gets those wrong)
    features[decoy, 0] = 0.87 if rng.random() < 0.5 else 0.82
    features[decoy, COLUMNS.index(other)] = 1.0
    return SpanCase(qid, corpus, split, features, right, right.copy())


def test_element_questions_are_those_about_an_element_naming_a_message_or_an_element():
    assert element_question("Is Creator mandatory in a CancelCaseAssignment message?")
    assert element_question("When must CancellationDetails be present in a ResolutionOfInvestigation?")
    assert element_question("What is the multiplicity of Assignee in camt.039?")
    assert not element_question("What is the maximum amount of an instant payment?")
    assert not element_question("Who sends a camt.056?")  # about a message, not an element


def test_two_weight_sets_serve_two_kinds_whose_right_spans_differ_and_test_is_only_scored():
    rng = np.random.default_rng(3)
    cases = [_case(f"el-{i}", PROBE, split, "element_defines", rng)
             for i, split in enumerate(["dev"] * 40 + ["test"] * 20)]
    cases += [_case(f"g-{i}", "real2", split, "lexical", rng) for i, split in enumerate(["dev"] * 40 + ["test"] * 20)]
    report = compare(cases, {c.question_id: "What is the maximum amount?" for c in cases if c.corpus != PROBE})
    figures = report["top1_right"]
    assert report["questions_with_right_span"] == {"golden dev": 40, "golden test": 20, "probe dev": 40, "probe test": 20}
    assert report["golden_element_questions"] == {"dev": 0, "test": 0}
    # each kind's own fit finds its own clue, on test questions it never saw
    assert figures["two sets"]["probe test"] == 1.0 and figures["two sets"]["golden test"] == 1.0
    assert report["element_weights"]["element_defines"] > report["element_weights"]["lexical"]
    assert report["rest_weights"]["lexical"] > report["rest_weights"]["element_defines"]
    # one set cannot serve both: the clues contradict each other across kinds
    assert min(figures["one refit"]["probe test"], figures["one refit"]["golden test"]) < 1.0
