"""`rulebook report`: usage figures from the event log, as text and as an HTML page with plots."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import typer


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("report")(report)


def _day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise typer.BadParameter(f"{value!r} is not a date; use YYYY-MM-DD", param_hint=option) from exc


def report(
    since: str | None = typer.Option(None, "--since", metavar="DATE", help="First day (UTC), YYYY-MM-DD"),
    until: str | None = typer.Option(None, "--until", metavar="DATE", help="Last day (UTC), YYYY-MM-DD"),
    out: Path | None = typer.Option(None, "--out", file_okay=False,
                                    help="Folder for report.html and its plots [default: <data dir>/report]"),
    embeddings: bool = typer.Option(True, "--embeddings/--no-embeddings",
                                    help="Detect questions asked again in other words (loads the encoder)"),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object"),
) -> None:
    """Write the usage report (HTML + PNG plots) and print the headline figures."""
    from config.settings import get_settings
    from events.event_store import open_event_store
    from events.usage_report import compute_usage, default_embed, headline, write_report

    first, last = _day(since, "--since"), _day(until, "--until")
    if first and last and first > last:
        raise typer.BadParameter("--since is after --until", param_hint="--since")
    settings = get_settings()
    store = open_event_store(settings)
    try:
        events = list(store.read(first, last))
    except Exception as exc:  # the store is unreachable: say which, do not print a traceback
        typer.echo(f"could not read the event log ({type(exc).__name__}: {str(exc).splitlines()[0][:200]})",
                   err=True)
        raise typer.Exit(2) from exc
    finally:
        store.close()
    embed = default_embed(settings) if embeddings else None
    figures = compute_usage(events, embed, since=first, until=last)
    path = write_report(figures, out or Path(settings.data_dir) / "report")
    if as_json:
        typer.echo(json.dumps({**figures.to_dict(), "report": str(path)}, ensure_ascii=False))
        return
    for line in headline(figures):
        typer.echo(line)
    if not events:
        typer.echo("the event log has no events for this period")
    typer.echo(f"report: {path}")
