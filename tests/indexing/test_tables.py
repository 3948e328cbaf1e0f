"""Tables: spanned cells repeated in the CSV, and the table's text taken out of the prose."""

from __future__ import annotations

import csv
import io

from indexing.document_parser import parse_document
from indexing.pdf_text import open_pdf
from indexing.table_extractor import extract_tables

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
