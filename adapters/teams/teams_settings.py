"""Teams-only settings (`RULEBOOK_TEAMS_*`), beside the app id, password and tenant in `config.settings`.

The limits are Teams' own (learn.microsoft.com, "Stream bot messages" and "Rate limiting for
bots"), kept a margin inside them: a stream that is still open after two minutes is ended by
Teams with a 403, so ours is finished as a normal message well before; a message of about
100 KB is refused, so ours stay under 80 KB.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

# The SDK's AuthTypes values we support: an app password (single- or multi-tenant app
# registration) or an Azure managed identity (user-assigned: its client id is the app id).
AuthType = Literal["ClientSecret", "UserManagedIdentity", "SystemManagedIdentity"]


class TeamsSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RULEBOOK_TEAMS_", env_file=".env", extra="ignore")

    auth_type: AuthType = "ClientSecret"
    stream_limit: float = Field(100.0, gt=0)  # seconds a native stream may stay open (Teams: 120)
    message_limit: int = Field(80_000, ge=4_000)  # bytes of one message as sent (Teams: ~100 KB)
    retry_attempts: int = Field(6, ge=1)  # tries of one Bot Connector call answered 429
    retry_backoff: float = Field(1.0, ge=0)  # seconds before the first retry; doubles each time
    retry_max_delay: float = Field(30.0, ge=0)  # longest single wait, whatever Retry-After says
