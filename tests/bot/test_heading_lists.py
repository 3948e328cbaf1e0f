"""A question naming a heading by number and title ("under 2.101 Referred Document Information"): the
section is read, and the headings the guide lists after it are the answer, in order, each cited."""

from __future__ import annotations

from bot.offline.heading_lists import heading_list, titled_target
from bot.offline.offline_model import Decision, OfflineRulebookModel
from knowledge.payload import ChunkPayload

ITEMS = [("2.98", "Remittance Information", ""), ("2.101", "Referred Document Information", ""),
         ("2.102", "Type", ""), ("2.103", "Code Or Proprietary", ""), ("2.104", "Related Date", ""),
         ("2.105", "Creditor Reference", "\n\nAddendum: only SCOR references are forwarded."),
         ("2.106", "Issuer", "")]


def _chunks() -> list[tuple[str, ChunkPayload]]:
    return [(f"S{i + 1}", ChunkPayload(
        chunk_id=f"ADD:{i}", rulebook_id="nl_addendum", rulebook_title="ABN AMRO addendum", page_start=17,
        page_end=17, chunk_index=100 + i, content_hash=f"h{i}", section_path=["2", key], section_title=title,
        text=f"{key} {title}{body}")) for i, (key, title, body) in enumerate(ITEMS)]


def test_a_heading_named_by_number_and_whole_title_is_a_section_to_read():
    hits = _chunks()
    question = "Which items does the addendum list under 2.101 Referred Document Information?"
    assert titled_target(question, hits) == ("nl_addendum", "2.101")
    # the number alone, another title, a section with text of its own, or a number in another sense: none
    assert titled_target("Which items does the addendum list under 2.101?", hits) is None
    assert titled_target("Which items are under 2.101 Referred Document Amount?", hits) is None
    assert titled_target("What does 2.105 Creditor Reference say?", hits) is None
    assert titled_target("Is 2.102 Type mandatory before 2.98 of the rulebook?", [hits[0]]) is None


def test_the_headings_after_it_are_quoted_in_order_up_to_text_of_a_sections_own():
    hits = _chunks()
    question = "Which items does the addendum list under 2.101 Referred Document Information? Give all of them."
    assert heading_list(question, hits, [("nl_addendum", "2.101")]) == hits[1:5]
    assert heading_list(question, hits, []) == []  # the section not read: no list
    seen: list[Decision] = []
    answer = OfflineRulebookModel(observer=seen.append).compose(question, "en", hits,
                                                                 read=[("nl_addendum", "2.101")])
    lines = answer.splitlines()
    assert "Its nesting is not marked; the headings in order:" in lines
    assert [line for line in lines if line.startswith("- ")] == [
        "- 2.101 Referred Document Information [S2]", "- 2.102 Type [S3]", "- 2.103 Code Or Proprietary [S4]",
        "- 2.104 Related Date [S5]"]
    assert seen[-1].answered and seen[-1].named_section
    # asked in French, the note is in French
    french = OfflineRulebookModel().compose(
        "Quels éléments l'addendum liste-t-il sous 2.101 Referred Document Information ?", "fr", hits,
        read=[("nl_addendum", "2.101")])
    assert "L'imbrication n'est pas indiquée" in french and "- 2.102 Type [S3]" in french


def test_the_note_on_nesting_is_a_connective_in_every_language_not_an_uncited_claim():
    from bot.offline.offline_model import _HEADING_RUN_NOTE
    from evals.citation_check import Sentence, is_claim

    assert set(_HEADING_RUN_NOTE) == {"en", "nl", "fr", "de"}
    assert [lang for lang, note in _HEADING_RUN_NOTE.items() if is_claim(Sentence(note, []))] == []
