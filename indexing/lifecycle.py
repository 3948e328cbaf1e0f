"""Sort a folder's PDFs the way a document-management audit would, into five buckets.

- vetted & active: indexed;
- vetted & archived: indexed, its chunks marked with the withdrawal date;
- draft: quarantined, never indexed;
- duplicate of an active document: not indexed, listed for the audit. A duplicate is what the
  catalog says (`duplicate_of`) or a file whose bytes are identical to an indexed one;
- unknown provenance: a PDF the catalog does not know; excluded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from indexing.catalog import Catalog, CatalogEntry, load_catalog

Bucket = Literal["vetted_active", "vetted_archived", "draft", "duplicate", "unknown_provenance"]
BUCKETS: tuple[Bucket, ...] = ("vetted_active", "vetted_archived", "draft", "duplicate", "unknown_provenance")
BUCKET_LABELS = {
    "vetted_active": "vetted & active (indexed)",
    "vetted_archived": "vetted & archived (indexed, marked withdrawn)",
    "draft": "draft (quarantined, not indexed)",
    "duplicate": "duplicate of an active document (not indexed)",
    "unknown_provenance": "unknown provenance (not in the catalog, excluded)",
}


@dataclass
class InventoryItem:
    path: Path
    bucket: Bucket
    entry: CatalogEntry | None
    file_sha256: str
    note: str = ""

    @property
    def rulebook_id(self) -> str:
        return self.entry.id if self.entry else self.path.stem

    def to_dict(self) -> dict[str, object]:
        return {"file": self.path.name, "rulebook_id": self.rulebook_id, "bucket": self.bucket,
                "note": self.note}


@dataclass
class Inventory:
    folder: Path
    catalog: Catalog
    items: list[InventoryItem] = field(default_factory=list)

    def bucket(self, name: Bucket) -> list[InventoryItem]:
        return [item for item in self.items if item.bucket == name]

    @property
    def to_index(self) -> list[InventoryItem]:
        return self.bucket("vetted_active") + self.bucket("vetted_archived")

    @property
    def excluded_share(self) -> float:
        """Share of the PDFs that did not survive the audit (draft, duplicate, unknown)."""
        if not self.items:
            return 0.0
        return 1 - len(self.to_index) / len(self.items)

    def to_dict(self) -> dict[str, object]:
        return {
            "folder": str(self.folder),
            "catalog": self.catalog.present,
            "total": len(self.items),
            "buckets": {name: {"label": BUCKET_LABELS[name], "count": len(self.bucket(name)),
                               "files": [i.to_dict() for i in self.bucket(name)]} for name in BUCKETS},
            "excluded_share": round(self.excluded_share, 4),
        }


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def take_inventory(folder: Path) -> Inventory:
    folder = folder.resolve()
    catalog = load_catalog(folder)
    inventory = Inventory(folder=folder, catalog=catalog)
    pdfs = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".pdf")
    by_id = {e.id: e for e in catalog.entries.values()}
    for pdf in pdfs:
        entry = catalog.entries.get(pdf.name)
        sha = file_sha256(pdf)
        if entry is None:
            inventory.items.append(InventoryItem(pdf, "unknown_provenance", None, sha,
                                                 "not in catalog.yaml"))
        elif entry.duplicate_of:
            target = by_id.get(entry.duplicate_of)
            note = f"duplicate of {entry.duplicate_of}" + ("" if target else " (not in the catalog)")
            inventory.items.append(InventoryItem(pdf, "duplicate", entry, sha, note))
        elif entry.status == "draft":
            inventory.items.append(InventoryItem(pdf, "draft", entry, sha, "draft: not vetted"))
        elif entry.status == "vetted_archived":
            inventory.items.append(InventoryItem(pdf, "vetted_archived", entry, sha,
                                                 f"withdrawn on {entry.withdrawn_on}"))
        elif entry.status == "vetted_active":
            inventory.items.append(InventoryItem(pdf, "vetted_active", entry, sha))
        else:
            inventory.items.append(InventoryItem(pdf, "draft", entry, sha,
                                                 f"unknown status {entry.status!r}: quarantined"))
    _same_bytes_are_duplicates(inventory)
    return inventory


def _same_bytes_are_duplicates(inventory: Inventory) -> None:
    """A second file with identical bytes to an indexed one is a duplicate, catalogued or not.
    The original is the active one, then the one with the shortest name ("x.pdf", not "x copy.pdf")."""
    first: dict[str, InventoryItem] = {}
    for item in sorted(inventory.to_index,
                       key=lambda i: (i.bucket != "vetted_active", len(i.path.name), i.path.name)):
        original = first.setdefault(item.file_sha256, item)
        if original is not item:
            item.bucket = "duplicate"
            item.note = f"identical bytes to {original.rulebook_id}"
