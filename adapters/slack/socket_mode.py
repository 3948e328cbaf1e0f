"""Socket Mode: Slack connects out over a websocket, for workspaces without a public URL.

Requests arrive over the app-level token's connection (`RULEBOOK_SLACK_APP_TOKEN`, `xapp-…`), so
there is no signature to check; everything else is the same front end as over HTTP.
"""

from __future__ import annotations

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from adapters.role_directory import RoleSource
from adapters.slack.front_end import Assistant, SlackFrontEnd
from adapters.slack.sharing import CitationAccess
from config.secret_values import reveal
from config.settings import Settings
from events.usage_event import EventSink


async def start_socket_mode(service: Assistant, settings: Settings, event_sink: EventSink | None,
                            roles: RoleSource | None = None, citation_access: CitationAccess | None = None
                            ) -> AsyncSocketModeHandler:
    """Connect and return the handler; call `await handler.close_async()` on shutdown."""
    if not settings.slack_app_token:
        raise ValueError("Socket Mode needs RULEBOOK_SLACK_APP_TOKEN (an app-level token, xapp-…)")
    front = SlackFrontEnd(service, settings, event_sink, http=False, roles=roles,
                          citation_access=citation_access)
    await front.open_connection_pool()
    handler = AsyncSocketModeHandler(front.app, app_token=reveal(settings.slack_app_token))
    handler.front_end = front  # type: ignore[attr-defined]  # for shutdown and tests
    await handler.connect_async()
    return handler


SOCKET_MODE_HANDLER = web.AppKey("slack_socket_mode", AsyncSocketModeHandler)


def attach_socket_mode(app: web.Application, service: Assistant, settings: Settings,
                       event_sink: EventSink | None, roles: RoleSource | None = None,
                       citation_access: CitationAccess | None = None) -> None:
    """Connect over Socket Mode when `app` starts and disconnect when it stops, so that
    `rulebook serve` runs Socket Mode beside its HTTP routes in one process."""

    async def connect(app: web.Application) -> None:
        app[SOCKET_MODE_HANDLER] = await start_socket_mode(service, settings, event_sink, roles,
                                                           citation_access)

    async def disconnect(app: web.Application) -> None:
        handler = app.get(SOCKET_MODE_HANDLER)
        if handler is not None:
            await handler.front_end.close()  # type: ignore[attr-defined]
            await handler.close_async()

    app.on_startup.append(connect)
    app.on_cleanup.append(disconnect)
