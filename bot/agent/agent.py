"""The agent: LangChain v1 `create_agent` over the four zoom tools, with tool discipline.

Tool discipline, as middleware (`ToolDiscipline`):
- Every tool call is timed and reported (name, arguments, result size, milliseconds) to the
  run's `ToolObserver`, which the service turns into status lines and usage events.
- From the fifth call of a question on, the model is reminded, in the system message, to ask
  itself whether its next call fetches something new or repeats a search that already failed.
- At the hard cap (`settings.max_tool_calls`) the model is called WITHOUT tools and told to
  answer from what it has: a runaway loop ends in an answer (or a refusal), not an error.
- A model that emits tool calls anyway (it was offered none) is stopped by LangChain's own
  `ToolCallLimitMiddleware` at the same cap (exit "end"): no tool runs past the cap.
"""

from __future__ import annotations

import contextvars
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from langchain.agents import create_agent
from langchain.agents.middleware import (
    AgentMiddleware,
    ModelRequest,
    ModelResponse,
    ToolCallLimitMiddleware,
    ToolCallRequest,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool
from langsmith import set_runtime_overrides
from langsmith import utils as ls_utils

SYSTEM_PROMPT = (Path(__file__).parent / "prompts" / "system.md").read_text(encoding="utf-8")
REMIND_AFTER = 5
_REMINDER = ("\n\n## Tool calls so far: {n}\nBefore another call, ask yourself: does it fetch something new, "
             "or repeat a search that already failed? If nothing new is left to fetch, answer now from what "
             "you have, or say plainly that the rulebooks do not cover the question.")
_CAP_REACHED = ("\n\n## Tool call limit reached ({n} calls)\nNo more tools are available for this question. "
                "Answer now from the tool results above, citing their handles, or say plainly (beginning with "
                "[not covered]) that the rulebooks do not cover it.")


class ToolObserver(Protocol):
    def tool_started(self, name: str, args: dict[str, Any]) -> None: ...

    def tool_finished(self, name: str, args: dict[str, Any], result_chars: int, ms: float, error: str | None
                      ) -> None: ...


@dataclass
class RunContext:
    """Per-question context (LangGraph's runtime context): the middleware reads the observer and
    the counters, the tools read who is asking (`roles`) and where the chunks they show are
    recorded (`ledger`; see `knowledge.zoom_tools.ToolScope`). Because all of that travels here
    and not in closures, one compiled agent graph serves every question of the process."""

    roles: tuple[str, ...] = ()
    ledger: Any = None
    observer: ToolObserver | None = None
    max_tool_calls: int = 8
    tool_calls: list[str] = field(default_factory=list)
    model_calls: int = 0
    model_ms: float = 0.0  # time inside the chat model (for the offline model: its own planning)
    tool_ms: float = 0.0  # time inside the zoom tools (retrieval)


def calls_this_question(messages: Sequence[Any]) -> int:
    last_user = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    return sum(1 for m in messages[last_user + 1:] if isinstance(m, ToolMessage))


class ToolDiscipline(AgentMiddleware):
    def __init__(self, max_tool_calls: int) -> None:
        super().__init__()
        self.max_tool_calls = max_tool_calls

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> ModelResponse:
        n = calls_this_question(request.messages)
        base = request.system_message.text if request.system_message else ""
        if n >= self.max_tool_calls:
            request = request.override(tools=[], tool_choice=None,
                                       system_message=SystemMessage(base + _CAP_REACHED.format(n=n)))
        elif n >= REMIND_AFTER:
            request = request.override(system_message=SystemMessage(base + _REMINDER.format(n=n)))
        context = getattr(request.runtime, "context", None)
        start = time.perf_counter()
        try:
            return await handler(request)
        finally:
            if isinstance(context, RunContext):
                context.model_calls += 1
                context.model_ms += (time.perf_counter() - start) * 1000

    async def awrap_tool_call(self, request: ToolCallRequest,
                              handler: Callable[[ToolCallRequest], Awaitable[Any]]) -> Any:
        context = getattr(request.runtime, "context", None)
        observer = getattr(context, "observer", None)
        name = request.tool_call["name"]
        args = dict(request.tool_call.get("args") or {})
        if isinstance(context, RunContext):
            context.tool_calls.append(name)
        if observer:
            observer.tool_started(name, args)
        start = time.perf_counter()
        error: str | None = None
        try:
            result = await handler(request)
        except Exception as exc:  # reported, then LangChain's tool error handling decides
            error = f"{type(exc).__name__}: {exc}"
            if observer:
                observer.tool_finished(name, args, 0, (time.perf_counter() - start) * 1000, error)
            raise
        finally:
            if isinstance(context, RunContext):
                context.tool_ms += (time.perf_counter() - start) * 1000
        content = getattr(result, "content", result)
        size = len(content) if isinstance(content, str) else len(json.dumps(content, default=str))
        if isinstance(result, ToolMessage) and result.status == "error":
            error = str(result.content)[:200]
        if observer:
            observer.tool_finished(name, args, size, (time.perf_counter() - start) * 1000, error)
        return result


async def _inline_unless_tracing(default: Callable[..., Awaitable[Any]], ctx: contextvars.Context,
                                 func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """LangSmith's `traceable` (which wraps every middleware model and tool call) hands its run
    bookkeeping to a worker thread twice per call even when nothing is traced: with tracing
    off that bookkeeping is a few dictionary look-ups, done here on the loop instead of queueing
    behind the offline model's planning in the default executor (10 hops per answer)."""
    if ctx.run(ls_utils.tracing_is_enabled):
        return await default(ctx, func, *args, **kwargs)
    return ctx.run(func, *args, **kwargs)


def skip_untraced_thread_hops() -> None:
    """Install `_inline_unless_tracing` (process-wide, idempotent; with tracing on nothing changes)."""
    set_runtime_overrides(aio_to_thread=_inline_unless_tracing)


def build_agent(model: BaseChatModel, tools: Sequence[BaseTool], max_tool_calls: int,
                system_prompt: str = SYSTEM_PROMPT) -> Any:
    cap = max(1, max_tool_calls)
    skip_untraced_thread_hops()
    return create_agent(
        model, list(tools), system_prompt=system_prompt, context_schema=RunContext,
        middleware=[ToolDiscipline(cap), ToolCallLimitMiddleware(run_limit=cap, exit_behavior="end")],
    )
