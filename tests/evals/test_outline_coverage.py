"""The parser against the PDFs' own bookmarks: which bookmark counts as an opened section, and where a
heading went that opened none."""

from __future__ import annotations

from evals.outline_coverage import (
    IN_SECTION,
    IN_TABLE,
    NOT_FOUND,
    OPENED,
    Bookmark,
    match_bookmarks,
    read_bookmarks,
    report,
)
from knowledge.payload import ChunkPayload
from tests.conftest import real_pdf


def _chunk(index: int, path: list[str], title: str, text: str, page: int, tables: list[str] | None = None,
           page_end: int | None = None) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"RB:{index}", rulebook_id="RB", rulebook_title="Rulebook", page_start=page,
                        page_end=page_end or page, section_path=path, section_key=path[-1] if path else "",
                        section_title=title, chunk_index=index, text=text, tables_csv=tables or [],
                        content_hash=f"h{index}")


CHUNKS = [
    _chunk(0, ["3"], "Payment Scheme Management Board", "3. Payment Scheme Management Board\n\n3.1.1 Composition "
           "of the PSMB The PSMB shall be composed of 25 members.", 102, page_end=103),
    _chunk(1, ["Annex II", "Annex II 4"], "Scheme Management Committee", "4. Scheme Management Committee", 105),
    _chunk(2, ["3", "3.2"], "Voting and quorum rules of the Payment Scheme Management Board",
           "3.2 Voting and quorum rules of the Payment Scheme Management Board", 104),
    _chunk(3, ["3", "3.3"], "Tables", "The table follows.", 106, tables=["4,Online searching for a QR-IBAN"]),
]


def test_a_bookmark_opens_a_section_by_key_and_title_by_its_number_or_by_a_title_cut_short():
    results = match_bookmarks([
        Bookmark("3. Payment Scheme Management Board", 102),
        Bookmark("4. Scheme Management Committee", 105),  # an annex's section printed by its number
        Bookmark("3.2 Voting and quorum rules", 104),  # the outline cuts a long title
        Bookmark("3.2 Voting", 104),  # too short to stand for the whole title
        Bookmark("3. Payment Scheme Management Board", 110),  # the same title far from its pages
    ], CHUNKS)
    assert [r.outcome for r in results] == [OPENED, OPENED, OPENED, IN_SECTION, NOT_FOUND]


def test_a_heading_that_opened_nothing_is_found_in_a_table_or_in_another_sections_text():
    results = match_bookmarks([Bookmark("3.1.1 Composition of the PSMB", 103),
                               Bookmark("4 Online searching for a QR-IBAN", 106),
                               Bookmark("5 Nowhere on the page", 106)], CHUNKS)
    assert [(r.outcome, r.where) for r in results] == [
        (IN_SECTION, "3 Payment Scheme Management Board"), (IN_TABLE, "3.3 Tables"), (NOT_FOUND, "")]
    figures = report({"RB": results})
    assert figures["bookmarks"] == 3 and figures[OPENED] == 0 and figures["opened_share"] == 0.0
    assert [m["outcome"] for m in figures["documents"]["RB"]["misses"]] == [IN_SECTION, IN_TABLE, NOT_FOUND]


def test_a_real_guides_bookmarks_carry_their_pages():
    marks = read_bookmarks(real_pdf("six_qr-iid_qr-iban-en.pdf"))
    assert Bookmark("1 Introduction", 5) in marks and Bookmark("4 Online searching for a QR-IBAN", 12) in marks
    assert len(marks) == 29


def test_the_plot_is_a_png_of_the_figures(tmp_path):
    from evals.outline_coverage import plot

    figures = report({"RB": match_bookmarks([Bookmark("3. Payment Scheme Management Board", 102),
                                              Bookmark("5 Nowhere on the page", 106)], CHUNKS)})
    plot(figures, tmp_path / "outline.png")
    assert (tmp_path / "outline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert figures["opened_share"] == 0.5
