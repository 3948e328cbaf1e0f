"""The agent's tool calls as steps a front end can show: a `StatusEvent` when one starts, a
`StepEvent` when it ends, both carrying the same step id.

What a step read comes from the citation ledger: the chunks it showed the model first (a
section read again after a search keeps its first handle, so for a section read the ledger's
chunks of that section count too). Steps of one question run in its event loop, one at a time
or concurrently; start and finish are paired by tool name and arguments, in order.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict, deque
from typing import Any

from bot.answer import StatusEvent, StepEvent, StepSource

MAX_SOURCES = 5


def _key(name: str, args: dict[str, Any]) -> str:
    return name + json.dumps(args, sort_keys=True, default=str)


class ToolSteps:
    def __init__(self) -> None:
        self.ledger: Any = None  # the question's citation ledger, once there is one
        self._ids = itertools.count(1)
        self._open: dict[str, deque[tuple[str, str, int]]] = defaultdict(deque)

    def _seen(self) -> list[tuple[str, Any]]:
        items = getattr(self.ledger, "items", None)
        return list(items()) if callable(items) else []

    def started(self, name: str, args: dict[str, Any], text: str) -> StatusEvent:
        step = f"step-{next(self._ids)}"
        self._open[_key(name, args)].append((step, text, len(self._seen())))
        rulebook = args.get("rulebook_id") or ", ".join(args.get("rulebook_ids") or [])
        return StatusEvent(text, step=step, rulebook_id=str(rulebook))

    def finished(self, name: str, args: dict[str, Any], error: str | None) -> StepEvent | None:
        pending = self._open.get(_key(name, args))
        if not pending:
            return None
        step, text, seen_before = pending.popleft()
        seen = self._seen()
        payloads = [payload for _, payload in seen[seen_before:]]
        if not payloads and args.get("rulebook_id"):
            wanted = str(args.get("section_path") or "")
            payloads = [p for _, p in seen if getattr(p, "rulebook_id", "") == args["rulebook_id"]
                        and (not wanted or wanted in list(getattr(p, "section_path", []) or []))]
        return StepEvent(step=step, text=text, ok=error is None, sources=_sources(payloads))


def _sources(payloads: list[Any]) -> list[StepSource]:
    found: dict[tuple[str, str], StepSource] = {}
    for payload in payloads:
        path = list(getattr(payload, "section_path", []) or [])
        section = " ".join(p for p in (path[-1] if path else "", getattr(payload, "section_title", "")) if p)
        key = (payload.rulebook_id, section)
        if key not in found:
            found[key] = StepSource(rulebook_id=payload.rulebook_id,
                                    title=getattr(payload, "rulebook_title", "") or payload.rulebook_id,
                                    section=section, page=int(getattr(payload, "page_start", 1) or 1))
        if len(found) >= MAX_SOURCES:
            break
    return list(found.values())
