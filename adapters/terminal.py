"""The terminal front end: the assistant's event stream rendered live with rich.

While tools run, a spinner shows the status line ("Searching the rulebooks…"); the answer then
grows as rendered markdown as the citation gate releases it; the final event's text replaces
what was streamed (they differ only when the gate blocked the answer at the end), followed by
the sources: [n] title, section, page, link, and the translation note where there is one.
`--json` prints the final event as one JSON object instead, and nothing else on stdout.
"""

from __future__ import annotations

import getpass
import json
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markdown import Markdown
from rich.spinner import Spinner
from rich.text import Text

from bot.answer import Answer, AnswerEvent, FinalEvent, StatusEvent, TokenEvent, User

AskFunction = Callable[[str, User, str], AsyncIterator[AnswerEvent]]

_OUTCOME_STYLE = {"answered": "green", "refused": "yellow", "blocked": "red"}


def terminal_user(roles: list[str] | tuple[str, ...] = ()) -> User:
    try:
        name = getpass.getuser()
    except Exception:  # no login name in some containers
        name = "terminal"
    return User(id=f"terminal:{name}", roles=tuple(roles), platform="terminal", name=name)


def answer_json(answer: Answer) -> dict[str, Any]:
    """The `--json` shape: the final event as one object."""
    return {
        "answer": answer.text,
        "outcome": answer.outcome,
        "reason": answer.reason,
        "language": answer.language,
        "citations": [{"n": c.n, "rulebook_id": c.rulebook_id, "title": c.title, "section_path": c.section_path,
                       "section_title": c.section_title, "page": c.page, "uri": c.uri, "quote": c.quote,
                       "language": c.language, "translation_note": c.translation_note}
                      for c in answer.citations],
        "tables": [{"columns": t.columns, "rows": t.rows, "citation_n": t.citation_n} for t in answer.tables],
        "question": answer.question,
        "conversation_id": answer.conversation_id,
        "message_id": answer.message_id,
        "latency_ms": answer.latency_ms,
        "tool_calls": answer.tool_calls,
    }


def render_sources(console: Console, answer: Answer) -> None:
    if answer.outcome != "answered" and answer.reason:
        console.print(Text(f"({answer.outcome}: {answer.reason})", style=_OUTCOME_STYLE.get(answer.outcome, "")))
    if not answer.citations:
        return
    console.print()
    console.print(Text("Sources", style="bold"))
    for c in answer.citations:
        section = " ".join(x for x in (c.section_path[-1] if c.section_path else "", c.section_title) if x)
        line = Text()
        line.append(f"[{c.n}] ", style="bold cyan")
        line.append(f"{c.title} ({c.rulebook_id})")
        if section:
            line.append(f", section {section}")
        line.append(f", page {c.page}")
        console.print(line)
        # one line however long (the page view link carries the quote): terminals keep it clickable
        console.print(Text(f"    {c.uri}", style="blue underline"), soft_wrap=True)
        if c.translation_note:
            console.print(Text(f"    {c.translation_note}", style="dim italic"))


async def stream_answer(ask: AskFunction, question: str, user: User, conversation_id: str,
                        console: Console) -> Answer:
    """Render one question's events live; return the final answer."""
    text = ""
    status: str | None = None
    answer: Answer | None = None

    def view() -> Group:
        parts: list[Any] = []
        if text:
            parts.append(Markdown(text))
        if status is not None:
            parts.append(Spinner("dots", text=Text(status, style="dim")))
        return Group(*parts)

    with Live(view(), console=console, refresh_per_second=12, transient=False,
              vertical_overflow="visible") as live:
        async for event in ask(question, user, conversation_id):
            if isinstance(event, StatusEvent):
                status = event.text
            elif isinstance(event, TokenEvent):
                text += event.text
                status = None
            elif isinstance(event, FinalEvent):
                answer = event.answer
                text, status = answer.text, None
            live.update(view())
    if answer is None:  # the stream must end in a final event; say so rather than crash
        answer = Answer(text="The assistant ended without an answer.", outcome="blocked",
                        reason="no final event", question=question, conversation_id=conversation_id)
    render_sources(console, answer)
    return answer


async def collect_final(ask: AskFunction, question: str, user: User, conversation_id: str) -> Answer:
    answer: Answer | None = None
    async for event in ask(question, user, conversation_id):
        if isinstance(event, FinalEvent):
            answer = event.answer
    if answer is None:
        return Answer(text="The assistant ended without an answer.", outcome="blocked", reason="no final event",
                      question=question, conversation_id=conversation_id)
    return answer


async def ask_once(ask: AskFunction, question: str, roles: list[str], as_json: bool,
                   console: Console) -> Answer:
    user = terminal_user(roles)
    conversation_id = f"terminal-{uuid.uuid4().hex[:12]}"
    if as_json:
        answer = await collect_final(ask, question, user, conversation_id)
        # plain stdout, one line: no markup, no wrapping, whatever the terminal
        print(json.dumps(answer_json(answer), ensure_ascii=False), flush=True)
        return answer
    return await stream_answer(ask, question, user, conversation_id, console)


async def chat(ask: AskFunction, roles: list[str], console: Console,
               read: Callable[[str], str] | None = None) -> int:
    """An interactive session: one conversation id, so follow-ups see the history."""
    user = terminal_user(roles)
    conversation_id = f"terminal-{uuid.uuid4().hex[:12]}"
    read = read or (lambda prompt: console.input(prompt))
    console.print(Text("Ask about the rulebooks. Empty line, 'exit' or Ctrl-D to leave.", style="dim"))
    questions = 0
    while True:
        try:
            question = read("[bold]You:[/bold] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        if not question or question.lower() in {"exit", "quit", ":q"}:
            break
        await stream_answer(ask, question, user, conversation_id, console)
        console.print()
        questions += 1
    return questions
