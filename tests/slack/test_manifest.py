"""The Slack app manifest asks for what the app uses: its events, scopes, command and URLs."""

from __future__ import annotations

from pathlib import Path

import yaml

from adapters.slack import SLACK_EVENTS_PATH
from adapters.slack.listeners.commands import COMMAND

MANIFEST = Path(__file__).resolve().parents[2] / "manifest" / "slack" / "manifest.yaml"


def manifest() -> dict:
    return yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))


def test_every_event_the_app_listens_to_is_subscribed_with_its_scope():
    data = manifest()
    events = set(data["settings"]["event_subscriptions"]["bot_events"])
    assert events == {"app_mention", "message.im", "reaction_added", "reaction_removed",
                      "app_home_opened", "app_context_changed",
                      "assistant_thread_started", "assistant_thread_context_changed"}
    scopes = set(data["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "commands", "im:history", "reactions:read",
            "assistant:write"} <= scopes
    # users.info with the e-mail address, for the e-mail entries of the roles file
    assert {"users:read", "users:read.email"} <= scopes
    # conversations.info: whether a "Share in channel" destination reaches outside the workspace
    assert {"channels:read", "groups:read", "im:read", "mpim:read"} <= scopes
    # assistant:write is only granted to AI apps: the agent experience (the Messages tab)
    assert data["features"]["agent_view"]["agent_description"]
    assert data["features"]["app_home"]["messages_tab_enabled"] is True
    assert data["features"]["app_home"]["messages_tab_read_only_enabled"] is False


def test_the_command_events_and_interactivity_all_go_to_the_one_endpoint():
    data = manifest()
    (command,) = data["features"]["slash_commands"]
    assert command["command"] == COMMAND
    urls = [command["url"], data["settings"]["event_subscriptions"]["request_url"],
            data["settings"]["interactivity"]["request_url"]]
    assert all(url.startswith("https://") and url.endswith(SLACK_EVENTS_PATH) for url in urls)
    assert data["settings"]["interactivity"]["is_enabled"] is True


def test_display_information_fits_slacks_limits():
    info = manifest()["display_information"]
    assert 0 < len(info["name"]) <= 35
    assert 0 < len(info["description"]) <= 140
    assert 174 <= len(info["long_description"]) <= 4000
    assert manifest()["_metadata"]["major_version"] == 2
