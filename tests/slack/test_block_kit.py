"""The final answer's Block Kit: within Slack's limits for any answer, split cleanly, nothing lost."""

from __future__ import annotations

import re

from bot.answer import Answer, AnswerTable, Citation
from cards.block_kit import (
    AnswerRef,
    answer_messages,
    copy_modal,
    plain_answer,
    progress_message,
)
from cards.mrkdwn import mrkdwn_pieces, split_text, to_mrkdwn, to_plain_text
from tests.slack.block_kit_limits import MAX_MODAL_BLOCKS, is_final_answer, limit_violations, source_buttons

BASE = "http://bot.example"


def citation(n: int, page: int = 12) -> Citation:
    return Citation(n=n, rulebook_id="PS-04", title="Card and Device Acceptance Rulebook",
                    section_path=["3", "3.1"], section_title="Accepted payment devices", page=page,
                    uri=f"{BASE}/sources/PS-04?page={page}", quote="a refrigerator, cufflinks, a handbag " * 40,
                    language="en")


def answer(text: str, citations: list[Citation] | None = None, tables: list[AnswerTable] | None = None) -> Answer:
    return Answer(text=text, outcome="answered", citations=citations or [citation(1)], tables=tables or [],
                  message_id="m1", conversation_id="C1:1.0")


def words_of(messages) -> list[str]:
    text = " ".join(b["text"]["text"] for m in messages for b in m.blocks
                    if b["type"] == "section" and "accessory" not in b and b["text"]["text"] != "*Sources*")
    return text.split()


def test_a_very_long_answer_is_split_within_limits_at_clean_boundaries_and_loses_no_word():
    sentences = [f"Rule {i} says that a **merchant** must accept payment device number {i} [1]." for i in range(3000)]
    paragraphs = [" ".join(sentences[i:i + 7]) for i in range(0, len(sentences), 7)]
    text = "\n\n".join(paragraphs)
    messages = answer_messages(answer(text, [citation(n, page=n) for n in range(1, 61)]), public_base_url=BASE)

    assert len(messages) > 1  # overflows into follow-up messages
    for message in messages:
        assert limit_violations(message.blocks) == []
        assert 0 < len(message.text) <= 3000
    assert is_final_answer(messages[-1].blocks)
    assert not any(is_final_answer(m.blocks) for m in messages[:-1])
    # every word arrives, in order, converted to mrkdwn bold, none cut in two
    assert words_of(messages) == to_mrkdwn(text).split()
    for message in messages:
        for block in message.blocks:
            if block["type"] == "section" and "accessory" not in block:
                assert block["text"]["text"].endswith((".", "*Sources*")), block["text"]["text"][-40:]
    # 60 sources: the first 40 with their own button, the rest named in one line
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
    assert "".join(p.replace("See ", "See").replace(" now.", "now.") for p in pieces).count("a") >= 7000


def test_sources_block_shows_rulebook_section_page_and_an_open_page_button_through_our_server():
    c = citation(1, page=7)
    c.translation_note = "Quoted from the Dutch text; the answer is a translation."
    messages = answer_messages(answer("A fridge is accepted [1].", [c]), public_base_url=BASE)
    blocks = messages[0].blocks
    (source,) = source_buttons(blocks)
    assert source["url"].startswith(f"{BASE}/sources/PS-04?page=7")
    assert source["text"]["text"] == "Open page 7"
    section = next(b for b in blocks if b.get("accessory") is source)
    assert "Card and Device Acceptance Rulebook" in section["text"]["text"]
    assert "§ 3.1 Accepted payment devices" in section["text"]["text"]
    assert "page 7" in section["text"]["text"]
    assert "Dutch" in section["text"]["text"]
    assert limit_violations(blocks) == []


def test_button_values_carry_the_answer_reference():
    messages = answer_messages(answer("A fridge is accepted [1]."), public_base_url=BASE,
                               conversation_id="C9:2.0", share_button=True)
    actions = next(b for b in messages[-1].blocks if b["type"] == "actions")
    ids = [e["action_id"] for e in actions["elements"]]
    assert ids == ["rulebook_feedback_up", "rulebook_feedback_down", "rulebook_copy", "rulebook_share"]
    assert AnswerRef.from_value(actions["elements"][0]["value"]) == AnswerRef("m1", "C9:2.0")


def test_a_table_answer_is_an_aligned_preformatted_block_and_a_long_table_repeats_its_header():
    rows = [[f"Region {i}", f"{i}.50", "Refund" if i % 2 else ""] for i in range(400)]
    table = AnswerTable(columns=["Region", "Fee (EUR)", "Kind"], rows=rows, citation_n=1, caption="Fees")
    messages = answer_messages(answer("The fees are in the table [1].", tables=[table]), public_base_url=BASE)
    for message in messages:
        assert limit_violations(message.blocks) == []
    pre = [b["text"]["text"] for m in messages for b in m.blocks
           if b["type"] == "section" and b["text"]["text"].startswith("```")]
    assert len(pre) > 1
    for piece in pre:
        lines = piece.strip("`\n").split("\n")
        assert lines[0].split() == ["Region", "Fee", "(EUR)", "Kind"]
        widths = {len(line.rstrip()) <= len(lines[1]) for line in lines[2:]}
        assert widths == {True}
    assert sum(len(re.findall(r"Region \d+", piece)) for piece in pre) == 400


def test_a_table_written_into_the_text_is_shown_once():
    text = "Fees [1]:\n\n| Region | Fee |\n|---|---|\n| Domestic | 0.20 |\n| Cross-border | 1.50 |\n"
    table = AnswerTable(columns=["Region", "Fee"], rows=[["Domestic", "0.20"], ["Cross-border", "1.50"]],
                        citation_n=1)
    blocks = answer_messages(answer(text, tables=[table]), public_base_url=BASE)[0].blocks
    assert str(blocks).count("Cross-border") == 1
    pre = next(b["text"]["text"] for b in blocks if b["type"] == "section" and "```" in b["text"]["text"])
    assert "Domestic      0.20" in pre


def test_a_refusal_has_no_sources_but_still_takes_feedback():
    refused = Answer(text="The rulebooks do not cover Visa's fees.", outcome="refused", message_id="m2")
    blocks = answer_messages(refused, public_base_url=BASE)[0].blocks
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


def test_progress_message_stays_within_limits_while_a_long_answer_is_written():
    message = progress_message("Sentence about fees. " * 20000, "Reading section 4.2 of PS-04…")
    assert limit_violations(message.blocks) == []
    assert "Reading section 4.2" in message.blocks[-1]["elements"][0]["text"]


def test_markdown_becomes_slack_mrkdwn():
    md = ("# Fees\n\n**Domestic** payments cost *nothing* [1]. See [the rulebook](https://x.org/a?b=1&c=2) "
          "& more <tags>.\n\n- one\n- **two**\n  - nested\n\n1. first\n2. second\n\n~~old~~ `code <x>`")
    out = to_mrkdwn(md)
    assert out.splitlines()[0] == "*Fees*"
    assert "*Domestic* payments cost _nothing_ [1]." in out
    assert "<https://x.org/a?b=1&c=2|the rulebook>" in out
    assert "&amp; more &lt;tags&gt;" in out
    assert "• one\n• *two*\n    • nested" in out
    assert "1. first\n2. second" in out
    assert "~old~ `code &lt;x&gt;`" in out
    assert "**" not in out


def test_fenced_code_survives_splitting_as_fenced_pieces():
    code = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    pieces = mrkdwn_pieces(f"Before.\n\n```\n{code}\n```\n\nAfter.", 3000)
    fenced = [p for p in pieces if "```" in p]
    assert len(fenced) > 1
    for piece in fenced:
        assert len(piece) <= 3000
        assert piece.count("```") % 2 == 0
    assert re.findall(r"line (\d+) ", "".join(pieces)) == [str(i) for i in range(200)]


def test_plain_text_drops_markup_only():
    assert to_plain_text("## Title\n**a** *b* ~~c~~ [d](https://e.f)") == "Title\na b c d (https://e.f)"


def test_a_source_cited_twice_gets_one_button_so_action_ids_stay_unique():
    messages = answer_messages(answer("A fridge [1] and cufflinks [1] [2].",
                                      [citation(2, page=8), citation(1), citation(1)]), public_base_url=BASE)
    blocks = messages[-1].blocks
    assert [b["text"]["text"] for b in source_buttons(blocks)] == ["Open page 12", "Open page 8"]
    assert limit_violations(blocks) == []


def test_many_sources_stay_within_the_block_limit_and_are_all_named():
    many = [citation(n, page=n) for n in range(1, 61)]
    messages = answer_messages(answer("Everything [1].", many), public_base_url=BASE)
    for message in messages:
        assert limit_violations(message.blocks) == []
    shown = str([m.blocks for m in messages])
    assert all(f"page {n}" in shown for n in range(1, 61))
