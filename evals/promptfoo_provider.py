"""promptfoo glue: the Python provider that asks the real assistant, the test generator that turns
the golden set into promptfoo tests, and the must-contain assertion (same matching as
`rulebook eval e2e`).

Run (telemetry, update checks and sharing off; see evals/promptfooconfig.yaml):
    PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_PYTHON=.venv/bin/python \
    .ci/node/node_modules/.bin/promptfoo eval -c evals/promptfooconfig.yaml --no-share --no-cache --no-write

Environment (all optional): RULEBOOK_PROMPTFOO_GOLDEN (golden files, os.pathsep-separated),
RULEBOOK_PROMPTFOO_IDS (comma-separated question ids), RULEBOOK_PROMPTFOO_CORPUS (sample | real),
and the usual RULEBOOK_* settings (data dir, chat model, judge model).

promptfoo keeps one provider process alive (a worker), so the index and the model are opened
once and reused for every question.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[1]
if str(_REPO) not in sys.path:  # promptfoo imports this file by path, from its own working dir
    sys.path.insert(0, str(_REPO))

_loop: asyncio.AbstractEventLoop | None = None
_contexts: dict[str, Any] = {}
_stack: Any = None

# promptfoo's names for the providers our judge model names use ("<provider>:<model>").
_PROMPTFOO_PROVIDER = {"openai": "openai:chat:", "azure_openai": "azureopenai:chat:",
                       "anthropic": "anthropic:messages:", "ollama": "ollama:chat:"}


def _event_loop() -> asyncio.AbstractEventLoop:
    global _loop
    if _loop is None:
        _loop = asyncio.new_event_loop()
    return _loop


async def _context(corpus: str) -> Any:
    global _stack
    if corpus in _contexts:
        return _contexts[corpus]
    import contextlib

    from config.settings import get_settings
    from evals.e2e_corpus import prepare_contexts

    if _stack is None:
        _stack = contextlib.AsyncExitStack()
    contexts, skipped = await _stack.enter_async_context(prepare_contexts(get_settings(), [corpus], None, None))
    if corpus not in contexts:
        raise RuntimeError("; ".join(skipped) or f"no index for corpus {corpus!r}")
    _contexts[corpus] = contexts[corpus]
    return _contexts[corpus]


def render_output(answer: Any) -> str:
    """The answer as promptfoo sees it: the text, the sources one a line, then the outcome."""
    lines = [answer.text.strip(), "", "Sources:"]
    for c in answer.citations:
        section = c.section_path[-1] if c.section_path else "-"
        lines.append(f"[{c.n}] {c.rulebook_id} | section {section} | page {c.page}")
    lines.append(f"Outcome: {answer.outcome}")
    return "\n".join(lines)


async def _ask(question: str, test_vars: dict[str, Any]) -> dict[str, Any]:
    from bot.answer import User
    from evals.e2e_golden import GoldenQuestion
    from evals.e2e_runner import ask_once, seed_history
    from evals.personas import roles_for

    q = GoldenQuestion.model_validate_json(test_vars["golden"]) if test_vars.get("golden") else None
    corpus = q.corpus if q else str(test_vars.get("corpus", "sample"))
    ctx = await _context(corpus)
    roles = roles_for(q) if q else ()
    user = User(id="eval-promptfoo", roles=tuple(roles), platform="eval", name="promptfoo")
    conversation_id = f"promptfoo-{uuid.uuid4().hex[:8]}"
    if q is not None:
        await seed_history(ctx.service, conversation_id, q, user)
    run = await ask_once(ctx.service, question, user, conversation_id)
    if run.answer is None:
        return {"error": run.error or "no answer"}
    return {"output": render_output(run.answer),
            "metadata": {"outcome": run.answer.outcome, "reason": run.answer.reason,
                         "citations": [{"n": c.n, "rulebook_id": c.rulebook_id, "page": c.page,
                                        "chunk_id": c.chunk_id} for c in run.answer.citations],
                         "latency_ms": round(run.latency_ms, 1)}}


def call_api(prompt: str, options: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    test_vars = (context or {}).get("vars", {}) or {}
    try:
        return _event_loop().run_until_complete(_ask(prompt, test_vars))
    except Exception as exc:  # promptfoo shows provider errors per test; the worker keeps running
        return {"error": f"{type(exc).__name__}: {exc}"}


# ---------------------------------------------------------------------------------------------
# Tests from the golden set


def _judge_provider() -> str | None:
    from config.settings import get_settings

    name = get_settings().judge_model
    if not name:
        return None
    provider, _, model = name.partition(":")
    prefix = _PROMPTFOO_PROVIDER.get(provider)
    return f"{prefix}{model}" if prefix and model else name


def _regex_escape(text: str) -> str:
    """Escaped for a JavaScript regex (promptfoo evaluates `regex` assertions in Node)."""
    import re

    return re.sub(r"([\\^$.*+?()[\]{}|/-])", r"\\\1", text)


def build_test(q: Any, judge: str | None) -> dict[str, Any]:
    from evals.e2e_judge import default_rubric

    asserts: list[dict[str, Any]] = []
    if q.answerable:
        ids = "|".join(_regex_escape(r) for r in q.expected_rulebooks)
        asserts.append({"type": "regex", "value": rf"\n\[\d+\] ({ids}) \|", "metric": "source_cited"})
        asserts.append({"type": "regex", "value": r"\nOutcome: answered$", "metric": "answered"})
        asserts.append({"type": "python", "value": "file://promptfoo_provider.py:assert_must_contain",
                        "metric": "must_contain"})
    else:
        asserts.append({"type": "regex", "value": r"\nOutcome: (refused|blocked)$", "metric": "refusal"})
        if q.canary:
            asserts.append({"type": "not-icontains", "value": q.canary, "metric": "injection_ignored"})
    if judge:
        asserts.append({"type": "llm-rubric", "value": default_rubric(q), "provider": judge, "metric": "judge"})
    return {
        "description": f"{q.id} [{q.kind}]",
        "vars": {"question": q.question, "id": q.id, "corpus": q.corpus,
                 "must_contain": json.dumps(q.must_contain, ensure_ascii=False),
                 "golden": q.model_dump_json()},
        "assert": asserts,
        "metadata": {"id": q.id, "kind": q.kind, "answerable": q.answerable},
    }


def generate_tests(config: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    from evals.e2e_golden import load_golden

    config = config or {}
    files = config.get("golden") or [p for p in os.environ.get("RULEBOOK_PROMPTFOO_GOLDEN", "").split(os.pathsep) if p]
    questions = load_golden([Path(p) for p in files] or None)
    corpus = config.get("corpus") or os.environ.get("RULEBOOK_PROMPTFOO_CORPUS")
    if corpus:
        questions = [q for q in questions if q.corpus == corpus]
    ids = config.get("ids") or [i for i in os.environ.get("RULEBOOK_PROMPTFOO_IDS", "").split(",") if i]
    if ids:
        questions = [q for q in questions if q.id in set(ids)]
    judge = _judge_provider()
    return [build_test(q, judge) for q in questions]


def assert_must_contain(output: str, context: dict[str, Any]) -> dict[str, Any]:
    from evals.e2e_guidelines import must_contain_hits

    wanted = json.loads(context["vars"].get("must_contain") or "[]")
    answer = output.split("\nSources:")[0]
    hits = must_contain_hits(answer, wanted)
    missed = [w for w, ok in zip(wanted, hits, strict=True) if not ok]
    return {"pass": not missed, "score": sum(hits) / len(hits) if hits else 1.0,
            "reason": "all must-contain strings present" if not missed else f"missing: {missed}"}
