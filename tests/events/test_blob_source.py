"""A rulebook release in Blob Storage (Azurite): downloaded, indexed with blob URLs, linked by SAS."""

from __future__ import annotations

import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from azure.storage.blob import BlobServiceClient
from typer.testing import CliRunner

from config.settings import reset_settings
from indexing.blob_source import (
    BlobSourceError,
    blob_sas_link,
    blob_source_link,
    blob_url_for,
    download_release,
)

pytestmark = pytest.mark.azurite

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "rulebooks"
PDF_NAME = "PS-08_fees_and_charges_schedule.pdf"


@pytest.fixture
def release(azurite) -> tuple[str, BlobServiceClient]:
    """A container with one release folder: a PDF, the catalog, and a file that is not ours."""
    if not (SAMPLE / PDF_NAME).exists():
        pytest.skip("examples/rulebooks has no sample corpus yet")
    service = BlobServiceClient.from_connection_string(azurite.connection_string)
    container = "release-" + uuid.uuid4().hex[:8]
    client = service.create_container(container)
    client.upload_blob(f"2026-11/{PDF_NAME}", (SAMPLE / PDF_NAME).read_bytes())
    client.upload_blob("2026-11/catalog.yaml", (SAMPLE / "catalog.yaml").read_bytes())
    client.upload_blob("2026-11/readme.txt", b"not a rulebook")
    client.upload_blob("2025-05/old.pdf", b"%PDF-1.4 another release")
    return container, service


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        return exc.code, b"", ""


def test_a_release_downloads_with_its_catalog_and_only_its_own_files(release, azure_settings):
    container, service = release
    folder = download_release(azure_settings, f"{container}/2026-11")
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == \
        sorted([PDF_NAME, "catalog.yaml"])
    assert (folder / PDF_NAME).read_bytes() == (SAMPLE / PDF_NAME).read_bytes()
    url = blob_url_for(folder / PDF_NAME)
    assert url == service.get_blob_client(container, f"2026-11/{PDF_NAME}").url

    # unchanged blobs are not fetched again; a blob removed from the release leaves the cache
    before = (folder / PDF_NAME).stat().st_mtime_ns
    service.get_blob_client(container, "2026-11/catalog.yaml").delete_blob()
    assert download_release(azure_settings, f"{container}/2026-11") == folder
    assert (folder / PDF_NAME).stat().st_mtime_ns == before
    assert not (folder / "catalog.yaml").exists()


def test_missing_container_and_empty_release_give_clear_errors(release, azure_settings, local_settings):
    container, _ = release
    with pytest.raises(BlobSourceError, match="does not exist"):
        download_release(azure_settings, "no-such-container")
    with pytest.raises(BlobSourceError, match="No PDF"):
        download_release(azure_settings, f"{container}/1999-01")
    with pytest.raises(BlobSourceError, match="RULEBOOK_BLOB_CONNECTION_STRING"):
        download_release(local_settings, container)


def test_sas_link_opens_the_pdf_at_the_page_and_expires(release, azure_settings):
    from datetime import timedelta

    container, service = release
    blob_url = service.get_blob_client(container, f"2026-11/{PDF_NAME}").url
    link = blob_sas_link(blob_url, 3, settings=azure_settings)
    assert link.startswith(blob_url + "?") and link.endswith("#page=3")
    status, body, content_type = _get(link.split("#", 1)[0])
    assert status == 200 and body == (SAMPLE / PDF_NAME).read_bytes()
    assert content_type == "application/pdf"
    # the same blob without the signature is refused: the SAS is what grants access
    assert _get(blob_url)[0] in (403, 404)
    expired = blob_sas_link(f"{container}/2026-11/{PDF_NAME}", 1, settings=azure_settings,
                            lifetime=timedelta(minutes=-10))
    assert _get(expired.split("#", 1)[0])[0] == 403


def test_index_from_blob_records_blob_urls_and_links_open_them(release, azurite, tmp_path, monkeypatch):
    container, service = release
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RULEBOOK_BLOB_CONNECTION_STRING", azurite.connection_string)
    monkeypatch.delenv("RULEBOOK_QDRANT_URL", raising=False)
    reset_settings()
    try:
        from adapters.cli import app

        result = CliRunner().invoke(app, ["index", "--from-blob", f"{container}/2026-11", "--json"])
        assert result.exit_code == 0, result.output
        assert '"documents_indexed": 1' in result.output

        from config.settings import get_settings
        from knowledge.store import open_store

        settings = get_settings()
        store = open_store(settings)
        try:
            payloads = list(store.scroll(None))
        finally:
            store.close()
    finally:
        reset_settings()
    blob_url = service.get_blob_client(container, f"2026-11/{PDF_NAME}").url
    assert payloads and {p.source_uri for p in payloads} == {blob_url}
    cited = max(payloads, key=lambda p: p.page_start)
    link = blob_source_link(settings)(cited, cited.page_start)
    assert link.endswith(f"#page={cited.page_start}")
    status, body, _ = _get(link.split("#", 1)[0])
    assert status == 200 and body[:5] == b"%PDF-" and body == (SAMPLE / PDF_NAME).read_bytes()


def test_index_command_needs_a_folder_or_a_container():
    from adapters.cli import app

    result = CliRunner().invoke(app, ["index"])
    assert result.exit_code != 0
    assert "--from-blob" in result.output
