"""What every response of the bot's HTTP server may and may not say, as aiohttp middleware.

- A request body over the limit is refused with 413 before any handler parses it (the Teams
  endpoint used to turn the parser's error into a 400). Bodies are read here, once, so a
  chunked upload without Content-Length is limited the same way; handlers get the cached bytes.
- No version banner: aiohttp's `Server: Python/3.11 aiohttp/3.x` tells an attacker which
  advisories apply, so the header is removed from every response a handler or route error makes,
  through aiohttp's public `on_response_prepare` signal. Requests aiohttp cannot even parse are
  answered by its protocol layer before routing, and the signal runs only for routed requests;
  for those aiohttp has no public hook or setting (its maintainers' answer: aio-libs/aiohttp#3140,
  #8870), so the one remaining lever, the module's default `SERVER_SOFTWARE`, is set to a bare
  product name. It is the only non-public name used here; a test sends an unparseable request
  to a real server and checks the answer carries no banner, so an aiohttp upgrade that moves it
  fails loudly.
- An unexpected exception in a handler becomes a plain `500 Internal server error` with no
  traceback and no exception text (both go to the server's log only); deliberate HTTP errors
  (4xx) pass through unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import hdrs, web, web_response

log = logging.getLogger("rulebook.server")

PRODUCT_NAME = "rulebook"
DEFAULT_MAX_BODY_BYTES = 1024 * 1024  # a Teams activity or Slack event is a few KB; Teams caps at ~100 KB
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _too_large(limit: int) -> web.Response:
    return web.json_response({"error": f"request body too large (the limit is {limit} bytes)"}, status=413)


def body_limit(limit: int) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    @web.middleware
    async def limit_body(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method in ("POST", "PUT", "PATCH") and request.can_read_body:
            if request.content_length is not None and request.content_length > limit:
                return _too_large(limit)
            try:
                await request.read()  # cached on the request: the handler's read() returns these bytes
            except web.HTTPRequestEntityTooLarge:
                return _too_large(limit)
        return await handler(request)

    return limit_body


@web.middleware
async def plain_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("unhandled error in %s %s", request.method, request.path)
        return web.Response(status=500, text="Internal server error\n")


async def _no_banner(_: web.Request, response: web.StreamResponse) -> None:
    response.headers.pop(hdrs.SERVER, None)


def harden(app: web.Application, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
    """Install the middleware on `app`; build the app with `client_max_size=max_body_bytes`."""
    app.middlewares.append(plain_errors)
    app.middlewares.append(body_limit(max_body_bytes))
    app.on_response_prepare.append(_no_banner)
    web_response.SERVER_SOFTWARE = PRODUCT_NAME  # type: ignore[attr-defined]
