"""The section-coherence rerank on hand-made candidate lists (positions are what it reads)."""

from __future__ import annotations

from knowledge.payload import ChunkPayload
from knowledge.section_rerank import (
    MAX_LIFT,
    OLDER_VERSION_DROP,
    asks_about_the_past,
    is_contents,
    section_coherence_rerank,
)
from knowledge.store import ScoredChunk, reading_order_ties


def chunk(rulebook_id: str, index: int, section: str, text: str = "", **fields: object) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook_id}:{index}", rulebook_id=rulebook_id,
                        rulebook_title=str(fields.pop("title", f"Rulebook {rulebook_id}")), page_start=1,
                        page_end=1, section_path=[section], section_key=section, chunk_index=index,
                        text=text or f"{rulebook_id} chunk {index} about subject {index * 7} in section {section}",
                        content_hash=f"{rulebook_id}{index}", **fields)


def order(payloads: list[ChunkPayload], query: str | None = None, k: int = 10) -> list[str]:
    hits = [ScoredChunk(p, 1 / (60 + i)) for i, p in enumerate(payloads)]
    return [h.payload.chunk_id for h in section_coherence_rerank(hits, k=k, query=query)]


def test_two_hits_in_one_section_pass_a_lone_hit_but_never_the_first() -> None:
    top, lone = chunk("A", 1, "1"), chunk("B", 1, "1")
    pair = [chunk("C", 1, "2"), chunk("C", 2, "2")]
    assert order([top, lone, *pair]) == ["A:1", "C:1", "B:1", "C:2"]
    assert order([*pair[:1], top, lone, pair[1]])[0] == "C:1"  # already first: stays first


def test_a_lift_moves_a_hit_at_most_max_lift_places() -> None:
    loners = [chunk("L", i, str(i)) for i in range(5)]
    crowd = [chunk("S", 100 + i, "9") for i in range(MAX_LIFT + 3)]  # more companions than MAX_LIFT
    ranked = order([*loners, *crowd])
    assert ranked.index("S:100") == len(loners) - MAX_LIFT


def test_near_duplicate_neighbours_collapse_but_the_same_text_in_another_section_stays() -> None:
    text = "This Section applies if the Regulator is the Host Regulator in relation to a Passported Fund."
    first, neighbour = chunk("A", 5, "8.2.1", text), chunk("A", 6, "8.2.1", text)
    elsewhere = chunk("A", 40, "9.5.1", text)
    assert order([first, neighbour, elsewhere]) == ["A:5", "A:40"]


def test_an_older_version_goes_just_below_the_newer_section_within_bounds() -> None:
    old = chunk("F-2024", 9, "3.2", "Refund processing fee EUR 0.40", version="2024.1", status="vetted_archived",
                title="Fees 2024")
    new = chunk("F", 9, "3.2", "Refund processing fee EUR 0.25", version="2025.1", title="Fees")
    others = [chunk("X", i, str(i)) for i in range(OLDER_VERSION_DROP + 3)]
    assert order([old, others[0], new, *others[1:]])[:3] == ["X:0", "F:9", "F-2024:9"]
    # the newer version far down: the older one drops OLDER_VERSION_DROP places, not all the way
    ranked = order([old, *others, new], k=20)
    assert ranked.index("F-2024:9") == OLDER_VERSION_DROP and ranked.index("F:9") > OLDER_VERSION_DROP


def test_a_question_about_the_past_keeps_the_fused_order() -> None:
    old = chunk("F-2024", 9, "3.2", "Refund fee EUR 0.40", version="2024.1", status="vetted_archived", series="F")
    new = chunk("F", 9, "3.2", "Refund fee EUR 0.25", version="2025.1", series="F")
    assert order([old, new], query="What is the refund fee?") == ["F:9", "F-2024:9"]
    assert order([old, new], query="What was the refund fee before 2025?") == ["F-2024:9", "F:9"]
    assert order([old, new], query="Refund fee in the 2024 schedule") == ["F-2024:9", "F:9"]
    assert asks_about_the_past("Wat was de vorige vergoeding?", [old], [new])
    assert not asks_about_the_past("Refund fee in the 2025 schedule", [old], [new])  # the current year


def test_translations_in_one_series_are_not_versions() -> None:
    dutch = chunk("KID-NL", 1, "kosten", "Kosten 2%", series="KID", language="nl", version="2025.1")
    french = chunk("KID-FR", 1, "frais", "Frais 2%", series="KID", language="fr", version="2024.1")
    assert order([french, dutch]) == ["KID-FR:1", "KID-NL:1"]


def test_score_ties_come_back_in_reading_order() -> None:
    tied = [ScoredChunk(chunk("B", 3, "1"), 0.5), ScoredChunk(chunk("A", 7, "1"), 0.5),
            ScoredChunk(chunk("A", 2, "1"), 0.5), ScoredChunk(chunk("C", 1, "1"), 0.9)]
    assert [h.payload.chunk_id for h in reading_order_ties(tied)] == ["C:1", "A:2", "A:7", "B:3"]


CONTENTS = ("18 camt.087.001.07 RequestToModifyPaymentV07 .......................................... 156\n"
            "18.1 MessageDefinition Functionality .............................................. 156\n"
            "18.2 Structure ................................................................... 157\n"
            "18.3 Constraints ................................................................. 158")


def test_a_table_of_contents_goes_below_every_passage_that_says_something() -> None:
    toc = [chunk("EI", 3, "Table of Contents", CONTENTS), chunk("EI", 4, "Table of Contents", CONTENTS + "\n19 x .... 170")]
    passages = [chunk("EI", 300 + i, f"18.{i + 1}") for i in range(3)]
    assert order([*toc, *passages]) == ["EI:300", "EI:301", "EI:302", "EI:3", "EI:4"]
    assert order([*toc, *passages], k=3) == ["EI:300", "EI:301", "EI:302"]
    assert order(toc) == ["EI:3", "EI:4"]  # nothing else: the outline is still found


def test_only_dot_led_page_entries_make_a_table_of_contents() -> None:
    assert is_contents(chunk("EI", 3, "Table of Contents", CONTENTS))
    prose = ("The RequestToModifyPayment message is sent by a case creator.\nIt is used on page 156.\n"
             "Usage rules follow in section 18.3.\nSee 18.4 for constraints.")
    assert not is_contents(chunk("EI", 300, "RequestToModifyPaymentV07", prose))
    assert not is_contents(chunk("EI", 301, "x", "Total .......... 12"))  # one line is no table of contents
