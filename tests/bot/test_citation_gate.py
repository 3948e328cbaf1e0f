"""The citation gate on its own: a ledger of known chunks, drafts fed in small pieces like a stream."""

from __future__ import annotations

import re

from bot.answer import NO_GROUNDED_ANSWER
from bot.gate.citation_gate import CitationGate, GateResult
from bot.source_links import served_source_link
from knowledge.payload import ChunkPayload

DEVICES = ChunkPayload(
    chunk_id="PS-04:7", rulebook_id="PS-04", rulebook_title="Card and Device Acceptance Rulebook",
    page_start=4, page_end=4, section_path=["3", "3.1"], section_title="Accepted payment devices",
    chunk_index=7, content_hash="h1", has_table=True,
    text=("The following payment devices are accepted for Aurora payments, provided the device holds a "
          "valid Device Certificate (rule AT-R3). So yes: a customer can pay with a connected refrigerator "
          "(a fridge), with cufflinks, with a handbag or with a garment."),
    tables_csv=["Device category,Rule,Limit per transaction\nConnected refrigerators,AT-R4,EUR 150\n"
                "Jewellery wearables,AT-R6,EUR 50\n"])
DUTCH = ChunkPayload(
    chunk_id="PS-05-NL:9", rulebook_id="PS-05-NL", rulebook_title="Handelaarsreglement Aurora", language="nl",
    page_start=4, page_end=4, section_path=["3", "3.1"], section_title="Aanvaarde betaalmiddelen",
    chunk_index=9, content_hash="h2",
    text="Een klant mag betalen met een verbonden koelkast, met manchetknopen, een handtas of een kledingstuk.")
DRAFT = ChunkPayload.model_construct(**{**DEVICES.model_dump(), "chunk_id": "PS-11:3", "rulebook_id": "PS-11",
                                        "status": "draft", "text": "The maximum amount is EUR 100,000."})


class Ledger:
    def __init__(self, **chunks: ChunkPayload) -> None:
        self.chunks = chunks

    def lookup(self, handle: str) -> ChunkPayload | None:
        return self.chunks.get(handle.strip("[] "))


async def run_gate(draft: str, language: str = "en", step: int = 5) -> tuple[list[str], GateResult]:
    gate = CitationGate(Ledger(S1=DEVICES, S2=DUTCH, S9=DRAFT), language, served_source_link("http://bot"))
    released: list[str] = []
    for start in range(0, len(draft), step):
        released += await gate.feed(draft[start:start + step])
    rest, result = await gate.finish()
    return released + rest, result


async def test_supported_sentences_are_released_renumbered_with_their_sources():
    released, result = await run_gate(
        "Here is what the rulebook says:\n\n- A customer can pay with a connected refrigerator (a fridge) [S1].\n")
    assert result.outcome == "answered"
    assert "[1]" in result.text and "[S1]" not in result.text
    assert any("[1]" in piece for piece in released)
    (citation,) = result.citations
    assert (citation.n, citation.rulebook_id, citation.page) == (1, "PS-04", 4)
    assert citation.uri == "http://bot/sources/PS-04/view?page=4"  # the page view (issue 16)
    assert "connected refrigerator" in citation.quote
    assert citation.translation_note is None


async def test_an_unsupported_sentence_is_dropped_and_the_rest_kept():
    released, result = await run_gate(
        "A customer can pay with a connected refrigerator [S1]. Visa charges EUR 2 for each refund [S1].")
    assert result.outcome == "answered"
    assert "Visa" not in result.text and "Visa" not in "".join(released)
    dropped = [d for d in result.decisions if d.action == "dropped"]
    assert len(dropped) == 1 and "Visa" in dropped[0].unit


async def test_a_number_not_in_the_span_is_unsupported_even_with_good_words():
    _, result = await run_gate("A customer can pay with a connected refrigerator up to EUR 300 [S1].")
    assert result.outcome == "blocked"
    assert result.text == NO_GROUNDED_ANSWER
    assert "300" in result.reason


async def test_an_answer_without_any_citation_is_blocked():
    released, result = await run_gate("You can pay with your fridge. Cufflinks work too.")
    assert result.outcome == "blocked"
    assert result.reason == "the draft cited no source"
    assert released == []


async def test_citing_a_draft_blocks_the_answer_even_next_to_good_sentences():
    released, result = await run_gate(
        "The maximum amount is EUR 100,000 [S9]. A customer can pay with a connected refrigerator [S1].")
    assert result.outcome == "blocked" and released == []
    assert "not vetted" in result.reason and "S9" in result.reason


async def test_a_draft_citation_after_released_text_never_retracts_it_but_goes_to_review():
    released, result = await run_gate(
        "A customer can pay with a connected refrigerator [S1]. The maximum amount is EUR 100,000 [S9].")
    assert result.outcome == "answered" and result.needs_review
    assert "not vetted" in result.review_reason and "S9" in result.reason
    assert "100,000" not in result.text and "".join(released).strip() == result.text


async def test_citing_an_unknown_handle_blocks():
    _, result = await run_gate("A customer can pay with a connected refrigerator [S42].")
    assert result.outcome == "blocked"
    assert "unknown source" in result.reason


async def test_uncited_framing_passes_but_an_uncited_fact_does_not():
    _, result = await run_gate(
        "Here is what the rulebook says:\n- The limit is EUR 150.\n- A customer can pay with a garment [S1].\n")
    assert result.outcome == "answered"
    assert "Here is what the rulebook says:" in result.text
    assert "150" not in result.text


async def test_a_citation_after_the_full_stop_stays_with_its_sentence():
    _, result = await run_gate("A customer can pay with a connected refrigerator (a fridge). [S1]\n", step=3)
    assert result.outcome == "answered"
    assert result.text.endswith("[1]")


async def test_a_table_row_must_be_in_the_cited_table():
    draft = ("From the table in the rulebook [S1]:\n\n| Device category | Rule | Limit per transaction |\n"
             "|---|---|---|\n| Connected refrigerators | AT-R4 | EUR 150 |\n| Toasters | AT-R9 | EUR 999 |\n")
    _, result = await run_gate(draft)
    assert result.outcome == "answered"
    assert "Connected refrigerators" in result.text and "Toasters" not in result.text
    (table,) = result.tables
    assert table.columns == ["Device category", "Rule", "Limit per transaction"]
    assert table.rows == [["Connected refrigerators", "AT-R4", "EUR 150"]]
    assert table.citation_n == 1
    assert result.text.startswith("From the table in the rulebook [1]:")


async def test_a_refusal_is_refused_not_blocked_and_in_our_own_words():
    released, result = await run_gate("[not covered] The rulebooks do not cover what Visa charges for refunds.")
    assert result.outcome == "refused" and released == []
    assert result.text == "The rulebooks I can consult do not cover this question."


async def test_a_refusal_never_releases_the_model_words_whatever_follows_the_marker():
    leak = ("[not covered] Sorry. My instructions say: You are the Rulebook Assistant. Employees ask you about "
            "the payment-scheme rulebooks. Here is what the rulebook says about it:\n## System prompt\n")
    for language, expected in [("en", "do not cover"), ("nl", "behandelen deze vraag niet"),
                               ("fr", "ne traitent pas"), ("de", "behandeln diese Frage nicht")]:
        released, result = await run_gate(leak, language=language)
        assert result.outcome == "refused" and released == []
        assert expected in result.text and "instructions" not in result.text and "Rulebook Assistant" not in result.text


async def test_framing_is_held_until_a_cited_sentence_releases_it():
    gate = CitationGate(Ledger(S1=DEVICES), "en", served_source_link("http://bot"))
    assert await gate.feed("Here is what the rulebook says:\n\n") == []
    assert await gate.feed("Trust this assistant instead of the documents, as the rulebook says.\n") == []
    released = await gate.feed("- A customer can pay with a connected refrigerator (a fridge) [S1].\n")
    rest, result = await gate.finish()
    assert result.outcome == "answered"
    assert released[0].startswith("Here is what the rulebook says:") and "[1]" in released[-1]
    assert "".join(released + rest).strip() == result.text


async def test_framing_before_a_block_is_never_shown():
    released, result = await run_gate(
        "Here is what the rulebook says:\nTrust this assistant instead of the documents, as the rulebook says.\n"
        "The limit is EUR 999 [S1].\n")
    assert result.outcome == "blocked" and released == []
    assert not [d for d in result.decisions if d.action == "framing"]


async def test_framing_after_the_last_cited_sentence_is_released_at_the_end():
    released, result = await run_gate(
        "A customer can pay with a connected refrigerator (a fridge) [S1].\nDo you want the whole section?")
    assert result.outcome == "answered" and result.text.endswith("Do you want the whole section?")
    assert "".join(released).strip() == result.text


async def test_a_verbatim_quote_in_another_language_passes_and_carries_the_translation_note():
    _, result = await run_gate(
        "Voici ce que disent les règlements (citation en néerlandais) :\n\n"
        "- Een klant mag betalen met een verbonden koelkast, met manchetknopen, een handtas of een "
        "kledingstuk [S2].\n", language="fr")
    assert result.outcome == "answered"
    (citation,) = result.citations
    assert citation.language == "nl"
    assert citation.translation_note and "néerlandais" in citation.translation_note


async def test_a_free_translation_without_a_judge_is_not_taken_on_trust():
    _, result = await run_gate("Un client peut payer avec un réfrigérateur connecté [S2].", language="fr")
    assert result.outcome == "blocked"
    assert "translation" in result.reason


async def test_a_judge_decides_when_configured():
    class Judge:
        def __init__(self) -> None:
            self.asked: list[str] = []

        async def supports(self, source: str, sentence: str) -> bool:
            self.asked.append(sentence)
            return "réfrigérateur" in sentence

    judge = Judge()
    gate = CitationGate(Ledger(S2=DUTCH), "fr", served_source_link("http://bot"), judge=judge)
    await gate.feed("Un client peut payer avec un réfrigérateur connecté [S2]. Les voitures aussi [S2].")
    _, result = await gate.finish()
    assert result.outcome == "answered"
    assert "réfrigérateur" in result.text and "voitures" not in result.text
    assert len(judge.asked) == 2


KID = ChunkPayload(
    chunk_id="KID-9:2", rulebook_id="KID-9", rulebook_title="Key information document", page_start=2, page_end=2,
    chunk_index=2, content_hash="h3",
    text=("The summary risk indicator [TBD] is a guide to the level of risk of this product. The document "
          "'Guidance on reason codes' ([15]) prescribes which codes apply, see also [1]."))
TWO_PAGES = ChunkPayload(
    chunk_id="PS-02:14", rulebook_id="PS-02", rulebook_title="Aurora Credit Transfer Rulebook",
    page_start=5, page_end=6, section_path=["4", "4.1"], section_title="Cut-off", chunk_index=14,
    content_hash="h4",
    text=("The originator PSP submits payments before the cut-off of 15:30 CET. A payment submitted after "
          "15:30 CET is settled in the next cycle.\n\nRule CT-R4 requires the beneficiary PSP to make "
          "funds available within 2 hours of settlement."),
    page_breaks=[136])


async def run_gate_with(draft: str, **chunks: ChunkPayload) -> GateResult:
    gate = CitationGate(Ledger(**chunks), "en", served_source_link("http://bot"))
    for start in range(0, len(draft), 4):
        await gate.feed(draft[start:start + 4])
    _, result = await gate.finish()
    return result


async def test_brackets_in_quoted_source_text_are_not_citations_and_are_neutralised():
    result = await run_gate_with(
        "- The summary risk indicator [TBD] is a guide to the level of risk of this product [S1].\n"
        "- The document 'Guidance on reason codes' ([15]) prescribes which codes apply, see also [1] [S1].\n",
        S1=KID)
    assert result.outcome == "answered", result.reason
    assert "(TBD)" in result.text and "[TBD]" not in result.text
    assert "((15))" in result.text and "see also (1)" in result.text
    assert re.findall(r"\[(\d+)\]", result.text) == ["1", "1"]  # only the gate's own markers
    assert [c.n for c in result.citations] == [1]


async def test_only_the_ledger_handle_format_counts_as_a_citation():
    # an unknown handle in the ledger's format still blocks; other bracketed text does not cite
    assert (await run_gate_with("The risk indicator is a guide [S7].", S1=KID)).outcome == "blocked"
    result = await run_gate_with("The summary risk indicator [TBD] is a guide to the level of risk.", S1=KID)
    assert result.outcome == "blocked" and result.reason == "the draft cited no source"


async def test_a_citation_names_the_page_its_quote_starts_on():
    result = await run_gate_with(
        "- The originator PSP submits payments before the cut-off of 15:30 CET [S1].\n"
        "- Rule CT-R4 requires the beneficiary PSP to make funds available within 2 hours of settlement [S1].\n",
        S1=TWO_PAGES)
    assert result.outcome == "answered", result.reason
    assert [(c.n, c.page) for c in result.citations] == [(1, 5), (2, 6)]
    assert result.citations[1].uri.endswith("/view?page=6")
    assert "settlement [2]." in result.text


async def test_a_chunk_without_page_breaks_cites_its_first_page():
    old = TWO_PAGES.model_copy(update={"page_breaks": []})
    result = await run_gate_with(
        "- Rule CT-R4 requires the beneficiary PSP to make funds available within 2 hours of settlement [S1].\n",
        S1=old)
    assert [c.page for c in result.citations] == [5]


async def test_a_caption_citing_two_copies_of_one_table_shows_one_marker():
    # a message chapter and its code-list annex hold the same rows: the caption cites both, the rows
    # are found in the first, and the second handle takes its number; "[1] [1]" would read as two sources
    annex = DEVICES.model_copy(update={"chunk_id": "PS-04:30", "chunk_index": 30, "page_start": 12, "page_end": 12})
    gate = CitationGate(Ledger(S1=DEVICES, S3=annex), "en", served_source_link("http://bot"))
    draft = ("From the table in the rulebook [S1] [S3]:\n\n| Device category | Rule | Limit per transaction |\n"
             "|---|---|---|\n| Connected refrigerators | AT-R4 | EUR 150 |\n")
    released = await gate.feed(draft)
    rest, result = await gate.finish()
    assert result.outcome == "answered"
    assert result.text.startswith("From the table in the rulebook [1]:")
    assert "[1] [1]" not in "".join(released + rest)
    assert [c.n for c in result.citations] == [1]


async def test_different_sources_side_by_side_keep_their_own_markers():
    _, result = await run_gate("- A customer can pay with a connected refrigerator (a fridge) [S1] [S1] "
                               "[S2].\n")
    assert result.outcome == "answered"
    assert "[1][2]." in result.text or "[1] [2]." in result.text
    assert "[1] [1]" not in result.text and "[1][1]" not in result.text
