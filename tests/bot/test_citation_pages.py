"""A citation names the page holding most of its quote: the indexer records where pages begin inside a
chunk (`page_breaks`), and the gate looks the quote up in it."""

from __future__ import annotations

from bot.gate.citation_pages import page_of_quote
from evals.citation_check import PageTexts, contains
from indexing.chunker import chunk_section
from indexing.pdf_text import Line
from indexing.section_builder import Block, Section, _page_breaks
from knowledge.payload import ChunkPayload
from knowledge.store import open_store
from tests.conftest import SAMPLE_CORPUS


def _line(text: str, page: int) -> Line:
    return Line(text=text, page=page, top=0.0, bottom=10.0, x0=0.0, x1=100.0, height=10.0)


def test_a_paragraph_running_over_a_page_break_records_where_the_next_page_begins():
    lines = [_line("The originator PSP submits payments before", 4),
             _line("the cut-off. A payment submitted later", 4),
             _line("is settled in the next cycle.", 5)]
    text = " ".join(line.text for line in lines)
    (at,) = _page_breaks(lines)
    assert text[at:].startswith("is settled in the next cycle.")


def test_chunks_carry_the_page_breaks_of_their_blocks_and_of_cut_paragraphs():
    section = Section(path=["4", "4.1"], title="Cut-off", blocks=[
        Block("4.1 Cut-off", 4, 4),
        Block("First page sentence. Second page sentence.", 4, 5, page_breaks=[21]),
        Block("Third page paragraph.", 6, 6),
    ])
    (chunk,) = chunk_section(section)
    assert (chunk.page_start, chunk.page_end) == (4, 6)
    assert [chunk.text[b:b + 6] for b in chunk.page_breaks] == ["Second", "Third "]
    # a paragraph too long for one chunk is cut, and each piece keeps its own pages
    long_text = " ".join(f"Sentence number {i} on the first page." for i in range(60))
    second = " ".join(f"Sentence number {i} on the second page." for i in range(60))
    cut = Section(path=["5"], title="Long", blocks=[Block(f"{long_text} {second}", 7, 8,
                                                          page_breaks=[len(long_text) + 1])])
    chunks = chunk_section(cut)
    assert len(chunks) >= 2
    for c in chunks:
        assert len(c.page_breaks) == c.page_end - c.page_start
        for i, b in enumerate(c.page_breaks):
            assert "second page" in c.text[b:b + 60], (c.page_start + 1 + i, c.text[b:b + 60])
        if c.page_start == 8:
            assert "first page" not in c.text


def test_every_page_break_of_the_sample_index_points_at_text_on_that_page(sample_index):
    store = open_store(sample_index)
    try:
        spanning = [p for p in store.scroll(None) if p.page_end > p.page_start]
    finally:
        store.close()
    assert spanning, "the sample corpus has chunks running over a page break"
    pages = PageTexts(roots=[SAMPLE_CORPUS])
    for chunk in spanning:
        assert len(chunk.page_breaks) == chunk.page_end - chunk.page_start, chunk.chunk_id
        for i, at in enumerate(chunk.page_breaks):
            opening = " ".join(chunk.text[at:].split()[:5])
            page = chunk.page_start + 1 + i
            assert contains(pages.page(chunk.source_uri, page) or "", opening), (chunk.chunk_id, page, opening)
            assert page_of_quote(chunk, chunk.text[at:at + 80]) == page


def _over_a_page_break(chunk_id: str, first_page: int, text: str, next_page_opens: str,
                       source_uri: str = "") -> ChunkPayload:
    """A chunk of `text` on `first_page` and the page after it, which opens with `next_page_opens`."""
    rulebook_id, index = chunk_id.split(":")
    return ChunkPayload(chunk_id=chunk_id, rulebook_id=rulebook_id, rulebook_title=rulebook_id,
                        page_start=first_page, page_end=first_page + 1, chunk_index=int(index), content_hash="h",
                        source_uri=source_uri, text=text, page_breaks=[text.index(next_page_opens)])


CHUNK = _over_a_page_break("HHD:14", 12, "Versionserkennung: es wird ermittelt, um welche Struktur es sich handelt:\n\n"
                           "• HHD V1.3.2 Bei dieser Version ist kein ControlByte enthalten, es gelten die "
                           "Festlegungen in [HHD_UC 1.0.1].", "Bei dieser")


def test_the_page_is_where_the_quote_starts_unless_only_a_few_opening_words_are_there():
    assert CHUNK.text[88:].startswith("Bei dieser")
    assert page_of_quote(CHUNK, "Versionserkennung: es wird ermittelt, um welche Struktur es sich handelt:") == 12
    assert page_of_quote(CHUNK, "Bei dieser Version ist kein ControlByte enthalten") == 13
    # three words on page 12, the other fourteen on page 13: the reader finds it on page 13
    assert page_of_quote(CHUNK, "• HHD V1.3.2 Bei dieser Version ist kein ControlByte enthalten, es gelten "
                                "die Festlegungen in [HHD_UC 1.0.1].") == 13
    # a quote that is not in the chunk, or a chunk from before page_breaks existed: the first page
    assert page_of_quote(CHUNK, "Something else entirely") == 12
    assert page_of_quote(CHUNK.model_copy(update={"page_breaks": []}), "Bei dieser Version") == 12


BALANCE_TEXT = ("2.17 Requested Execution Date\n\nAddendum: If the requested execution date is a non TARGET day the "
                "execution date will be shifted to the\n\nnext possible TARGET date (see the TARGET calendar) If the "
                "batch requires extra authorization due to the fact that balance is insufficient the\n\nrequested "
                "execution date can also shift to the next possible TARGET date.")
BALANCE = _over_a_page_break("NL:34", 12, BALANCE_TEXT, "next possible", "nl.pdf")
BALANCE_QUOTE = ("Addendum: If the requested execution date is a non TARGET day the execution date will be shifted "
                 "to the next possible TARGET date (see the TARGET calendar) If the batch requires extra "
                 "authorization due to the fact that balance is insufficient the requested execution date can "
                 "also shift to the next possible TARGET date.")


def test_a_quote_with_most_of_its_words_on_the_next_page_cites_that_page():
    # 17 words at the foot of page 12, 32 on page 13: the reader finds the quote on page 13
    assert page_of_quote(BALANCE, BALANCE_QUOTE) == 13
    # mostly on page 12: page 12
    assert page_of_quote(BALANCE, "Addendum: If the requested execution date is a non TARGET day the execution "
                                  "date will be shifted to the next possible TARGET date") == 12


class _Pages(PageTexts):
    def __init__(self, pages: dict[int, str]) -> None:
        super().__init__()
        self.pages = pages

    def page(self, source_uri: str, page: int) -> str | None:
        return self.pages.get(page)


def test_the_eval_accepts_a_quote_cited_on_the_page_where_it_ends():
    from bot.answer import Citation
    from evals.e2e_golden import GoldenQuestion
    from evals.e2e_scoring import IndexView, check_citation

    pages = {12: "2.17 Requested Execution Date Addendum: If the requested execution date is a non TARGET day the "
                 "execution date will be shifted to the",
             13: "next possible TARGET date (see the TARGET calendar) If the batch requires extra authorization "
                 "due to the fact that balance is insufficient the requested execution date can also shift to "
                 "the next possible TARGET date.",
             14: "Another page altogether, about something else."}
    index = IndexView([BALANCE], _Pages(pages))
    q = GoldenQuestion(id="q", question="Can an insufficient balance move the execution date?", language="en",
                       corpus="real2", expected=[{"rulebook_id": "NL", "pages": [13]}], must_contain=["balance"],
                       split="dev")

    def check(page: int) -> list[str]:
        citation = Citation(n=1, rulebook_id="NL", title="NL", section_path=[], section_title="", page=page,
                            uri="", quote=BALANCE_QUOTE, language="en", chunk_id="NL:34")
        return check_citation(citation, q, index).problems

    assert check(page_of_quote(BALANCE, BALANCE_QUOTE)) == []
    assert check(12) == []  # it starts there: still on the page
    assert any("not on page 14" in problem for problem in check(14))


def test_a_ligature_or_sharp_s_that_folds_to_two_letters_still_locates_the_quote():
    # "ﬁ" folds to "fi" and "ß" to "ss": the folded text is longer than the characters it came from,
    # and a quote ending in such a letter used to index past the offsets (IndexError)
    text = "Die Gebühr ist ﬁx.\n\nDer Betrag wird als Grundgebühr erhoben und ist gemäß Anhang groß"
    chunk = _over_a_page_break("DE:1", 4, text, "Der Betrag", "de.pdf")
    assert page_of_quote(chunk, "Der Betrag wird als Grundgebühr erhoben und ist gemäß Anhang groß") == 5
    assert page_of_quote(chunk, "Die Gebühr ist ﬁx.") == 4


CONTACT_TEXT = ("19.1.18.2 Contact4\n\nDefinition: Specifies the details of the contact person.\n\n"
                "Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,NamePrefix <NmPrfx>,[0..1],CodeSet,,309\n"
                ",Name <Nm>,[0..1],Text,,309\n,PhoneNumber <PhneNb>,[0..1],Text,,309\n,MobileNumber <MobNb>,[0..1],"
                "Text,,310\n")
CONTACT = _over_a_page_break("EI:880", 308, CONTACT_TEXT, "Or,Message", "ei.pdf")


def test_rows_quoted_apart_are_cited_on_the_page_of_the_first_one():
    """The answer shows the rows it picked ("NamePrefix …; PhoneNumber …", leaving out Name between them):
    the quote as a whole is nowhere in the chunk, its first row is, on the table's page."""
    quote = "NamePrefix <NmPrfx>, [0..1], CodeSet, 309; PhoneNumber <PhneNb>, [0..1], Text, 309; MobileNumber <MobNb>"
    assert page_of_quote(CONTACT, quote) == 309
    assert page_of_quote(CONTACT, "Definition: Specifies the details of the contact person.") == 308
    # sentences quoted apart ("… ") likewise
    assert page_of_quote(CONTACT, "NamePrefix <NmPrfx>, [0..1], CodeSet, 309 … MobileNumber <MobNb>") == 309
