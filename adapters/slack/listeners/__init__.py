"""Bolt listeners, one module per kind of thing Slack sends (as in Slack's bolt assistant template)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from slack_bolt.async_app import AsyncApp

from adapters.slack.listeners import actions, assistant, commands, events, reactions

if TYPE_CHECKING:
    from adapters.slack.front_end import SlackFrontEnd


def register_listeners(app: AsyncApp, front: SlackFrontEnd) -> None:
    # The assistant middleware must come first: it claims the DM thread messages of assistant
    # threads before the plain `message` listener sees them.
    assistant.register(app, front)
    commands.register(app, front)
    events.register(app, front)
    actions.register(app, front)
    reactions.register(app, front)
