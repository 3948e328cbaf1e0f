"""Outbound tokens without Entra ID: the SDK's `Connections` with a provider that hands out a
fixed token (what MSAL would get from login.microsoftonline.com), so authenticated tests stay
on loopback and can check that every call to the connector carries the bot's token."""

from __future__ import annotations

from typing import Any

from microsoft_agents.hosting.core import AccessTokenProviderBase, AgentAuthConfiguration

OUTBOUND_TOKEN = "outbound-token-from-the-stand-in"


class FixedTokenProvider(AccessTokenProviderBase):
    def __init__(self, configuration: AgentAuthConfiguration) -> None:
        self._configuration = configuration
        self.requests: list[tuple[str, list[str]]] = []

    @property
    def configuration(self) -> AgentAuthConfiguration:
        return self._configuration

    async def get_access_token(self, resource_url: str, scopes: list[str], force_refresh: bool = False) -> str:
        self.requests.append((resource_url, list(scopes)))
        return OUTBOUND_TOKEN

    async def acquire_token_on_behalf_of(self, scopes: list[str], user_assertion: str) -> str:
        raise NotImplementedError("the bot runs no on-behalf-of flows")

    def get_token_credential(self) -> Any:
        raise NotImplementedError


class FixedTokenConnections:
    """Implements the SDK's `Connections` protocol with one connection."""

    def __init__(self, app_id: str) -> None:
        self.provider = FixedTokenProvider(AgentAuthConfiguration(client_id=app_id))

    def get_connection(self, connection_name: str | None) -> FixedTokenProvider:
        return self.provider

    def get_default_connection(self) -> FixedTokenProvider:
        return self.provider

    def get_token_provider(self, claims_identity: Any, service_url: str) -> FixedTokenProvider:
        return self.provider

    def get_token_provider_from_activity(self, activity: Any) -> FixedTokenProvider:
        return self.provider

    def get_default_connection_configuration(self) -> AgentAuthConfiguration:
        return self.provider.configuration
