"""Feedback buttons, reactions and the "Copy answer" dialog: acknowledged, and logged to the real
event log against the answer they concern."""

from __future__ import annotations

from tests.teams import activities


async def _answered(server, connector, conversation=None):
    """Ask one question; returns (Teams id of the answer message, the final message call)."""
    inbound = activities.message(connector.url, "Can I pay with my fridge?",
                                 conversation=conversation)
    await server.post(inbound)
    calls = await connector.wait_for(lambda cs: any(
        (c.stream_info() or {}).get("streamType") == "final" for c in cs))
    final = calls[-1]
    return final.stream_info()["streamId"], final


def _answer_message_id(server, conversation_id: str) -> str:
    """The assistant's own id of the answer, as in its own answer event (or none if it logs none)."""
    answers = [e for e in server.events("answer") if e.conversation_id == conversation_id]
    return answers[-1].message_id if answers else ""


async def test_feedback_invoke_is_acknowledged_and_logged(server, connector):
    teams_id, _ = await _answered(server, connector)
    status, body = await server.post(activities.feedback_invoke(
        connector.url, teams_id, reaction="dislike", comment="The page number is wrong"))
    assert status == 200 and body == {}

    [event] = server.events("feedback")
    assert event.platform == "teams"
    assert event.conversation_id == "teams:a:personal-anna"
    assert event.data["value"] == "negative" and event.data["via"] == "button"
    assert event.data["comment"] == "The page number is wrong"
    assert event.data["teams_message_id"] == teams_id
    assert event.message_id and event.message_id != teams_id  # joined to the assistant's answer id
    expected = _answer_message_id(server, event.conversation_id)
    if expected:
        assert event.message_id == expected
    assert event.user_hash and "anna" not in event.user_hash.lower()


async def test_malformed_feedback_is_refused_and_not_logged(server, connector):
    bad = activities.feedback_invoke(connector.url, "act-1", reaction="meh")
    status, body = await server.post(bad)
    assert status == 400 and "reaction" in body["error"]
    assert server.events("feedback") == []


async def test_reactions_on_an_answer_count_as_feedback(server, connector):
    teams_id, _ = await _answered(server, connector)
    for reaction in ("like", "heart", "laugh"):
        status, _ = await server.post(activities.reaction(connector.url, teams_id, added=[reaction]))
        assert status in (200, 201, 202)
    await server.post(activities.reaction(connector.url, teams_id, added=["angry"], removed=["like"]))

    events = server.events("feedback")
    seen = [(e.data["reaction"], e.data["value"], e.data["retracted"]) for e in events]
    assert sorted(seen) == sorted([("like", "positive", False), ("heart", "positive", False),
                                   ("angry", "negative", False), ("like", "positive", True)])
    assert {e.data["via"] for e in events} == {"reaction"}
    assert len({e.message_id for e in events}) == 1 and events[0].message_id != teams_id


async def test_copy_answer_opens_a_dialog_with_the_plain_text_and_is_logged(server, connector):
    teams_id, final = await _answered(server, connector)
    card = final.body["attachments"][0]["content"]
    [copy] = [a for a in card["actions"] if a["title"] == "Copy answer"]
    assert copy["type"] == "Action.Submit" and copy["data"]["msteams"] == {"type": "task/fetch"}

    status, body = await server.post(activities.task_fetch(connector.url, copy["data"], teams_id))
    assert status == 200
    task = body["task"]
    assert task["type"] == "continue" and task["value"]["title"] == "Copy answer"
    dialog = task["value"]["card"]["content"]
    [box] = [e for e in dialog["body"] if e["type"] == "Input.Text"]
    text = box["value"]
    assert "**" not in text and "Sources:" in text and "[1]" in text
    assert "/sources/" in text  # the pasted copy still says where each fact comes from

    [event] = server.events("copy")
    assert event.platform == "teams" and event.data["chars"] == len(text)
    assert event.conversation_id == "teams:a:personal-anna"

    status, _ = await server.post(activities.task_fetch(connector.url, {"rulebook_action": "nope"}, teams_id))
    assert status == 400
