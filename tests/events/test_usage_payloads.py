"""One way to record a usage event (`events.usage_event.emit_usage`): the same keys for the same
fact on every platform, users by keyed hash only, and a broken sink never breaks the caller."""

from __future__ import annotations

from adapters.slack.usage import SlackUsage
from adapters.teams.usage import TeamsUsage
from events.usage_event import PlatformUsage, UsageEvent, emit_usage, pseudonymous_user_id
from events.usage_sinks import InMemorySink

KEY = "k" * 32


def test_every_platform_records_an_error_and_a_copy_with_the_same_keys():
    sink = InMemorySink()
    for usage in (TeamsUsage(sink, KEY), SlackUsage(sink, KEY), PlatformUsage(sink, KEY, "web")):
        usage.error(user_id="U1", conversation_id="c", message_id="m", where=f"{usage.platform}.answer",
                    error="TimeoutError")
        usage.copy(user_id="U1", conversation_id="c", message_id="m", chars=12)
    errors, copies = sink.of_kind("error"), sink.of_kind("copy")
    assert [e.platform for e in errors] == ["teams", "slack", "web"]
    assert all(set(e.data) == {"where", "error"} for e in errors)
    assert all(e.data == {"chars": 12} for e in copies)
    assert {e.user_hash for e in sink.events} == {pseudonymous_user_id("U1", KEY)}


def test_an_anonymous_event_has_no_user_and_a_broken_sink_is_swallowed():
    class Broken:
        def emit(self, event: UsageEvent) -> None:
            raise OSError("disk full")

    emit_usage(Broken(), "source_click", {"rulebook_id": "PS-04", "page": 3}, platform="web")  # no raise
    sink = InMemorySink()
    emit_usage(sink, "source_click", {"rulebook_id": "PS-04", "page": 3}, platform="web", message_id="m")
    [event] = sink.events
    assert event.user_hash == "" and event.data == {"rulebook_id": "PS-04", "page": 3}
    TeamsUsage(sink, KEY).feedback(user_id="", conversation_id="c", message_id="m", value="positive")
    assert sink.events[-1].user_hash == ""  # no platform id: no hash of the empty string either
