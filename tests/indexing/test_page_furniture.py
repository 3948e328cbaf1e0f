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
    _assert_records_stay_and_header_goes(pages)


def _assert_records_stay_and_header_goes(pages: list[PageLines]) -> None:
    strip_page_furniture(pages)
    for page in pages:
        texts = [line.text for line in page.lines]
        assert any(t.startswith("Presence:") for t in texts)
        assert not any(t.startswith("Approved by") for t in texts)


def _lowered(page: PageLines, points: float) -> PageLines:
    """The page's lines moved down, under a header band."""
    for line in page.lines:
        line.top, line.bottom = line.top - points, line.bottom - points
    return page


def _placed(page: PageLines, text: str, top: float, height: float = 9.0) -> None:
    page.items.append(Line(text=text, page=page.number, top=top, bottom=top - height, x0=50, x1=500, height=height))


def test_a_header_block_the_pdf_writes_last_goes_whole_while_the_page_ends_as_written():
    """A message guide writes its header block after the footer in the text stream ("Approved by …
    reda.067.001.01" over the message's wrapped name, above the body): where a line stands decides
    it is at the edge, not where it comes, and the block goes line by line from the outside in."""
    pages = []
    for n in range(1, 8):
        page = _lowered(_page(n, [(f"3.4.{n} Element{n} <Elmt{n}>", 12), ("Presence: [0..1]", 10), *[(BODY, 10)] * 6,
                                  (f"Last body line of page {n} with its element Name{n} <Nm> [0..1] Text {40 + n}",
                                   10)]), 60)
        _placed(page, f"Request To Pay (RTP) Service {n} September 2020", 40.0)
        _placed(page, f"Approved by Payments SEG on 29 September 2020. reda.0{60 + n // 4}.001.01", 790.0)
        _placed(page, f"RequestToPayCreditorEnrolmentAmendmentReque{n // 4}", 781.0)
        _placed(page, "stV01", 772.0)
        pages.append(page)
    strip_page_furniture(pages)
    for n, page in enumerate(pages, start=1):
        texts = [line.text for line in page.lines]
        assert texts[:2] == [f"3.4.{n} Element{n} <Elmt{n}>", "Presence: [0..1]"]
        assert texts[-1].startswith("Last body line of page")
        assert not any(t.startswith(("Approved by", "RequestToPay", "stV01", "Request To Pay")) for t in texts)


def test_the_first_lines_of_the_body_stay_though_they_repeat_in_form_and_place_under_the_header():
    """Element records often open a page right under the running header, so "Presence: [0..1]" stands
    at the same place on many pages; it is not in the header's block (a body line's gap away) and stays."""
    pages = []
    for n in range(1, 8):
        page = _lowered(_page(n, [(f"Element{n} <Elmt{n}>", 12), (f"Presence: [{n % 2}..1]", 10), *[(BODY, 10)] * 6]),
                        40)
        _placed(page, f"Approved by the Payments SEG on 09 January 2020 camt.0{20 + n}", 790.0)
        pages.append(page)
    _assert_records_stay_and_header_goes(pages)


def test_a_header_laid_out_as_a_table_row_goes_with_all_its_cells():
    pages = []
    for n in range(1, 8):
        page = _lowered(_page(n, [*[(BODY, 10)] * 8]), 60)
        for text in ("HandHeld-Device (HHD) zur TAN-Erzeugung", "Version:", "Kapitel:"):
            _placed(page, text, 790.0)
        for text in ("Dokument: HHD-Erweiterung für unidirektionale Kopplung", "V 1.4", "B"):
            _placed(page, text, 780.5)
        pages.append(page)
    strip_page_furniture(pages)
    assert all(line.text == BODY for page in pages for line in page.lines)
