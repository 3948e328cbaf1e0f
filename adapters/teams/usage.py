"""The usage events Teams itself causes: feedback (buttons and reactions), copies, errors.

Questions and answers are logged by the assistant service. Data keys match Slack's
(`value`, `via`, `retracted`, `reaction`, `comment`) so reports read both platforms alike.
Users are recorded by keyed hash only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from cachetools import LRUCache

from events.usage_event import EventSink, PlatformUsage

log = logging.getLogger("rulebook.teams")

PLATFORM = "teams"
FeedbackValue = Literal["positive", "negative"]

# Teams' reaction names; laugh and surprised say nothing about an answer's quality
REACTION_VALUES: dict[str, FeedbackValue] = {
    "like": "positive", "heart": "positive", "sad": "negative", "angry": "negative",
}
FEEDBACK_BUTTON_VALUES: dict[str, FeedbackValue] = {"like": "positive", "dislike": "negative"}


@dataclass(frozen=True)
class DeliveredAnswer:
    message_id: str  # the assistant's id of the answer (as in its own question/answer events)
    conversation_id: str


class DeliveredAnswers:
    """Teams message id -> the answer it holds, so feedback joins the answer's own events.

    Bounded and in memory: after a restart, feedback on older messages is still logged, under
    the Teams message id.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._by_teams_id: LRUCache[str, DeliveredAnswer] = LRUCache(capacity)

    def remember(self, teams_message_id: str, answer: DeliveredAnswer) -> None:
        if not teams_message_id:
            return
        self._by_teams_id[teams_message_id] = answer

    def find(self, teams_message_id: str | None) -> DeliveredAnswer | None:
        return self._by_teams_id.get(teams_message_id or "")


class TeamsUsage(PlatformUsage):
    def __init__(self, sink: EventSink | None, user_hash_key: str) -> None:
        super().__init__(sink, user_hash_key, PLATFORM)
