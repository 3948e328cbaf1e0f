"""Teams' limits, each enforced: a stream ends before two minutes, updates are spaced and a 429
is retried, a message stays under 80 KB (cut at sentence ends, sources on the last part),
citation fields and counts stay within Teams' caps, and the informative updates say what the
assistant is doing."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest

from adapters.teams.citations import MAX_CITATIONS, teams_citations
from adapters.teams.connector_clients import RetryPolicy
from adapters.teams.final_message import answer_parts
from adapters.teams.front_end import TeamsWiring
from adapters.teams.message_parts import sentence_units, wire_size
from adapters.teams.reply_writers import STILL_WORKING_TEXT
from adapters.teams.teams_settings import TeamsSettings
from bot.answer import Answer, Citation, FinalEvent, StatusEvent, TokenEvent
from tests.teams import activities
from tests.teams.conftest import UPDATE_INTERVAL, start_server


def _final_of_stream(calls: list[Any]) -> Any:
    return next((c for c in calls if (c.stream_info() or {}).get("streamType") == "final"), None)


def _citation(n: int, title: str = "Instant Payments Rulebook") -> Citation:
    return Citation(n, "PS-04", title, ["4", f"4.{n}"], f"Execution time rule {n}", n + 1,
                    f"http://127.0.0.1:1/sources/PS-04?page={n + 1}",
                    f"The maximum execution time for case {n} shall be ten seconds from the time stamp. " * 4,
                    "en", f"PS-04:{n}")


def _long_answer(sentences: int, citations: int = 3) -> Answer:
    text = " ".join(f"Rule {i} sets the fee for case {i} at EUR 0.{i % 100:02d} per payment "
                    f"[{i % citations + 1}]." for i in range(sentences))
    return Answer(text=text, outcome="answered", citations=[_citation(n) for n in range(1, citations + 1)],
                  message_id="ans-long", conversation_id="teams:a:long")


class ScriptedAssistant:
    """An assistant with a given answer (a very long one, or one with many sources), its events
    spaced like a hosted model's, so the adapter's handling of size and count limits is seen
    on the wire."""

    knowledge = None

    def __init__(self, answer: Answer, statuses: list[str], delay: float = UPDATE_INTERVAL * 1.25,
                 text_delay: float = 0.01) -> None:
        self.answer, self.statuses, self.delay, self.text_delay = answer, statuses, delay, text_delay
        self.answers: list[Answer] = []
        self.questions: list[tuple[str, Any, str]] = []

    async def ask(self, question: str, user: Any, conversation_id: str):
        self.questions.append((question, user, conversation_id))
        for status in self.statuses:
            await asyncio.sleep(self.delay)
            yield StatusEvent(status)
        text = self.answer.text
        for start in range(0, len(text), 4_000):
            await asyncio.sleep(self.text_delay if start == 0 else 0.01)
            yield TokenEvent(text[start:start + 4_000])
        self.answers.append(self.answer)
        yield FinalEvent(self.answer)


async def _scripted_server(tmp_path, sample_index, assistant, **teams):
    return await start_server(tmp_path, sample_index, None, service=lambda _: assistant,
                              teams=TeamsWiring(settings=TeamsSettings(_env_file=None, **teams)))


# --- a stream lasts at most `stream_limit` ----------------------------------------------------

@pytest.fixture
async def slow_server(tmp_path, sample_index, sample_knowledge):
    running, runner = await start_server(
        tmp_path, sample_index, sample_knowledge, final_delay=1.5,
        teams=TeamsWiring(settings=TeamsSettings(_env_file=None, stream_limit=0.8)))
    yield running
    await runner.cleanup()
    running.event_log.close()


async def test_a_long_answer_ends_its_stream_in_time_and_arrives_as_an_edit(slow_server, connector):
    inbound = activities.message(connector.url, "Can I pay with my fridge?")
    await slow_server.post(inbound)
    calls = await connector.wait_for(lambda cs: any(c.method == "PUT" for c in cs))
    stop = _final_of_stream(calls)
    assert stop is not None, "the stream was closed by the bot"
    stream_id = calls[0].returned_id
    assert stop.stream_info()["streamId"] == stream_id and stop.type == "message"
    assert stop.body["text"].endswith(STILL_WORKING_TEXT)
    assert calls.index(stop) > 0 and all(c.type == "typing" for c in calls[:calls.index(stop)])
    assert not slow_server.service.answers or stop.at < calls[-1].at
    [edit] = [c for c in calls if c.method == "PUT"]
    assert calls.index(edit) > calls.index(stop)
    assert edit.activity_id == stream_id, "the stopped message is edited into the answer"
    [answer] = slow_server.service.answers
    assert edit.body["text"] == answer.text and edit.stream_info() is None
    assert edit.body["channelData"]["feedbackLoop"] == {"type": "default"}
    assert {c["position"] for c in edit.message_entity()["citation"]} == {c.n for c in answer.citations}
    assert edit.body["attachments"][0]["contentType"] == "application/vnd.microsoft.card.adaptive"
    await asyncio.sleep(UPDATE_INTERVAL * 2)
    assert connector.calls[-1] is edit, "nothing follows the final edit"


def test_the_stream_limit_defaults_inside_teams_two_minutes():
    assert 60 <= TeamsSettings(_env_file=None).stream_limit < 120


# --- updates at most one an interval; 429s retried with backoff ---------------------------------

async def test_throttled_stream_updates_are_retried_and_none_is_lost(server, connector):
    connector.throttle(3)  # the first update, then its first two retries, get 429
    await server.post(activities.message(connector.url, "Can I pay with my fridge?"))
    calls = await connector.wait_for(lambda cs: _final_of_stream(cs) is not None)
    assert len(connector.throttled) == 3
    typing = [c for c in calls if c.type == "typing"]
    assert typing[0].body["text"] == connector.throttled[0].body["text"]  # the same update, delivered
    assert [c.stream_info()["streamSequence"] for c in typing] == list(range(1, len(typing) + 1))
    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert min(gaps) >= UPDATE_INTERVAL * 0.5, gaps
    [answer] = server.service.answers
    assert _final_of_stream(calls).body["text"] == answer.text


async def test_throttled_edits_in_a_channel_are_retried(server, connector):
    connector.throttle(2)
    thread = activities.channel("19:general@thread.tacv2;messageid=1700000000429")
    await server.post(activities.message(connector.url, "Can I pay with my fridge?", conversation=thread,
                                         mention_bot=True))
    calls = await connector.wait_for(lambda cs: any(c.method == "PUT" and c.message_entity() for c in cs))
    assert [c.method for c in connector.throttled] == ["POST", "POST"]
    assert calls[0].method == "POST" and calls[0].body["text"] == connector.throttled[0].body["text"]
    gaps = [b.at - a.at for a, b in zip(calls, calls[1:], strict=False)]
    assert min(gaps) >= UPDATE_INTERVAL * 0.5, gaps


def test_backoff_doubles_honours_retry_after_and_is_capped():
    policy = RetryPolicy(attempts=6, backoff=1.0, max_delay=30.0)
    assert 1.0 <= policy.delay(0, None) <= 1.25 and 4.0 <= policy.delay(2, None) <= 5.0
    assert policy.delay(10, None) == 30.0
    assert policy.delay(0, "2.5") == 2.5 and policy.delay(0, "600") == 30.0
    assert 1.0 <= policy.delay(0, "Wed, 21 Oct 2026 07:28:00 GMT") <= 1.25


# --- a message stays under the size limit ------------------------------------------------------

def test_an_oversized_answer_is_cut_at_sentence_ends_with_the_sources_on_the_last_part():
    answer = _long_answer(2_500)
    assert wire_size({"text": answer.text}) > 80_000
    parts = answer_parts(answer, lambda c: c.uri)
    assert len(parts) >= 2
    for part in parts:
        assert wire_size(part.activity()) < 80_000
    ends = set()  # where the project's sentence splitter ends a sentence
    position = 0
    for unit in sentence_units(answer.text):
        position += len(unit)
        ends.add(len(" ".join(answer.text[:position].split())))
    cut = 0
    for part in parts[:-1]:
        cut += len(" ".join(part.text.split())) + (1 if cut else 0)
        assert cut in ends, f"part ends mid-sentence: …{part.text[-40:]!r}"
    assert " ".join(p.text for p in parts).split() == answer.text.split(), "nothing lost, nothing added"
    *first, last = parts
    assert last.citations and last.attachments and last.feedback
    assert all(not p.citations and not p.attachments and not p.feedback and p.ai_generated for p in first)


def test_an_answer_that_fits_is_one_message():
    [part] = answer_parts(_long_answer(20), lambda c: c.uri)
    assert part.citations and part.feedback


async def test_a_long_answer_reaches_teams_in_parts_under_the_limit(tmp_path, sample_index, connector):
    answer = _long_answer(1_200)
    assistant = ScriptedAssistant(answer, ["Searching the rulebooks…"])
    running, runner = await _scripted_server(tmp_path, sample_index, assistant, message_limit=40_000)
    try:
        await running.post(activities.message(connector.url, "Tell me every fee rule"))
        calls = await connector.wait_for(
            lambda cs: any(c.type == "message" and c.message_entity() and c.message_entity().get("citation")
                           for c in cs))
        assert all(len(json.dumps(c.body).encode()) < 40_000 for c in calls)
        messages = [c for c in calls if c.type == "message"]
        assert len(messages) >= 2
        assert _final_of_stream(calls) is messages[0], "the stream closes with the first part"
        assert messages[-1].body["channelData"]["feedbackLoop"] == {"type": "default"}
        assert messages[-1].body["attachments"]
        assert all(not (m.message_entity() or {}).get("citation") for m in messages[:-1])
        assert " ".join(m.body["text"] for m in messages).split() == answer.text.split()
        streamed = [c.body["text"] for c in calls if (c.stream_info() or {}).get("streamType") == "streaming"]
        assert streamed and all(answer.text.startswith(t) for t in streamed)
    finally:
        await runner.cleanup()
        running.event_log.close()


# --- citations within Teams' caps --------------------------------------------------------------

def test_at_most_twenty_citations_each_within_the_field_limits():
    answer = _long_answer(30, citations=25)
    answer.citations = [_citation(n, title="Aurora Payment Scheme Card and Device Acceptance Rulebook, "
                                              "consolidated edition with all amendments") for n in range(1, 26)]
    claims = teams_citations(answer, lambda c: c.uri)
    assert len(claims) == MAX_CITATIONS == 20
    assert [c.position for c in claims] == list(range(1, 21))
    for claim in claims:
        appearance = claim.appearance
        assert len(appearance.name) <= 80 and len(appearance.abstract) <= 160
        assert len(appearance.keywords) <= 3 and all(len(k) <= 28 for k in appearance.keywords)


async def test_a_message_with_many_sources_carries_at_most_twenty(tmp_path, sample_index, connector):
    answer = _long_answer(30, citations=25)
    assistant = ScriptedAssistant(answer, [])
    running, runner = await _scripted_server(tmp_path, sample_index, assistant)
    try:
        await running.post(activities.message(connector.url, "All the execution times?"))
        calls = await connector.wait_for(lambda cs: _final_of_stream(cs) is not None)
        claims = _final_of_stream(calls).message_entity()["citation"]
        assert len(claims) == 20
        assert all(len(c["appearance"]["abstract"]) <= 160 for c in claims)
    finally:
        await runner.cleanup()
        running.event_log.close()


# --- informative updates name what the assistant is doing ---------------------------------------

async def test_informative_updates_are_the_assistants_status_lines(tmp_path, sample_index, connector):
    statuses = ["Searching the rulebooks…", "Reading section 4.2 of PS-04…", "Searching PS-08…"]
    # each step lasts two intervals: a step line is shown once it has stood one (adapters.teams.pacing)
    assistant = ScriptedAssistant(_long_answer(10), statuses, delay=UPDATE_INTERVAL * 2,
                                  text_delay=UPDATE_INTERVAL * 2)
    running, runner = await _scripted_server(tmp_path, sample_index, assistant)
    try:
        await running.post(activities.message(connector.url, "How fast must an instant payment be?"))
        calls = await connector.wait_for(lambda cs: _final_of_stream(cs) is not None)
        informative = [c.body["text"] for c in calls if (c.stream_info() or {}).get("streamType") == "informative"]
        assert informative == statuses  # the first is shown at once, each later one once it has stood
    finally:
        await runner.cleanup()
        running.event_log.close()


async def test_the_real_assistants_status_lines_reach_the_stream(server, connector):
    await server.post(activities.message(connector.url, "What does section 4.2 of PS-04 say about execution time?"))
    calls = await connector.wait_for(lambda cs: _final_of_stream(cs) is not None)
    informative = [c.body["text"] for c in calls if (c.stream_info() or {}).get("streamType") == "informative"]
    assert informative[0] == "Searching the rulebooks…"
    assert set(informative) <= {"Searching the rulebooks…", *server.service.statuses}
    assert all(re.search(r"…$", text) for text in informative)


async def test_a_long_answer_in_a_channel_is_edited_into_its_first_part(tmp_path, sample_index, connector):
    answer = _long_answer(1_200)
    assistant = ScriptedAssistant(answer, ["Searching the rulebooks…"])
    running, runner = await _scripted_server(tmp_path, sample_index, assistant, message_limit=40_000)
    try:
        thread = activities.channel("19:general@thread.tacv2;messageid=1700000000080")
        await running.post(activities.message(connector.url, "Every fee rule?", conversation=thread,
                                              mention_bot=True))
        calls = await connector.wait_for(lambda cs: any(c.message_entity() and c.message_entity().get("citation")
                                                        for c in cs))
        assert all(len(json.dumps(c.body).encode()) < 40_000 for c in calls)
        posted = calls[0]
        edits = [c for c in calls if c.method == "PUT"]
        assert edits and {c.activity_id for c in edits} == {posted.returned_id}
        final_posts = [c for c in calls[1:] if c.method == "POST"]
        assert final_posts, "the later parts are posted after the edit"
        texts = [edits[-1].body["text"]] + [c.body["text"] for c in final_posts]
        assert " ".join(texts).split() == answer.text.split()
        assert final_posts[-1].message_entity()["citation"] and final_posts[-1].body["attachments"]
    finally:
        await runner.cleanup()
        running.event_log.close()


async def test_a_refused_stream_still_delivers_the_answer(server, connector):
    connector.refuse_streams = True  # Teams answers 403 ContentStreamNotAllowed
    await server.post(activities.message(connector.url, "Can I pay with my fridge?"))
    calls = await connector.wait_for(lambda cs: any(c.type == "message" for c in cs))
    [message] = [c for c in calls if c.type == "message"]
    [answer] = server.service.answers
    assert message.body["text"] == answer.text and message.stream_info() is None
    assert message.message_entity()["citation"]
