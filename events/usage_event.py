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
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from pydantic import SecretStr

from config.secret_values import reveal

EventKind = Literal[
    "question", "tool_call", "answer", "gate", "feedback", "source_click", "copy", "error"
]


def pseudonymous_user_id(platform_user_id: str, key: str | SecretStr) -> str:
    """A keyed hash: stable per user, never reversible to the platform's id without the key."""
    return hmac.new(reveal(key).encode(), platform_user_id.encode(), hashlib.sha256).hexdigest()[:32]


# What each kind of event carries in `data`: one key name per fact, whichever front end emits it.
class QuestionData(TypedDict):
    question: str
    language: str
    roles: list[str]


class ToolCallData(TypedDict):
    name: str
    args: dict[str, Any]
    result_chars: int
    ms: float
    error: str | None


class AnswerData(TypedDict):
    outcome: str
    reason: str | None
    latency_ms: float | None
    first_token_ms: NotRequired[float | None]
    citations: NotRequired[list[dict[str, Any]]]
    tool_calls: NotRequired[int]
    model_calls: NotRequired[int]
    model_ms: NotRequired[float]
    tool_ms: NotRequired[float]
    tokens: NotRequired[dict[str, int] | None]
    language: NotRequired[str]


class GateData(TypedDict):
    outcome: str
    reason: str | None
    kept: int
    dropped: int
    blocked: int
    decisions: list[dict[str, Any]]


class FeedbackData(TypedDict):
    value: Literal["positive", "negative"]
    via: str  # button | reaction
    retracted: bool
    reaction: NotRequired[str]
    comment: NotRequired[str]
    teams_message_id: NotRequired[str | None]


class SourceClickData(TypedDict):
    rulebook_id: str
    page: int
    view: NotRequired[bool]  # the page view rather than the PDF itself
    highlight: NotRequired[bool]


class CopyData(TypedDict):
    via: NotRequired[str]
    chars: NotRequired[int]  # length of the copied text, where the front end sees it


class ErrorData(TypedDict):
    where: str  # "<platform>.<step>" for a front end's own steps, else the service's part
    error: str
    detail: NotRequired[str]


UsageData = (QuestionData | ToolCallData | AnswerData | GateData | FeedbackData | SourceClickData | CopyData
             | ErrorData)


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


def emit_usage(sink: EventSink | None, kind: EventKind, data: UsageData, *, platform: str,
               conversation_id: str = "", message_id: str = "", user_id: str | None = None,
               user_hash_key: str | SecretStr = "") -> None:
    """The one way to record an event: build it, hash the user (None: an anonymous event such as
    a source click), emit it. A broken event log never costs an answer: the failure is logged."""
    if sink is None:
        return
    try:
        user_hash = pseudonymous_user_id(user_id, user_hash_key) if user_id is not None else ""
        sink.emit(UsageEvent(kind=kind, conversation_id=conversation_id, message_id=message_id,
                             user_hash=user_hash, platform=platform, data=dict(data)))
    except Exception:
        logging.getLogger("rulebook.usage").exception("could not emit a %s event", kind)


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

    def emit(self, kind: EventKind, data: UsageData, *, user_id: str, conversation_id: str,
             message_id: str) -> None:
        emit_usage(self._sink, kind, data, platform=self.platform, conversation_id=conversation_id,
                   message_id=message_id, user_id=user_id or None, user_hash_key=self._key)

    def feedback(self, *, user_id: str, conversation_id: str, message_id: str,
                 value: Literal["positive", "negative"], via: str = "button", retracted: bool = False,
                 reaction: str | None = None, comment: str | None = None,
                 teams_message_id: str | None = None) -> None:
        data = FeedbackData(value=value, via=via, retracted=retracted)
        if reaction:
            data["reaction"] = reaction
        if comment:
            data["comment"] = comment
        if teams_message_id is not None:
            data["teams_message_id"] = teams_message_id
        self.emit("feedback", data, user_id=user_id, conversation_id=conversation_id, message_id=message_id)

    def copy(self, *, user_id: str, conversation_id: str, message_id: str, via: str | None = None,
             chars: int | None = None) -> None:
        data = CopyData()
        if via is not None:
            data["via"] = via
        if chars is not None:
            data["chars"] = chars
        self.emit("copy", data, user_id=user_id, conversation_id=conversation_id, message_id=message_id)

    def error(self, *, user_id: str, conversation_id: str, message_id: str, where: str, error: str,
              detail: str | None = None) -> None:
        data = ErrorData(where=where, error=error)
        if detail is not None:
            data["detail"] = detail
        self.emit("error", data, user_id=user_id, conversation_id=conversation_id, message_id=message_id)
