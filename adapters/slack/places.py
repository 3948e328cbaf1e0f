"""Who will read a Slack answer, and so whose roles it may use (`adapters.role_directory`'s place policy).

Private, the asker's own roles: a direct message to the app, an AI assistant thread, and the
ephemeral answer to `/rulebook` (only the asker sees it).

Shared, only the place's roles (`default` plus the entry of the workspace the channel belongs to):
a thread under an @mention in a channel or multi-person DM, and the destination of "Share in
channel". A channel that people outside the workspace can read (Slack Connect, or shared between
the workspaces of an Enterprise Grid org) is granted no workspace entry at all: `default` only.

How the reach of a channel is known: an event says so itself (`is_ext_shared_channel` in its
envelope; an asker from another team also gives it away). A button click says nothing, so the
share destination is asked of `conversations.info` (scopes channels:read, groups:read, mpim:read,
im:read); when that call fails, the destination is treated as reaching beyond the workspace.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.role_directory import Place

log = logging.getLogger("rulebook.slack")

PRIVATE = Place(platform="slack", shared=False)
# conversations.info flags of a channel that people outside its workspace can read
BEYOND_WORKSPACE_FLAGS = ("is_ext_shared", "is_shared", "is_org_shared", "is_pending_ext_shared")


BEYOND_WORKSPACE = Place(platform="slack", shared=True)


def _workspace_only(workspace: str | None) -> Place:
    return Place(platform="slack", shared=True, groups=(workspace,) if workspace else ())


def mention_place(body: dict[str, Any], event: dict[str, Any], workspace: str | None) -> Place:
    """The channel (or multi-person DM) thread an @mention is answered in."""
    workspace = body.get("team_id") or workspace
    asker_teams = {t for t in (event.get("user_team"), event.get("source_team"), event.get("team")) if t}
    if body.get("is_ext_shared_channel") or (workspace and asker_teams - {workspace}):
        return BEYOND_WORKSPACE
    return _workspace_only(workspace)


async def share_destination(client: AsyncWebClient, channel: str, workspace: str | None) -> Place:
    """The conversation "Share in channel" would post into, asked of Slack at the moment of sharing."""
    try:
        response = await client.conversations_info(channel=channel)
    except SlackApiError as exc:
        log.warning("conversations.info for a share failed (%s): the destination gets only the "
                    "default roles", exc.response.get("error"))
        return BEYOND_WORKSPACE
    info = response.get("channel") or {}
    if any(info.get(flag) for flag in BEYOND_WORKSPACE_FLAGS):
        return BEYOND_WORKSPACE
    return _workspace_only(workspace)
