"""Cutting an answer too long for one Teams message into parts that end at sentence ends.

Sizes are measured as the activity goes over the wire (JSON, non-ASCII escaped), because that
is what Teams limits. The sentences come from the project's one splitter (`knowledge.sentences`),
so a part never ends inside a sentence, a citation run or a table row; only a single unit larger
than a whole part is cut, at the last space that fits.
"""

from __future__ import annotations

import json
from typing import Any

from knowledge.sentences import SentenceStream


def wire_size(payload: Any) -> int:
    """Bytes of `payload` as JSON the way the Bot Connector client sends it."""
    if hasattr(payload, "model_dump"):
        payload = payload.model_dump(by_alias=True, exclude_none=True, mode="json")
    return len(json.dumps(payload).encode("utf-8"))


def text_size(text: str) -> int:
    return len(json.dumps(text)) - 2  # without the quotes


def sentence_units(text: str) -> list[str]:
    splitter = SentenceStream()
    return [*splitter.feed(text), *splitter.flush()]


def _cut_oversized(unit: str, budget: int) -> list[str]:
    pieces = []
    while text_size(unit) > budget:
        end = len(unit)
        while end > 1 and text_size(unit[:end]) > budget:
            end = max(1, end * budget // max(text_size(unit[:end]), 1) - 1)
        space = unit.rfind(" ", 0, end)
        end = space if space > end // 2 else end
        pieces.append(unit[:end])
        unit = unit[end:].lstrip()
    return [*pieces, unit] if unit else pieces


def split_text(text: str, budget: int) -> list[str]:
    """Parts of `text`, each at most `budget` bytes of JSON string, cut only at sentence ends."""
    if text_size(text) <= budget:
        return [text]
    parts: list[str] = []
    current = ""
    for unit in sentence_units(text):
        if current and text_size(current + unit) > budget:
            parts.append(current.rstrip())
            current = unit.lstrip()
        else:
            current += unit
        if text_size(current) > budget:
            *full, current = _cut_oversized(current, budget)
            parts.extend(full)
    if current.strip():
        parts.append(current.rstrip())
    return parts
