"""Shared places get only what the place is granted (adapters.role_directory's place policy).

A risk officer asking in a channel or a group chat gets what an unmapped colleague gets there; in
her personal chat she still gets PS-07; a channel of a team the roles file grants risk-officer
gets PS-07; and links posted in a shared place are signed for the place's roles only.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from tests.teams import activities
from tests.teams.conftest import RunningServer
from tests.teams.test_roles import (
    ANNA,
    CARLA,
    DAAN,
    NONEXISTENT_QUESTION,
    RESTRICTED_QUESTION,
    _cited,
    ask,
)

PUBLIC_QUESTION = "Which payment devices do merchants accept?"
GENERAL_TEAM = {"id": "19:general-team@thread.tacv2", "aadGroupId": "grp-general"}
RISK_TEAM = {"id": "19:risk-team@thread.tacv2", "aadGroupId": "grp-risk"}

ROLES_YAML = """
default: [employee]
users:
  teams:
    aad-anna-0001: [risk-officer]
emails:
  carla.peeters@aurora.example: [risk-officer]
groups:
  teams:
    tenant-1: [staff]
    grp-risk: [risk-officer]       # the risk team, by its AAD group id
"""

_threads = iter(range(1, 10_000))


def shared_place(kind: str) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(a new conversation of that kind, its team) — each question its own thread."""
    n = next(_threads)
    if kind == "channel":
        return activities.channel(f"19:general@thread.tacv2;messageid=17000000{n:05d}"), GENERAL_TEAM
    return activities.group_chat(f"19:group-chat-{n}@thread.v2"), None


async def ask_in(server: RunningServer, connector: Any, question: str, user: dict[str, Any],
                 kind: str) -> tuple[Any, Any, Any]:
    conversation, team = shared_place(kind)
    return await ask(server, connector, question, user, conversation=conversation, team=team,
                     mention=True)


def link_roles(final: Any) -> set[str]:
    return {parse_qs(urlsplit(c["appearance"]["url"]).query).get("roles", [""])[0]
            for c in (final.message_entity() or {}).get("citation") or []}


@pytest.mark.parametrize("kind", ["channel", "groupChat"])
async def test_a_risk_officer_in_a_shared_place_gets_what_an_unmapped_colleague_gets(
        roles_server, connector, kind):
    officer, officer_answer, officer_user = await ask_in(roles_server, connector, RESTRICTED_QUESTION,
                                                         ANNA, kind)
    colleague, colleague_answer, colleague_user = await ask_in(roles_server, connector,
                                                               RESTRICTED_QUESTION, DAAN, kind)
    nothing, _, _ = await ask_in(roles_server, connector, NONEXISTENT_QUESTION, DAAN, kind)

    assert officer_user.roles == colleague_user.roles == ("employee", "staff")  # the place's
    assert officer_user.id == "aad-anna-0001"  # still her question, in history and events
    assert officer_answer.outcome == colleague_answer.outcome != "answered"
    assert officer.body["text"] == colleague.body["text"] == nothing.body["text"]
    assert _cited(officer) == _cited(colleague) == set()
    text = officer.body["text"]
    assert "PS-07" not in text and "mule" not in text.lower() and "20 incoming" not in text


async def test_in_her_personal_chat_she_still_gets_ps07(roles_server, connector):
    final, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, ANNA)
    assert user.roles == ("employee", "risk-officer", "staff")
    assert "PS-07" in _cited(final)
    assert link_roles(final) == {"employee,risk-officer,staff"}

    shared, _, _ = await ask_in(roles_server, connector, RESTRICTED_QUESTION, ANNA, "channel")
    assert "PS-07" not in _cited(shared)


async def test_no_e_mail_is_looked_up_for_a_question_in_a_channel(roles_server, connector):
    connector.members["29:user-carla"] = {"name": "Carla", "aadObjectId": "aad-carla-0003",
                                          "email": "carla.peeters@aurora.example"}
    final, _, user = await ask_in(roles_server, connector, RESTRICTED_QUESTION, CARLA, "channel")
    assert user.roles == ("employee", "staff")
    assert "PS-07" not in _cited(final)
    assert connector.member_lookups == []


async def test_links_posted_in_a_channel_grant_only_the_channels_roles(roles_server, connector):
    final, _, _ = await ask_in(roles_server, connector, PUBLIC_QUESTION, ANNA, "channel")
    assert _cited(final)
    assert link_roles(final) == {"employee,staff"}


async def test_a_channel_of_a_team_granted_the_role_gets_ps07(roles_server, connector):
    thread = activities.channel("19:risk-team@thread.tacv2;messageid=1700000000777")
    final, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, DAAN,
                                    conversation=thread, team=RISK_TEAM, mention=True)
    assert user.roles == ("employee", "risk-officer", "staff")
    assert "PS-07" in _cited(final)
    assert "20 incoming credit transfers" in final.body["text"]

    # its links are signed for the channel's roles, and open the PDF for anyone in it
    [url] = [c["appearance"]["url"] for c in final.message_entity()["citation"]
             if "/sources/PS-07/view?" in c["appearance"]["url"]][:1]
    assert parse_qs(urlsplit(url).query)["roles"] == ["employee,risk-officer,staff"]
    async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=False) as response:
        assert response.status == 200  # the page view of the restricted rulebook
