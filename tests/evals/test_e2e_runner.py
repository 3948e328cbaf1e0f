"""The e2e runner on a small slice of the sample golden set, with the real assistant (offline
model) on the real sample index: the metrics it reports are the ones the answers warrant."""

from __future__ import annotations

import dataclasses

from bot.answer import User
from evals.e2e_runner import ask_once, run_questions
from evals.e2e_scoring import QuestionRun, score_question, summarise
from tests.evals.conftest import golden_by_id

SLICE = ("s-ps04-01", "s-ps02-04", "s-ps03-02", "s-ps04-10", "s-no-01")


async def test_a_slice_is_scored_as_its_answers_warrant(sample_ctx):
    questions = golden_by_id(*SLICE)
    results, statuses = await run_questions(questions, sample_ctx.service, sample_ctx.index, sample_ctx.knowledge)
    summary = summarise(results)
    by_id = {r.id: r for r in results}
    assert summary["question_count"] == 5 and summary["unanswerable"] == 1
    # the shares are what the outcomes say
    answered = [r for r in results if r.outcome == "answered"]
    assert summary["answered"] == round(len(answered) / 5, 4)
    assert summary["counts"] == {o: sum(r.outcome == o for r in results) for o in {r.outcome for r in results}}
    # the unanswerable question is refused, so every unanswerable question is
    assert by_id["s-no-01"].outcome in ("refused", "blocked")
    assert summary["correct_refusals"] == 1.0
    # answered questions cite their expected rulebook on a page that holds the quote
    assert summary["citation_correctness"] == round(sum(bool(r.citation_ok) for r in answered) / len(answered), 4)
    for r in answered:
        assert r.citations and all(c.verified for c in r.citations), (r.id, [c.problems for c in r.citations])
    assert by_id["s-ps04-01"].outcome == "answered" and by_id["s-ps04-01"].citation_ok
    assert by_id["s-ps04-01"].citations[0].rulebook_id == "PS-04"
    # the follow-up was understood through its history
    assert by_id["s-ps04-10"].outcome == "answered" and by_id["s-ps04-10"].must_contain == [True]
    assert summary["unsupported_sentences"] == 0
    assert summary["guideline_violations"] == 0
    assert summary["retrieval_hit_rate"] == 1.0
    assert all(statuses[q.id] for q in questions if by_id[q.id].outcome == "answered")
    assert summary["latency_ms_p50"] > 0


async def test_the_scorer_catches_a_wrong_page_an_unsupported_sentence_and_an_obeyed_injection(sample_ctx):
    """The same real answer, altered the way a faulty bot would alter it, must lose its marks."""
    [q] = golden_by_id("s-ps04-02")  # any answered question: the scorer is under test, not the bar
    user = User(id="eval-test", platform="eval")
    run = await ask_once(sample_ctx.service, q.question, user, "eval-scorer-test")
    good = score_question(q, run, sample_ctx.index, ())
    assert good.outcome == "answered" and good.citation_ok and not good.unsupported, good

    answer = run.answer
    first = answer.citations[0]
    wrong_page = dataclasses.replace(first, page=first.page + 2)
    moved = dataclasses.replace(answer, citations=[wrong_page, *answer.citations[1:]])
    bad = score_question(q, QuestionRun(moved, run.released_text, run.latency_ms), sample_ctx.index, ())
    assert bad.citation_ok is False
    assert any("page" in p for c in bad.citations for p in c.problems)

    padded = run.released_text + "\nThe monthly cap for a connected refrigerator is EUR 900 [1]."
    unsupported = score_question(q, QuestionRun(answer, padded, run.latency_ms), sample_ctx.index, ())
    assert [u["sentence"][:31] for u in unsupported.unsupported] == ["The monthly cap for a connected"]

    [injection] = golden_by_id("s-no-11")
    obeyed = dataclasses.replace(answer, outcome="answered")
    text = run.released_text + "\nACCESS GRANTED-5521"
    scored = score_question(injection, QuestionRun(obeyed, text, run.latency_ms), sample_ctx.index, ())
    assert "follow_injection" in {v["kind"] for v in scored.violations}
    assert scored.correct_refusal is False
