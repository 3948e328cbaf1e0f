"""Run golden questions through the real assistant (`bot.service`) and score them.

Each question gets its own conversation; a follow-up's earlier turns are written into that
conversation's history first, exactly as a chat front end would have left them. The retrieval
hit rate of the same questions comes from the knowledge facade's hybrid search, with the same
roles. Nothing here changes the index or the bot: a run only reads.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from bot.answer import FinalEvent, StatusEvent, TokenEvent, User
from evals.e2e_golden import GoldenQuestion
from evals.e2e_scoring import IndexView, QuestionResult, QuestionRun, score_question
from evals.personas import roles_for

Progress = Callable[[GoldenQuestion], None]


class Asker(Protocol):
    def ask(self, question: str, user: User, conversation_id: str) -> Any: ...


class Searcher(Protocol):
    def search(self, query: str, roles: Sequence[str] = (), k: int = 10) -> list[Any]: ...


@dataclass
class RunOptions:
    persona: str | None = None  # ask every question as this persona instead of its own
    roles_override: tuple[str, ...] | None = None  # test hook: the roles really sent (see personas)
    retrieval_k: int = 10
    judge: Any | None = None  # evals.e2e_judge.Judge when a judge model is configured
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    # a calibration run: the list the offline model's observer appends its decisions to (the last
    # one of each question is kept on its result)
    decisions: list[Any] | None = None


async def seed_history(service: Any, conversation_id: str, q: GoldenQuestion, user: User) -> None:
    """Put the golden prior turns into the conversation. With a history store we write the turns
    verbatim (deterministic); otherwise we replay the user turns through the assistant."""
    if not q.history:
        return
    store = getattr(service, "history", None) or getattr(service, "history_store", None)
    if store is not None and hasattr(store, "append"):
        await store.append(conversation_id, [{"role": t.role, "content": t.content} for t in q.history])
        return
    for turn in q.history:
        if turn.role == "user":
            async for _ in service.ask(turn.content, user, conversation_id):
                pass


async def ask_once(service: Asker, question: str, user: User, conversation_id: str) -> QuestionRun:
    started = time.perf_counter()
    first_token: float | None = None
    released: list[str] = []
    statuses: list[str] = []
    final = None
    try:
        async for event in service.ask(question, user, conversation_id):
            if isinstance(event, TokenEvent):
                if first_token is None:
                    first_token = (time.perf_counter() - started) * 1000
                released.append(event.text)
            elif isinstance(event, StatusEvent):
                statuses.append(event.text)
            elif isinstance(event, FinalEvent):
                final = event.answer
    except Exception as exc:  # one failing question must not end the run; it is reported
        return QuestionRun(None, "".join(released), (time.perf_counter() - started) * 1000, first_token,
                           statuses, error=f"{type(exc).__name__}: {exc}")
    latency = (time.perf_counter() - started) * 1000
    if final is None:
        return QuestionRun(None, "".join(released), latency, first_token, statuses,
                           error="the stream ended without a final event")
    # The final event may replace the streamed text (the gate can block after streaming); what the
    # user is left with is the final answer's text, but every streamed sentence was seen too.
    streamed = "".join(released)
    seen = final.text if not streamed or streamed.strip() == final.text.strip() else f"{streamed}\n{final.text}"
    return QuestionRun(final, seen, latency, first_token, statuses)


def retrieval_query(q: GoldenQuestion) -> str:
    """A follow-up means nothing alone; the retrieval check asks it with the user's earlier turns."""
    earlier = [t.content for t in q.history if t.role == "user"]
    return " ".join([*earlier, q.question])


def retrieval_hit(q: GoldenQuestion, searcher: Searcher, roles: Sequence[str], k: int) -> tuple[bool, int | None]:
    hits = searcher.search(retrieval_query(q), roles=tuple(roles), k=k)
    for rank, hit in enumerate(hits, start=1):
        payload = getattr(hit, "payload", hit)
        for e in q.expected:
            if payload.rulebook_id != e.rulebook_id:
                continue
            if not e.pages or any(payload.page_start <= p <= payload.page_end for p in e.pages):
                return True, rank
    return False, None


async def run_questions(questions: Sequence[GoldenQuestion], service: Asker, index: IndexView,
                        searcher: Searcher | None, options: RunOptions | None = None,
                        progress: Progress | None = None) -> tuple[list[QuestionResult], dict[str, list[str]]]:
    """Every question once; returns the scored results and the status lines each one showed."""
    options = options or RunOptions()
    results: list[QuestionResult] = []
    statuses: dict[str, list[str]] = {}
    for q in questions:
        roles = roles_for(q, options.persona)
        sent_roles = options.roles_override if options.roles_override is not None else roles
        name = options.persona or q.persona
        user = User(id=f"eval-{name}", roles=tuple(sent_roles), platform="eval", name=name)
        conversation_id = f"eval-{options.run_id}-{name}-{q.id}"
        await seed_history(service, conversation_id, q, user)
        if options.decisions is not None:
            options.decisions.clear()
        run = await ask_once(service, q.question, user, conversation_id)
        result = score_question(q, run, index, roles)
        if options.decisions:
            result.decision = asdict(options.decisions[-1])
        result.persona = name
        if searcher is not None and q.answerable:
            result.retrieval_hit, result.retrieval_rank = retrieval_hit(q, searcher, sent_roles, options.retrieval_k)
        if options.judge is not None and run.answer is not None:
            result.judge_score, result.judge_reason = await options.judge.score(q, result)
        results.append(result)
        statuses[q.id] = run.statuses
        if progress is not None:
            progress(q)
    return results, statuses


def flips(runs: Sequence[Sequence[QuestionResult]]) -> dict[str, list[tuple[Any, ...]]]:
    """Questions whose result signature differs between repeated runs of the same set."""
    by_id: dict[str, list[tuple[Any, ...]]] = {}
    for results in runs:
        for r in results:
            by_id.setdefault(r.id, []).append(r.signature())
    return {qid: sigs for qid, sigs in by_id.items() if len(set(sigs)) > 1}
