"""The quote budget sweep (`rulebook eval quotes`, evals/quote_budget.py): what it counts, the rule
it chooses by, and a real sweep over sample dev questions with the offline model on the sample index."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from adapters.cli import app
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.span_ranker import MAX_QUOTES
from evals.e2e_scoring import CitationCheck, QuestionResult
from evals.quote_budget import BudgetPoint, budget_point, choose_budget, sweep
from tests.conftest import REPO_ROOT
from tests.evals.conftest import golden_by_id

SAMPLE_DEV = ("s-ps01-01", "s-ps01-03", "s-ps01-06", "s-ps01-07", "s-ps02-05", "s-ps03-01")


def _result(qid: str, answerable: bool, outcome: str, cited: list[bool], facts: list[bool], answer: str) -> QuestionResult:
    citations = [CitationCheck(n=i + 1, rulebook_id="PS-01", page=1, section_path=[], chunk_id=f"c{i}", verified=True,
                               matches_expected=hit) for i, hit in enumerate(cited)]
    answered = outcome == "answered"
    return QuestionResult(
        id=qid, question="q", corpus="sample", persona="p", roles=[], kind="fact", categories=["fact"], language="en",
        answerable=answerable, outcome=outcome, reason=None, answer=answer, citations=citations,
        citation_ok=any(cited) if answered and answerable else None,
        expected_cited=any(cited) if answered and answerable else None, all_expected_cited=None, section_match=None,
        must_contain=facts, unsupported=[], violations=[], correct_refusal=None if answerable else outcome != "answered")


def test_a_budget_point_counts_key_facts_pages_and_citation_precision_over_answerable_questions():
    point = budget_point(3, [
        _result("a", True, "answered", [True, False], [True, True], "x" * 100),
        _result("b", True, "answered", [False], [True, False], "x" * 300),
        _result("c", True, "refused", [], [False], ""),
        _result("d", False, "answered", [False, False, False], [], "x" * 500),  # unanswerable: lengths only
    ])
    assert (point.answerable, point.answered, point.key_facts, point.right_page) == (3, 2, 1, 1)
    assert (point.citations, point.citations_on_page) == (3, 1)
    assert point.key_facts_share == pytest.approx(1 / 3) and point.right_page_share == 0.5
    assert point.chars_median == 300 and point.chars_mean == 300


def _point(budget: int, key_facts: int) -> BudgetPoint:
    return BudgetPoint(budget=budget, answerable=10, answered=9, key_facts=key_facts, right_page=9 - budget % 2,
                       citations=20, citations_on_page=10, chars_median=100.0 * budget, chars_mean=100.0 * budget)


def test_the_smallest_budget_reaching_the_most_key_facts_is_chosen_whatever_the_right_pages():
    assert choose_budget([_point(2, 5), _point(3, 7), _point(4, 8), _point(5, 8), _point(6, 7)]) == 4
    assert choose_budget([_point(4, 6), _point(2, 6)]) == 2
    with pytest.raises(ValueError):
        choose_budget([])


def _with_facts(budget: int, right: range) -> BudgetPoint:
    ids = tuple(f"q{i:03d}" for i in right)
    return BudgetPoint(budget=budget, answerable=300, answered=280, key_facts=len(ids), right_page=260, citations=500,
                       citations_on_page=260, chars_median=100.0 * budget, chars_mean=100.0 * budget, key_fact_ids=ids)


def test_a_budget_replaces_todays_only_when_it_gets_more_questions_right_than_chance_would():
    four = _with_facts(4, range(0, 244))
    # two more questions right (sessions 18-19 saw one and two): noise for a change of every answer's length
    assert choose_budget([four, _with_facts(6, range(0, 246))], current=4) == 4
    # two more on balance, four gained and two lost: the count alone would still say 6
    assert choose_budget([four, _with_facts(6, range(2, 248))], current=4) == 4
    # eight more and none lost: beyond chance (p = 2 / 2**8)
    assert choose_budget([four, _with_facts(5, range(0, 252))], current=4) == 5
    # today's budget the best already, or not among the budgets swept: the old rule
    assert choose_budget([_with_facts(3, range(0, 240)), four], current=4) == 4
    assert choose_budget([four, _with_facts(6, range(0, 246))], current=9) == 6


def test_the_sign_test_is_exact_and_two_sided():
    from evals.intervals import sign_test

    assert sign_test(0, 0) == 1.0
    assert sign_test(2, 0) == 0.5 and sign_test(0, 2) == 0.5
    assert sign_test(6, 0) == pytest.approx(2 / 64) and sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert sign_test(5, 5) == 1.0
    with pytest.raises(ValueError):
        sign_test(-1, 2)


async def test_a_sweep_quotes_fewer_sentences_at_a_smaller_budget_and_puts_the_budget_back(sample_ctx):
    model = sample_ctx.service.model
    assert isinstance(model, OfflineRulebookModel) and model.max_quotes == MAX_QUOTES
    questions = golden_by_id(*SAMPLE_DEV)
    one, four = await sweep(questions, {"sample": sample_ctx}, [1, 4])
    assert model.max_quotes == MAX_QUOTES
    assert one.answered == four.answered == len(SAMPLE_DEV)  # the budget never changes the decision
    assert one.chars_mean < four.chars_mean and one.citations <= four.citations
    assert one.key_facts <= four.key_facts


def test_the_command_writes_the_sweep_and_its_curve(cli_env, tmp_path):
    golden = tmp_path / "e2e_scratch.jsonl"
    source = [json.loads(line) for line in
              (REPO_ROOT / "evals" / "golden" / "e2e_sample.jsonl").read_text(encoding="utf-8").splitlines()]
    golden.write_text("".join(json.dumps(q) + "\n" for q in source if q["id"] in SAMPLE_DEV[:3]), encoding="utf-8")
    out = tmp_path / "quote_budget.json"
    result = CliRunner().invoke(app, ["eval", "quotes", "--corpus", "sample", "--golden", str(golden),
                                      "--budgets", "1,3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [p["budget"] for p in report["points"]] == [1, 3] and report["questions"] == 3
    # which questions each budget answers with their key facts: what the rule compares, pair by pair
    assert all(len(p["key_fact_ids"]) == p["key_facts"] for p in report["points"])
    assert report["chosen"] in (1, 3) and report["split"] == ["dev"] and report["current"] == MAX_QUOTES
    assert out.with_suffix(".png").stat().st_size > 10_000
    bad = CliRunner().invoke(app, ["eval", "quotes", "--corpus", "sample", "--budgets", "0,x"])
    assert bad.exit_code == 2 and "whole numbers" in bad.output
