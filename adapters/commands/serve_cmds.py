"""`rulebook serve` (the HTTP server: Teams, Slack, sources) and `rulebook teams-package`."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("teams-package")(teams_package)


def serve(
    host: Annotated[str, typer.Option("--host", help="interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="port (0 = any free port)")] = 3978,
) -> None:
    """Run the bot's HTTP server: POST /api/messages (Teams), /slack/events, /sources, /healthz."""
    from aiohttp import web

    from adapters.server import build_app
    from config.settings import get_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = get_settings()
    try:
        from adapters.web import refuse_unprotected_chat

        refuse_unprotected_chat(settings, host)  # an open /chat only on loopback
        app = build_app(settings)  # warns loudly at start-up when no Teams app id is set
    except ValueError as exc:  # a broken roles file, Slack settings that do not fit together
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    web.run_app(app, host=host, port=port, print=lambda msg: typer.echo(msg, err=True))


def teams_package(
    app_id: Annotated[str, typer.Option("--app-id", help="the bot's Microsoft App ID (a GUID)")],
    out: Annotated[Path, typer.Option("--out", help="where to write the zip")] = Path("rulebook-teams-app.zip"),
) -> None:
    """Write the Teams app package (manifest with the app id filled in, and the icons) to upload."""
    from adapters.teams.app_package import AppPackageError, write_app_package

    try:
        written = write_app_package(app_id, out)
    except AppPackageError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"wrote {written}")
