"""What the last runs indexed, per rulebook: the file's fingerprint and each chunk's content hash.

Kept as one JSON file under the data dir and replaced atomically (write, then rename), so a run
that dies half-way leaves the previous state intact. An unchanged file with an unchanged
catalog entry is skipped without being opened; a changed one is re-chunked and only chunks whose
content hash is new are counted as re-embedded.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

STATE_FILE = "index_state.json"


@dataclass
class SectionState:
    title: str
    hashes: list[str]


@dataclass
class DocumentState:
    rulebook_id: str
    source_path: str
    source_dir: str
    fingerprint: str  # file bytes + catalog entry + pipeline version + the code's digest
    chunks: dict[str, str] = field(default_factory=dict)  # chunk_id -> content_hash
    sections: dict[str, SectionState] = field(default_factory=dict)  # section key -> state
    pages: int = 0
    tables: int = 0
    indexed_at: str = ""
    # file bytes + catalog entry + bucket only: what the document is, whatever code read it ("" in an
    # index written before this field: then a re-read cannot tell a new document from a new parser)
    source_fingerprint: str = ""


class IndexState:
    def __init__(self, path: Path, documents: dict[str, DocumentState] | None = None) -> None:
        self.path = path
        self.documents = documents or {}

    @classmethod
    def load(cls, data_dir: Path) -> IndexState:
        path = data_dir / STATE_FILE
        if not path.exists():
            return cls(path)
        raw = json.loads(path.read_text(encoding="utf-8"))
        documents = {}
        for rid, doc in raw.get("documents", {}).items():
            sections = {k: SectionState(**v) for k, v in doc.pop("sections", {}).items()}
            documents[rid] = DocumentState(**doc, sections=sections)
        return cls(path, documents)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        payload = {"version": 1, "documents": {rid: asdict(d) for rid, d in sorted(self.documents.items())}}
        tmp.write_text(json.dumps(payload, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)
