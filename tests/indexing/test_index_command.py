"""`rulebook index` as a user runs it: the summary, `--json`, exit codes, progress, and removals."""

from __future__ import annotations

import json
from datetime import datetime

from typer.testing import CliRunner

from adapters.cli import app
from config.settings import reset_settings
from indexing.audit_log import read_events
from indexing.pipeline import run_index
from knowledge.store import open_store
from tests.conftest import keep_embedding_cache, make_settings, seed_embedding_cache

from .pdf_factory import lorem, write_rulebook

SECTIONS = {"Chapter 1 Scope": [lorem("scope", 2)], "1.1 Currency": [lorem("currency", 3)]}


def _index_cli(data_dir, *args: str):
    reset_settings()  # the CLI reads settings through a process-wide cache
    try:
        return CliRunner().invoke(app, ["index", *args], env={"RULEBOOK_DATA_DIR": str(data_dir),
                                                              "RULEBOOK_QDRANT_URL": ""})
    finally:
        reset_settings()


def _chunk_ids(settings) -> set[str]:
    store = open_store(settings)
    try:
        return {p.chunk_id for p in store.scroll(None)}
    finally:
        store.close()


def test_summary_json_exit_codes_progress_and_removal(tmp_path):
    folder, data_dir = tmp_path / "books", tmp_path / "data"
    folder.mkdir()
    data_dir.mkdir()
    seed_embedding_cache(data_dir)
    write_rulebook(folder / "good.pdf", SECTIONS)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4\n" + b"not really a pdf " * 40)

    # a failure beside a success: reported by name with its reason, exit 0 without --strict
    result = _index_cli(data_dir, str(folder))
    assert result.exit_code == 0, result.output
    failed_line = next(line for line in result.stdout.splitlines() if "broken.pdf" in line)
    assert "failed" in failed_line and "corrupt" in failed_line
    summary_line = result.stdout.strip().splitlines()[-1]
    for words in ("documents indexed 1", "skipped 0", "failed 1", "pages ", "chunks ", "tables ",
                  "chunks re-embedded ", " s"):
        assert words in summary_line, summary_line
    assert "chunks re-embedded 0" not in summary_line  # the first run embeds

    # --strict: any failure is an error; --json: one object with every summary figure
    result = _index_cli(data_dir, str(folder), "--strict", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert {"documents_indexed", "documents_skipped", "documents_failed", "pages", "chunks", "tables",
            "chunks_re_embedded", "seconds"} <= set(data)
    assert (data["documents_indexed"], data["documents_failed"], data["chunks_re_embedded"]) == (1, 1, 0)
    assert data["pages"] >= 2 and data["chunks"] >= 2 and data["seconds"] > 0
    [failed] = [d for d in data["documents"] if d["outcome"] == "failed"]
    assert failed["file"] == "broken.pdf" and failed["reason"]

    # the progress bar is fed one step per document, ending at total
    settings = make_settings(data_dir)
    steps: list[tuple[int, int, str]] = []
    run_index(folder, settings, lambda done, total, what: steps.append((done, total, what)))
    assert steps and steps[-1][0] == steps[-1][1] == 2
    assert {"good.pdf", "broken.pdf"} <= {what for _, _, what in steps}
    keep_embedding_cache(data_dir)

    # a document removed from the folder: its chunks leave the index, the removal is audited with a time
    before = _chunk_ids(settings)
    assert before and all(c.startswith("good:") for c in before)
    (folder / "good.pdf").unlink()
    summary = run_index(folder, settings)
    assert [d.rulebook_id for d in summary.removed] == ["good"]
    assert _chunk_ids(settings) == set()
    removed = [e for e in read_events(data_dir) if e["action"] == "removed" and e["rulebook_id"] == "good"]
    assert {e["section_key"] for e in removed} >= {"1", "1.1"}
    assert all(datetime.fromisoformat(e["at"]) for e in removed)

    # now nothing at all can be indexed: exit 1 even without --strict
    assert _index_cli(data_dir, str(folder)).exit_code == 1
