"""`POST /api/messages`: the Agents SDK's CloudAdapter behind our own request checks.

With `RULEBOOK_TEAMS_APP_ID` set, every request must carry a token that validates
(`adapters.teams.authentication`); anything else is answered 401 before the bot sees it. With
no app id, requests are accepted unauthenticated: for local use and tests only, and the server
says so at start-up.

We check the request ourselves and then call `CloudAdapter.process_activity` (rather than the
SDK's `jwt_authorization_decorator` + `CloudAdapter.process`), so that every failure has a clear
answer: 415 for a body that is not JSON, 400 for JSON that is not an Activity, 401 for any
authentication failure, including a token from an issuer we do not trust, which the SDK would
otherwise look up keys for.
"""

from __future__ import annotations

import logging

from aiohttp import web
from microsoft_agents.activity import Activity, ActivityTypes, DeliveryModes
from microsoft_agents.hosting.core import ChannelServiceAdapter, TurnContext
from pydantic import ValidationError

from adapters.teams.authentication import RequestAuthentication, Unauthorized
from adapters.teams.places import user_id_of
from adapters.teams.usage import TeamsUsage

log = logging.getLogger("rulebook.teams")


class MessagesEndpoint:
    def __init__(self, adapter: ChannelServiceAdapter, authentication: RequestAuthentication, bot: object,
                 usage: TeamsUsage) -> None:
        self._adapter = adapter
        self._authentication = authentication
        self._bot = bot
        self._usage = usage
        adapter.on_turn_error = self._on_turn_error

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if "application/json" not in request.headers.get("Content-Type", ""):
            return web.json_response({"error": "expected an application/json Activity"}, status=415)
        try:
            body = await request.json()
            activity = Activity.model_validate(body)
        except (ValueError, ValidationError):
            return web.json_response({"error": "the body is not a Bot Framework Activity"}, status=400)
        if not activity.type or not activity.conversation or not activity.conversation.id:
            return web.json_response({"error": "the Activity has no type or conversation"}, status=400)

        try:
            claims = await self._authentication.claims(request.headers.get("Authorization"))
        except Unauthorized as exc:
            log.warning("rejected a request to /api/messages: %s", exc)
            message = "missing Bot Framework token" if "missing" in str(exc) else \
                "the Bot Framework token did not validate"
            return web.json_response({"error": message}, status=401)
        if claims.claims and not _same_host(claims.get_claim_value("serviceurl"), activity.service_url):
            # a token is issued for one channel's service URL: replies must not go elsewhere
            return web.json_response({"error": "the activity's serviceUrl does not match its token"},
                                     status=401)

        try:
            invoke_response = await self._adapter.process_activity(claims, activity, self._bot.on_turn)
        except Exception:  # e.g. Entra ID unreachable for the outbound token: Teams will retry
            log.exception("could not process a Teams activity")
            return web.json_response({"error": "the bot could not process the activity now"}, status=503)
        if activity.type == ActivityTypes.invoke or activity.delivery_mode == DeliveryModes.expect_replies:
            if invoke_response is None:
                return web.Response(status=501)
            if invoke_response.body is None:
                return web.Response(status=invoke_response.status)
            return web.json_response(invoke_response.body, status=invoke_response.status)
        return web.Response(status=202)

    async def _on_turn_error(self, turn_context: TurnContext, error: Exception) -> None:
        activity = turn_context.activity
        log.error("unhandled error in a Teams turn", exc_info=error)
        self._usage.error(user_id=user_id_of(activity.from_property),
                          conversation_id=f"teams:{activity.conversation.id}" if activity.conversation else "",
                          message_id=activity.id or "", where="teams.turn", error=type(error).__name__)
        if activity.type == ActivityTypes.message:
            try:
                await turn_context.send_activity("Sorry, something went wrong. Please try again.")
            except Exception:
                log.exception("could not tell the user about the error")


def _same_host(claimed: object, actual: str | None) -> bool:
    from urllib.parse import urlsplit

    if not claimed or not actual:
        return True  # Bot Framework tokens for some channels carry no serviceurl claim
    return (urlsplit(str(claimed)).hostname or "").casefold() == (urlsplit(actual).hostname or "").casefold()
