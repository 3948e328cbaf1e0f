"""A document system's event about one document, turned into an indexing job.

    {"event_id": "evt-81", "document_id": "PS-04", "action": "upserted",
     "source": "https://dms.example/ps-04.pdf" | "/srv/rulebooks/PS-04.pdf",
     "changed_by": "a.jansen", "version": "2026.2", "title": "…", "metadata": {"roles": [...], …}}

- upserted: fetch the PDF (an http(s) URL, a file:// URL or a path on this machine), take its
  catalog entry (the folder it was indexed from before, or the catalog beside the file), let the
  event's fields win, and index it: only chunks whose text changed are embedded (vectors are
  cached by content hash), and the new chunks go live in one switch.
- withdrawn: the same document again, marked vetted_archived with the withdrawal date: it keeps
  answering questions about the past, demoted and labelled as superseded.
- deleted: out of every answer at once, then its points are deleted.
"""

from __future__ import annotations

import re
import shutil
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, field_validator

from indexing.catalog import Catalog, CatalogEntry, load_catalog
from indexing.index_state import IndexState
from indexing.lifecycle import Inventory, InventoryItem, file_sha256

if TYPE_CHECKING:
    from config.settings import Settings
    from indexing.dense_fill import StopSignal
    from indexing.pipeline import IndexSummary, ProgressCallback

Action = Literal["upserted", "withdrawn", "deleted"]
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
DOWNLOAD_LIMIT = 200 * 1024 * 1024
_ENTRY_FIELDS = ("title", "type", "roles", "status", "version", "vetted_on", "withdrawn_on", "language", "isin",
                 "series", "changed_by")


class DocumentEventError(ValueError):
    """The event cannot be carried out (no source, unreachable source, not a PDF)."""


class DocumentEvent(BaseModel):
    event_id: str = Field(min_length=1, max_length=200)
    document_id: str
    action: Action
    source: str | None = None  # URL or path of the PDF; required for upserted
    changed_by: str | None = None
    version: str | None = None
    title: str | None = None
    occurred_at: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)  # any catalog field (roles, type, language…)

    @field_validator("document_id")
    @classmethod
    def _safe_id(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError("document_id: letters, digits, '.', '_' and '-' only (at most 128)")
        return value

    def model_post_init(self, _: Any) -> None:
        if self.action == "upserted" and not self.source:
            raise ValueError("an upserted event needs a source (URL or path of the PDF)")
        unknown = set(self.metadata) - set(_ENTRY_FIELDS)
        if unknown:
            raise ValueError(f"metadata: unknown field(s) {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(_ENTRY_FIELDS)}")


def fetch_source(source: str, rulebook_id: str, data_dir: Path) -> Path:
    """A local PDF path for `source`: a path as it is, a URL downloaded under the data dir."""
    parsed = urllib.parse.urlparse(source)
    if parsed.scheme in ("http", "https"):
        name = Path(parsed.path).name or f"{rulebook_id}.pdf"
        if not name.lower().endswith(".pdf"):
            name += ".pdf"
        target = _incoming(data_dir, rulebook_id) / name
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".part")
        try:
            with urllib.request.urlopen(source, timeout=60) as response, tmp.open("wb") as out:  # noqa: S310
                copied = 0
                while block := response.read(1 << 20):
                    copied += len(block)
                    if copied > DOWNLOAD_LIMIT:
                        raise DocumentEventError(f"{source}: larger than {DOWNLOAD_LIMIT // (1 << 20)} MB")
                    out.write(block)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise DocumentEventError(f"could not fetch {source}: {exc}") from exc
        tmp.replace(target)
        return target
    path = Path(urllib.request.url2pathname(parsed.path) if parsed.scheme == "file" else source).expanduser()
    if not path.is_file():
        raise DocumentEventError(f"no file at {path}")
    return path


def _catalog_entry(event: DocumentEvent, path: Path, state: IndexState) -> CatalogEntry:
    """The document's catalog entry as the document system last described it, then the event."""
    entry: CatalogEntry | None = None
    old = state.documents.get(event.document_id)
    for folder in ([Path(old.source_dir)] if old else []) + [path.parent]:
        try:
            catalog = load_catalog(folder) if (folder / "catalog.yaml").exists() else None
        except ValueError:
            catalog = None
        if catalog:
            entry = next((e for e in catalog.entries.values() if e.id == event.document_id), None)
            if entry:
                break
    base = entry.model_dump() if entry else {"id": event.document_id, "title": event.document_id}
    base.update({"file": path.name, "id": event.document_id})
    base.update(event.metadata)
    for name in ("changed_by", "version", "title"):
        value = getattr(event, name)
        if value:
            base[name] = value
    if event.action == "withdrawn":
        base["status"] = "vetted_archived"
        base["withdrawn_on"] = base.get("withdrawn_on") or (event.occurred_at or datetime.now(UTC).isoformat())[:10]
    return CatalogEntry.model_validate(base)


def _source_of(event: DocumentEvent, state: IndexState) -> str:
    if event.source:
        return event.source
    old = state.documents.get(event.document_id)
    if old is None:
        raise DocumentEventError(f"{event.document_id} is not indexed and the event names no source")
    return old.source_path


def apply_event(event: DocumentEvent, settings: Settings, progress: ProgressCallback | None = None,
                on_switched: Any = None, stop: StopSignal | None = None) -> IndexSummary:
    from indexing.pipeline import Indexer

    indexer = Indexer(settings, progress, on_switched=on_switched, stop=stop)
    data_dir = Path(settings.data_dir)
    state = IndexState.load(data_dir)
    if event.action == "deleted":
        summary = indexer.remove_document(event.document_id, "deleted in the document system", event.changed_by,
                                          event.version or "")
        shutil.rmtree(_incoming(data_dir, event.document_id), ignore_errors=True)
        return summary
    path = fetch_source(_source_of(event, state), event.document_id, data_dir)
    entry = _catalog_entry(event, path, state)
    if entry.status == "draft":
        raise DocumentEventError(f"{event.document_id} is a draft: drafts are never indexed")
    if path.suffix.lower() != ".pdf":
        copy = _incoming(data_dir, event.document_id) / f"{path.stem}.pdf"
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
        path = copy
    bucket = "vetted_archived" if entry.status == "vetted_archived" else "vetted_active"
    item = InventoryItem(path=path.resolve(), bucket=bucket, entry=entry, file_sha256=file_sha256(path))
    inventory = Inventory(folder=path.parent.resolve(), catalog=Catalog(entries={path.name: entry}, present=True),
                          items=[item])
    summary = indexer.run_document(item, inventory)
    if summary.indexed:
        _drop_superseded_downloads(data_dir, event.document_id, keep=item.path)
    return summary


def _incoming(data_dir: Path, rulebook_id: str) -> Path:
    return data_dir / "incoming" / rulebook_id


def _drop_superseded_downloads(data_dir: Path, rulebook_id: str, keep: Path) -> None:
    """The files an earlier event downloaded for this document (another name, another version),
    once the new one is live: only under the data dir's incoming/, never a folder of the user's.
    Kept while the new one fails, since the index still holds (and links to) the old one."""
    folder = _incoming(data_dir, rulebook_id).resolve()
    if keep.parent.resolve() != folder:
        return
    for old in folder.iterdir():
        if old.is_file() and old.resolve() != keep.resolve():
            old.unlink(missing_ok=True)
