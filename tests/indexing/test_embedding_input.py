"""What the encoders see of a chunk: its rulebook, its enclosing sections and its own section."""

from __future__ import annotations

from indexing.payload_builder import MAX_PARENT_CHARS, embedding_input
from knowledge.payload import ChunkPayload


def _payload(parents: list[str]) -> ChunkPayload:
    return ChunkPayload(chunk_id="ei:7", rulebook_id="ei", rulebook_title="Exceptions and Investigations",
                        page_start=156, page_end=156, section_path=["18", "18.4", "18.4.4"],
                        section_title="Modification <Mod>", section_key="18.4.4", parent_titles=parents,
                        chunk_index=7, text="This message must never be sent to request the modification "
                        "of the currency.", content_hash="")


def test_the_message_a_rule_belongs_to_is_named_before_the_rule():
    head, text = embedding_input(_payload(["18 camt.087.001.07 RequestToModifyPaymentV07",
                                           "18.4 Message Building Blocks"])).split("\n", 1)
    assert head == ("Exceptions and Investigations (ei) - 18 camt.087.001.07 RequestToModifyPaymentV07"
                    " - 18.4 Message Building Blocks - 18.4.4 Modification <Mod>")
    assert text.startswith("This message must never")


def test_deep_paths_keep_the_outermost_and_nearest_titles():
    parents = ["2 camt.026.001.07 UnableToApplyV07", "2.4 Message Building Blocks",
               "2.4.4 Justification <Justfn>", "2.4.4.2 MissingOrIncorrectInformation <MssngOrIncrrctInf>",
               "2.4.4.2.2 MissingInformation <MssngInf>"]
    head = embedding_input(_payload(parents)).split("\n", 1)[0]
    assert "2 camt.026.001.07 UnableToApplyV07" in head and "2.4.4.2.2 MissingInformation" in head
    assert "2.4 Message Building Blocks" not in head
    named = head.split(" - ", 1)[1].rsplit(" - ", 1)[0]
    assert len(named) <= MAX_PARENT_CHARS


def test_a_section_without_parents_is_named_as_before():
    head = embedding_input(_payload([])).split("\n", 1)[0]
    assert head == "Exceptions and Investigations (ei) - 18.4.4 Modification <Mod>"
