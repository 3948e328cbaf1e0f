"""Long text cut into pieces that fit a limit, at the cleanest boundary there is.

Paragraphs first, then lines, then sentences, then words; a single word longer than the limit (a
very long URL) is the only thing ever cut. Used wherever a platform caps one text field (Slack's
markdown block, a dialog's sections).
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?…:;])\s+")


def split_text(text: str, limit: int) -> list[str]:
    """Pieces of at most `limit` characters; joined by whitespace they give back every word."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    if len(text) <= limit:
        return [text] if text.strip() else []
    pieces: list[str] = []
    for separator, splitter in (
        ("\n\n", lambda t: t.split("\n\n")),
        ("\n", lambda t: t.split("\n")),
        (" ", lambda t: _SENTENCE_END.split(t)),
        (" ", lambda t: t.split(" ")),
    ):
        parts = splitter(text)
        if len(parts) > 1:
            pieces = _pack(parts, separator, limit)
            break
    else:
        return [text[i:i + limit] for i in range(0, len(text), limit)]
    result: list[str] = []
    for piece in pieces:
        result.extend(split_text(piece, limit) if len(piece) > limit else [piece])
    return [p.rstrip().lstrip("\n") for p in result if p.strip()]


def _pack(parts: list[str], separator: str, limit: int) -> list[str]:
    packed: list[str] = []
    current = ""
    for part in parts:
        candidate = f"{current}{separator}{part}" if current else part
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            packed.append(current)
        current = part
    if current:
        packed.append(current)
    return packed
