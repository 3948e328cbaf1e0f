"""The final answer's Block Kit: markdown and table blocks, Slack's feedback buttons, within
Slack's limits for any answer and valid for `slack_sdk.models.blocks`, split cleanly, nothing lost."""

from __future__ import annotations

from urllib.parse import quote

from bot.answer import Answer, AnswerTable, Citation
from cards.block_kit import (
    AnswerRef,
    answer_messages,
    copy_modal,
    plain_answer,
    progress_message,
    text_from_blocks,
)
from cards.text_pieces import split_text
from tests.slack.block_kit_limits import (
    MAX_MODAL_BLOCKS,
    feedback_values,
    is_final_answer,
    limit_violations,
    source_buttons,
)

BASE = "http://bot.example"


def link(c: Citation) -> str:
    return f"{BASE}/sources/{quote(c.rulebook_id)}?page={c.page}"


def citation(n: int, page: int = 12) -> Citation:
    return Citation(n=n, rulebook_id="PS-04", title="Card and Device Acceptance Rulebook",
                    section_path=["3", "3.1"], section_title="Accepted payment devices", page=page,
                    uri=f"{BASE}/sources/PS-04?page={page}", quote="a refrigerator, cufflinks, a handbag " * 40,
                    language="en")


def answer(text: str, citations: list[Citation] | None = None, tables: list[AnswerTable] | None = None) -> Answer:
    return Answer(text=text, outcome="answered", citations=citations or [citation(1)], tables=tables or [],
                  message_id="m1", conversation_id="C1:1.0")


def messages_of(a: Answer, **kwargs):
    return answer_messages(a, source_link=link, **kwargs)


def markdown_of(messages) -> list[str]:
    return [b["text"] for m in messages for b in m.blocks if b["type"] == "markdown"]


def test_a_very_long_answer_is_markdown_blocks_within_limits_split_cleanly_losing_no_word():
    sentences = [f"Rule {i} says that a **merchant** must accept payment device number {i} [1]." for i in range(3000)]
    text = "\n\n".join(" ".join(sentences[i:i + 7]) for i in range(0, len(sentences), 7))
    messages = messages_of(answer(text, [citation(n, page=n) for n in range(1, 61)]))

    assert len(messages) > 1  # overflows into follow-up messages
    for message in messages:
        assert limit_violations(message.blocks) == []
        assert 0 < len(message.text) <= 3000
    assert is_final_answer(messages[-1].blocks)
    assert not any(is_final_answer(m.blocks) for m in messages[:-1])
    pieces = markdown_of(messages)
    # Slack renders the Markdown itself: every word arrives unchanged, in order, none cut in two
    assert " ".join(pieces).split() == text.split()
    assert all(p.endswith(".") for p in pieces)
    assert "**merchant**" in pieces[0]
    buttons = source_buttons(messages[-1].blocks)
    assert len(buttons) == 40
    assert "[41]" in str(messages[-1].blocks) and "[60]" in str(messages[-1].blocks)


def test_a_paragraph_without_sentence_ends_is_cut_between_words():
    text = " ".join(f"word{i}" for i in range(2000))
    pieces = split_text(text, 3000)
    assert all(len(p) <= 3000 for p in pieces)
    assert " ".join(pieces).split() == text.split()


def test_one_giant_token_is_the_only_thing_ever_cut():
    url = "https://example.org/" + "a" * 7000
    pieces = split_text(f"See {url} now.", 3000)
    assert all(len(p) <= 3000 for p in pieces)
    assert "".join(pieces).count("a") >= 7000


def test_sources_show_rulebook_section_page_and_an_open_page_button():
    c = citation(1, page=7)
    c.translation_note = "Quoted from the Dutch text; the answer is a translation."
    blocks = messages_of(answer("A fridge is accepted [1].", [c]))[0].blocks
    assert blocks[0] == {"type": "markdown", "text": "A fridge is accepted [1]."}
    (source,) = source_buttons(blocks)
    assert source["url"] == f"{BASE}/sources/PS-04?page=7"
    assert source["text"]["text"] == "Open page 7"
    section = next(b for b in blocks if b.get("accessory") is source)
    assert "Card and Device Acceptance Rulebook" in section["text"]["text"]
    assert "§ 3.1 Accepted payment devices" in section["text"]["text"]
    assert "Dutch" in section["text"]["text"]
    assert limit_violations(blocks) == []


def test_feedback_buttons_and_the_other_buttons_carry_the_answer_reference():
    blocks = messages_of(answer("A fridge is accepted [1]."), conversation_id="C9:2.0", share_button=True)[-1].blocks
    values = feedback_values(blocks)
    assert AnswerRef.from_value(values["positive"]) == AnswerRef("m1", "C9:2.0", "positive")
    assert AnswerRef.from_value(values["negative"]) == AnswerRef("m1", "C9:2.0", "negative")
    actions = next(b for b in blocks if b["type"] == "actions")
    assert [e["action_id"] for e in actions["elements"]] == ["rulebook_copy", "rulebook_share"]
    assert AnswerRef.from_value(actions["elements"][0]["value"]) == AnswerRef("m1", "C9:2.0")
    assert limit_violations(blocks) == []


def test_an_answer_table_is_a_table_block_with_its_header_and_caption():
    table = AnswerTable(columns=["Region", "Fee (EUR)"], rows=[["Domestic", "0.20"], ["Cross-border", ""]],
                        citation_n=1, caption="Fees")
    blocks = messages_of(answer("The fees are in the table [1].", tables=[table]))[0].blocks
    assert limit_violations(blocks) == []
    (block,) = [b for b in blocks if b["type"] == "table"]
    cells = [[c["text"] for c in row] for row in block["rows"]]
    assert cells == [["Region", "Fee (EUR)"], ["Domestic", "0.20"], ["Cross-border", " "]]
    assert all(c["type"] == "raw_text" for row in block["rows"] for c in row)
    assert any("*Fees* [1]" in str(b) for b in blocks if b["type"] == "context")


def test_a_table_too_big_for_slack_is_cut_with_a_note_and_a_link_to_its_page():
    rows = [[f"Region {i}"] + [f"{i}.{j}" for j in range(24)] for i in range(400)]
    table = AnswerTable(columns=["Region"] + [f"Fee {j}" for j in range(24)], rows=rows, citation_n=1)
    messages = messages_of(answer("Fees by region [1].", [citation(1, page=31)], tables=[table]))
    for message in messages:
        assert limit_violations(message.blocks) == []
    (block,) = [b for m in messages for b in m.blocks if b["type"] == "table"]
    assert len(block["rows"]) == 100 and {len(r) for r in block["rows"]} == {20}
    note = next(str(b) for m in messages for b in m.blocks if b["type"] == "context" and "cut" in str(b))
    assert "99 of 400 rows" in note and "20 of 25 columns" in note
    assert f"<{BASE}/sources/PS-04?page=31|Open page 31>" in note


def test_a_table_written_into_the_text_becomes_a_table_block_where_it_stood_and_shows_once():
    text = "Fees [1]:\n\n| Region | Fee |\n|---|---|\n| Domestic | 0.20 |\n| Cross-border | 1.50 |\n\nThat is all."
    table = AnswerTable(columns=["Region", "Fee"], rows=[["Domestic", "0.20"], ["Cross-border", "1.50"]],
                        citation_n=1)
    blocks = messages_of(answer(text, tables=[table]))[0].blocks
    assert [b["type"] for b in blocks[:3]] == ["markdown", "table", "markdown"]
    assert str(blocks).count("Cross-border") == 1
    assert blocks[2]["text"] == "That is all."
    assert limit_violations(blocks) == []


def test_two_tables_go_to_two_messages():
    tables = [AnswerTable(columns=["A"], rows=[["1"]], citation_n=1, caption="One"),
              AnswerTable(columns=["B"], rows=[["2"]], citation_n=1, caption="Two")]
    messages = messages_of(answer("Two tables [1].", tables=tables))
    assert [sum(b["type"] == "table" for b in m.blocks) for m in messages] == [1, 1]
    assert all(limit_violations(m.blocks) == [] for m in messages)


def test_a_refusal_has_no_sources_but_still_takes_feedback():
    refused = Answer(text="The rulebooks do not cover Visa's fees.", outcome="refused", message_id="m2")
    blocks = messages_of(refused)[0].blocks
    assert source_buttons(blocks) == []
    assert is_final_answer(blocks)


def test_the_copy_dialog_holds_plain_text_within_modal_limits():
    long = answer("**Bold** and [a link](https://x.example/a) [1].\n\n" + "Sentence about fees. " * 20000)
    text = plain_answer(long)
    assert text.startswith("Bold and a link (https://x.example/a) [1].")
    assert "Sources:\n[1] Card and Device Acceptance Rulebook, § 3.1 Accepted payment devices, page 12" in text
    view = copy_modal(text, AnswerRef("m1", "C1"))
    assert limit_violations(view["blocks"], MAX_MODAL_BLOCKS) == []
    assert len(view["title"]["text"]) <= 24


def test_copy_from_posted_blocks_reads_the_markdown_and_the_table():
    table = AnswerTable(columns=["Region", "Fee"], rows=[["Domestic", "0.20"]], citation_n=1)
    blocks = messages_of(answer("**Fees** [1].", tables=[table]))[0].blocks
    text = text_from_blocks(blocks)
    assert text.startswith("Fees [1].") and "Domestic" in text and "Sources" not in text


def test_progress_message_stays_within_limits_while_a_long_answer_is_written():
    message = progress_message("Sentence about fees. " * 20000, "Reading section 4.2 of PS-04…")
    assert limit_violations(message.blocks) == []
    assert message.blocks[0]["type"] == "markdown"
    assert "Reading section 4.2" in message.blocks[-1]["elements"][0]["text"]


def test_a_source_cited_twice_gets_one_button_so_action_ids_stay_unique():
    blocks = messages_of(answer("A fridge [1] and cufflinks [1] [2].",
                                [citation(2, page=8), citation(1), citation(1)]))[-1].blocks
    assert [b["text"]["text"] for b in source_buttons(blocks)] == ["Open page 12", "Open page 8"]
    assert limit_violations(blocks) == []


def test_many_sources_stay_within_the_block_limit_and_are_all_named():
    messages = messages_of(answer("Everything [1].", [citation(n, page=n) for n in range(1, 61)]))
    for message in messages:
        assert limit_violations(message.blocks) == []
    shown = str([m.blocks for m in messages])
    assert all(f"page {n}" in shown for n in range(1, 61))
