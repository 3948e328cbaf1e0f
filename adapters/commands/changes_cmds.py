"""`rulebook changes [RULEBOOK] [--since DATE]`: what the audit log recorded, newest last."""

from __future__ import annotations

import json
from typing import Annotated

import typer


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("changes")(changes)


def changes(
    rulebook: Annotated[str | None, typer.Argument(help="Only this rulebook id (e.g. PS-04)")] = None,
    since: Annotated[str | None, typer.Option("--since", help="From this date or time on (2026-11-30)")] = None,
    latest_release: Annotated[bool, typer.Option("--latest-release",
                                                 help="Only the changes of each rulebook's latest version")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line")] = False,
) -> None:
    """Print the audit log: which section changed, how, by whom, when, in which version."""
    from config.settings import get_settings
    from knowledge.change_log import parse_since, read_change_events, select_changes

    try:
        bound = parse_since(since)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--since") from exc
    events = select_changes(read_change_events(get_settings().data_dir), rulebook, bound, latest_release)
    if as_json:
        for event in events:
            typer.echo(json.dumps(event, ensure_ascii=False))
        return
    if not events:
        scope = f" for {rulebook}" if rulebook else ""
        typer.echo(f"no changes recorded{scope}" + (f" since {since}" if since else ""))
        return
    typer.echo(f"{'when (UTC)':<20}{'rulebook':<14}{'version':<10}{'action':<9}{'by':<16}section")
    for e in events:
        section = f"{e.get('section_key') or '(front matter)'} {e.get('section_title') or ''}".strip()
        reason = f"  ({e['reason']})" if e.get("reason") else ""
        typer.echo(f"{str(e.get('at', ''))[:19].replace('T', ' '):<20}{e.get('rulebook_id', ''):<14}"
                   f"{e.get('version') or '-':<10}{e.get('action', ''):<9}{e.get('changed_by') or '-':<16}"
                   f"{section}{reason}")
    typer.echo(f"{len(events)} change(s)")
