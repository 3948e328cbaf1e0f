"""A document with some image-only (scanned) pages is indexed, and those pages are reported."""

from __future__ import annotations

import pytest

from indexing.document_parser import parse_document
from indexing.pdf_text import PdfRejected
from indexing.pipeline import run_index
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import write_partly_scanned


def test_image_only_pages_are_found_and_blank_or_text_pages_are_not(tmp_path):
    parsed = parse_document(write_partly_scanned(tmp_path / "letter.pdf", scanned_pages={2, 4}, pages=5))
    assert parsed.image_only_pages == [2, 4]
    assert "page 3" in parsed.text and "page 2" not in parsed.text
    assert parse_document(write_partly_scanned(tmp_path / "clean.pdf", scanned_pages=set())).image_only_pages == []


def test_a_fully_scanned_document_is_still_refused(tmp_path):
    with pytest.raises(PdfRejected, match="no text layer"):
        parse_document(write_partly_scanned(tmp_path / "scan.pdf", scanned_pages={1, 2}, pages=2))


def test_the_summary_warns_about_scanned_pages_and_the_document_is_indexed(tmp_path):
    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    data_dir.mkdir()
    write_partly_scanned(folder / "adherence.pdf", scanned_pages={2})
    seed_embedding_cache(data_dir)
    summary = run_index(folder, make_settings(data_dir))
    keep_embedding_cache(data_dir)
    [report] = summary.indexed
    assert report.outcome == "indexed" and report.chunks > 0 and report.pages == 3
    assert len(report.warnings) == 1 and "page(s) 2 of 3" in report.warnings[0] and "OCR" in report.warnings[0]
    assert summary.to_dict()["warnings"] == [f"adherence.pdf: {report.warnings[0]}"]
    assert report.reason == report.warnings[0]  # what the command line prints beside the file
