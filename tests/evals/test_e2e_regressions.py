"""Golden questions the offline model used to get wrong, run through the e2e runner on the real
sample index: cross-language questions naming a place, advice requests, a cross-reference, a
sentence the PDF broke in two, and a question answered by the right sentence rather than a heading."""

from __future__ import annotations

from evals.e2e_runner import run_questions
from tests.evals.conftest import golden_by_id

FIXED = ("s-fr-01", "s-nl-02", "s-fr-02", "s-no-05", "s-no-06", "s-x-03", "s-ps02-03", "s-ps10-01", "s-ps02-10", "s-x-02")


async def test_questions_that_used_to_fail_now_pass(sample_ctx):
    results, _ = await run_questions(golden_by_id(*FIXED), sample_ctx.service, sample_ctx.index,
                                     sample_ctx.knowledge)
    failing = {r.id: (r.outcome, r.reason, r.must_contain, [c.problems for c in r.citations])
               for r in results if not r.passed}
    assert failing == {}
    by_id = {r.id: r for r in results}
    assert by_id["s-no-05"].outcome == "refused" and by_id["s-no-06"].outcome == "refused"
    assert all(not r.unsupported for r in results)
