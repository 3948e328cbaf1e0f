"""A text-alignment table is cut where a numbered section opens (indexing/borderless_tables.py)."""

from __future__ import annotations

from indexing.borderless_tables import split_at_headings


def test_a_table_is_cut_at_the_rows_that_open_a_numbered_section():
    rows = [["totalDigits", "18"], ["fractionDigits", "17"],
            ["19.2.8.2 Number", "Definition: Number of objects represented as an integer."],
            ["Type: Quantity", ""], ["Format", ""], ["totalDigits", "18"], ["fractionDigits", "0"]]
    spans = [(700.0 - 12 * i, 690.0 - 12 * i) for i in range(len(rows))]
    parts = split_at_headings(rows, spans, (50.0, 600.0, 500.0, 700.0))
    assert [part for part, _ in parts] == [rows[:2], rows[5:]]  # the heading and one-cell lines go back to prose
    assert parts[1][1] == (50.0, spans[6][1], 500.0, spans[5][0])  # the box shrinks to the part
    # "2.1 Scope" is two levels deep: a section number in a table's first column, not a heading
    plain = [["Section", "Change"], ["2.1 Scope", "Clarified"], ["3.2 Rules", "New"]]
    assert [part for part, _ in split_at_headings(plain, spans[:3], (0.0, 0.0, 1.0, 1.0))] == [plain]
