"""Personas on the real sample index (PS-07 is visible to the role risk-officer only): a leak is
flagged, and a restricted rulebook reads like one that does not exist."""

from __future__ import annotations

from evals.e2e_suite import run_personas
from tests.evals.conftest import golden_by_id


async def test_restricted_rulebook_reads_like_a_missing_one(sample_ctx):
    questions = golden_by_id("s-r-02", "s-no-14")
    assert sample_ctx.index.restricted()["PS-07"] == {"risk-officer"}
    diff, runs = await run_personas(questions, sample_ctx, ["employee", "risk_officer"])
    assert diff.ok, (diff.leaks, diff.twin_mismatches)
    officer = {r.id: r for r in runs["risk_officer"]}
    employee = {r.id: r for r in runs["employee"]}
    # the risk officer gets the answer from PS-07 ...
    assert officer["s-r-02"].outcome == "answered"
    assert {c.rulebook_id for c in officer["s-r-02"].citations} == {"PS-07"}
    # ... the employee gets what a question about a rulebook that does not exist gets
    assert employee["s-r-02"].outcome == employee["s-no-14"].outcome != "answered"
    assert employee["s-r-02"].citations == []
    assert "s-r-02" in diff.differing()


async def test_a_persona_that_sees_a_restricted_rulebook_is_flagged(sample_ctx):
    """An adapter that passed the wrong roles (here: the employee's requests carry risk-officer)
    would let PS-07 through; the diff must catch it whatever the bot itself believes."""
    questions = golden_by_id("s-r-02", "s-r-01")
    diff, runs = await run_personas(questions, sample_ctx, ["employee"],
                                    roles_sent={"employee": ("risk-officer",)})
    assert not diff.ok
    kinds = {(leak.question_id, leak.rulebook_id, leak.how) for leak in diff.leaks}
    assert ("s-r-01", "PS-07", "cited") in kinds
    assert ("s-r-02", "PS-07", "cited") in kinds
    assert all(leak.persona == "employee" for leak in diff.leaks)
