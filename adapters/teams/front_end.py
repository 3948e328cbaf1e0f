"""The Teams front end on the Microsoft 365 Agents SDK, mounted on the server's one aiohttp app.

    POST /api/messages   the Bot Framework activity protocol (CloudAdapter + our ActivityHandler)

`mount_teams` builds the SDK pieces from the settings: the app registration's configuration
(anonymous without an app id), its MSAL connection manager, the connector client factory that
retries Teams' 429s, and the adapter; then the bot and the endpoint.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiohttp import web
from microsoft_agents.hosting.aiohttp import CloudAdapter
from microsoft_agents.hosting.core import Connections

from adapters.role_directory import RoleSource
from adapters.source_server_links import SourceLinks
from adapters.teams.authentication import RequestAuthentication, auth_configuration, connection_manager
from adapters.teams.bot import AssistantLike, RulebookTeamsBot, TeamsBotOptions
from adapters.teams.connector_clients import RetryPolicy, TeamsClientFactory
from adapters.teams.endpoint import MessagesEndpoint
from adapters.teams.teams_settings import TeamsSettings
from adapters.teams.usage import TeamsUsage
from config.settings import Settings
from events.usage_event import EventSink


@dataclass
class TeamsWiring:
    """What tests (or an embedding application) may replace; production leaves all of it None."""

    settings: TeamsSettings | None = None
    openid_metadata_url: str | None = None  # where the token-signing keys are published
    connections: Connections | None = None  # outbound token providers (default: MSAL for the app)
    update_interval: float | None = None


# The SDK's connector client logs two INFO lines per activity sent (a streamed answer sends three
# to six): at 25 users that was 4% of the event loop's time and most of the server log. Its
# warnings and errors still show; a deployment that sets this logger's level keeps its own.
CHATTY_SDK_LOGGER = "microsoft_agents.hosting.core.connector.client.connector_client"


def quiet_sdk_logging() -> None:
    sdk = logging.getLogger(CHATTY_SDK_LOGGER)
    if sdk.level == logging.NOTSET:
        sdk.setLevel(logging.WARNING)


def mount_teams(app: web.Application, service: AssistantLike, settings: Settings,
                event_sink: EventSink | None, roles: RoleSource, links: SourceLinks,
                wiring: TeamsWiring | None = None) -> RulebookTeamsBot:
    quiet_sdk_logging()
    wiring = wiring or TeamsWiring()
    teams = wiring.settings or TeamsSettings()
    configuration = auth_configuration(settings, teams)
    connections = wiring.connections or connection_manager(configuration)
    retry = RetryPolicy(teams.retry_attempts, teams.retry_backoff, teams.retry_max_delay)
    clients = TeamsClientFactory(connections, retry)
    adapter = CloudAdapter(channel_service_client_factory=clients)
    usage = TeamsUsage(event_sink, settings.user_hash_key)
    interval = settings.teams_update_interval if wiring.update_interval is None else wiring.update_interval
    bot = RulebookTeamsBot(adapter, service, usage, links, TeamsBotOptions(
        update_interval=interval, roles=roles, stream_limit=teams.stream_limit,
        message_limit=teams.message_limit))
    authentication = RequestAuthentication(configuration, wiring.openid_metadata_url)
    app.router.add_post("/api/messages", MessagesEndpoint(adapter, authentication, bot, usage).handle)

    async def close_clients(_: web.Application) -> None:
        await clients.close()

    app.on_cleanup.append(close_clients)
    return bot
