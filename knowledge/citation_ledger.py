"""The record of every chunk the zoom tools showed the model, keyed by its citation handle.

The tools hand the model text with handles like "[S3]"; the bot's citation gate looks the handles
in the draft answer up here to get the exact cited span (text, rulebook, section, pages, status).
One ledger per question: handles are numbered in the order chunks are first shown, and a chunk
shown twice keeps its first handle.
"""

from __future__ import annotations

import re
import threading

from knowledge.payload import ChunkPayload

_HANDLE = re.compile(r"^\[?\s*S(\d+)\s*\]?$", re.I)


class ToolResultLedger:
    def __init__(self) -> None:
        self._by_handle: dict[str, ChunkPayload] = {}
        self._handle_of: dict[str, str] = {}
        self._lock = threading.Lock()

    def record(self, payload: ChunkPayload) -> str:
        """The handle ("S1", "S2", …) of this chunk, assigned on first sight."""
        with self._lock:
            handle = self._handle_of.get(payload.chunk_id)
            if handle is None:
                handle = f"S{len(self._by_handle) + 1}"
                self._by_handle[handle] = payload
                self._handle_of[payload.chunk_id] = handle
            return handle

    def lookup(self, reference: str) -> ChunkPayload | None:
        """A chunk by handle ("S3", "[S3]") or by chunk id; None when the model never saw it."""
        reference = reference.strip()
        match = _HANDLE.match(reference)
        with self._lock:
            if match:
                return self._by_handle.get(f"S{int(match.group(1))}")
            handle = self._handle_of.get(reference)
            return self._by_handle.get(handle) if handle else None

    def handle_of(self, chunk_id: str) -> str | None:
        with self._lock:
            return self._handle_of.get(chunk_id)

    def items(self) -> list[tuple[str, ChunkPayload]]:
        with self._lock:
            return list(self._by_handle.items())

    def __len__(self) -> int:
        return len(self._by_handle)
