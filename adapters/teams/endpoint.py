"""`POST /api/messages`: botbuilder's CloudAdapter behind our own request checks.

With `RULEBOOK_TEAMS_APP_ID` set, every request must carry a Bot Framework token that validates
(issuer, signature against the Bot Framework's published keys, audience = our app id); anything
else is answered 401 before the bot sees it. With no app id, CloudAdapter accepts unauthenticated
requests: for local use and tests only, and the server says so at start-up.

We authenticate before handing the activity to the adapter (rather than calling
`CloudAdapter.process`) so that every authentication failure — a missing header, a foreign
issuer, a token that is not even a JWT (PyJWT raises, botbuilder would answer 500) — becomes 401.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiohttp import web
from botbuilder.core import TurnContext, serializer_helper
from botbuilder.integration.aiohttp import CloudAdapter, ConfigurationBotFrameworkAuthentication
from botbuilder.schema import Activity
from botframework.connector.auth import AuthenticationConstants, BotFrameworkAuthentication
from msrest.serialization import Model

from adapters.teams.usage import TeamsUsage
from config.secret_values import reveal
from config.settings import Settings

log = logging.getLogger("rulebook.teams")


@dataclass
class _BotConfig:
    """The attribute names ConfigurationBotFrameworkAuthentication reads (None = botbuilder's default)."""

    APP_ID: str
    APP_PASSWORD: str
    APP_TENANTID: str
    APP_TYPE: str
    TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL: str | None = None
    TO_BOT_FROM_EMULATOR_OPENID_METADATA_URL: str | None = None
    TO_CHANNEL_FROM_BOT_LOGIN_URL: str | None = None
    TO_CHANNEL_FROM_BOT_OAUTH_SCOPE: str | None = None
    TO_BOT_FROM_CHANNEL_TOKEN_ISSUER: str | None = None
    OAUTH_URL: str | None = None


def bot_authentication(settings: Settings, openid_metadata_url: str | None = None
                       ) -> BotFrameworkAuthentication:
    """The Bot Framework authentication for our app registration.

    `openid_metadata_url` replaces the Bot Framework's OpenID metadata address (where the
    token-signing keys are published); tests point it at a loopback stand-in. botbuilder then
    wants every endpoint spelled out, so the others get the public cloud's values.
    """
    tenant = settings.teams_tenant_id
    config = _BotConfig(APP_ID=settings.teams_app_id, APP_PASSWORD=reveal(settings.teams_app_password),
                        APP_TENANTID=tenant, APP_TYPE="SingleTenant" if tenant else "MultiTenant")
    if openid_metadata_url:
        constants = AuthenticationConstants
        config.TO_BOT_FROM_CHANNEL_OPENID_METADATA_URL = openid_metadata_url
        config.TO_BOT_FROM_EMULATOR_OPENID_METADATA_URL = openid_metadata_url
        config.TO_CHANNEL_FROM_BOT_LOGIN_URL = (constants.TO_CHANNEL_FROM_BOT_LOGIN_URL_PREFIX
                                                + (tenant or constants.DEFAULT_CHANNEL_AUTH_TENANT))
        config.TO_CHANNEL_FROM_BOT_OAUTH_SCOPE = constants.TO_CHANNEL_FROM_BOT_OAUTH_SCOPE
        config.TO_BOT_FROM_CHANNEL_TOKEN_ISSUER = constants.TO_BOT_FROM_CHANNEL_TOKEN_ISSUER
        config.OAUTH_URL = constants.OAUTH_URL
    return ConfigurationBotFrameworkAuthentication(config)


class MessagesEndpoint:
    def __init__(self, adapter: CloudAdapter, authentication: BotFrameworkAuthentication, bot: object,
                 usage: TeamsUsage, app_id: str) -> None:
        self._adapter = adapter
        self._authentication = authentication
        self._bot = bot
        self._usage = usage
        self._app_id = app_id
        adapter.on_turn_error = self._on_turn_error

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if "application/json" not in request.headers.get("Content-Type", ""):
            return web.json_response({"error": "expected an application/json Activity"}, status=415)
        try:
            body = await request.json()
            activity = Activity().deserialize(body)
        except Exception:
            return web.json_response({"error": "the body is not a Bot Framework Activity"}, status=400)
        if not activity.type or not isinstance(body, dict):
            return web.json_response({"error": "the Activity has no type"}, status=400)

        auth_header = request.headers.get("Authorization", "")
        if self._app_id and not auth_header:
            return web.json_response({"error": "missing Bot Framework token"}, status=401)
        try:
            authenticated = await self._authentication.authenticate_request(activity, auth_header)
        except Exception as exc:
            log.warning("rejected a request to /api/messages: %s: %s", type(exc).__name__, exc)
            return web.json_response({"error": "the Bot Framework token did not validate"}, status=401)

        invoke_response = await self._adapter.process_activity(authenticated, activity, self._bot.on_turn)
        if invoke_response:
            body_out = invoke_response.body
            if body_out is None:
                return web.Response(status=invoke_response.status)
            if isinstance(body_out, Model):  # botbuilder's own response types; our dicts go as they are
                body_out = serializer_helper(body_out)
            return web.json_response(body_out, status=invoke_response.status)
        return web.Response(status=201)

    async def _on_turn_error(self, turn_context: TurnContext, error: Exception) -> None:
        activity = turn_context.activity
        log.error("unhandled error in a Teams turn", exc_info=error)
        account = activity.from_property
        self._usage.emit("error", user_id=(account.aad_object_id or account.id) if account else "",
                         conversation_id=f"teams:{activity.conversation.id}" if activity.conversation else "",
                         message_id=activity.id or "", stage="teams_turn", error=type(error).__name__)
        if activity.type == "message":
            try:
                await turn_context.send_activity("Sorry, something went wrong. Please try again.")
            except Exception:
                log.exception("could not tell the user about the error")
