"""A quote that runs over a page break counts for the page holding its start or its end, however
short it is (the checker compares the quote's opening or ending words, up to half of it, with the cited page)."""

from __future__ import annotations

from bot.answer import Citation
from evals.citation_check import PageTexts
from evals.e2e_golden import GoldenQuestion
from evals.e2e_scoring import IndexView, check_citation
from knowledge.payload import ChunkPayload

PAGES = {106: "10.2.1.1 Max10KBinary\nDefinition: Binary data of 10K maximum.\nType: Binary\n"
              "Approved by Payments SEG on 29 September 2020. Request To Pay (RTP) Service 106",
         107: "Format\nminLength 1\nmaxLength 10240\n10.2.2 CodeSet\n10.2.2.1 AddressType2Code",
         108: "10.2.2.2 Frequency6Code\nDefinition: Specifies a frequency."}


class StoredPages(PageTexts):
    def page(self, source_uri: str, page: int) -> str | None:
        return PAGES.get(page)


def citation(page: int, quote: str) -> Citation:
    return Citation(n=1, rulebook_id="RTP-1", title="Request to pay", section_path=["10", "10.2"],
                    section_title="Message Datatypes", page=page, uri="", quote=quote, language="en",
                    chunk_id="RTP-1:9")


def test_a_short_quote_over_a_page_break_is_on_the_page_it_ends_on_not_on_another():
    chunk = ChunkPayload(chunk_id="RTP-1:9", rulebook_id="RTP-1", rulebook_title="Request to pay", page_start=106,
                         page_end=108, section_path=["10", "10.2"], section_key="10.2",
                         section_title="Message Datatypes", chunk_index=9, source_uri="rtp.pdf",
                         text="Max10KBinary Definition: Binary data of 10K maximum. Type: Binary minLength 1 "
                              "maxLength 10240. Frequency6Code Definition: Specifies a frequency.",
                         content_hash="h9")
    index = IndexView([chunk], StoredPages())
    question = GoldenQuestion(id="t-logo", question="How big may the logo be?", language="en", corpus="real2",
                              expected=[{"rulebook_id": "RTP-1", "pages": [106, 107]}], must_contain=["10240"])
    quote = "Type: Binary minLength 1 maxLength 10240"
    assert check_citation(citation(107, quote), question, index).problems == []
    wrong = check_citation(citation(108, quote), question, index).problems
    assert wrong == ["quoted span is not on page 108 of the PDF"], wrong
