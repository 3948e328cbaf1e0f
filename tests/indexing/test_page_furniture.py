"""Running headers and footers go; headings that open a page stay, even when they repeat in form."""

from __future__ import annotations

from indexing.page_furniture import strip_page_furniture
from indexing.pdf_text import Line, PageLines

BODY = "This is a long enough line of body text to set the typical body size of the page."


def _page(number: int, specs: list[tuple[str, float]]) -> PageLines:
    items, top = [], 800.0
    for text, height in specs:
        items.append(Line(text=text, page=number, top=top, bottom=top - height, x0=50, x1=500, height=height))
        top -= height + 2
    return PageLines(number=number, width=600, height=800, items=list(items))


def test_repeated_footers_and_page_numbers_go_but_numbered_display_headings_stay():
    pages = [_page(n, [(f"{n} camt.0{20 + n}.001.07", 22), (f"{n}.1 MessageDefinition Functionality", 20),
                       *[(BODY, 10)] * 8, (f"Approved by the Payments SEG on 09 January 2020 camt.0{20 + n}", 9),
                       (f"Page {n}", 9)])
             for n in range(1, 8)]
    strip_page_furniture(pages)
    for n, page in enumerate(pages, start=1):
        texts = [line.text for line in page.lines]
        assert texts[:2] == [f"{n} camt.0{20 + n}.001.07", f"{n}.1 MessageDefinition Functionality"]
        assert not any(t.startswith(("Approved by", "Page ")) for t in texts)


def test_a_large_running_header_repeated_word_for_word_is_furniture():
    pages = [_page(n, [("EPC SCT Rulebook", 16), *[(BODY, 10)] * 8, (f"{n} / 7", 9)]) for n in range(1, 8)]
    strip_page_furniture(pages)
    assert all(line.text == BODY for page in pages for line in page.lines)


def test_a_record_line_near_a_page_edge_is_kept_where_a_footer_in_its_place_goes():
    """"Presence: [1..*]" opens many element records; when a record starts near a page edge it
    repeats in form (digits masked) but never in place, unlike the footer under it."""
    pages = []
    for n in range(1, 8):
        record = [("CreditorEnrolment <CdtrEnrlmnt>", 10), (f"Presence: [{n % 2}..*]", 10)]
        body = [(BODY, 10)] * (2 + n)  # the record starts lower on each page
        page = _page(n, [*body, *record[:1], *record[1:], (f"Approved by Payments SEG {n}", 9)])
        # the footer sits at the same place on every page
        page.items[-1].top, page.items[-1].bottom = 40.0, 31.0
        pages.append(page)
    strip_page_furniture(pages)
    for page in pages:
        texts = [line.text for line in page.lines]
        assert any(t.startswith("Presence:") for t in texts)
        assert not any(t.startswith("Approved by") for t in texts)
