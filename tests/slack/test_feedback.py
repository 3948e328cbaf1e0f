"""Feedback on answers: Slack's feedback buttons (changing one's mind retracts the earlier verdict)
and 👍/👎 reactions (taking a reaction back retracts it), and the Copy button, which opens a
dialog with the plain text and logs a copy event."""

from __future__ import annotations

from tests.slack.block_kit_limits import (
    MAX_MODAL_BLOCKS,
    button,
    feedback_values,
    is_final_answer,
    limit_violations,
)
from tests.slack.conftest import QUESTION
from tests.slack.slack_api_stand_in import BOT_USER_ID

CHANNEL = "C0CHAN"


async def answer_in_channel(bot, slack_api, ts: str):
    await bot.sender.event({"type": "app_mention", "user": "U0ALICE", "ts": ts, "channel": CHANNEL,
                            "text": f"<@{BOT_USER_ID}> {QUESTION}", "event_ts": ts})

    def final():
        return [c for c in slack_api.calls_to("chat.update") if is_final_answer(c.args.get("blocks"))]

    update = (await slack_api.wait_for(final))[-1]
    await bot.front.drain(timeout=10)
    return update, await bot.front.answers.by_ts(CHANNEL, update.args["ts"])


def reaction(kind: str, name: str, ts: str, user: str = "U0BOB", item_user: str = BOT_USER_ID) -> dict:
    return {"type": kind, "user": user, "reaction": name, "item_user": item_user,
            "item": {"type": "message", "channel": CHANNEL, "ts": ts}, "event_ts": "1700000009.000001"}


async def test_reactions_on_an_answer_are_feedback_and_removing_one_retracts_it(bot, slack_api, events):
    update, delivered = await answer_in_channel(bot, slack_api, "1700000010.000100")
    ts = update.args["ts"]

    for event in (reaction("reaction_added", "+1", ts),
                  reaction("reaction_added", "thumbsdown::skin-tone-3", ts, user="U0CAROL"),
                  reaction("reaction_removed", "+1", ts),
                  reaction("reaction_added", "tada", ts),  # not feedback
                  reaction("reaction_added", "+1", "1700000000.999999", item_user="U0ALICE")):  # not ours
        status, _, _ = await bot.sender.event(event)
        assert status == 200
    await bot.front.drain(timeout=5)

    feedback = [e for e in events.of_kind("feedback") if e.platform == "slack"]
    assert [(e.data["value"], e.data["via"], e.data["retracted"]) for e in feedback] == [
        ("positive", "reaction", False), ("negative", "reaction", False), ("positive", "reaction", True)]
    assert {e.message_id for e in feedback} == {delivered.answer.message_id}
    assert {e.conversation_id for e in feedback} == {f"{CHANNEL}:1700000010.000100"}
    # users are recorded by keyed hash, never by their Slack id
    assert all(e.user_hash and "U0BOB" not in e.user_hash for e in feedback)
    assert feedback[0].user_hash != feedback[1].user_hash


async def test_feedback_buttons_are_logged_and_changing_ones_mind_retracts_the_earlier_verdict(
        bot, slack_api, events):
    update, delivered = await answer_in_channel(bot, slack_api, "1700000011.000100")
    assert limit_violations(update.args["blocks"]) == []
    values = feedback_values(update.args["blocks"])
    message = {"ts": update.args["ts"], "blocks": update.args["blocks"]}

    async def press(verdict: str, user: str = "U0ALICE", name: str = "fb") -> None:
        status, _, seconds = await bot.sender.block_action(
            {"type": "feedback_buttons", "action_id": "rulebook_feedback", "value": values[verdict]},
            message=message, user=user, response_name=name)
        assert status == 200 and seconds < 3.0

    await press("negative")
    thanks = await slack_api.wait_for(lambda: slack_api.calls_to("response_url:fb"))
    assert thanks[0].args["response_type"] == "ephemeral"
    await press("positive")  # changed her mind
    await press("positive")  # and took it back
    await press("negative", user="U0BOB", name="fb2")  # someone else's verdict stands apart
    await bot.front.drain(timeout=5)

    feedback = events.of_kind("feedback")
    assert [(e.data["value"], e.data["retracted"]) for e in feedback] == [
        ("negative", False), ("negative", True), ("positive", False), ("positive", True), ("negative", False)]
    assert all(e.data["via"] == "button" for e in feedback)
    assert {e.message_id for e in feedback} == {delivered.answer.message_id}
    assert {e.conversation_id for e in feedback} == {f"{CHANNEL}:1700000011.000100"}
    assert len({e.user_hash for e in feedback[:4]}) == 1 and feedback[4].user_hash != feedback[0].user_hash


async def test_copy_opens_a_dialog_with_the_plain_text_and_logs_a_copy(bot, slack_api, events):
    update, delivered = await answer_in_channel(bot, slack_api, "1700000012.000100")
    copy = button(update.args["blocks"], "rulebook_copy")
    await bot.sender.block_action({"action_id": "rulebook_copy", "value": copy["value"]},
                                  message={"ts": update.args["ts"], "blocks": update.args["blocks"]})
    opened = (await slack_api.wait_for(lambda: slack_api.calls_to("views.open")))[0]
    assert opened.args["trigger_id"].startswith("trigger.")
    view = opened.args["view"]
    assert view["type"] == "modal"
    assert len(view["title"]["text"]) <= 24
    assert len(view["blocks"]) <= MAX_MODAL_BLOCKS
    shown = "\n".join(b["text"]["text"] for b in view["blocks"] if b["type"] == "section")
    assert all(b["text"]["type"] == "plain_text" for b in view["blocks"] if b["type"] == "section")
    assert "**" not in shown  # markdown markup is gone
    assert "Sources:" in shown
    first_citation = delivered.answer.citations[0]
    assert f"[{first_citation.n}] {first_citation.title}" in shown
    # the copy is logged once views.open has returned: wait for it rather than race it
    await slack_api.wait_for(lambda: events.of_kind("copy"))
    await bot.front.drain(timeout=5)
    copies = events.of_kind("copy")
    assert len(copies) == 1
    assert copies[0].message_id == delivered.answer.message_id
    assert copies[0].platform == "slack"


async def test_copy_reads_the_posted_blocks_when_the_store_has_no_record(bot, slack_api, events):
    update, delivered = await answer_in_channel(bot, slack_api, "1700000013.000100")
    copy = button(update.args["blocks"], "rulebook_copy")
    bot.front.answers.forget_cache()
    bot.front.answers.records.delete("slack-answer", delivered.answer.message_id)  # expired
    await bot.sender.block_action({"action_id": "rulebook_copy", "value": copy["value"]},
                                  message={"ts": update.args["ts"], "blocks": update.args["blocks"]})
    opened = (await slack_api.wait_for(lambda: slack_api.calls_to("views.open")))[0]
    assert limit_violations(opened.args["view"]["blocks"], MAX_MODAL_BLOCKS) == []
    shown = "\n".join(b["text"]["text"] for b in opened.args["view"]["blocks"] if b["type"] == "section")
    assert delivered.answer.text.split()[0].strip("*") in shown
