"""The Bot Connector clients the SDK's CloudAdapter uses, with Teams' throttling handled.

Teams answers 429 when a bot sends faster than it allows (about 7 operations a second per
conversation); Microsoft's guidance is to retry with exponential backoff. Every connector
call (stream updates, edits, posts, member lookups) goes through one aiohttp session whose
client middleware waits and retries a 429, honouring `Retry-After`, so a throttled update is
delayed, never dropped.

The user-token client is created without a token: this bot runs no OAuth sign-in flows, and
fetching a token for it on every request would cost a round trip to Entra ID per activity.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass
from typing import Any

from aiohttp import ClientHandlerType, ClientRequest, ClientResponse, ClientSession
from cachetools import LRUCache
from microsoft_agents.hosting.core import (
    AnonymousTokenProvider,
    ClaimsIdentity,
    Connections,
    RestChannelServiceClientFactory,
    TeamsConnectorClient,
    TurnContext,
    UserTokenClient,
)
from microsoft_agents.hosting.core.connector import ConnectorClientBase

log = logging.getLogger("rulebook.teams")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 6
    backoff: float = 1.0  # seconds before the first retry; doubled for each further one
    max_delay: float = 30.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(max(float(retry_after), 0.0), self.max_delay)
            except ValueError:
                pass  # an HTTP date: fall back to our own backoff
        base = self.backoff * (2 ** attempt)
        return min(base + random.uniform(0, base / 4), self.max_delay)  # jitter spreads replicas apart


def throttling_retry(policy: RetryPolicy):
    async def retry_429(request: ClientRequest, handler: ClientHandlerType) -> ClientResponse:
        attempt = 0
        while True:
            response = await handler(request)
            if response.status != 429 or attempt + 1 >= policy.attempts:
                return response
            delay = policy.delay(attempt, response.headers.get("Retry-After"))
            log.info("Teams throttled %s %s (429); retrying in %.2fs", request.method, request.url.path, delay)
            response.release()
            await asyncio.sleep(delay)
            attempt += 1

    return retry_429


CLIENTS_KEPT = 32  # (service url, token) pairs whose connector client stays open
RETIRED_CLIENT_GRACE = 300.0  # seconds an evicted client stays open for the answers still using it


class _KeptConnectorClient(TeamsConnectorClient):
    """The SDK closes a turn's clients when the turn ends; a kept one stays open for the next."""

    async def close(self) -> None:
        return None

    async def release(self) -> None:
        await super().close()


class _KeptUserTokenClient(UserTokenClient):
    async def close(self) -> None:
        return None

    async def release(self) -> None:
        await super().close()


class _Clients(LRUCache):
    """Connector clients by (event loop, service url, token); an evicted one is closed later, once
    the answers that hold it are done (a Teams stream lives two minutes at most)."""

    def popitem(self) -> tuple[Any, _KeptConnectorClient]:
        key, client = super().popitem()
        loop = key[0]
        if not loop.is_closed():
            loop.call_later(RETIRED_CLIENT_GRACE, lambda: loop.create_task(client.release()))
        return key, client


class TeamsClientFactory(RestChannelServiceClientFactory):
    """The SDK's factory builds two new connector clients and two user-token clients (each with a
    session of its own, and a disk scan of package metadata for its User-Agent) for every Teams
    answer: the turn of the question and the proactive turn of the answer. They carry only the
    service url and a token, so they are kept and shared (used on the event loop only)."""

    def __init__(self, connections: Connections, retry: RetryPolicy) -> None:
        super().__init__(connections)
        self._retry = retry
        self._connectors: _Clients = _Clients(CLIENTS_KEPT)
        self._token_clients: dict[tuple[asyncio.AbstractEventLoop, str], _KeptUserTokenClient] = {}

    async def close(self) -> None:
        """Close every kept client (the server is stopping)."""
        clients = [*self._connectors.values(), *self._token_clients.values()]
        self._connectors.clear()
        self._token_clients.clear()
        for client in clients:
            with contextlib.suppress(Exception):
                await client.release()

    async def create_connector_client(self, context: TurnContext | None, claims_identity: ClaimsIdentity,
                                      service_url: str, audience: str, scopes: list[str] | None = None,
                                      use_anonymous: bool = False) -> ConnectorClientBase:
        if not service_url or not audience:
            raise TypeError("a connector client needs the activity's serviceUrl and an audience")
        provider = (AnonymousTokenProvider() if use_anonymous
                    else self._connection_manager.get_token_provider(claims_identity, service_url))
        token = await provider.get_access_token(audience, scopes or claims_identity.get_token_scope())
        endpoint = service_url if service_url.endswith("/") else service_url + "/"
        key = (asyncio.get_running_loop(), endpoint, token or "")
        client = self._connectors.get(key)
        if client is None or client.client.closed:
            session = ClientSession(base_url=endpoint, middlewares=(throttling_retry(self._retry),))
            client = self._connectors[key] = _KeptConnectorClient(endpoint=endpoint, token=token or "",
                                                                  session=session)
        return client

    async def create_user_token_client(self, context: TurnContext, claims_identity: ClaimsIdentity,
                                       use_anonymous: bool = False) -> UserTokenClient:
        # without an app id (unauthenticated local use) the SDK warns on every request: name it
        app_id = claims_identity.get_app_id() or "unauthenticated-local-bot"
        key = (asyncio.get_running_loop(), app_id)
        client = self._token_clients.get(key)
        if client is None or client.client.closed:
            client = self._token_clients[key] = _KeptUserTokenClient(
                app_id=app_id, endpoint=self._token_service_endpoint, token="")
        return client
