"""The sample corpus indexed once (the shared `sample_index`): what is stored and what is reported."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from adapters.cli import app
from config.settings import reset_settings
from indexing.audit_log import read_events
from indexing.chunker import reassemble
from indexing.pipeline import run_index
from knowledge.store import open_store
from tests.conftest import SAMPLE_CORPUS


def _payloads(settings):
    store = open_store(settings)
    try:
        return list(store.scroll(None))
    finally:
        store.close()


def test_bad_pdfs_are_reported_by_file_name_and_the_rest_is_indexed(sample_index_summary):
    failed = {d.file: d.reason for d in sample_index_summary.failed}
    assert set(failed) == {"PS-14_business_continuity_rulebook_CORRUPT.pdf",
                           "PS-15_sanctions_screening_guidelines_ENCRYPTED.pdf",
                           "PS-16_adherence_letter_SCANNED.pdf"}
    assert "corrupt" in failed["PS-14_business_continuity_rulebook_CORRUPT.pdf"]
    assert "password" in failed["PS-15_sanctions_screening_guidelines_ENCRYPTED.pdf"]
    assert "no text layer" in failed["PS-16_adherence_letter_SCANNED.pdf"]
    indexed = {d.rulebook_id for d in sample_index_summary.indexed}
    assert len(indexed) == 15 and "PS-06" in indexed  # PS-06: owner password only
    skipped = {d.rulebook_id for d in sample_index_summary.skipped}
    assert skipped == {"PS-11", "PS-02-DUP", "aurora_working_group_notes_2025-04"}


def test_store_holds_exactly_the_vetted_documents_with_their_metadata(sample_index, sample_index_summary):
    payloads = _payloads(sample_index)
    assert len(payloads) == sample_index_summary.total("chunks")
    by_book: dict[str, list] = {}
    for p in payloads:
        by_book.setdefault(p.rulebook_id, []).append(p)
    assert "PS-11" not in by_book and "PS-02-DUP" not in by_book and "PS-14" not in by_book
    archived = by_book["PS-08-2024"]
    assert {p.status for p in archived} == {"vetted_archived"} and {p.withdrawn_on for p in archived} == {"2025-05-31"}
    assert {tuple(p.roles) for p in by_book["PS-07"]} == {("risk-officer",)}
    assert {p.isin for p in by_book["KID-01-NL"]} == {"BE6493028177"}
    assert all(p.summary.startswith(p.rulebook_title) for p in payloads)
    assert all(p.source_uri.endswith(".pdf") and p.source_uri.startswith("/") for p in payloads)
    # the chunk index runs 0..n-1 per rulebook and sections reassemble from their chunks
    for chunks in by_book.values():
        assert sorted(p.chunk_index for p in chunks) == list(range(len(chunks)))
    fee = [p for p in by_book["PS-08"] if p.section_key == "3.2"]
    assert any(p.has_table and "Domestic" in p.tables_csv[0] for p in fee)
    device_page = [p for p in by_book["PS-04"] if p.section_key == "3.1"]
    assert device_page and device_page[0].page_start == 4


def test_mojibake_is_repaired_in_stored_text(sample_index):
    text = " ".join(p.text for p in _payloads(sample_index) if p.rulebook_id == "PS-12")
    assert "rémunération" in text.lower() and "Ã" not in text


def test_kid_sections_are_the_priips_sections(sample_index):
    keys = {p.section_key for p in _payloads(sample_index) if p.rulebook_id == "KID-01-FR"}
    assert {"product", "risks", "costs", "holding", "complaints"} <= keys


def test_sections_reassemble_from_stored_chunks(sample_index):
    sections: dict[tuple[str, str], list] = {}
    for p in _payloads(sample_index):
        sections.setdefault((p.rulebook_id, p.section_key), []).append(p)
    for chunks in sections.values():
        text = reassemble([c.text for c in sorted(chunks, key=lambda c: c.chunk_index)])
        assert not text.endswith("\n\n")  # a section's last chunk carries no separator


def test_audit_log_names_sections_and_who_changed_them(sample_index):
    events = read_events(sample_index.data_dir)
    ps09 = {e["section_key"] for e in events if e["rulebook_id"] == "PS-09" and e["action"] == "added"}
    assert {"4.2.1", "4.2.2"} <= ps09
    assert {e["changed_by"] for e in events if e["rulebook_id"] == "PS-01"} == {"m.dubois"}


def test_second_run_reembeds_nothing_and_export_writes_every_payload(sample_index, tmp_path):
    summary = run_index(SAMPLE_CORPUS, sample_index)
    assert summary.total("re_embedded") == 0
    assert {d.outcome for d in summary.indexed} == {"unchanged"}
    out = tmp_path / "chunks.jsonl"
    reset_settings()  # the CLI reads settings through a process-wide cache
    try:
        result = CliRunner().invoke(app, ["export-chunks", str(out)], env={"RULEBOOK_DATA_DIR": str(sample_index.data_dir)})
    finally:
        reset_settings()
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == summary.total("chunks")
    # every field of DESIGN.md's chunk payload, on every line; no vectors
    design_fields = {"chunk_id", "rulebook_id", "rulebook_title", "version", "status", "withdrawn_on",
                     "language", "page_start", "page_end", "section_path", "section_title", "chunk_index",
                     "text", "tables_csv", "has_table", "rulebook_type", "roles", "summary", "isin",
                     "content_hash", "source_uri"}
    for line in lines:
        assert design_fields <= set(line), design_fields - set(line)
        assert not {"dense", "sparse", "vector", "vectors"} & set(line)
        assert line["text"] and line["summary"] and line["source_uri"] and line["content_hash"]
        assert 1 <= line["page_start"] <= line["page_end"]
    assert any(line["withdrawn_on"] for line in lines) and any(line["isin"] for line in lines)
    assert any(line["has_table"] and line["tables_csv"] for line in lines)
    assert any(line["roles"] for line in lines)
