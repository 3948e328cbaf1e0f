"""The five lifecycle buckets, the folder without a catalog, and `rulebook inventory`."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from adapters.cli import app
from indexing.lifecycle import take_inventory
from tests.conftest import SAMPLE_CORPUS


def test_sample_corpus_sorts_into_the_five_buckets():
    inventory = take_inventory(SAMPLE_CORPUS)
    ids = {name: sorted(i.rulebook_id for i in inventory.bucket(name))
           for name in ("vetted_active", "vetted_archived", "draft", "duplicate", "unknown_provenance")}
    assert len(ids["vetted_active"]) == 17 and "PS-14" in ids["vetted_active"]
    assert ids["vetted_archived"] == ["PS-08-2024"]
    assert ids["draft"] == ["PS-11"]
    assert ids["duplicate"] == ["PS-02-DUP"]
    assert ids["unknown_provenance"] == ["aurora_working_group_notes_2025-04"]
    assert round(inventory.excluded_share, 3) == round(3 / 21, 3)


def test_no_catalog_means_all_active_with_file_stems_as_ids_and_identical_bytes_are_duplicates(tmp_path):
    shutil.copy(SAMPLE_CORPUS / "PS-09_disputes_and_chargebacks_rulebook.pdf", tmp_path / "disputes.pdf")
    shutil.copy(SAMPLE_CORPUS / "PS-10_messaging_and_technical_specification.pdf", tmp_path / "messages.pdf")
    shutil.copy(tmp_path / "messages.pdf", tmp_path / "messages copy.pdf")
    inventory = take_inventory(tmp_path)
    assert not inventory.catalog.present
    assert sorted(i.rulebook_id for i in inventory.to_index) == ["disputes", "messages"]
    assert [i.rulebook_id for i in inventory.bucket("duplicate")] == ["messages copy"]


def test_inventory_command_prints_buckets_counts_files_and_share():
    result = CliRunner().invoke(app, ["inventory", str(SAMPLE_CORPUS)])
    assert result.exit_code == 0, result.output
    assert "draft (quarantined, not indexed): 1" in result.output
    assert "PS-11_instant_payments_rulebook_DRAFT.pdf" in result.output
    assert "did not survive the audit: 14% of 21 files" in result.output
    data = json.loads(CliRunner().invoke(app, ["inventory", str(SAMPLE_CORPUS), "--json"]).output)
    assert data["buckets"]["duplicate"]["count"] == 1 and data["total"] == 21
