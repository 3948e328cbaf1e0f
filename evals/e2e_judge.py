"""The LLM judge: with `RULEBOOK_JUDGE_MODEL` set, a chat model scores each answer against its
question's rubric (prompt in `e2e_judge_prompt.md`). Without one, no judge runs and no score is
reported: the deterministic metrics never depend on it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.e2e_golden import GoldenQuestion

if TYPE_CHECKING:
    from config.settings import Settings
    from evals.e2e_scoring import QuestionResult

PROMPT_PATH = Path(__file__).with_name("e2e_judge_prompt.md")
_JSON = re.compile(r"\{.*\}", re.S)


def default_rubric(q: GoldenQuestion) -> str:
    if q.rubric:
        return q.rubric
    if not q.answerable:
        return "A plain refusal: the rulebooks do not cover this. No facts from elsewhere, no advice."
    wanted = "; ".join(s if isinstance(s, str) else " or ".join(s) for s in q.must_contain)
    sources = ", ".join(f"{e.rulebook_id}" + (f" section {e.section}" if e.section else "")
                        + (f" page {'/'.join(map(str, e.pages))}" if e.pages else "") for e in q.expected)
    return f"States: {wanted}. Cites: {sources}."


def parse_verdict(text: str) -> tuple[float | None, str]:
    match = _JSON.search(text)
    if not match:
        return None, f"judge reply is not JSON: {text[:120]!r}"
    try:
        data = json.loads(match.group(0))
        score = float(data["score"])
    except (ValueError, KeyError, TypeError) as exc:
        return None, f"judge reply unusable ({exc}): {text[:120]!r}"
    if not 1 <= score <= 5:
        return None, f"judge score {score} outside 1-5"
    return score, str(data.get("reason", ""))


class Judge:
    def __init__(self, model: Any, prompt: str | None = None) -> None:
        self.model = model
        self.prompt = prompt or PROMPT_PATH.read_text(encoding="utf-8")

    @classmethod
    def from_settings(cls, settings: Settings) -> Judge | None:
        if not settings.judge_model:
            return None
        from bot.agent.chat_models import load_chat_model

        return cls(load_chat_model(settings.judge_model, temperature=0))

    def render(self, q: GoldenQuestion, result: QuestionResult) -> str:
        sources = "\n".join(f"[{c.n}] {c.rulebook_id}, section {'.'.join(c.section_path[-1:]) or '-'}, page {c.page}"
                            for c in result.citations) or "(none)"
        return self.prompt.format(language=q.language, question=q.question,
                                  answerable="yes" if q.answerable else "no", rubric=default_rubric(q),
                                  outcome=result.outcome, answer=result.answer or "(empty)", sources=sources)

    async def score(self, q: GoldenQuestion, result: QuestionResult) -> tuple[float | None, str]:
        try:
            reply = await self.model.ainvoke(self.render(q, result))
        except Exception as exc:  # a judge outage is reported per question, the run goes on
            return None, f"judge failed: {type(exc).__name__}: {exc}"
        return parse_verdict(str(getattr(reply, "content", reply)))
