"""`POST /slack/events` in the bot's aiohttp application: events, slash commands and interactivity.

Every request's signature (HMAC-SHA256 over `v0:timestamp:body` with the signing secret) is
checked on the raw bytes before anything reads the body: a missing or bad signature, a timestamp
that is not a number or more than 5 minutes away, gets 401. Only then is the body parsed; a
signed body that is not what Slack sends (not UTF-8, not JSON or form data, not an object) gets
400. Neither answer carries more than one plain sentence. Bolt checks the signature again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from urllib.parse import parse_qsl

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.request.async_request import AsyncBoltRequest

from adapters.role_directory import RoleSource
from adapters.slack.front_end import Assistant, SlackFrontEnd
from adapters.slack.sharing import CitationAccess
from config.secret_values import reveal
from config.settings import Settings
from events.usage_event import EventSink

log = logging.getLogger("rulebook.slack")

SLACK_EVENTS_PATH = "/slack/events"
SLACK_FRONT_END = web.AppKey("slack_front_end", SlackFrontEnd)
MAX_BODY_BYTES = 1_000_000  # Slack's payloads are far smaller; a bigger one is not from Slack
MAX_CLOCK_SKEW = 5 * 60


class MalformedRequest(ValueError):
    """A correctly signed body that is not a Slack payload."""


def verified(secret: str, body: bytes, timestamp: str | None, signature: str | None) -> bool:
    """Slack's v0 signature over the raw bytes (slack_sdk's verifier decodes the body first,
    which fails on bytes that are not UTF-8), within 5 minutes of now."""
    if not secret or not timestamp or not signature or not timestamp.strip().isdigit():
        return False
    timestamp = timestamp.strip()
    if len(timestamp) > 12 or abs(time.time() - int(timestamp)) > MAX_CLOCK_SKEW:
        return False
    expected = "v0=" + hmac.new(secret.encode(), b"v0:" + timestamp.encode() + b":" + body,
                                hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.strip().encode("utf-8", "replace"))


def parsed_body(raw: bytes, content_type: str) -> dict:
    """The payload as bolt would read it, or `MalformedRequest`."""
    try:
        text = raw.decode("utf-8")
        if content_type == "application/json" or text.lstrip().startswith("{"):
            body = json.loads(text)
        else:
            form = dict(parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text)))
            body = json.loads(form["payload"]) if "payload" in form else form
    except (UnicodeDecodeError, ValueError, KeyError) as exc:
        raise MalformedRequest(type(exc).__name__) from None
    if not isinstance(body, dict):
        raise MalformedRequest("not an object")
    return body


def mount_slack(app: web.Application, service: Assistant, settings: Settings,
                event_sink: EventSink | None, roles: RoleSource | None = None,
                citation_access: CitationAccess | None = None) -> None:
    """Add the Slack app to `app` (call it when `settings.slack_signing_secret` is set).
    `roles` defaults to the directory `settings.roles_file` names; `citation_access` to the
    service's own index (see `SlackFrontEnd`)."""
    front = SlackFrontEnd(service, settings, event_sink, http=True, roles=roles,
                          citation_access=citation_access)
    app[SLACK_FRONT_END] = front
    secret = reveal(settings.slack_signing_secret)

    async def slack_events(request: web.Request) -> web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY_BYTES:
            return web.Response(status=413, text="request body too large")
        # request.read(): the server's body-limit middleware has read (and cached) the body already
        raw = await request.read()
        if len(raw) > MAX_BODY_BYTES:
            return web.Response(status=413, text="request body too large")
        if not verified(secret, raw, request.headers.get("X-Slack-Request-Timestamp"),
                        request.headers.get("X-Slack-Signature")):
            return web.Response(status=401, text="invalid request signature")
        try:
            parsed_body(raw, request.content_type)
            bolt_request = AsyncBoltRequest(body=raw.decode("utf-8"), query=request.query_string,
                                            headers=dict(request.headers))
        except Exception as exc:  # signed, so from Slack or with the secret: still not a payload
            log.warning("a signed Slack request had a malformed body (%s)", exc)
            return web.Response(status=400, text="malformed request body")
        bolt_response = await front.app.async_dispatch(bolt_request)
        return await to_aiohttp_response(bolt_response)

    async def open_pool(_: web.Application) -> None:
        await front.open_connection_pool()

    async def close(_: web.Application) -> None:
        await front.close()

    app.router.add_post(SLACK_EVENTS_PATH, slack_events)
    app.on_startup.append(open_pool)
    app.on_cleanup.append(close)
