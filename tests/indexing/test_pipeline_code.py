"""An index is read again when the code that made its chunks changed, even under the same
PIPELINE_VERSION (indexing.pipeline_code): it never silently holds chunks the code would now cut
otherwise."""

from __future__ import annotations

import ast

import yaml

from indexing import pipeline
from indexing.pipeline import run_index
from indexing.pipeline_code import STORED_OUTPUT_MODULES, pipeline_code_digest, source_files
from tests.conftest import REPO_ROOT, keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import lorem, write_rulebook

SECTIONS = {"Chapter 1 Scope": [lorem("scope", 3)], "1.1 Application": [lorem("application", 4)]}


def _small_rulebook(tmp_path):
    """(folder, data dir, settings): one catalogued two-section rulebook, not yet indexed."""
    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    data_dir.mkdir()
    seed_embedding_cache(data_dir)
    doc = {"file": "small.pdf", "id": "SMALL-01", "title": "Small Test Rulebook", "type": "rulebook",
           "roles": [], "status": "vetted_active", "version": "1", "language": "en", "changed_by": "t.tester"}
    (folder / "catalog.yaml").write_text(yaml.safe_dump({"schema_version": 1, "documents": [doc]}))
    write_rulebook(folder / "small.pdf", SECTIONS)
    return folder, data_dir, make_settings(data_dir)


def test_a_change_of_the_chunking_code_reads_every_document_again_and_reuses_its_vectors(tmp_path, monkeypatch):
    folder, data_dir, settings = _small_rulebook(tmp_path)

    first = run_index(folder, settings)
    assert first.indexed[0].outcome == "indexed"
    assert run_index(folder, settings).indexed[0].outcome == "unchanged"
    # the same file, catalog and PIPELINE_VERSION, but other code: read again, its text not embedded again
    monkeypatch.setattr(pipeline, "pipeline_code_digest", lambda: "another working copy")
    again = run_index(folder, settings)
    assert again.indexed[0].outcome == "indexed" and again.total("re_embedded") == 0
    assert again.total("chunks") == first.total("chunks")
    assert run_index(folder, settings).indexed[0].outcome == "unchanged"
    keep_embedding_cache(data_dir)


def test_the_digest_covers_every_module_whose_output_is_stored():
    """Every `knowledge` module the indexing package imports either shapes what is stored (and is in
    the digest) or only reads and writes the store (and is named here, with why)."""
    only_storage = {
        "knowledge.store": "the store interface: where chunks go, not what they are",
        "knowledge.generations": "which generation of a rulebook is live",
        "knowledge.change_log": "reads the audit file",
        "knowledge.embedding_cache": "dense vectors, cached by text and encoder identity",
        "knowledge.embedder_identity": "the encoder's identity",
    }
    covered = set(STORED_OUTPUT_MODULES)
    imported: set[str] = set()
    for path in (REPO_ROOT / "indexing").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("knowledge."):
                imported.add(node.module)
    assert imported - covered - set(only_storage) == set()
    files = dict(source_files())
    assert files["indexing/section_detector.py"] == REPO_ROOT / "indexing" / "section_detector.py"
    assert files["knowledge/bm25.py"] == REPO_ROOT / "knowledge" / "bm25.py"
    assert len(pipeline_code_digest()) == 64


def test_a_document_read_again_by_other_code_logs_no_change(tmp_path, monkeypatch):
    """The audit log, and "what changed in …?" answered from it, tell what changed in the documents: a
    parser that cuts a section otherwise changed nothing a reader of the rulebook should hear about."""
    from indexing.audit_log import read_events
    from indexing.payload_builder import content_hash

    folder, data_dir, settings = _small_rulebook(tmp_path)
    run_index(folder, settings)
    logged = len(read_events(data_dir))
    assert logged >= 2  # the first reading adds its sections

    # other code that cuts the sections otherwise: a title is read longer, so a section's hash differs
    real_build = pipeline.build_payloads

    def recut(*args, **kwargs):
        payloads = real_build(*args, **kwargs)
        for payload in payloads:
            if payload.section_key == "1.1":
                payload.text += " (re-cut)"
                payload.content_hash = content_hash(payload)
        return payloads

    monkeypatch.setattr(pipeline, "build_payloads", recut)
    monkeypatch.setattr(pipeline, "pipeline_code_digest", lambda: "a parser that cuts otherwise")
    assert run_index(folder, settings).indexed[0].outcome == "indexed"
    assert len(read_events(data_dir)) == logged

    # a new version of the document under that code: its changed section is logged as before
    edited = dict(SECTIONS)
    edited["1.1 Application"] = [lorem("application", 4).replace("every participant", "each direct participant")]
    write_rulebook(folder / "small.pdf", edited)
    run_index(folder, settings)
    changed = [(e["section_key"], e["action"]) for e in read_events(data_dir)[logged:]]
    assert changed == [("1.1", "changed")]
    keep_embedding_cache(data_dir)
