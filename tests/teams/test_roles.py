"""Roles for Teams users (RULEBOOK_ROLES_FILE): a mapped risk officer is answered from the
restricted PS-07, an unmapped colleague gets what a question about a non-existent rulebook gets,
and the roles ride along, signed, in the answer's source links."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import aiohttp

from tests.teams import activities
from tests.teams.conftest import RunningServer

# PS-07 (risk-officer only) section 4.2; its twin asks about something no rulebook covers
RESTRICTED_QUESTION = "Which mule account indicators must participants monitor?"
NONEXISTENT_QUESTION = "Which frequent flyer indicators must participants monitor?"

ANNA = activities.USER  # aadObjectId aad-anna-0001
BOB = {"id": "29:user-bob", "name": "Bob", "aadObjectId": "aad-bob-0002"}
CARLA = {"id": "29:user-carla", "name": "Carla", "aadObjectId": "aad-carla-0003"}
DAAN = {"id": "29:user-daan", "name": "Daan", "aadObjectId": "aad-daan-0004"}

ROLES_YAML = """
default: [employee]
users:
  teams:
    aad-anna-0001: [risk-officer]
  slack:
    aad-bob-0002: [risk-officer]   # another platform's ids never match on Teams
emails:
  Carla.Peeters@Aurora.example: [risk-officer]
groups:
  teams:
    19:risk-team@thread.tacv2: [risk-officer]
    tenant-1: [staff]
"""


def _finals(calls: list[Any]) -> list[Any]:
    """Final answers: a closed stream (personal chat) or an edit carrying citations (channels)."""
    return [c for c in calls if (c.stream_info() or {}).get("streamType") == "final"
            or (c.method == "PUT" and c.message_entity())]


async def ask(server: RunningServer, connector: Any, question: str, user: dict[str, Any],
              conversation: dict[str, Any] | None = None, team: dict[str, Any] | None = None,
              mention: bool = False) -> tuple[Any, Any, Any]:
    """(final Teams message, the answer the assistant gave, the User it was asked as)."""
    inbound = activities.message(connector.url, question, conversation=conversation
                                 or activities.personal(f"a:personal-{user['name'].lower()}"),
                                 mention_bot=mention)
    inbound["from"] = user
    if team:
        inbound["channelData"]["team"] = team
    before = len(_finals(connector.calls))
    await server.post(inbound)
    calls = await connector.wait_for(lambda cs: len(_finals(cs)) > before)
    final = _finals(calls)[-1]
    _, asked_as, _ = server.service.questions[-1]
    return final, server.service.answers[-1], asked_as


def _cited(final: Any) -> set[str]:
    entity = final.message_entity() or {}
    return {unquote(urlsplit(c["appearance"]["url"]).path.split("/")[2])
            for c in entity.get("citation") or []}


async def test_a_mapped_risk_officer_is_answered_from_the_restricted_rulebook(roles_server, connector):
    final, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, ANNA)

    assert user.roles == ("employee", "risk-officer", "staff")  # default + user id + tenant
    assert answer.outcome == "answered"
    assert "PS-07" in {c.rulebook_id for c in answer.citations}
    assert "PS-07" in _cited(final)
    assert "20 incoming credit transfers" in final.body["text"]

    # the source link carries the asker's roles, signed, and opens the restricted PDF
    [url] = [c["appearance"]["url"] for c in final.message_entity()["citation"]
             if "/sources/PS-07/view?" in c["appearance"]["url"]][:1]
    query = parse_qs(urlsplit(url).query)
    assert query["roles"] == ["employee,risk-officer,staff"] and query["sig"]
    async with aiohttp.ClientSession() as session:
        async with session.get(url, allow_redirects=False) as response:
            assert response.status == 200  # the page view of the restricted rulebook
        unsigned = url.split("&roles=")[0]
        async with session.get(unsigned, allow_redirects=False) as response:
            assert response.status == 404  # without the asker's roles PS-07 does not exist


async def test_an_unmapped_user_gets_what_a_question_about_nothing_gets(roles_server, connector):
    restricted, restricted_answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, DAAN)
    assert user.roles == ("employee", "staff")  # default + the tenant, nothing more
    nothing, nothing_answer, _ = await ask(roles_server, connector, NONEXISTENT_QUESTION, DAAN,
                                           conversation=activities.personal("a:personal-daan-2"))

    assert restricted_answer.outcome == nothing_answer.outcome != "answered"
    assert restricted.body["text"] == nothing.body["text"]
    assert _cited(restricted) == _cited(nothing) == set()
    assert bool(restricted.body.get("attachments")) == bool(nothing.body.get("attachments"))
    assert "mule" not in restricted.body["text"].lower()
    assert "PS-07" not in restricted.body["text"] and "20 incoming" not in restricted.body["text"]


async def test_another_platforms_user_id_grants_nothing_on_teams(roles_server, connector):
    _, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, BOB)
    assert user.roles == ("employee", "staff")
    assert "PS-07" not in {c.rulebook_id for c in answer.citations}


async def test_roles_by_e_mail_come_from_the_connectors_member_profile(roles_server, connector):
    connector.members["29:user-carla"] = {"name": "Carla", "aadObjectId": "aad-carla-0003",
                                          "email": "carla.peeters@aurora.example",
                                          "userPrincipalName": "carla.peeters@aurora.example"}
    _, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, CARLA)
    assert user.roles == ("employee", "risk-officer", "staff")
    assert "PS-07" in {c.rulebook_id for c in answer.citations}
    assert connector.member_lookups == [("a:personal-carla", "29:user-carla")]

    await ask(roles_server, connector, "Can I pay with my fridge?", CARLA)
    assert len(connector.member_lookups) == 1, "the e-mail address is cached, not fetched per question"


async def test_a_failed_e_mail_lookup_leaves_the_other_roles(roles_server, connector):
    _, _, user = await ask(roles_server, connector, "Can I pay with my fridge?", DAAN)  # 404 from Teams
    assert user.roles == ("employee", "staff")
    assert connector.member_lookups == [("a:personal-daan", "29:user-daan")]


async def test_roles_by_team_apply_to_questions_asked_in_that_teams_channels(roles_server, connector):
    thread = activities.channel("19:risk-team@thread.tacv2;messageid=1700000000001")
    final, answer, user = await ask(roles_server, connector, RESTRICTED_QUESTION, DAAN,
                                    conversation=thread, mention=True,
                                    team={"id": "19:risk-team@thread.tacv2", "aadGroupId": "grp-risk"})
    assert user.roles == ("employee", "risk-officer", "staff")
    assert "PS-07" in _cited(final)
    assert final.conversation_id == thread["id"]  # the thread reply, not a new conversation
