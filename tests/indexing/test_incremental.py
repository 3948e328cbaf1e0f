"""Incremental re-indexing on a small generated rulebook: counts, audit, nothing lost on failure."""

from __future__ import annotations

import shutil

import yaml
from typer.testing import CliRunner

from adapters.cli import app
from config.settings import reset_settings
from indexing.audit_log import read_events
from indexing.pipeline import run_index
from knowledge.store import open_store
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import lorem, write_rulebook

SECTIONS = {
    "Chapter 1 Scope": [lorem("scope", 3)],
    "1.1 Application": [lorem("application", 4)],
    "1.2 Currency": [lorem("currency", 30), lorem("euro", 30)],  # more than one chunk
    "Chapter 2 Fees": [lorem("fee", 3)],
    "2.1 Annual fee": [lorem("annual", 5)],
}


def _catalog(folder, status="vetted_active"):
    doc = {"file": "small.pdf", "id": "SMALL-01", "title": "Small Test Rulebook", "type": "rulebook",
           "roles": [], "status": status, "version": "1", "language": "en", "changed_by": "t.tester"}
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))


def _stored(settings):
    store = open_store(settings)
    try:
        return {p.chunk_id: p for p in store.scroll(None)}
    finally:
        store.close()


def test_reindex_counts_audit_and_safety(tmp_path):
    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    data_dir.mkdir()
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    _catalog(folder)
    write_rulebook(folder / "small.pdf", SECTIONS)

    first = run_index(folder, settings)
    chunks = first.total("chunks")
    assert first.total("re_embedded") == chunks > 5
    stored = _stored(settings)
    currency_chunks = [p for p in stored.values() if p.section_key == "1.2"]
    assert len(currency_chunks) >= 2

    second = run_index(folder, settings)
    assert second.total("re_embedded") == 0 and second.indexed[0].outcome == "unchanged"

    edited = dict(SECTIONS)
    edited["2.1 Annual fee"] = [lorem("annual", 5).replace("every participant", "each direct participant")]
    write_rulebook(folder / "small.pdf", edited)
    third = run_index(folder, settings)
    changed_section = [p for p in _stored(settings).values() if p.section_key == "2.1"]
    assert third.total("re_embedded") == len(changed_section) == 1
    events = [e for e in read_events(data_dir) if e["action"] == "changed"]
    assert [(e["rulebook_id"], e["section_key"], e["changed_by"]) for e in events] == [("SMALL-01", "2.1", "t.tester")]

    # a failed run loses nothing: the file is now corrupt, its chunks stay
    before = _stored(settings)
    good = (folder / "small.pdf").read_bytes()
    (folder / "small.pdf").write_bytes(good[:200] + b"garbage" * 50)
    fourth = run_index(folder, settings)
    assert [d.outcome for d in fourth.documents] == ["failed"]
    assert _stored(settings).keys() == before.keys()
    reset_settings()  # the CLI reads settings through a process-wide cache
    try:
        result = CliRunner().invoke(app, ["index", str(folder), "--json"], env={"RULEBOOK_DATA_DIR": str(data_dir)})
    finally:
        reset_settings()
    assert result.exit_code == 1  # nothing could be indexed

    # now a draft: quarantined, its chunks removed, the removal audited
    (folder / "small.pdf").write_bytes(good)
    _catalog(folder, status="draft")
    fifth = run_index(folder, settings)
    assert [d.outcome for d in fifth.removed] == ["removed"]
    assert _stored(settings) == {}
    removed = {e["section_key"] for e in read_events(data_dir) if e["action"] == "removed"}
    assert {"1.2", "2.1"} <= removed
    keep_embedding_cache(data_dir)


def test_no_catalog_folder_is_indexed_as_active_with_stem_ids(tmp_path):
    folder, data_dir = tmp_path / "plain", tmp_path / "data"
    folder.mkdir()
    write_rulebook(folder / "my_rules.pdf", {"Chapter 1 Scope": [lorem("scope", 2)]})
    shutil.copy(folder / "my_rules.pdf", folder / "my_rules copy.pdf")
    seed_embedding_cache(data_dir)
    summary = run_index(folder, make_settings(data_dir))
    assert "no catalog" in summary.note
    assert [d.rulebook_id for d in summary.indexed] == ["my_rules"]
    assert [d.rulebook_id for d in summary.skipped] == ["my_rules copy"]
    keep_embedding_cache(data_dir)
