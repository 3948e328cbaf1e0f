"""Who may call /api/messages, and how the bot authenticates its own calls to the Bot Connector.

Inbound, with an app id configured, every request must carry a token that the Agents SDK's
`JwtTokenValidator` accepts: signed by a key the issuer publishes, audience = our app id, not
expired, and (we opt in to the SDK's `VALIDATE_ISSUER`) an issuer allowed for our app
registration. Before any key is fetched the token is checked for shape and issuer, so that a
garbage or foreign token costs nothing and is a 401, never a 500 or a call to a key endpoint.

Outbound, the SDK's MSAL connection manager gets tokens for the app registration: an app
password in a single-tenant registration (`RULEBOOK_TEAMS_TENANT_ID`) or a multi-tenant one
(no tenant: the Bot Framework's own tenant), or an Azure managed identity
(`RULEBOOK_TEAMS_AUTH_TYPE=UserManagedIdentity` / `SystemManagedIdentity`, no password).
"""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.request

import jwt
from microsoft_agents.hosting.core import (
    AgentAuthConfiguration,
    ClaimsIdentity,
    Connections,
    JwtTokenValidator,
)
from microsoft_agents.hosting.core.authorization.jwt.jwt_token_validator import (
    _JwkClientManager,
    _validate_issuer,
)

from adapters.teams.teams_settings import TeamsSettings
from config.secret_values import reveal
from config.settings import Settings

log = logging.getLogger("rulebook.teams")

SERVICE_CONNECTION = "SERVICE_CONNECTION"  # the SDK's name for the app's own connection
MULTI_TENANT_AUTHORITY_TENANT = "botframework.com"  # where multi-tenant Bot Framework apps get tokens


class Unauthorized(Exception):
    """The request's token is missing or does not validate (answered 401)."""


def auth_configuration(settings: Settings, teams: TeamsSettings) -> AgentAuthConfiguration:
    """The SDK's configuration of our app registration (anonymous when no app id is set)."""
    if not settings.teams_app_id:
        return AgentAuthConfiguration(anonymous_allowed=True, connection_name=SERVICE_CONNECTION)
    password = reveal(settings.teams_app_password)
    if teams.auth_type == "ClientSecret" and not password:
        raise ValueError("RULEBOOK_TEAMS_APP_ID is set but RULEBOOK_TEAMS_APP_PASSWORD is not; set it, or "
                         "RULEBOOK_TEAMS_AUTH_TYPE=UserManagedIdentity for a managed identity")
    return AgentAuthConfiguration(
        auth_type=teams.auth_type,
        client_id=settings.teams_app_id,
        tenant_id=settings.teams_tenant_id or MULTI_TENANT_AUTHORITY_TENANT,
        client_secret=password if teams.auth_type == "ClientSecret" else None,
        connection_name=SERVICE_CONNECTION,
        validate_issuer=True,
    )


def connection_manager(configuration: AgentAuthConfiguration) -> Connections:
    from microsoft_agents.authentication.msal import MsalConnectionManager

    return MsalConnectionManager(connections_configurations={SERVICE_CONNECTION: configuration})


class _FixedKeySource(_JwkClientManager):
    """Every key lookup goes to one JWKS address (tests: a loopback key server)."""

    def __init__(self, jwks_uri: str) -> None:
        super().__init__()
        self._jwks_uri = jwks_uri

    def _get_jwk_client(self, jwks_uri: str):  # noqa: ANN202 (the SDK's private type)
        return super()._get_jwk_client(self._jwks_uri)


def jwks_uri_from_metadata(openid_metadata_url: str) -> str:
    """The `jwks_uri` an OpenID metadata document names (fetched once, at start-up)."""
    with urllib.request.urlopen(openid_metadata_url, timeout=10) as response:  # noqa: S310 (configured URL)
        return str(json.loads(response.read())["jwks_uri"])


class RequestAuthentication:
    """Turns an Authorization header into the SDK's ClaimsIdentity, or raises Unauthorized."""

    def __init__(self, configuration: AgentAuthConfiguration, openid_metadata_url: str | None = None) -> None:
        self.configuration = configuration
        self._validator = JwtTokenValidator(configuration)
        self._openid_metadata_url = openid_metadata_url
        self._key_source: _FixedKeySource | None = None

    @property
    def required(self) -> bool:
        return not self.configuration.ANONYMOUS_ALLOWED

    async def claims(self, authorization: str | None) -> ClaimsIdentity:
        if not self.required:
            return ClaimsIdentity()  # anonymous: the SDK then calls the connector without a token
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or " " in token:
            raise Unauthorized("missing Bot Framework token")
        self._check_before_key_fetch(token)
        await self._use_configured_keys()
        try:
            return await self._validator.validate_token(token)
        except (jwt.PyJWTError, ValueError, KeyError) as exc:
            raise Unauthorized(f"token rejected: {type(exc).__name__}") from exc
        except OSError as exc:  # the key endpoint is unreachable: we cannot tell, so we refuse
            log.warning("could not fetch the token-signing keys: %s", exc)
            raise Unauthorized("token-signing keys unavailable") from exc

    def _check_before_key_fetch(self, token: str) -> None:
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise Unauthorized("not a JWT") from exc
        if header.get("alg") != "RS256" or not header.get("kid"):
            raise Unauthorized("token not signed with a published RS256 key")
        try:
            _validate_issuer(claims.get("iss"), self.configuration)  # the SDK's own issuer rule
        except ValueError as exc:
            raise Unauthorized("token from an issuer this app does not trust") from exc

    async def _use_configured_keys(self) -> None:
        if self._openid_metadata_url and self._key_source is None:
            try:
                jwks_uri = await asyncio.to_thread(jwks_uri_from_metadata, self._openid_metadata_url)
                source = _FixedKeySource(jwks_uri)
            except (OSError, ValueError, KeyError) as exc:
                raise Unauthorized(f"OpenID metadata unavailable: {exc}") from exc
            self._key_source = source
            self._validator._jwk_client_manager = source  # instance-level: other validators keep theirs
