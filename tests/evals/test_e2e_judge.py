"""The LLM judge through the real provider client (langchain-openai) against a local
OpenAI-compatible stand-in: configured by name, it scores each answer against its rubric."""

from __future__ import annotations

import json

from config.settings import Settings
from evals.e2e_judge import Judge, parse_verdict
from evals.e2e_runner import RunOptions, run_questions
from tests.bot.openai_standin import OpenAIStandIn, Reply
from tests.evals.conftest import golden_by_id


def test_verdicts_are_parsed_or_reported():
    assert parse_verdict('{"score": 4, "reason": "fine"}') == (4.0, "fine")
    assert parse_verdict('Sure! {"score": 2, "reason": "no source"} Hope that helps')[0] == 2.0
    assert parse_verdict("five")[0] is None
    assert parse_verdict('{"score": 9}')[0] is None


async def test_a_configured_judge_scores_each_answer(sample_ctx, monkeypatch):
    seen: list[str] = []

    def script(body: dict) -> Reply:
        prompt = body["messages"][-1]["content"]
        seen.append(prompt)
        score = 5 if "Outcome: answered" in prompt or "(outcome: answered)" in prompt else 3
        return Reply(text=json.dumps({"score": score, "reason": "graded"}))

    standin = OpenAIStandIn(script)
    await standin.start()
    try:
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("OPENAI_BASE_URL", standin.base_url)
        monkeypatch.setenv("OPENAI_API_BASE", standin.base_url)
        judge = Judge.from_settings(Settings(data_dir=sample_ctx.settings.data_dir, judge_model="openai:judge-model"))
        assert judge is not None
        assert Judge.from_settings(Settings(data_dir=sample_ctx.settings.data_dir)) is None
        questions = golden_by_id("s-ps04-01", "s-no-08")
        results, _ = await run_questions(questions, sample_ctx.service, sample_ctx.index, None,
                                         RunOptions(judge=judge))
    finally:
        await standin.stop()
    assert [r.judge_score for r in results] == [5.0, 3.0]
    assert len(seen) == 2
    assert "Can I pay with my fridge?" in seen[0] and "PS-04" in seen[0]  # question, rubric and sources
    assert "refusal" in seen[1].lower()
