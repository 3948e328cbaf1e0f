"""`ask()`: the one interface every front end uses — a question in, a stream of events out.

    async for event in bot.service.ask(question, user, conversation_id):
        StatusEvent  "Searching the rulebooks…", "Reading section 4.2 of PS-04…"
        StepEvent    that tool step ended (ok or not), with the sections it read (`bot.agent.tool_steps`)
        TokenEvent   answer text as the citation gate releases it, in order
        FinalEvent   exactly one, last: the `Answer` (text with [n], citations, tables, outcome)

What happens per question: the conversation's last `history_messages` messages are loaded; the
agent (compiled once per service: tools and middleware read the caller's roles and a fresh
citation ledger from the run's `RunContext`, not from closures) runs; the
model's text goes through the citation gate sentence by sentence; the final answer is written
to the history (with its [n] markers spelled out as sources, so the model never mistakes them
for handles); usage events go to the event sink; a blocked draft goes to the review queue.

Many users at once: one `AssistantService` serves every question of the process. Per question
(never shared): the `_Run` queue, the citation ledger, the gate, the run context. The compiled
agent graph and its tools are shared: LangGraph keeps a run's state in the run (no checkpointer
here), and the tools hold nothing but the `knowledge` handle.
Shared, and why that is safe: `knowledge` (see `knowledge.knowledge_base` for each part); the
chat model (the offline model is immutable apart from a query-vector dict whose races can only
recompute a vector; LangChain provider clients are thread-safe); `history` (in memory: an
asyncio lock on the event loop; Table Storage: one azure-core TableClient, which is thread-safe, used from worker threads); `events`
(the event log: a thread-safe queue drained by one writer thread, SQLite or Table Storage
behind it); `review` (an asyncio lock around appends); `slots`, the bounded queue of concurrent
answers (`bot.answer_slots`: event-loop only). Beyond the queue a question gets a polite
"busy, try again in a moment" at once, in its language, instead of a timeout.

Failures never escape as exceptions: an unreachable index or chat model, or any other error,
ends the stream with a FinalEvent whose text says so plainly (outcome "blocked", with the
one-line reason) and an "error" usage event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage
from langchain_core.tools import BaseTool

from bot.agent.agent import RunContext, build_agent
from bot.agent.tool_steps import ToolSteps
from bot.answer import Answer, AnswerEvent, FinalEvent, StatusEvent, TokenEvent, User
from bot.answer_slots import AnswerSlots, Busy, busy_text, queued_text
from bot.gate.citation_gate import CitationGate, GateResult
from bot.gate.support_check import SupportJudge
from bot.language import detect_language
from bot.memory.history import HistoryStore, InMemoryHistoryStore, to_langchain, window
from bot.memory.review_queue import JsonlReviewQueue, ReviewItem, ReviewQueue
from bot.offline.subject_terms import CorpusVocabulary
from bot.source_links import SourceLink, served_source_link, with_cite_handles
from config.settings import Settings, get_settings
from events.usage_event import EventKind, EventSink, UsageData, emit_usage, pseudonymous_user_id
from events.usage_sinks import NullSink
from knowledge.query_vectors import one_question

log = logging.getLogger("rulebook.bot")

MAX_QUESTION_CHARS = 4000
ToolsFactory = Callable[[Any], list[BaseTool]]

_UNAVAILABLE_INDEX = ("I could not search the rulebooks just now: the rulebook index is not reachable. "
                      "Please try again in a moment, or ask the rulebook desk.")
_UNAVAILABLE_MODEL = ("I could not write an answer just now: the language model is not reachable. "
                      "Please try again in a moment, or ask the rulebook desk.")
_INTERNAL_ERROR = ("Something went wrong while answering; nothing was lost. Please try again, "
                   "or ask the rulebook desk.")


def status_text(tool: str, args: dict[str, Any]) -> str:
    if tool == "retrieve_rulebook_sections":
        return f"Reading section {args.get('section_path', '')} of {args.get('rulebook_id', '')}…"
    if tool == "retrieve_full_rulebook":
        return f"Reading {args.get('rulebook_id', 'the rulebook')}…"
    if tool == "list_available_rulebooks":
        return "Looking up the available rulebooks…"
    if tool == "list_rulebook_changes":
        return f"Looking up what changed in {args.get('rulebook_id') or 'the rulebooks'}…"
    if tool == "search_rulebooks" and args.get("rulebook_ids"):
        return f"Searching {', '.join(args['rulebook_ids'])}…"
    return "Searching the rulebooks…"


def default_tools_factory(knowledge: Any) -> list[BaseTool]:
    """The zoom tools and the change tool, reading roles and ledger from each run's context."""
    from knowledge.change_tool import make_change_tool
    from knowledge.zoom_tools import make_zoom_tools

    return [*make_zoom_tools(knowledge), make_change_tool(knowledge)]


def new_ledger() -> Any:
    from knowledge.citation_ledger import ToolResultLedger

    return ToolResultLedger()


class _Run:
    """One question's plumbing: the event queue the generator drains, and the tool observer."""

    def __init__(self, service: AssistantService, user: User, conversation_id: str, message_id: str) -> None:
        self.service = service
        self.queue: asyncio.Queue[AnswerEvent | None] = asyncio.Queue()
        self.user = user
        self.conversation_id = conversation_id
        self.message_id = message_id
        self.tool_error: str | None = None
        self.steps = ToolSteps()

    def tool_started(self, name: str, args: dict[str, Any]) -> None:
        self.queue.put_nowait(self.steps.started(name, args, status_text(name, args)))

    def tool_finished(self, name: str, args: dict[str, Any], result_chars: int, ms: float,
                      error: str | None) -> None:
        if error and result_chars == 0:
            self.tool_error = error
        step = self.steps.finished(name, args, error)
        if step is not None:
            self.queue.put_nowait(step)
        self.service.emit("tool_call", self, {"name": name, "args": args, "result_chars": result_chars,
                                              "ms": round(ms, 1), "error": error})


class AssistantService:
    def __init__(self, knowledge: Any, model: BaseChatModel, *, settings: Settings | None = None,
                 history: HistoryStore | None = None, events: EventSink | None = None,
                 review: ReviewQueue | None = None, source_link: SourceLink | None = None,
                 judge: SupportJudge | None = None, tools_factory: ToolsFactory = default_tools_factory,
                 ledger_factory: Callable[[], Any] = new_ledger) -> None:
        self.settings = settings or get_settings()
        self.knowledge = knowledge
        self.model = model
        self.history = history or InMemoryHistoryStore()
        self.events = events or NullSink()
        self.review = review or JsonlReviewQueue(self.settings.data_dir / "review_queue.jsonl")
        self.source_link = source_link or served_source_link(self.settings.public_base_url)
        self.judge = judge
        self.tools_factory = tools_factory
        self.ledger_factory = ledger_factory
        self.slots = AnswerSlots(self.settings.max_concurrent_answers, self.settings.max_waiting_answers,
                                 self.settings.answer_wait_seconds)
        self._agent: Any = None
        # the message guides' chapters, for a refusal that says which element a named message lacks
        # (the same vocabulary the offline model reads: one per store)
        self.vocabulary = CorpusVocabulary.of(knowledge)

    @property
    def agent(self) -> Any:
        """The compiled agent graph, built on first use (compiling costs 25-50 ms of CPU: once, not
        per question). Two first questions at once may each build one; either is correct."""
        if self._agent is None:
            self._agent = build_agent(self.model, self.tools_factory(self.knowledge), self.settings.max_tool_calls)
        return self._agent

    @classmethod
    def from_settings(cls, settings: Settings | None = None, **overrides: Any) -> AssistantService:
        """The product's wiring: index, configured model, shared history and event log."""
        from bot.agent.chat_models import load_chat_model
        from knowledge.knowledge_base import KnowledgeBase

        settings = settings or get_settings()
        knowledge = overrides.pop("knowledge", None) or KnowledgeBase.from_settings(settings)
        model = overrides.pop("model", None) or load_chat_model(settings.chat_model, knowledge,
                                                                question_caches=settings.question_caches)
        if "judge" not in overrides and settings.judge_model:
            from bot.gate.support_check import ModelJudge

            overrides["judge"] = ModelJudge(load_chat_model(settings.judge_model, knowledge))
        if "history" not in overrides:
            overrides["history"] = _default_history(settings)
        if "events" not in overrides:
            overrides["events"] = _default_events(settings)
        return cls(knowledge, model, settings=settings, **overrides)

    # -- events --------------------------------------------------------------------------------
    def emit(self, kind: EventKind, run: _Run, data: UsageData) -> None:
        emit_usage(self.events, kind, data, platform=run.user.platform, conversation_id=run.conversation_id,
                   message_id=run.message_id, user_id=run.user.id, user_hash_key=self.settings.user_hash_key)

    # -- the question --------------------------------------------------------------------------
    async def ask(self, question: str, user: User, conversation_id: str) -> AsyncIterator[AnswerEvent]:
        started = time.perf_counter()
        message_id = uuid.uuid4().hex
        run = _Run(self, user, conversation_id, message_id)
        question = (question or "").strip()
        language = detect_language(question)
        self.emit("question", run, {"question": question, "language": language, "roles": list(user.roles)})

        def final(answer: Answer) -> FinalEvent:
            answer.question, answer.conversation_id, answer.message_id = question, conversation_id, message_id
            answer.language = answer.language or language
            answer.latency_ms = round((time.perf_counter() - started) * 1000, 1)
            return FinalEvent(answer)

        if not question or len(question) > MAX_QUESTION_CHARS:
            reason = ("empty question" if not question
                      else f"question too long ({len(question)} characters; the limit is {MAX_QUESTION_CHARS})")
            text = ("Please ask a question about the rulebooks." if not question
                    else f"Your question is too long ({len(question)} characters). Please shorten it to "
                         f"{MAX_QUESTION_CHARS} characters or fewer.")
            event = final(Answer(text=text, outcome="refused", reason=reason, language=language))
            self.emit("answer", run, {"outcome": "refused", "reason": reason, "latency_ms": event.answer.latency_ms})
            yield event
            return

        history = await self._history(conversation_id, run)
        ledger = self.ledger_factory()
        run.steps.ledger = ledger
        vocabulary = self.vocabulary
        gate = CitationGate(ledger, language, self.source_link, self.judge, question=question,
                            searched=lambda: [r.rulebook_id for r in self.knowledge.list_rulebooks(user.roles)],
                            message_words=None if vocabulary is None else lambda: vocabulary.message_words(wait=False),
                            document_titles=None if vocabulary is None else lambda: vocabulary.document_titles(wait=False))
        context = RunContext(roles=tuple(user.roles), ledger=ledger, observer=run,
                             max_tool_calls=self.settings.max_tool_calls)
        usage: dict[str, int] = {}
        if not self.slots.free:
            yield StatusEvent(queued_text(language))  # heard at once, even when answered later
        try:
            await self.slots.acquire()
        except Busy as busy:  # overload: say so at once, in the asker's language
            event = final(Answer(text=busy_text(language), outcome="refused", reason=busy.reason, language=language))
            self.emit("answer", run, {"outcome": "refused", "reason": busy.reason, "latency_ms": event.answer.latency_ms})
            yield event
            return
        producer = asyncio.create_task(self._produce(run, question, history, ledger, gate, context, usage))
        first_token_ms: float | None = None
        try:
            while True:
                event = await run.queue.get()
                if event is None:
                    break
                if isinstance(event, TokenEvent) and first_token_ms is None:
                    first_token_ms = (time.perf_counter() - started) * 1000
                yield event
            answer = await producer
            if answer is None:
                try:
                    released, result = await gate.finish()
                except Exception as exc:
                    answer = self._failure(run, exc)
                else:
                    for piece in released:
                        if first_token_ms is None:
                            first_token_ms = (time.perf_counter() - started) * 1000
                        yield TokenEvent(piece)
                    answer = await self._conclude(run, question, language, result, context)
        finally:
            if not producer.done():
                producer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await producer
            self.slots.release()
        answer.tool_calls = len(context.tool_calls)
        event = final(answer)
        self.emit("answer", run, {
            "outcome": answer.outcome, "reason": answer.reason, "latency_ms": answer.latency_ms,
            "first_token_ms": round(first_token_ms, 1) if first_token_ms is not None else None,
            "citations": [{"n": c.n, "rulebook_id": c.rulebook_id, "page": c.page, "chunk_id": c.chunk_id}
                          for c in answer.citations],
            "tool_calls": answer.tool_calls, "model_calls": context.model_calls,
            "model_ms": round(context.model_ms, 1), "tool_ms": round(context.tool_ms, 1),
            "tokens": usage or None, "language": answer.language})
        yield event
        await self._remember(conversation_id, question, answer, run)

    async def _produce(self, run: _Run, question: str, history: list[Any], ledger: Any, gate: CitationGate,
                       context: RunContext, usage: dict[str, int]) -> Answer | None:
        """Run the agent, feeding the model's text to the gate; None when it ran to the end."""
        try:
            messages = [*history, HumanMessage(question)]
            with one_question():  # the search and the model embed the question once between them
                await self._run_agent(run, messages, gate, context, usage)
            return None
        except Exception as exc:
            return self._failure(run, exc)
        finally:
            run.queue.put_nowait(None)

    async def _run_agent(self, run: _Run, messages: list[Any], gate: CitationGate, context: RunContext,
                         usage: dict[str, int]) -> None:
        streamed: set[str] = set()  # ids of the model messages that arrived as chunks
        async for mode, item in self.agent.astream({"messages": messages}, context=context,
                                                   stream_mode=["messages", "updates"]):
            if mode == "messages":
                message, meta = item
                if not isinstance(message, AIMessage) or meta.get("langgraph_node") != "model":
                    continue
                if isinstance(message, AIMessageChunk):
                    streamed.add(message.id or "")
                elif (message.id or "") in streamed:
                    continue  # the whole of a message whose chunks were fed already
                # a model that does not stream (the offline model plans the whole reply before
                # its first word) hands over its text as one message: fed to the gate at once
                text = message.text
                if text:
                    for piece in await gate.feed(text):
                        run.queue.put_nowait(TokenEvent(piece))
            elif mode == "updates":
                for update in item.values():
                    for message in (update or {}).get("messages", []) if isinstance(update, dict) else []:
                        if isinstance(message, AIMessage) and message.usage_metadata:
                            for key in ("input_tokens", "output_tokens", "total_tokens"):
                                usage[key] = usage.get(key, 0) + int(message.usage_metadata.get(key, 0))

    def _failure(self, run: _Run, exc: Exception) -> Answer:
        detail = f"{type(exc).__name__}: {exc}"[:300]
        if run.tool_error:
            text, reason = _UNAVAILABLE_INDEX, f"rulebook index error: {run.tool_error}"[:300]
        elif _is_model_error(exc):
            text, reason = _UNAVAILABLE_MODEL, f"chat model error: {detail}"
        else:
            text, reason = _INTERNAL_ERROR, f"internal error: {detail}"
        log.warning("question failed: %s", reason, exc_info=exc)
        self.emit("error", run, {"where": reason.split(":", 1)[0], "error": detail})
        return Answer(text=text, outcome="blocked", reason=reason)

    async def _conclude(self, run: _Run, question: str, language: str, result: GateResult,
                        context: RunContext) -> Answer:
        self.emit("gate", run, {
            "outcome": result.outcome, "reason": result.reason,
            "kept": sum(1 for d in result.decisions if d.action == "kept"),
            "dropped": sum(1 for d in result.decisions if d.action == "dropped"),
            "blocked": sum(1 for d in result.decisions if d.action == "blocked"),
            "decisions": [d.to_dict() for d in result.decisions][:50]})
        if result.needs_review:
            item = ReviewItem(question=question, draft=result.draft, reason=result.reason or "blocked",
                              conversation_id=run.conversation_id, message_id=run.message_id,
                              platform=run.user.platform,
                              user_hash=pseudonymous_user_id(run.user.id, self.settings.user_hash_key),
                              decisions=[d.to_dict() for d in result.decisions])
            try:
                await self.review.put(item)
            except Exception as exc:  # the user still gets the blocked answer
                self.emit("error", run, {"where": "review queue", "error": f"{type(exc).__name__}: {exc}"[:300]})
        citations = with_cite_handles(result.citations, self.settings.user_hash_key)  # the page view's highlight
        return Answer(text=result.text, outcome=result.outcome, citations=citations, tables=result.tables,
                      reason=result.reason, language=language)

    async def _history(self, conversation_id: str, run: _Run) -> list[Any]:
        try:
            stored = await self.history.get(conversation_id)
        except Exception as exc:  # answer without history rather than not at all
            self.emit("error", run, {"where": "history", "error": f"{type(exc).__name__}: {exc}"[:300]})
            return []
        return to_langchain(window(stored, self.settings.history_messages))

    async def _remember(self, conversation_id: str, question: str, answer: Answer, run: _Run) -> None:
        try:
            await self.history.append(conversation_id, [
                {"role": "user", "content": question},
                {"role": "assistant", "content": history_text(answer)}])
        except Exception as exc:
            self.emit("error", run, {"where": "history", "error": f"{type(exc).__name__}: {exc}"[:300]})


def history_text(answer: Answer) -> str:
    """The answer as the model will read it next turn: [n] spelled out, so it is never taken for a handle."""
    by_n = {c.n: c for c in answer.citations}

    def spell(match: re.Match[str]) -> str:
        citation = by_n.get(int(match.group(1)))
        if citation is None:
            return ""
        section = f" section {citation.section_path[-1]}" if citation.section_path else ""
        return f" (source: {citation.rulebook_id}{section}, page {citation.page})"

    return re.sub(r"\s?\[(\d+)\]", spell, answer.text)


def _is_model_error(exc: Exception) -> bool:
    module = type(exc).__module__
    return module.startswith(("openai", "anthropic", "ollama", "httpx", "langchain_openai",
                              "langchain_anthropic", "langchain_ollama"))


def _default_history(settings: Settings) -> HistoryStore:
    try:
        from bot.memory.history_table_storage import open_history_store
    except ImportError:
        return InMemoryHistoryStore()
    return open_history_store(settings)


def _default_events(settings: Settings) -> EventSink:
    try:
        from events.event_log import open_event_log
    except ImportError:
        return NullSink()
    return open_event_log(settings)


_default_service: AssistantService | None = None


def default_service() -> AssistantService:
    """The service the settings describe, built on first use and kept for the process."""
    global _default_service
    if _default_service is None:
        _default_service = AssistantService.from_settings(get_settings())
    return _default_service


def reset_default_service() -> None:
    global _default_service
    _default_service = None


async def ask(question: str, user: User, conversation_id: str) -> AsyncIterator[AnswerEvent]:
    """`AssistantService.ask` on the default service (see the module docstring)."""
    try:
        service = default_service()
    except Exception as exc:  # e.g. an unknown chat model name: say so, do not raise
        log.warning("could not start the assistant", exc_info=exc)
        yield FinalEvent(Answer(text=f"The assistant could not start: {exc}", outcome="blocked",
                                reason=f"startup error: {type(exc).__name__}: {exc}"[:300], question=question,
                                conversation_id=conversation_id))
        return
    async for event in service.ask(question, user, conversation_id):
        yield event
