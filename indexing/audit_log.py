"""Append-only JSONL audit trail: which section of which rulebook was added, changed or removed,
by whom (the catalog's changed_by) and when. One line per section event, under the data dir.
Events are of the documents: the same file and catalog entry read again by other indexing code
(`indexing.pipeline_code`) has its sections cut anew and logs nothing."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from knowledge.change_log import AUDIT_FILE, read_change_events

Action = Literal["added", "changed", "removed"]


@dataclass
class AuditEvent:
    rulebook_id: str
    section_key: str
    section_title: str
    action: Action
    changed_by: str | None
    version: str
    reason: str = ""
    at: str = ""


def audit_path(data_dir: Path) -> Path:
    return data_dir / AUDIT_FILE


def append_events(data_dir: Path, events: list[AuditEvent]) -> None:
    if not events:
        return
    now = datetime.now(UTC).isoformat(timespec="seconds")
    data_dir.mkdir(parents=True, exist_ok=True)
    with audit_path(data_dir).open("a", encoding="utf-8") as handle:
        for event in events:
            event.at = event.at or now
            handle.write(json.dumps(asdict(event), ensure_ascii=False) + "\n")


def read_events(data_dir: Path) -> list[dict[str, object]]:
    return read_change_events(data_dir)
