"""Rulebook PDFs in Azure Blob Storage: fetch a release for indexing, and link to a cited page.

A release is one container (optionally a folder in it, `container/prefix`) holding the PDFs and,
optionally, a `catalog.yaml`. `download_release` copies them into
`<data_dir>/blob_cache/<container>/…`, keeping the blob names as relative paths, skipping
files whose ETag has not changed since the last download and deleting cached files whose blob is
gone (the index then mirrors the release, not the cache's history). Beside the files it writes
`.blob_sources.json` (relative path → blob URL) so the indexer can record each chunk's
`source_uri` as the blob's URL rather than the cache path (`blob_url_for(pdf_path)`).

Links: `blob_sas_link(source_uri, page)` returns `<blob url>?<read-only SAS>#page=N`, valid for
an hour by default, with the response headers overridden to `application/pdf` + `inline` so a
browser opens the PDF (at the page, via the fragment) instead of downloading it. The bot's
source server can also mint the SAS at click time and redirect, so a link in an old chat message
never expires (see `blob_source_link` for the direct form).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath
from typing import Any

from azure.core.exceptions import ResourceNotFoundError
from azure.storage.blob import BlobClient, BlobSasPermissions, BlobServiceClient, generate_blob_sas

MANIFEST = ".blob_sources.json"
CATALOG_NAMES = ("catalog.yaml", "catalog.yml")
DEFAULT_LINK_LIFETIME = timedelta(hours=1)


class BlobSourceError(RuntimeError):
    """Blob Storage is not configured, or the release is not where it was said to be."""


def download_release(settings: Any, container: str, dest: Path | None = None) -> Path:
    """Copy a release's PDFs (and catalog.yaml) from Blob Storage; returns the local folder.

    `container` may be `name` or `name/prefix` to take one folder of a container.
    """
    service = _service(settings)
    name, _, prefix = container.partition("/")
    prefix = prefix.strip("/")
    target = Path(dest) if dest else Path(settings.data_dir) / "blob_cache" / container.replace("/", "__")
    target.mkdir(parents=True, exist_ok=True)
    client = service.get_container_client(name)
    try:
        blobs = [b for b in client.list_blobs(name_starts_with=f"{prefix}/" if prefix else None)
                 if _wanted(b.name)]
    except ResourceNotFoundError as exc:
        raise BlobSourceError(f"Blob container {name!r} does not exist "
                              f"(account {service.account_name}).") from exc
    if not any(b.name.lower().endswith(".pdf") for b in blobs):
        where = f"{name}/{prefix}" if prefix else name
        raise BlobSourceError(f"No PDF in Blob container {where!r}: nothing to index.")

    manifest_path = target / MANIFEST
    previous = _read_manifest(manifest_path)
    manifest: dict[str, dict[str, str]] = {}
    for blob in blobs:
        relative = PurePosixPath(blob.name[len(prefix) + 1:] if prefix else blob.name)
        if ".." in relative.parts or relative.is_absolute():
            raise BlobSourceError(f"Blob name {blob.name!r} would leave the download folder.")
        local = target / relative
        blob_client = client.get_blob_client(blob.name)
        entry = {"url": blob_client.url, "etag": str(blob.etag), "blob": blob.name}
        known = previous.get(str(relative))
        if not (known and known.get("etag") == entry["etag"] and local.exists()):
            local.parent.mkdir(parents=True, exist_ok=True)
            partial = local.with_name(local.name + ".part")
            with partial.open("wb") as handle:
                blob_client.download_blob().readinto(handle)
            os.replace(partial, local)  # never leave a half-written PDF under the real name
        manifest[str(relative)] = entry
    for stale in set(previous) - set(manifest):
        (target / stale).unlink(missing_ok=True)
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    return target


def blob_url_for(pdf_path: Path) -> str | None:
    """The blob URL a downloaded file came from (None for a file that did not come from Blob)."""
    pdf_path = Path(pdf_path).resolve()
    for folder in pdf_path.parents:
        manifest = folder / MANIFEST
        if manifest.exists():
            entry = _read_manifest(manifest).get(pdf_path.relative_to(folder).as_posix())
            return entry["url"] if entry else None
    return None


def blob_sas_link(source_uri: str, page: int, settings: Any | None = None,
                  lifetime: timedelta = DEFAULT_LINK_LIFETIME) -> str:
    """A time-limited read-only URL that opens the PDF at `page`.

    `source_uri` is the blob URL recorded in the chunk payload, or `container/blob name`.
    """
    service = _service(settings)
    container, blob_name = _split_blob_reference(source_uri)
    credential = service.credential
    if not getattr(credential, "account_key", None):
        raise BlobSourceError("RULEBOOK_BLOB_CONNECTION_STRING has no AccountKey: "
                              "SAS links need the account key.")
    now = datetime.now(UTC)
    sas = generate_blob_sas(
        account_name=credential.account_name, container_name=container, blob_name=blob_name,
        account_key=credential.account_key, permission=BlobSasPermissions(read=True),
        start=now - timedelta(minutes=5),  # tolerate a little clock skew at the storage end
        expiry=now + lifetime, content_type="application/pdf", content_disposition="inline")
    url = service.get_blob_client(container, blob_name).url
    return f"{url}?{sas}#page={max(1, int(page))}"


def blob_source_link(settings: Any, lifetime: timedelta = DEFAULT_LINK_LIFETIME) -> Callable[[Any, int], str]:
    """A `bot.source_links.SourceLink` for Blob-hosted PDFs: `(chunk payload, page) -> SAS URL`."""
    service = _service(settings)

    def link(chunk: Any, page: int) -> str:
        if not chunk.source_uri:
            raise BlobSourceError(f"Chunk {chunk.chunk_id} has no source_uri to link to.")
        return blob_sas_link(chunk.source_uri, page, settings=_Fixed(service), lifetime=lifetime)

    return link


class _Fixed:
    """Settings stand-in that hands over an existing client (one connection pool per link maker)."""

    def __init__(self, service: BlobServiceClient) -> None:
        self.service = service


def _service(settings: Any | None) -> BlobServiceClient:
    if isinstance(settings, _Fixed):
        return settings.service
    if settings is None:
        from config.settings import get_settings

        settings = get_settings()
    if not settings.blob_connection_string:
        raise BlobSourceError("Blob Storage is not configured: set RULEBOOK_BLOB_CONNECTION_STRING.")
    from config.secret_values import reveal

    # fail fast (no hidden SDK retries): a CLI user waiting on a dead endpoint wants the error
    return BlobServiceClient.from_connection_string(
        reveal(settings.blob_connection_string), retry_total=1, connection_timeout=5, read_timeout=60)


def _split_blob_reference(source_uri: str) -> tuple[str, str]:
    if source_uri.startswith(("http://", "https://")):
        client = BlobClient.from_blob_url(source_uri.split("#", 1)[0].split("?", 1)[0])
        return client.container_name, client.blob_name
    container, _, blob_name = source_uri.lstrip("/").partition("/")
    if not container or not blob_name:
        raise BlobSourceError(f"Not a blob reference: {source_uri!r} (expected a blob URL or "
                              "'container/blob name').")
    return container, blob_name


def _wanted(blob_name: str) -> bool:
    base = blob_name.rsplit("/", 1)[-1].lower()
    return base.endswith(".pdf") or base in CATALOG_NAMES


def _read_manifest(path: Path) -> dict[str, dict[str, str]]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
