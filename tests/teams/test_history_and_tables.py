"""History is kept per Teams conversation, and an answer that comes from a table carries that
table in its card as an Adaptive Card Table element."""

from __future__ import annotations

from bot.service import history_text
from tests.teams import activities


def _final(calls, conversation_id: str):
    finals = [c for c in calls if c.conversation_id == conversation_id
              and (c.stream_info() or {}).get("streamType") == "final"]
    return finals[-1] if finals else None


async def _ask(server, connector, question: str, conversation_id: str):
    before = len([c for c in connector.calls if (c.stream_info() or {}).get("streamType") == "final"])
    await server.post(activities.message(connector.url, question, activities.personal(conversation_id)))
    await connector.wait_for(lambda cs: len([c for c in cs if (c.stream_info() or {}).get("streamType")
                                             == "final"]) > before)
    return _final(connector.calls, conversation_id), server.service.answers[-1]


async def test_a_follow_up_in_the_same_chat_sees_the_first_exchange_and_another_chat_does_not(
        server, connector):
    _, first = await _ask(server, connector, "Can I pay with my fridge?", "a:chat-one")
    await _ask(server, connector, "And with cufflinks?", "a:chat-one")
    await _ask(server, connector, "What is the refund fee?", "a:chat-two")

    history = server.service.inner.history
    one = [m["content"] for m in await history.get("teams:a:chat-one")]
    assert one[:3] == ["Can I pay with my fridge?", history_text(first), "And with cufflinks?"]
    assert len(one) == 4
    two = [m["content"] for m in await history.get("teams:a:chat-two")]
    assert two[0] == "What is the refund fee?" and len(two) == 2


async def test_an_answer_from_a_table_shows_the_table_in_its_card(server, connector):
    final, answer = await _ask(server, connector, "What are the fees for R-transactions?", "a:tables")
    assert answer.tables, "the sample corpus answers this from PS-08 Table 3.2"
    card = final.body["attachments"][0]["content"]
    shown = [e for e in card["body"] if e["type"] == "Table"]
    assert len(shown) == len(answer.tables)  # every table the answer quotes, each once
    table, expected = shown[0], answer.tables[0]

    def cells(row):
        return [cell["items"][0]["text"] for cell in row["cells"]]

    assert table["firstRowAsHeader"] is True
    assert cells(table["rows"][0]) == expected.columns
    assert [cells(r) for r in table["rows"][1:]] == [[" ".join(c.split()) for c in r] for r in expected.rows]
