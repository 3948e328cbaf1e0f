"""`rulebook eval outline`: how many of each PDF's own bookmarks open a section of the index."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from adapters.commands.eval_e2e_cmds import CorpusOpt, Real2Opt, RealOpt, corpora_of


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    eval_app.command("outline")(eval_outline)


def eval_outline(
    corpus: CorpusOpt = "all",
    as_json: Annotated[bool, typer.Option("--json")] = False,
    examples: Annotated[int, typer.Option("--examples", min=0, help="misses listed per document")] = 12,
    plot_to: Annotated[Path | None, typer.Option("--plot", help="write a bar chart of the outcomes here (PNG)")] = None,
    real_pdfs: RealOpt = None,
    real2_pdfs: Real2Opt = None,
) -> None:
    """Match every bookmark of each indexed PDF against the sections the index holds for it: opened, read
    into a table, read into another section's text, or not found (evals/outline_coverage.py). Documents
    without bookmarks are listed and left out of the figures."""
    from rich.console import Console

    from config.settings import get_settings
    from evals.outline_coverage import OUTCOMES, plot, report

    err = Console(stderr=True)
    names = corpora_of(corpus)
    results, without, skipped = asyncio.run(_match(names, get_settings(), real_pdfs, real2_pdfs, err))
    for reason in skipped:
        err.print(f"[yellow]skipped:[/] {reason}")
    if not results and not without:
        typer.echo("error: no corpus could be opened", err=True)
        raise typer.Exit(2)
    figures = report(results, examples) | {
        "without_bookmarks": sorted(without),
        "command": f"rulebook eval outline --corpus {','.join(names)} --json"}
    if plot_to is not None and figures["bookmarks"]:
        plot(figures, plot_to)
    if as_json:
        typer.echo(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    for rulebook_id, row in figures["documents"].items():
        counts = ", ".join(f"{outcome} {row[outcome]}" for outcome in OUTCOMES)
        typer.echo(f"{rulebook_id}: {row['bookmarks']} bookmarks, {counts}")
        for miss in row["misses"]:
            typer.echo(f"    p{miss['page']} {miss['title'][:70]!r}: {miss['outcome']} {miss['in'][:50]}")
    typer.echo(f"all: {figures['bookmarks']} bookmarks, opened {figures[OUTCOMES[0]]} ({figures['opened_share']})"
               + (f"; without bookmarks: {', '.join(figures['without_bookmarks'])}" if without else ""))


async def _match(corpora: list[str], settings: Any, real_pdfs: Path | None, real2_pdfs: Path | None,
                 err: Any) -> tuple[dict[str, Any], set[str], list[str]]:
    from evals.e2e_corpus import prepare_contexts
    from evals.outline_coverage import match_bookmarks, read_bookmarks

    results: dict[str, Any] = {}
    without: set[str] = set()
    async with prepare_contexts(settings, corpora, real_pdfs, err, real2_pdfs) as (contexts, skipped):
        for context in contexts.values():
            knowledge = context.knowledge
            for info in knowledge.list_rulebooks(()):
                if info.rulebook_id in results or info.rulebook_id in without:
                    continue  # a companion document indexed with two corpora
                chunks = knowledge.rulebook_chunks(info.rulebook_id, ())
                source = next((Path(c.source_uri) for c in chunks if c.source_uri), None)
                bookmarks = read_bookmarks(source) if source is not None and source.is_file() else []
                if bookmarks:
                    results[info.rulebook_id] = match_bookmarks(bookmarks, chunks)
                else:
                    without.add(info.rulebook_id)
    return results, without, skipped
