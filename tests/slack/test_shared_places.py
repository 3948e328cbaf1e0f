"""Shared places get only what the place is granted (adapters.role_directory's place policy).

A risk officer's @mention in a channel or multi-person DM is answered as an unmapped colleague's
would be; her DM still gets PS-07; a workspace the roles file grants risk-officer does get PS-07
in its channels (but not in a channel shared with another organisation); and "Share in channel"
of a private PS-07 answer is refused privately, with nothing posted.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from cards.block_kit import text_from_blocks
from tests.slack.block_kit_limits import button, is_final_answer, source_buttons
from tests.slack.slack_api_stand_in import TEAM_ID
from tests.slack.test_roles import (
    NONEXISTENT_QUESTION,
    RESTRICTED_QUESTION,
    asked_roles,
    cited,
    command_answer,
)

PUBLIC_QUESTION = "Which payment devices do merchants accept?"

ROLES_YAML = f"""
default: [employee]
users:
  slack:
    U0ALICE: [risk-officer]
emails:
  alice@aurora.example: [risk-officer]
groups:
  slack:
    {TEAM_ID}: [staff]
"""
WORKSPACE_GRANTED_YAML = ROLES_YAML.replace(f"{TEAM_ID}: [staff]", f"{TEAM_ID}: [staff, risk-officer]")


_ts = iter(range(1, 10_000))


async def mention_answer(bot: Any, slack_api: Any, question: str, user: str, channel: str = "C0CHAN",
                         envelope: dict[str, Any] | None = None) -> list[dict]:
    """The final blocks of the answer to an @mention, posted in the mention's thread."""
    ts = f"1700000100.{next(_ts):06d}"
    event = {"type": "app_mention", "user": user, "team": TEAM_ID, "text": f"<@U0BOT> {question}",
             "ts": ts, "channel": channel, "event_ts": ts}
    await bot.sender.event(event, envelope=envelope)

    def final() -> Any:
        placeholders = [c.response["ts"] for c in slack_api.calls_to("chat.postMessage")
                        if c.args.get("thread_ts") == ts and c.status == 200]
        updates = [c for c in slack_api.calls_to("chat.update") if c.args.get("ts") in placeholders
                   and is_final_answer(c.args.get("blocks"))]
        return updates[-1].args["blocks"] if updates else None

    blocks = await slack_api.wait_for(final)
    await bot.front.drain(timeout=10)
    return blocks


async def dm_answer(bot: Any, slack_api: Any, question: str, user: str) -> list[dict]:
    ts = f"1700000200.{next(_ts):06d}"
    await bot.sender.event({"type": "message", "channel_type": "im", "user": user, "team": TEAM_ID,
                            "text": question, "ts": ts, "channel": f"D0{user}", "event_ts": ts})

    def final() -> Any:
        for call in reversed(slack_api.calls):
            if (call.method in ("chat.update", "chat.postMessage") and call.args.get("channel") == f"D0{user}"
                    and is_final_answer(call.args.get("blocks"))):
                return call.args["blocks"]
        return None

    blocks = await slack_api.wait_for(final)
    await bot.front.drain(timeout=10)
    return blocks


def link_roles(blocks: list[dict]) -> set[str]:
    return {parse_qs(urlsplit(b["url"]).query).get("roles", [""])[0] for b in source_buttons(blocks)}


@pytest.mark.parametrize("channel", ["C0CHAN", "G0MPIM"], ids=["channel", "multi-person DM"])
async def test_a_risk_officers_mention_is_answered_as_an_unmapped_colleagues(bot, slack_api, events,
                                                                            channel):
    officer = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE", channel)
    assert asked_roles(events) == ("employee", "staff")  # the workspace's, not hers
    colleague = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0DAAN", channel)
    assert asked_roles(events) == ("employee", "staff")
    nothing = await mention_answer(bot, slack_api, NONEXISTENT_QUESTION, "U0DAAN", channel)

    assert text_from_blocks(officer) == text_from_blocks(colleague) == text_from_blocks(nothing)
    assert cited(officer) == cited(colleague) == set()
    shown = str(officer)
    assert "PS-07" not in shown and "mule" not in shown.lower() and "20 incoming" not in shown


async def test_her_dm_still_gets_ps07_while_the_channel_does_not(bot, slack_api, events):
    private = await dm_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE")
    assert asked_roles(events) == ("employee", "risk-officer", "staff")
    assert "PS-07" in cited(private)
    assert link_roles(private) == {"employee,risk-officer,staff"}

    shared = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE")
    assert "PS-07" not in cited(shared)


async def test_no_e_mail_is_looked_up_for_a_question_in_a_channel(bot, slack_api, events):
    slack_api.emails["U0ALICE2"] = "alice@aurora.example"
    blocks = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE2")
    assert asked_roles(events) == ("employee", "staff")
    assert "PS-07" not in cited(blocks)
    assert slack_api.calls_to("users.info") == []


async def test_links_posted_in_a_channel_grant_only_the_channels_roles(bot, slack_api, events):
    blocks = await mention_answer(bot, slack_api, PUBLIC_QUESTION, "U0ALICE")
    assert source_buttons(blocks)
    assert link_roles(blocks) == {"employee,staff"}


async def test_a_workspace_granted_the_role_gets_ps07_in_its_channels(bot, slack_api, events, roles_file):
    roles_file.write_text(WORKSPACE_GRANTED_YAML, encoding="utf-8")  # re-read on the next question
    blocks = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0DAAN")
    assert asked_roles(events) == ("employee", "risk-officer", "staff")
    assert "PS-07" in cited(blocks)
    assert "20 incoming credit transfers" in text_from_blocks(blocks)
    assert link_roles(blocks) == {"employee,risk-officer,staff"}


async def test_a_channel_shared_with_another_organisation_gets_no_workspace_roles(
        bot, slack_api, events, roles_file):
    roles_file.write_text(WORKSPACE_GRANTED_YAML, encoding="utf-8")
    blocks = await mention_answer(bot, slack_api, RESTRICTED_QUESTION, "U0ALICE", "C0CONNECT",
                                  envelope={"is_ext_shared_channel": True})
    assert asked_roles(events) == ("employee",)
    assert "PS-07" not in cited(blocks)


# --- Share in channel --------------------------------------------------------------------------

async def private_answer(bot: Any, slack_api: Any, question: str, user: str = "U0ALICE") -> list[dict]:
    blocks = await command_answer(bot, slack_api, question, user)
    await bot.front.drain(timeout=10)
    return blocks


async def click_share(bot: Any, blocks: list[dict], name: str, channel: str = "C0CHAN",
                      user: str = "U0ALICE") -> None:
    share = button(blocks, "rulebook_share")
    status, _, _ = await bot.sender.block_action({"action_id": "rulebook_share", "value": share["value"]},
                                                 channel=channel, user=user, response_name=name)
    assert status == 200
    await bot.front.drain(timeout=10)


def posted_in(slack_api: Any, channel: str) -> list[Any]:
    return [c for c in slack_api.calls_to("chat.postMessage") if c.args.get("channel") == channel]


async def test_sharing_a_private_ps07_answer_is_refused_privately(bot, slack_api, events):
    blocks = await private_answer(bot, slack_api, RESTRICTED_QUESTION)
    assert "PS-07" in cited(blocks)

    await click_share(bot, blocks, "share-ps07")
    replies = await slack_api.wait_for(lambda: slack_api.calls_to("response_url:share-ps07"))
    [notice] = replies
    assert notice.args["response_type"] == "ephemeral"
    assert notice.args.get("replace_original") is False  # her private answer stays
    assert "not shared" in notice.args["text"] and "PS-07" in notice.args["text"]
    assert "20 incoming" not in notice.args["text"]
    assert posted_in(slack_api, "C0CHAN") == []
    assert not any(c.args.get("response_type") == "in_channel" or c.args.get("delete_original")
                   for c in replies)


async def test_sharing_an_answer_citing_only_public_rulebooks_posts_it_for_the_channel(
        bot, slack_api, events):
    blocks = await private_answer(bot, slack_api, PUBLIC_QUESTION)
    assert link_roles(blocks) == {"employee,risk-officer,staff"}  # hers, in private

    await click_share(bot, blocks, "share-public")
    [posted] = await slack_api.wait_for(lambda: posted_in(slack_api, "C0CHAN"))
    assert is_final_answer(posted.args["blocks"])
    assert text_from_blocks(posted.args["blocks"]) == text_from_blocks(blocks)
    assert cited(posted.args["blocks"]) == cited(blocks)
    assert link_roles(posted.args["blocks"]) == {"employee,staff"}  # re-signed for the channel
    cleanup = await slack_api.wait_for(lambda: slack_api.calls_to("response_url:share-public"))
    assert cleanup[-1].args.get("delete_original") is True


async def test_sharing_ps07_into_a_workspace_granted_the_role_is_allowed(bot, slack_api, events, roles_file):
    blocks = await private_answer(bot, slack_api, RESTRICTED_QUESTION)
    roles_file.write_text(WORKSPACE_GRANTED_YAML, encoding="utf-8")
    await click_share(bot, blocks, "share-granted")
    [posted] = await slack_api.wait_for(lambda: posted_in(slack_api, "C0CHAN"))
    assert "PS-07" in cited(posted.args["blocks"])
    assert link_roles(posted.args["blocks"]) == {"employee,risk-officer,staff"}


@pytest.mark.parametrize("channel_state", ["slack connect", "lookup fails"])
async def test_sharing_ps07_where_the_channel_may_reach_outsiders_is_refused(
        bot, slack_api, events, roles_file, channel_state):
    blocks = await private_answer(bot, slack_api, RESTRICTED_QUESTION)
    roles_file.write_text(WORKSPACE_GRANTED_YAML, encoding="utf-8")
    if channel_state == "slack connect":
        slack_api.channels["C0CHAN"] = {"is_shared": True, "is_ext_shared": True}
    else:
        slack_api.refuse_once("conversations.info", "missing_scope")
    await click_share(bot, blocks, "share-outsiders")
    [notice] = await slack_api.wait_for(lambda: slack_api.calls_to("response_url:share-outsiders"))
    assert "not shared" in notice.args["text"] and "PS-07" in notice.args["text"]
    assert posted_in(slack_api, "C0CHAN") == []
