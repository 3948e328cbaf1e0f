"""The usage event: what the bot, Teams, Slack and the source server record about each interaction.

The event log (`events.event_log`) takes these through a bounded queue; the store behind it is Azure
Table Storage or a local SQLite file with the same interface.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
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


class PlatformUsage:
    """The events a front end itself causes (feedback, copies, errors), for one platform.

    Questions and answers are logged by the assistant service. Data keys are those Teams and
    Slack log (`value`, `via`, `retracted`), so reports read every platform alike; users are
    recorded by keyed hash only. A broken event log never breaks the conversation.
    """

    def __init__(self, sink: EventSink | None, user_hash_key: str, platform: str) -> None:
        self._sink = sink
        self._key = user_hash_key
        self.platform = platform

    def user_hash(self, user_id: str) -> str:
        return pseudonymous_user_id(user_id, self._key) if user_id else ""

    def emit(self, kind: EventKind, *, user_id: str, conversation_id: str, message_id: str,
             **data: Any) -> None:
        if self._sink is None:
            return
        event = UsageEvent(kind=kind, conversation_id=conversation_id, message_id=message_id,
                           user_hash=self.user_hash(user_id), platform=self.platform, data=data)
        try:
            self._sink.emit(event)
        except Exception:
            logging.getLogger("rulebook.usage").exception("could not emit a %s event", kind)

    def feedback(self, *, user_id: str, conversation_id: str, message_id: str,
                 value: Literal["positive", "negative"], via: str = "button", retracted: bool = False) -> None:
        self.emit("feedback", user_id=user_id, conversation_id=conversation_id, message_id=message_id,
                  value=value, via=via, retracted=retracted)
