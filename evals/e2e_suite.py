"""The whole end-to-end evaluation: which index each question runs against, the assistant and the
knowledge facade for it, repeats and personas. The command line and the tests call this.

Questions carry a `corpus`: "sample" runs against an index of `examples/rulebooks/`, "real"
against an index of the public PDFs in `../shared/corpora/real-pdfs/` (ids = file stems). Each
lives in its own data dir; `evals.e2e_corpus` builds them when they are missing.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evals.citation_check import PageTexts
from evals.e2e_golden import GoldenQuestion
from evals.e2e_runner import RunOptions, flips, run_questions
from evals.e2e_scoring import IndexView, QuestionResult, summarise
from evals.personas import DEFAULT_PERSONAS, PersonaDiff, as_seen_by, diff_personas, persona

if TYPE_CHECKING:
    from config.settings import Settings


@dataclass
class CorpusContext:
    """One index, open: the assistant, the knowledge facade and the view citations are checked on."""

    settings: Settings
    service: Any
    knowledge: Any
    index: IndexView


@dataclass
class SuiteRun:
    runs: list[list[QuestionResult]]
    statuses: dict[str, list[str]] = field(default_factory=dict)

    @property
    def results(self) -> list[QuestionResult]:
        return self.runs[-1]

    def summary(self) -> dict[str, Any]:
        return summarise(self.results)

    def flips(self) -> dict[str, list[tuple[Any, ...]]]:
        return flips(self.runs)


def make_service(settings: Settings, knowledge: Any) -> Any:
    """The assistant as the product wires it (configured chat and judge model), on our knowledge
    facade. Two things differ on purpose: eval questions are not usage (no event log), and drafts
    the gate blocks go to the eval's own review queue, not the rulebook desk's."""
    from bot.memory.review_queue import JsonlReviewQueue
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    review = JsonlReviewQueue(settings.data_dir / "evals" / "review_queue.jsonl")
    return AssistantService.from_settings(settings, knowledge=knowledge, events=NullSink(), review=review)


async def _close(obj: Any) -> None:
    for name in ("aclose", "close"):
        method = getattr(obj, name, None)
        if method is not None:
            result = method()
            if inspect.isawaitable(result):
                await result
            return


@contextlib.asynccontextmanager
async def open_corpus(settings: Settings, pdf_roots: Sequence[Any] = ()) -> AsyncIterator[CorpusContext]:
    from knowledge.knowledge_base import KnowledgeBase

    knowledge = KnowledgeBase.from_settings(settings)
    service = make_service(settings, knowledge)
    try:
        payloads = list(knowledge.store.scroll(None))
        index = IndexView(payloads, PageTexts(roots=list(pdf_roots)))
        yield CorpusContext(settings, service, knowledge, index)
    finally:
        await _close(service)
        knowledge.close()


async def run_suite(questions: Sequence[GoldenQuestion], contexts: Mapping[str, CorpusContext],
                    repeat: int = 1, options: RunOptions | None = None,
                    progress: Callable[[GoldenQuestion], None] | None = None) -> SuiteRun:
    """Every question `repeat` times against the context of its corpus. Questions whose corpus has
    no context are left out (the caller says why, e.g. the public PDFs are absent)."""
    options = options or RunOptions()
    runs: list[list[QuestionResult]] = []
    statuses: dict[str, list[str]] = {}
    for attempt in range(max(1, repeat)):
        results: list[QuestionResult] = []
        for corpus, ctx in contexts.items():
            group = [q for q in questions if q.corpus == corpus]
            if not group:
                continue
            run_options = RunOptions(persona=options.persona, roles_override=options.roles_override,
                                     retrieval_k=options.retrieval_k, judge=options.judge,
                                     run_id=f"{options.run_id}-{attempt}")
            if options.persona is not None:
                restricted = ctx.index.restricted()
                group = [as_seen_by(q, persona(options.persona).roles, restricted) for q in group]
            got, seen = await run_questions(group, ctx.service, ctx.index, ctx.knowledge, run_options, progress)
            results.extend(got)
            statuses.update(seen)
        order = {q.id: i for i, q in enumerate(questions)}
        results.sort(key=lambda r: order.get(r.id, 0))
        runs.append(results)
    return SuiteRun(runs, statuses)


async def run_personas(questions: Sequence[GoldenQuestion], ctx: CorpusContext,
                       personas: Sequence[str] = DEFAULT_PERSONAS,
                       roles_sent: Mapping[str, tuple[str, ...]] | None = None,
                       progress: Callable[[GoldenQuestion], None] | None = None,
                       ) -> tuple[PersonaDiff, dict[str, list[QuestionResult]]]:
    """The questions of one corpus asked by each persona, and the diff between them.

    `roles_sent` (tests only) replaces the roles a persona's requests really carry, to show that
    the diff catches a persona that gets to see more than it is entitled to."""
    runs: dict[str, list[QuestionResult]] = {}
    statuses: dict[str, dict[str, list[str]]] = {}
    restricted = ctx.index.restricted()
    for name in personas:
        entitled = persona(name).roles
        sent = (roles_sent or {}).get(name)
        group = [as_seen_by(q, entitled, restricted) for q in questions]
        options = RunOptions(persona=name, roles_override=sent)
        results, seen = await run_questions(group, ctx.service, ctx.index, ctx.knowledge, options, progress)
        runs[name] = results
        statuses[name] = seen
    diff = diff_personas(questions, runs, ctx.index, statuses)
    return diff, runs
