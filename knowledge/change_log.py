"""The audit log as the question side reads it: which sections of which rulebook were added,
changed or removed, by whom and when (written by indexing/audit_log.py, one JSON line each).

"Since the last release" means: the changes recorded with the rulebook's latest version (the
catalog's `version` travels with every event); with no versions recorded, the latest day's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any

AUDIT_FILE = "audit_log.jsonl"


def read_change_events(data_dir: Path) -> list[dict[str, Any]]:
    path = Path(data_dir) / AUDIT_FILE
    if not path.exists():
        return []
    events = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue  # a line torn by a crash mid-write loses only itself
    return events


def parse_since(value: str | None) -> str | None:
    """An ISO date or time as the lower bound of `at` (inclusive); None = no bound."""
    if not value:
        return None
    text = value.strip()
    try:
        return (datetime.fromisoformat(text.replace("Z", "+00:00")).isoformat(timespec="seconds")
                if "T" in text else date.fromisoformat(text).isoformat())
    except ValueError as exc:
        raise ValueError(f"--since {value!r}: give a date (2026-11-30) or a time (2026-11-30T09:00)") from exc


def select_changes(events: Iterable[dict[str, Any]], rulebook_id: str | None = None, since: str | None = None,
                   latest_release: bool = False) -> list[dict[str, Any]]:
    """Events in time order, of one rulebook (case-insensitive) if given, from `since` on; with
    `latest_release`, per rulebook only those of its latest version (see the module docstring)."""
    chosen = [e for e in events
              if (rulebook_id is None or str(e.get("rulebook_id", "")).casefold() == rulebook_id.casefold())
              and (since is None or str(e.get("at", "")) >= since)]
    chosen.sort(key=lambda e: str(e.get("at", "")))
    if not latest_release:
        return chosen
    latest: dict[str, dict[str, Any]] = {}
    for event in chosen:
        latest[str(event["rulebook_id"])] = event
    out = []
    for event in chosen:
        last = latest[str(event["rulebook_id"])]
        if last.get("version"):
            if event.get("version") == last["version"]:
                out.append(event)
        elif str(event.get("at", ""))[:10] == str(last.get("at", ""))[:10]:
            out.append(event)
    return out
