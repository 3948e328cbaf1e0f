"""The bot's one HTTP server (aiohttp): Teams, Slack, the PDF sources, and a health check.

    POST /api/messages          Teams (Microsoft 365 Agents SDK, `adapters.teams.front_end`)
    POST /slack/events          Slack (mounted by `adapters.slack.mount_slack` when configured)
    (Slack Socket Mode)         with RULEBOOK_SLACK_APP_TOKEN, for workspaces without a public URL
    GET  /sources/{id}?page=N   opens a rulebook's PDF at page N (and logs the click)
    GET  /sources/{id}/view     the cited page with the quoted span highlighted (adapters.page_view)
    GET  /chat                  the web chat (adapters.web; tokens or loopback only)
    GET  /healthz               liveness and what is configured

`build_app(settings, service=None, event_sink=None)` wires everything; tests pass their own
service or sink, `rulebook serve` passes none and gets the configured ones.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from adapters.http_hardening import harden
from adapters.role_directory import RoleSource, role_source
from adapters.source_route import SourceLocator, SourceRoutes
from adapters.source_server_links import SourceLinks
from adapters.teams.bot import AssistantLike, RulebookTeamsBot
from adapters.teams.front_end import TeamsWiring, mount_teams
from config.settings import Settings
from events.usage_event import EventSink

log = logging.getLogger("rulebook.server")

TEAMS_BOT = web.AppKey("teams_bot", RulebookTeamsBot)
SETTINGS = web.AppKey("settings", Settings)
ROLES = web.AppKey("roles", RoleSource)

UNAUTHENTICATED_WARNING = """
************************************************************************************
  RULEBOOK_TEAMS_APP_ID is not set: /api/messages accepts UNAUTHENTICATED requests.
  Anyone who can reach this port can talk to the bot as any user.
  This is for local use and tests only; set the Teams app credentials in production.
************************************************************************************"""

UNAUTHENTICATED_ROLES_WARNING = (
    "RULEBOOK_ROLES_FILE grants roles to Teams users while /api/messages is unauthenticated: "
    "anyone who can reach this port can claim a mapped user's id and read restricted rulebooks.")


def default_service(settings: Settings, event_sink: EventSink | None) -> AssistantLike:
    """The assistant the settings describe, logging into the server's own event log."""
    from bot.service import AssistantService

    return AssistantService.from_settings(settings, events=event_sink)


def _shared_knowledge(service: Any, settings: Settings) -> tuple[Callable[[], Any], Callable[[], None]]:
    """(the index, opened when first needed; its closer) for the /sources route and Slack shares.

    The service's own `KnowledgeBase` is reused when it has one: the embedded store may be opened
    only once per process.
    """
    state: dict[str, Any] = {}

    def knowledge() -> Any:
        if "knowledge" not in state:
            own = getattr(service, "knowledge", None)
            if own is not None and hasattr(own, "source_uri"):
                state["knowledge"], state["owned"] = own, False
            else:
                from knowledge.knowledge_base import KnowledgeBase

                state["knowledge"], state["owned"] = KnowledgeBase.from_settings(settings), True
        return state["knowledge"]

    def close() -> None:
        if state.get("owned"):
            state["knowledge"].close()

    return knowledge, close


def _knowledge_locator(knowledge: Callable[[], Any]) -> SourceLocator:
    """Find a rulebook's PDF through the index, with the caller's roles applied in the query."""
    def locate(rulebook_id: str, roles: tuple[str, ...]) -> str | None:
        return knowledge().source_uri(rulebook_id, roles)

    return locate


def _blob_linker(settings: Settings) -> Callable[[str, int], str] | None:
    if not settings.blob_connection_string:
        return None

    def link(source_uri: str, page: int) -> str:
        from indexing.blob_source import blob_sas_link

        return blob_sas_link(source_uri, page, settings=settings)

    return link


def _mount_slack(app: web.Application, service: AssistantLike, settings: Settings,
                 event_sink: EventSink | None, roles: RoleSource, knowledge: Callable[[], Any]
                 ) -> dict[str, bool]:
    """HTTP at /slack/events with a signing secret; Socket Mode with an app-level token (both may run)."""
    mounted = {"http": False, "socket_mode": False}
    if not settings.slack_signing_secret and not settings.slack_app_token:
        return mounted
    import adapters.slack as slack  # slack-bolt loads only where Slack is configured
    from adapters.slack.sharing import index_access

    # "Share in channel" asks the same index whether the destination may read each citation
    access = index_access(knowledge)
    if settings.slack_signing_secret:
        slack.mount_slack(app, service, settings, event_sink, roles=roles, citation_access=access)
        mounted["http"] = True
    if settings.slack_app_token:
        slack.attach_socket_mode(app, service, settings, event_sink, roles=roles, citation_access=access)
        mounted["socket_mode"] = True
    return mounted


def build_app(settings: Settings, service: AssistantLike | None = None,
              event_sink: EventSink | None = None, *, source_locator: SourceLocator | None = None,
              openid_metadata_url: str | None = None, update_interval: float | None = None,
              teams: TeamsWiring | None = None) -> web.Application:
    """The whole server. `openid_metadata_url` (tests) replaces the Bot Framework's key endpoint."""
    app = web.Application(client_max_size=settings.max_request_bytes)
    harden(app, settings.max_request_bytes)  # 413 over the limit, no banners, no tracebacks
    app[SETTINGS] = settings
    # read before anything is opened: a broken roles file stops the server with a clear message
    roles = role_source(settings.roles_file)
    app[ROLES] = roles
    closers: list[Callable[[], Any]] = []

    if event_sink is None:
        from events.event_log import open_event_log

        event_log = open_event_log(settings)
        event_sink = event_log
        closers.append(event_log.close)
    if service is None:
        service = default_service(settings, event_sink)

    links = SourceLinks(settings.public_base_url, settings.user_hash_key)
    knowledge, close_knowledge = _shared_knowledge(service, settings)
    closers.insert(0, close_knowledge)
    if source_locator is None:
        source_locator = _knowledge_locator(knowledge)
    from adapters.page_view.route import add_page_view  # before /sources/{id}/{file}: it takes "view"

    add_page_view(app, knowledge, links, event_sink)
    from adapters.web import add_web_chat

    add_web_chat(app, service, settings, links, event_sink)  # /chat, unless RULEBOOK_WEB_CHAT=false
    SourceRoutes(source_locator, links, event_sink, _blob_linker(settings)).add_to(app)

    teams = teams or TeamsWiring(openid_metadata_url=openid_metadata_url, update_interval=update_interval)
    teams_bot = mount_teams(app, service, settings, event_sink, roles, links, teams)
    app[TEAMS_BOT] = teams_bot

    slack_mounted = _mount_slack(app, service, settings, event_sink, roles, knowledge)
    from adapters.index_webhook import mount_index_routes  # indexing queue, POST /index/events

    mount_index_routes(app, settings, knowledge)

    async def healthz(_: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "teams_authenticated": bool(settings.teams_app_id),
                                  "slack": slack_mounted["http"],
                                  "slack_socket_mode": slack_mounted["socket_mode"],
                                  "roles_file": roles.configured})

    app.router.add_get("/healthz", healthz)

    async def announce(_: web.Application) -> None:
        if not settings.teams_app_id:
            log.warning(UNAUTHENTICATED_WARNING)
            if roles.configured:
                log.warning(UNAUTHENTICATED_ROLES_WARNING)

    async def finish_answers(_: web.Application) -> None:
        await teams_bot.drain()

    async def close_all(_: web.Application) -> None:
        for close in closers:
            try:
                result = close()
                if hasattr(result, "__await__"):
                    await result
            except Exception:
                log.exception("error while closing %r", close)

    app.on_startup.append(announce)
    app.on_shutdown.append(finish_answers)
    app.on_cleanup.append(close_all)
    return app
