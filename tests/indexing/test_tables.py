"""Tables: spanned cells repeated in the CSV, the table's text taken out of the prose, tables
without ruling lines, every table of the sample corpus, the process pool and the page cache."""

from __future__ import annotations

import csv
import io
import re

from indexing.document_parser import parse_document
from indexing.pdf_text import open_pdf
from indexing.table_cache import TableCache
from indexing.table_extractor import extract_tables
from indexing.table_workers import TablePool
from tests.conftest import SAMPLE_CORPUS

from .pdf_factory import lorem, write_rulebook


def test_spanned_cells_are_repeated_in_every_row_and_column_they_cover(tmp_path):
    pdf = write_rulebook(tmp_path / "fees.pdf", {
        "Chapter 3 Transaction fees": [lorem("fee")],
        "3.1 Scope": [lorem("scope")],
        "3.2 Card and device transactions": [lorem("device")],
    }, with_fee_table=True)
    found = extract_tables(pdf, open_pdf(pdf))
    tables = [t for page in found.tables.values() for t in page]
    assert len(tables) == 1
    rows = list(csv.reader(io.StringIO(tables[0].csv)))
    assert rows[0] == ["Category", "Channel", "Fee (EUR)", "Refund"]
    assert [r[0] for r in rows[1:]] == ["Domestic"] * 3 + ["Cross-border"] * 2
    assert {r[3] for r in rows[1:]} == {"Refundable within 8 weeks"}
    assert rows[3][1:3] == ["Connected fridge", "0.30"]


def test_table_text_is_indexed_once_as_csv_not_again_as_prose(tmp_path):
    pdf = write_rulebook(tmp_path / "fees.pdf", {
        "Chapter 3 Transaction fees": [lorem("fee")],
        "3.2 Card and device transactions": [lorem("device")],
    }, with_fee_table=True)
    parsed = parse_document(pdf)
    section = next(s for s in parsed.sections if s.key == "3.2")
    tables = [b for b in section.blocks if b.is_table]
    prose = " ".join(b.text for b in section.blocks if not b.is_table)
    assert len(tables) == 1 and "Connected fridge" in tables[0].text
    assert "Connected fridge" not in prose and "Cross-border" not in prose
    assert "device rule number 5" in prose  # the prose around it is still there


# -- tables without ruling lines (the sample corpus) ----------------------------------------------

def _sample_tables(name: str, page: int) -> list:
    path = SAMPLE_CORPUS / name
    return extract_tables(path, open_pdf(path)).tables.get(page, [])


def test_a_borderless_two_column_table_is_found_whole():
    tables = _sample_tables("PS-01_scheme_rulebook.pdf", 3)  # Table 2.1 - Defined terms
    assert len(tables) == 1
    rows = list(csv.reader(io.StringIO(tables[0].csv)))
    assert rows[0] == ["Term", "Meaning"] and len(rows) == 8
    assert rows[-1] == ["CSM", "A clearing and settlement mechanism approved by the Scheme Board."]


def test_wrapped_cells_of_a_borderless_table_are_merged_into_their_row():
    tables = _sample_tables("PS-10_messaging_and_technical_specification.pdf", 5)  # Table 4.1
    assert len(tables) == 1
    rows = list(csv.reader(io.StringIO(tables[0].csv)))
    assert rows == [
        ["Message", "Purpose", "Sender", "Receiver"],
        ["camt.056.001.08", "Recall request (FI to FI payment cancellation request)", "Originator PSP", "Beneficiary PSP"],
        ["camt.029.001.09", "Negative answer to a recall (resolution of investigation)", "Beneficiary PSP", "Originator PSP"],
        ["pacs.004.001.09", "Positive answer to a recall (return of funds)", "Beneficiary PSP", "Originator PSP"],
    ]


def test_a_borderless_table_does_not_swallow_the_heading_and_prose_above_it():
    name = "PS-06_settlement_and_clearing_rulebook.pdf"
    tables = _sample_tables(name, 3)  # Table 2.1 - Clearing cycles
    assert len(tables) == 1 and tables[0].csv.splitlines()[0] == "Cycle,Submission window,Settlement time,Files per cycle"
    assert "2.1" not in tables[0].csv and "Chapter 2" not in tables[0].csv
    parsed = parse_document(SAMPLE_CORPUS / name)
    section = next(s for s in parsed.sections if s.key == "2.1")
    assert section.title == "Clearing cycles" and any(b.is_table and "C5," in b.text for b in section.blocks)


def test_every_table_of_the_sample_corpus_is_found(sample_index_summary):
    """The corpus guide lists each table (page, caption); each indexed document yields that many."""
    expected: dict[str, int] = {}
    in_tables = False
    for line in (SAMPLE_CORPUS / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            in_tables = line.strip() == "## Tables"
        elif in_tables and (row := re.match(r"\| ([A-Z][A-Z0-9-]+) \| \d+ \|", line)):
            expected[row.group(1)] = expected.get(row.group(1), 0) + 1
    found = {d.rulebook_id: d.tables for d in sample_index_summary.indexed}
    assert sum(expected.values()) == 59
    assert found == {book: n for book, n in expected.items() if book in found}
    assert len(found) == 15


# -- speed without loss: the process pool and the page cache --------------------------------------

def test_the_process_pool_finds_the_same_tables_as_one_process():
    path = SAMPLE_CORPUS / "PS-01_scheme_rulebook.pdf"
    serial = extract_tables(path, open_pdf(path))
    with TablePool(workers=2, min_pages=1) as pool:
        parallel = extract_tables(path, open_pdf(path), pool=pool)
    assert parallel.worker_cpu_seconds > 0 and serial.worker_cpu_seconds == 0
    assert _csvs(parallel) == _csvs(serial) and len(_csvs(serial)) == 6
    with TablePool(workers=1, min_pages=1) as one_core:  # one core: the same code in-process
        assert not one_core.worth_it(50)
        assert _csvs(extract_tables(path, open_pdf(path), pool=one_core)) == _csvs(serial)


def test_an_edited_document_re_extracts_only_its_changed_pages(tmp_path):
    sections = {"Chapter 2 Participation": [lorem("participation")], "2.1 Annual fees": [lorem("annual")],
                "Chapter 3 Transaction fees": [lorem("fee")], "3.2 Card and device transactions": [lorem("device")]}
    pdf = write_rulebook(tmp_path / "fees.pdf", sections, with_fee_table=True, fee_table_under=("2.1", "3.2"))
    cache = TableCache(tmp_path / "table_cache.sqlite")
    try:
        first = extract_tables(pdf, open_pdf(pdf), cache=cache)
        assert first.pages_examined == 2 and first.pages_cached == 0
        again = extract_tables(pdf, open_pdf(pdf), cache=cache)
        assert again.pages_cached == 2 and _csvs(again) == _csvs(first)

        edited = dict(sections)
        edited["3.2 Card and device transactions"] = [lorem("device").replace("every participant", "each acquirer")]
        write_rulebook(pdf, edited, with_fee_table=True, fee_table_under=("2.1", "3.2"))
        third = extract_tables(pdf, open_pdf(pdf), cache=cache)
        assert third.pages_examined == 2 and third.pages_cached == 1  # chapter 3's page changed
        assert _csvs(third) == _csvs(first)
    finally:
        cache.close()


def test_cached_tables_are_not_served_to_other_table_code(tmp_path, monkeypatch):
    """The cache key carries the table code's digest (indexing.pipeline_code.table_code_digest): tables a
    working copy with other cuts stored under the same EXTRACTOR_VERSION are extracted again."""
    from indexing import table_extractor

    sections = {"Chapter 2 Participation": [lorem("participation")], "2.1 Annual fees": [lorem("annual")]}
    pdf = write_rulebook(tmp_path / "fees.pdf", sections, with_fee_table=True, fee_table_under=("2.1",))
    cache = TableCache(tmp_path / "table_cache.sqlite")
    try:
        first = extract_tables(pdf, open_pdf(pdf), cache=cache)
        assert first.pages_examined >= 1 and extract_tables(pdf, open_pdf(pdf), cache=cache).pages_cached == \
            first.pages_examined
        monkeypatch.setattr(table_extractor, "table_code_digest", lambda: "another working copy's table code")
        other = extract_tables(pdf, open_pdf(pdf), cache=cache)
        assert other.pages_cached == 0 and _csvs(other) == _csvs(first)
    finally:
        cache.close()


def _csvs(found) -> list[tuple[int, str]]:
    return [(page, t.csv) for page, tables in sorted(found.tables.items()) for t in tables]


def test_a_short_table_at_a_page_edge_is_furniture_only_when_no_body_table_shares_its_header():
    """A boxed page header repeats at the page's top edge in one shape; a message guide's two-row choice
    tables ("{Or Date <Dt> [1..1]" / "Or} DateTime <DtTm> [1..1]") also land at the top of pages in one
    shape, and are content: their header row is that of the structure tables in the pages' body."""
    from indexing.table_extractor import ExtractedTable, _split_furniture

    header = ["Or", "MessageElement<XML Tag>", "Mult.", "Type", "Constr. No.", "Page"]
    heights = {page: 792.0 for page in range(1, 9)}
    choice = [ExtractedTable(page, (85.0, 638.0, 555.0, 706.0), [header, ["{Or", "Date <Dt>", "[1..1]", "Date", "", "44"],
                                                                  ["Or}", "DateTime <DtTm>", "[1..1]", "DateTime", "", "44"]],
                             "lattice") for page in (2, 3, 4)]
    body = ExtractedTable(5, (85.0, 300.0, 555.0, 420.0), [header, ["", "Name <Nm>", "[0..1]", "Text", "", "47"],
                                                           ["", "Envelope <Envlp>", "[1..1]", "(External Schema)", "", "47"]],
                          "lattice")
    boxes = [ExtractedTable(page, (60.0, 740.0, 550.0, 780.0), [["HandHeld-Device", "Version: V 1.4", f"Kapitel: {c}"],
                                                                ["Seite", str(page), ""]], "lattice")
             for page, c in ((1, "A"), (6, "B"), (7, "B"))]
    kept, furniture = _split_furniture([*choice, body, *boxes], heights)
    assert all(t in kept.get(t.page, []) for t in choice), "the choice tables are content"
    assert all(t.bbox in furniture.get(t.page, []) for t in boxes), "the repeated header box is furniture"
    kept, furniture = _split_furniture(choice, heights)  # with no body table of that header: furniture as before
    assert sum(len(v) for v in furniture.values()) == 3 and not kept
