"""The answers this process delivered to Slack, for the buttons and reactions that refer back to them.

Slack sends a reaction with only the message's channel and ts, and an ephemeral message's button
click without the message itself, so "Share in channel", "Copy" and reaction feedback need to find
the answer again. A bounded in-memory map is enough: these clicks come within minutes, and a miss
(another replica, a restart) degrades gracefully (the click is still logged, sharing asks the
user to ask again).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from bot.answer import Answer


@dataclass
class DeliveredAnswer:
    answer: Answer
    conversation_id: str
    messages: list[tuple[str, str]] = field(default_factory=list)  # (channel, ts) of each part
    roles: tuple[str, ...] = ()  # those the answer was made with: the place's where it was first shown


class DeliveredAnswers:
    def __init__(self, capacity: int = 2000) -> None:
        self._capacity = capacity
        self._by_message: OrderedDict[str, DeliveredAnswer] = OrderedDict()
        self._by_ts: dict[tuple[str, str], str] = {}

    def remember(self, answer: Answer, conversation_id: str, messages: list[tuple[str, str]],
                 roles: tuple[str, ...] = ()) -> DeliveredAnswer:
        entry = self._by_message.get(answer.message_id)
        if entry is None:
            entry = DeliveredAnswer(answer, conversation_id, roles=roles)
            self._by_message[answer.message_id] = entry
        self._by_message.move_to_end(answer.message_id)
        for key in messages:
            if key not in entry.messages:
                entry.messages.append(key)
            self._by_ts[key] = answer.message_id
        while len(self._by_message) > self._capacity:
            _, dropped = self._by_message.popitem(last=False)
            for key in dropped.messages:
                self._by_ts.pop(key, None)
        return entry

    def by_message_id(self, message_id: str) -> DeliveredAnswer | None:
        return self._by_message.get(message_id)

    def by_ts(self, channel: str, ts: str) -> DeliveredAnswer | None:
        message_id = self._by_ts.get((channel, ts))
        return self._by_message.get(message_id) if message_id else None
