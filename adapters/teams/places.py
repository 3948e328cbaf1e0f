"""Who will read a Teams answer, and so whose roles it may use (`adapters.role_directory`'s place policy).

A personal chat is private: the answer uses the asker's own roles (user id, e-mail, tenant).
A channel thread or a group chat is shared: everyone in it reads the answer, so it uses only the
roles the roles file grants the place itself, `default` plus the entries of its tenant and, in a
channel, its team (team id or AAD group id). A risk officer asking in a channel therefore gets
what any colleague asking there gets, and the answer's source links grant no more than that.
"""

from __future__ import annotations

from microsoft_agents.activity import Activity, ChannelAccount

from adapters.role_directory import Identity, Place


def user_id_of(account: ChannelAccount | None) -> str:
    # the AAD object id is stable across chats and tenants' bot registrations; the channel id is not
    return (account.aad_object_id or account.id or "") if account else ""


def conversation_kind(activity: Activity) -> str:
    """personal | groupChat | channel (Teams' conversationType; personal when absent)."""
    return (activity.conversation.conversation_type if activity.conversation else None) or "personal"


def _groups(activity: Activity) -> tuple[str, ...]:
    """The tenant the conversation lives in and, in a channel, its team (id and AAD group id)."""
    channel_data = activity.channel_data if isinstance(activity.channel_data, dict) else {}
    tenant = channel_data.get("tenant") if isinstance(channel_data.get("tenant"), dict) else {}
    team = channel_data.get("team") if isinstance(channel_data.get("team"), dict) else {}
    candidates = [activity.conversation.tenant_id if activity.conversation else None, tenant.get("id"),
                  team.get("id"), team.get("aadGroupId")]
    return tuple(dict.fromkeys(str(g) for g in candidates if g))


def teams_identity(activity: Activity) -> Identity:
    """The asker as the role directory sees them: AAD object id, tenant and (in channels) team."""
    return Identity(platform="teams", user_id=user_id_of(activity.from_property), groups=_groups(activity))


def teams_place(activity: Activity) -> Place:
    """Where the answer will be read. Anything but a personal chat counts as shared: a
    conversation type Teams adds later is treated as the safer of the two."""
    return Place(platform="teams", shared=conversation_kind(activity) != "personal",
                 groups=_groups(activity))
