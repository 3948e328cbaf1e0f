"""`POST /slack/events` in the bot's aiohttp application: events, slash commands and interactivity.

Bolt verifies every request's signature (HMAC-SHA256 over `v0:timestamp:body` with the signing
secret) and rejects a bad signature, or a timestamp more than 5 minutes away, with 401.
"""

from __future__ import annotations

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request

from adapters.slack.front_end import Assistant, SlackFrontEnd
from adapters.slack.sharing import CitationAccess
from bot.role_directory import RoleSource
from bot.usage_event import EventSink
from config.settings import Settings

SLACK_EVENTS_PATH = "/slack/events"
SLACK_FRONT_END = web.AppKey("slack_front_end", SlackFrontEnd)


def mount_slack(app: web.Application, service: Assistant, settings: Settings,
                event_sink: EventSink | None, roles: RoleSource | None = None,
                citation_access: CitationAccess | None = None) -> None:
    """Add the Slack app to `app` (call it when `settings.slack_signing_secret` is set).
    `roles` defaults to the directory `settings.roles_file` names; `citation_access` to the
    service's own index (see `SlackFrontEnd`)."""
    front = SlackFrontEnd(service, settings, event_sink, http=True, roles=roles,
                          citation_access=citation_access)
    app[SLACK_FRONT_END] = front

    async def slack_events(request: web.Request) -> web.Response:
        bolt_response = await front.app.async_dispatch(await to_bolt_request(request))
        return await to_aiohttp_response(bolt_response)

    async def close(_: web.Application) -> None:
        await front.close()

    app.router.add_post(SLACK_EVENTS_PATH, slack_events)
    app.on_cleanup.append(close)
