"""Event sinks for when no event log is configured (tests, benchmarks, a bare library call).

The product's sink is `events.event_log.EventLog` (Table Storage or SQLite behind a queue); these
two implement the same `EventSink` protocol without any store.
"""

from __future__ import annotations

from events.usage_event import UsageEvent


class NullSink:
    def emit(self, event: UsageEvent) -> None:
        return None


class InMemorySink:
    def __init__(self) -> None:
        self.events: list[UsageEvent] = []

    def emit(self, event: UsageEvent) -> None:
        self.events.append(event)

    def of_kind(self, kind: str) -> list[UsageEvent]:
        return [e for e in self.events if e.kind == kind]
