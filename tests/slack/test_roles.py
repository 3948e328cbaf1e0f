"""Roles for Slack users (RULEBOOK_ROLES_FILE): a mapped risk officer is answered from the
restricted PS-07, an unmapped colleague gets what a question about a non-existent rulebook gets,
and the roles ride along, signed, in the answer's "Open page N" links."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from cards.block_kit import text_from_blocks
from tests.slack.block_kit_limits import is_final_answer, source_buttons
from tests.slack.slack_api_stand_in import TEAM_ID

# PS-07 (risk-officer only) section 4.2; its twin asks about something no rulebook covers
RESTRICTED_QUESTION = "Which mule account indicators must participants monitor?"
NONEXISTENT_QUESTION = "Which frequent flyer indicators must participants monitor?"

ROLES_YAML = f"""
default: [employee]
users:
  slack:
    U0ALICE: [risk-officer]
  teams:
    U0BOB: [risk-officer]        # another platform's ids never match on Slack
emails:
  carla.peeters@aurora.example: [risk-officer]
groups:
  slack:
    {TEAM_ID}: [staff]
"""


async def command_answer(bot: Any, slack_api: Any, question: str, user: str) -> list[dict]:
    before = len(slack_api.calls_to("chat.postEphemeral"))
    status, _, seconds = await bot.sender.command(question, user=user)
    assert status == 200 and seconds < 3.0
    calls = await slack_api.wait_for(lambda: slack_api.calls_to("chat.postEphemeral")[before:])
    assert calls[-1].args["user"] == user
    return calls[-1].args["blocks"]


def asked_roles(events: Any) -> tuple[str, ...]:
    return tuple(events.of_kind("question")[-1].data["roles"])


def cited(blocks: list[dict]) -> set[str]:
    return {unquote(urlsplit(b["url"]).path.split("/")[2]) for b in source_buttons(blocks)}


async def test_a_mapped_risk_officer_is_answered_from_the_restricted_rulebook(bot, slack_api, events):
    blocks = await command_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE")
    assert asked_roles(events) == ("employee", "risk-officer", "staff")
    assert is_final_answer(blocks)
    assert "PS-07" in cited(blocks)
    assert "20 incoming credit transfers" in text_from_blocks(blocks)
    for button in source_buttons(blocks):
        query = parse_qs(urlsplit(button["url"]).query)
        assert query["roles"] == ["employee,risk-officer,staff"] and query["sig"]
        # the same link, signed for these roles, is what the server checks
        rulebook_id = unquote(urlsplit(button["url"]).path.split("/")[2])
        assert bot.front.links.granted_roles(rulebook_id, query["roles"][0], query["sig"][0]) == (
            "employee", "risk-officer", "staff")


async def test_an_unmapped_user_gets_what_a_question_about_nothing_gets(bot, slack_api, events):
    restricted = await command_answer(bot, slack_api, RESTRICTED_QUESTION, "U0DAAN")
    assert asked_roles(events) == ("employee", "staff")
    nothing = await command_answer(bot, slack_api, NONEXISTENT_QUESTION, "U0DAAN")

    assert text_from_blocks(restricted) == text_from_blocks(nothing)
    assert cited(restricted) == cited(nothing) == set()
    assert [b["type"] for b in restricted] == [b["type"] for b in nothing]
    shown = str(restricted)
    assert "PS-07" not in shown and "mule" not in shown.lower() and "20 incoming" not in shown


async def test_another_platforms_user_id_grants_nothing_on_slack(bot, slack_api, events):
    blocks = await command_answer(bot, slack_api, RESTRICTED_QUESTION, "U0BOB")
    assert asked_roles(events) == ("employee", "staff")
    assert "PS-07" not in cited(blocks)


async def test_roles_by_e_mail_come_from_users_info_once(bot, slack_api, events):
    slack_api.emails["U0CARLA"] = "Carla.Peeters@aurora.example"
    blocks = await command_answer(bot, slack_api, RESTRICTED_QUESTION, "U0CARLA")
    assert asked_roles(events) == ("employee", "risk-officer", "staff")
    assert "PS-07" in cited(blocks)
    await command_answer(bot, slack_api, "Can I pay with my fridge?", "U0CARLA")
    lookups = slack_api.calls_to("users.info")
    assert [c.args["user"] for c in lookups] == ["U0CARLA"], "looked up once, then cached"


async def test_a_mention_from_another_organisations_user_gets_no_workspace_roles(bot, slack_api, events):
    """In a channel shared with another organisation, the asker's own team counts, not ours."""
    event = {"type": "app_mention", "user": "U0EXTERN", "user_team": "T0OTHERORG", "team": "T0OTHERORG",
             "text": f"<@U0BOT> {RESTRICTED_QUESTION}", "ts": "1700000000.000900",
             "channel": "C0SHARED", "event_ts": "1700000000.000900"}
    await bot.sender.event(event)
    await slack_api.wait_for(lambda: [c for c in slack_api.calls_to("chat.update")
                                      if is_final_answer(c.args.get("blocks"))])
    await bot.front.drain(timeout=10)
    assert asked_roles(events) == ("employee",)
    final = [c for c in slack_api.calls_to("chat.update") if is_final_answer(c.args.get("blocks"))][-1]
    assert "PS-07" not in cited(final.args["blocks"])


async def test_a_dm_from_a_mapped_user_is_answered_from_the_restricted_rulebook(bot, slack_api, events):
    event = {"type": "message", "channel_type": "im", "user": "U0ALICE", "team": TEAM_ID,
             "text": RESTRICTED_QUESTION, "ts": "1700000000.001000", "channel": "D0ALICE",
             "event_ts": "1700000000.001000"}
    await bot.sender.event(event)

    def final_blocks():
        for call in reversed(slack_api.calls):
            blocks = call.args.get("blocks")
            if call.method in ("chat.update", "chat.postMessage") and is_final_answer(blocks):
                return blocks
        return None

    blocks = await slack_api.wait_for(final_blocks)
    await bot.front.drain(timeout=10)
    assert asked_roles(events) == ("employee", "risk-officer", "staff")
    assert "PS-07" in cited(blocks)
