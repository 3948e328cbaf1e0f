"""Drafts the citation gate stopped, kept for the rulebook desk to review.

One JSON object per line in `<data_dir>/review_queue.jsonl` by default: when, which conversation
and message, the question, the model's draft as it was written (with the model's own citation
handles), the one-line reason and the gate's decision on each sentence. Another backend (a
table) only has to implement `put`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol


@dataclass
class ReviewItem:
    question: str
    draft: str
    reason: str
    conversation_id: str = ""
    message_id: str = ""
    platform: str = ""
    user_hash: str = ""
    decisions: list[dict[str, Any]] = field(default_factory=list)
    created_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat())


class ReviewQueue(Protocol):
    async def put(self, item: ReviewItem) -> None: ...


class JsonlReviewQueue:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = asyncio.Lock()

    async def put(self, item: ReviewItem) -> None:
        line = json.dumps(asdict(item), ensure_ascii=False) + "\n"
        async with self._lock:
            await asyncio.to_thread(self._append, line)

    def _append(self, line: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)

    def read(self) -> list[ReviewItem]:
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as handle:
            return [ReviewItem(**json.loads(line)) for line in handle if line.strip()]


class InMemoryReviewQueue:
    def __init__(self) -> None:
        self.items: list[ReviewItem] = []

    async def put(self, item: ReviewItem) -> None:
        self.items.append(item)
