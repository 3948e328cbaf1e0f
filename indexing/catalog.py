"""The document-management system's view of a folder: `catalog.yaml` (schema in its header).

No catalog at all is allowed (a user pointing the tool at a folder of PDFs): then every PDF is
vetted & active and its id is its file name without the extension.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, Field

CATALOG_FILE = "catalog.yaml"


class CatalogEntry(BaseModel):
    file: str
    id: str
    title: str = ""
    type: str = "rulebook"
    roles: list[str] = Field(default_factory=list)
    status: str = "vetted_active"  # vetted_active | vetted_archived | draft
    version: str = ""
    vetted_on: str | None = None
    withdrawn_on: str | None = None
    language: str = "en"
    isin: str | None = None
    series: str | None = None
    duplicate_of: str | None = None
    changed_by: str | None = None


class Catalog(BaseModel):
    entries: dict[str, CatalogEntry]  # file name -> entry
    present: bool = True  # False: no catalog file; entries were made up from the file names


class CatalogError(ValueError):
    pass


def load_catalog(folder: Path) -> Catalog:
    path = folder / CATALOG_FILE
    if not path.exists():
        entries = {pdf.name: CatalogEntry(file=pdf.name, id=pdf.stem, title=pdf.stem)
                   for pdf in sorted(folder.glob("*.pdf"))}
        return Catalog(entries=entries, present=False)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        documents = raw.get("documents", []) if isinstance(raw, dict) else []
        entries = {}
        for item in documents:
            entry = CatalogEntry.model_validate({k: _as_text(k, v) for k, v in item.items()})
            entries[entry.file] = entry
    except (yaml.YAMLError, ValueError, AttributeError) as exc:
        raise CatalogError(f"{path}: {exc}") from exc
    return Catalog(entries=entries, present=True)


def _as_text(key: str, value: object) -> object:
    """YAML reads 2025.1 as a float and 2025-04-02 as a date; the catalog means text."""
    if key in ("version", "vetted_on", "withdrawn_on", "id", "isin") and value is not None \
            and not isinstance(value, str):
        return str(value)
    return value
