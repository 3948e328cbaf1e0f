"""The usage events Slack itself causes: feedback (buttons and reactions), copies, errors.

Questions and answers are logged by the assistant service; this module only adds what happens
on the Slack side. Users are recorded by keyed hash, never by their Slack id.
"""

from __future__ import annotations

import logging
from typing import Literal

from events.usage_event import EventSink, PlatformUsage

log = logging.getLogger("rulebook.slack")

PLATFORM = "slack"

POSITIVE_REACTIONS = frozenset({"+1", "thumbsup"})
NEGATIVE_REACTIONS = frozenset({"-1", "thumbsdown"})


def reaction_value(reaction: str) -> Literal["positive", "negative"] | None:
    """👍/👎 in any skin tone; every other emoji is no feedback."""
    name = reaction.split("::", 1)[0]
    if name in POSITIVE_REACTIONS:
        return "positive"
    if name in NEGATIVE_REACTIONS:
        return "negative"
    return None


class SlackUsage(PlatformUsage):
    def __init__(self, sink: EventSink | None, user_hash_key: str) -> None:
        super().__init__(sink, user_hash_key, PLATFORM)
