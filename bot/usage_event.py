"""The usage event: what the bot, Teams, Slack and the source server record about each interaction.

The event log (`bot.event_log`) takes these through a bounded queue; the store behind it is Azure
Table Storage or a local SQLite file with the same interface.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import SecretStr

from config.secret_values import reveal

EventKind = Literal[
    "question", "tool_call", "answer", "gate", "feedback", "source_click", "copy", "error"
]


def pseudonymous_user_id(platform_user_id: str, key: str | SecretStr) -> str:
    """A keyed hash: stable per user, never reversible to the platform's id without the key."""
    return hmac.new(reveal(key).encode(), platform_user_id.encode(), hashlib.sha256).hexdigest()[:32]


@dataclass
class UsageEvent:
    kind: EventKind
    conversation_id: str
    message_id: str
    user_hash: str
    platform: str
    data: dict[str, Any] = field(default_factory=dict)
    timestamp: datetime = field(default_factory=lambda: datetime.now(UTC))
    event_id: str = field(default_factory=lambda: uuid.uuid4().hex)


class EventSink(Protocol):
    """Anything that accepts events without blocking the caller (the queue in front of a store)."""

    def emit(self, event: UsageEvent) -> None: ...
