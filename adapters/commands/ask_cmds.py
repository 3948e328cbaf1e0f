"""`rulebook ask`, `rulebook chat` and `rulebook demo`: the assistant in the terminal."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer

DEMO_QUESTION = "Can I pay with my fridge?"
SAMPLE_CORPUS = Path(__file__).resolve().parents[2] / "examples" / "rulebooks"

RoleOpt = Annotated[list[str] | None, typer.Option("--role", "-r", help="a role of the asker (repeatable)")]


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("ask")(ask)
    app.command("chat")(chat)
    app.command("demo")(demo)


def _service():
    """The default assistant; a clear message and exit code 1 when it cannot start."""
    from rich.console import Console

    from bot.service import default_service

    try:
        return default_service()
    except Exception as exc:
        Console(stderr=True).print(f"[red]The assistant could not start:[/red] {exc}")
        raise typer.Exit(1) from exc


def _check_roles(service, roles: list[str]) -> None:
    from adapters.commands.role_names import check_cli_roles

    check_cli_roles(roles, service.knowledge.store, service.settings)


def _index_is_empty(service) -> bool:
    try:
        return service.knowledge.store.count() == 0
    except Exception:  # the question itself will report an unreachable index
        return False


def _warn_if_empty(service) -> None:
    from rich.console import Console

    try:
        empty = service.knowledge.store.count() == 0
    except Exception:  # the question itself will report an unreachable index
        return
    if empty:
        Console(stderr=True).print("[yellow]The rulebook index is empty.[/yellow] Index documents first: "
                                   "`rulebook index PATH`, or run `rulebook demo` for the sample corpus.")


def ask(
    question: Annotated[str, typer.Argument(help="the question, in English, Dutch, French or German")],
    role: RoleOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the final answer as one JSON object")] = False,
) -> None:
    """Ask one question; the answer streams with its sources."""
    from rich.console import Console

    from adapters.terminal import ask_once

    service = _service()
    _check_roles(service, list(role or []))
    if as_json and _index_is_empty(service):
        typer.echo(json.dumps({"error": "the rulebook index is empty; run `rulebook index PATH` first",
                               "data_dir": str(service.settings.data_dir)}))
        raise typer.Exit(1)
    if not as_json:
        _warn_if_empty(service)
    asyncio.run(ask_once(service.ask, question, list(role or []), as_json, Console()))


def chat(role: RoleOpt = None) -> None:
    """An interactive conversation: follow-up questions see the history."""
    from rich.console import Console

    from adapters.terminal import chat as chat_loop

    service = _service()
    _check_roles(service, list(role or []))
    _warn_if_empty(service)
    asyncio.run(chat_loop(service.ask, list(role or []), Console()))


def demo(
    question: Annotated[str, typer.Option("--question", help="what to ask")] = DEMO_QUESTION,
    corpus: Annotated[Path, typer.Option("--corpus", help="folder to index if the index is empty")] = SAMPLE_CORPUS,
) -> None:
    """Index the sample corpus if the index is empty, then ask "Can I pay with my fridge?"."""
    from rich.console import Console

    from adapters.terminal import ask_once
    from bot.service import reset_default_service

    console = Console()
    service = _service()
    if service.knowledge.store.count() == 0:
        console.print(f"[dim]Indexing the sample corpus in {corpus} (once; later runs reuse it)…[/dim]")
        # the store handle opened before indexing does not see what the indexer writes: reopen after
        service.knowledge.close()
        reset_default_service()
        _index(corpus)
        service = _service()
    console.print(f"[bold]Q:[/bold] {question}\n")
    asyncio.run(ask_once(service.ask, question, [], False, console))
    from adapters.web import chat_address
    from config.settings import get_settings

    console.print(f"\nIn a browser: run [bold]rulebook serve[/bold], then open {chat_address(get_settings())}")


def _index(corpus: Path) -> None:
    """Run the indexer's pipeline on the corpus, into the configured store (the service's own)."""
    from rich.console import Console

    from config.settings import get_settings
    from indexing.pipeline import run_index

    console = Console(stderr=True)
    with console.status("Indexing…") as status:
        summary = run_index(corpus, get_settings(),
                            progress=lambda done, total, what: status.update(f"Indexing {done}/{total}: {what}"))
    report = summary.to_dict()
    console.print(f"[dim]Indexed {report['documents_indexed']} documents ({report['chunks']} chunks); "
                  f"{report['documents_failed']} could not be read, as the sample corpus intends.[/dim]")
