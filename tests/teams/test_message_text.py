"""What the bot reads and writes as text: the question without the @mention, citation fields
within Teams' limits, answer tables as markdown and aligned text, answers as plain text."""

from __future__ import annotations

from microsoft_agents.activity import Activity

from adapters.teams.citations import ABSTRACT_LIMIT, NAME_LIMIT, citation_claim, shorten
from adapters.teams.mentions import mentions_bot, question_text
from bot.answer import Answer, AnswerTable, Citation
from cards.markdown_table import find_markdown_tables, table_to_markdown, table_to_monospace
from cards.plain_answer import answer_plain_text, markdown_to_plain
from tests.teams import activities


def _activity(payload: dict) -> Activity:
    return Activity.model_validate(payload)


def test_the_bots_mention_is_stripped_and_other_mentions_keep_their_names():
    payload = activities.message("http://x/", "what does <at>Bob</at> need for refunds?&nbsp;",
                                 conversation=activities.channel(), mention_bot=True)
    payload["entities"].append({"type": "mention", "text": "<at>Bob</at>",
                                "mentioned": {"id": "29:bob", "name": "Bob"}})
    activity = _activity(payload)
    assert mentions_bot(activity)
    assert question_text(activity) == "what does Bob need for refunds?"


def test_a_message_mentioning_someone_else_does_not_mention_the_bot():
    payload = activities.message("http://x/", "<at>Bob</at> see you", conversation=activities.channel())
    payload["entities"] = [{"type": "mention", "text": "<at>Bob</at>", "mentioned": {"id": "29:bob"}}]
    assert not mentions_bot(_activity(payload))


def test_citation_fields_stay_within_teams_limits():
    long_title = "Aurora Payment Scheme Card and Device Acceptance Rulebook, consolidated edition " * 2
    citation = Citation(3, "PS-04", long_title, ["3", "3.1"], "Connected devices", 4, "", "word " * 100,
                        "en")
    claim = citation_claim(citation, "http://host/sources/PS-04?page=4")
    appearance = claim["appearance"]
    assert claim["position"] == 3
    assert len(appearance["name"]) <= NAME_LIMIT and appearance["name"].endswith("…")
    assert len(appearance["abstract"]) <= ABSTRACT_LIMIT
    assert len(appearance["keywords"]) <= 3 and all(len(k) <= 28 for k in appearance["keywords"])
    assert shorten("short", 10) == "short"


def test_tables_render_as_markdown_and_as_aligned_text():
    table = AnswerTable(["Fee", "Amount | EUR"], [["Refund", "0.25"], ["Recall"]], citation_n=2, caption="Fees")
    markdown = table_to_markdown(table)
    assert "| Fee | Amount \\| EUR |" in markdown and "| Recall |  |" in markdown
    [found] = find_markdown_tables(markdown)
    assert found.columns == ["Fee", "Amount | EUR"] and found.rows == [["Refund", "0.25"], ["Recall", ""]]
    lines = table_to_monospace(table).splitlines()
    assert lines[0].startswith("Fee") and lines[2].startswith("Refund")
    assert len({line.index("0.25") for line in lines if "0.25" in line}) == 1


def test_cards_read_a_table_separator_by_the_gates_rule():
    # one rule for the row under the header (bot.answer.is_table_separator_cell): two dashes are
    # enough for the gate, so a table the gate let through is a table in the card too
    [found] = find_markdown_tables("Fees [1]\n| Fee | EUR |\n|:--|--:|\n| Refund | 0.25 |\n")
    assert found.columns == ["Fee", "EUR"] and found.rows == [["Refund", "0.25"]]
    assert find_markdown_tables("| Fee | EUR |\n| - | - |\n| Refund | 0.25 |\n") == []


def test_answer_as_plain_text_keeps_markers_and_lists_sources():
    answer = Answer(text="## Refunds\nThe fee is **EUR 0.25** per refund [1], see [the schedule](http://s).",
                    outcome="answered",
                    citations=[Citation(1, "PS-08", "Fees and Charges Schedule", ["3", "3.2"], "Refunds", 4,
                                        "http://h/sources/PS-08?page=4", "EUR 0.25 per refund", "en")])
    text = answer_plain_text(answer)
    assert text.startswith("Refunds\nThe fee is EUR 0.25 per refund [1], see the schedule (http://s).")
    assert text.endswith("Sources:\n[1] Fees and Charges Schedule, section 3.2 Refunds, page 4: "
                         "http://h/sources/PS-08?page=4")
    assert markdown_to_plain("rule AT_R3 and snake_case_id stay") == "rule AT_R3 and snake_case_id stay"
