"""Intervals of shares and of dev-test gaps (evals.intervals), and how the e2e and exclusion reports
carry them."""

from __future__ import annotations

import pytest

from evals.e2e_report import split_summaries
from evals.e2e_scoring import QuestionResult
from evals.exclusion import ExclusionCase
from evals.exclusion import summarise as summarise_exclusion
from evals.intervals import newcombe, wilson


def test_wilson_matches_the_published_examples_and_stays_inside_0_1():
    # Newcombe (1998), table I: 81/263 -> 0.2553-0.3662; 0/10 -> 0-0.2775
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    low, high = wilson(10, 10)  # type: ignore[misc]
    assert high == pytest.approx(1.0) and high <= 1.0 and low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) is None
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_newcombe_matches_the_published_examples():
    # Newcombe (1998), method 10: 56/70 - 48/80 -> 0.0524-0.3339; 9/10 - 3/10 -> 0.1705-0.8090
    assert newcombe(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert newcombe(9, 10, 3, 10) == pytest.approx((0.1705, 0.8090), abs=1e-4)
    assert newcombe(1, 2, 0, 0) is None


def _result(qid: str, answerable: bool, answered: bool) -> QuestionResult:
    return QuestionResult(id=qid, question="q", corpus="real2", persona="employee", roles=[], kind="fact",
                          categories=["fact"], language="en", answerable=answerable,
                          outcome="answered" if answered else "refused", reason="", answer="a", citations=[],
                          citation_ok=True if answered else None, expected_cited=True if answered else None,
                          all_expected_cited=None, section_match=None, must_contain=[answered], unsupported=[],
                          violations=[], correct_refusal=None if answerable else not answered, retrieval_hit=True,
                          retrieval_rank=0, latency_ms=1.0, first_token_ms=None, tool_calls=1)


def test_a_gap_is_beyond_chance_only_where_its_interval_excludes_zero():
    """dev answers 45 of 50 answerable questions, test 30 of 50: beyond chance. Unanswerable questions
    are refused 9 of 10 on dev and 8 of 10 on test: a gap of ten points that ten questions cannot tell."""
    results, split = [], {}
    for half, answered, refused in (("dev", 45, 9), ("test", 30, 8)):
        for i in range(50):
            results.append(_result(f"{half}-a{i}", True, i < answered))
        for i in range(10):
            results.append(_result(f"{half}-u{i}", False, i >= refused))
        split |= {r.id: half for r in results if r.id.startswith(half)}
    out = split_summaries(results, split)
    assert out["dev"]["fractions"]["answerable_answered"] == [45, 50]
    assert out["test"]["intervals"]["answerable_answered"] == pytest.approx(list(wilson(30, 50)), abs=1e-4)
    assert out["gap"]["answerable_answered"] == pytest.approx(0.3)
    assert out["gap_intervals"]["answerable_answered"][0] > 0
    assert "answerable_answered" in out["gaps_beyond_chance"]
    assert out["gap"]["correct_refusals"] == pytest.approx(0.1)
    low, high = out["gap_intervals"]["correct_refusals"]
    assert low < 0 < high and "correct_refusals" not in out["gaps_beyond_chance"]


def test_the_exclusion_report_gives_the_interval_of_each_refused_share():
    cases = [ExclusionCase(question_id=f"q{i}", split="test", hidden=["A"], outcome="refused" if i < 18 else "answered",
                           view="excluded", right_page=False, cited=[], answer="", elsewhere=i == 19)
             for i in range(20)]
    row = summarise_exclusion(cases)["test"]
    assert row["refused_interval"] == pytest.approx(list(wilson(18, 20)), abs=1e-4)
    assert row["refused_or_answered_elsewhere_interval"] == pytest.approx(list(wilson(19, 20)), abs=1e-4)


def test_the_printed_report_shows_counts_intervals_and_marks_a_gap_beyond_chance():
    from rich.console import Console

    from evals.e2e_report import print_splits

    results, split = [], {}
    for half, answered in (("dev", 45), ("test", 30)):
        results += [_result(f"{half}-a{i}", True, i < answered) for i in range(50)]
        split |= {f"{half}-a{i}": half for i in range(50)}
    splits = split_summaries(results, split)
    console = Console(record=True, width=160)
    print_splits(console, {"splits": splits, "answerable_answered": 0.75})
    text = console.export_text()
    answered_row = next(line for line in text.splitlines() if "answered" in line and "%" in line and "/" not in line)
    assert "+30.0% *" in answered_row
    interval_row = next(line for line in text.splitlines() if "45/50" in line)
    assert "30/50" in interval_row and "+" in interval_row.split("30/50")[1]


def test_a_kind_gap_is_marked_beyond_chance_only_where_its_interval_excludes_zero():
    from evals.e2e_report import kind_gaps

    splits = {"dev": {"by_kind": {"table": {"questions": 43, "passed": 37}, "fact": {"questions": 28, "passed": 20}}},
              "test": {"by_kind": {"table": {"questions": 42, "passed": 24}, "fact": {"questions": 28, "passed": 14}}}}
    rows = {r["kind"]: r for r in kind_gaps(splits)}
    assert rows["table"]["beyond_chance"] and rows["table"]["gap_interval"][0] > 0
    assert not rows["fact"]["beyond_chance"] and rows["fact"]["gap_interval"][0] < 0 < rows["fact"]["gap_interval"][1]
