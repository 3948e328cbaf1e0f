"""What the answer path no longer does per answer, each checked by its behaviour (no timing):
the offline model's reply reaches the gate whole and gives the same answer as word by word;
LangSmith's untraced bookkeeping stays on the loop; Teams and Slack clients are reused."""

from __future__ import annotations

import threading
from typing import Any

from aiohttp import web

from tests.load.conftest import service_for
from tests.load.test_concurrent_answers import _answer, _questions


async def test_the_offline_model_is_not_streamed_and_answers_as_when_streamed_word_by_word(
        sample_index, load_knowledge, tmp_path):
    from bot.memory.history import InMemoryHistoryStore
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    whole = service_for(sample_index, load_knowledge, tmp_path)
    assert whole.model.disable_streaming is True  # load_chat_model's choice for the offline model
    streamed = whole.model.model_copy(update={"disable_streaming": False})  # its own word-by-word chunks
    by_word = AssistantService(load_knowledge, streamed, settings=whole.settings, events=NullSink(),
                               history=InMemoryHistoryStore(), review=whole.review)
    for i, question in enumerate(_questions(12)):
        assert await _answer(whole, question, f"w{i}") == await _answer(by_word, question, f"b{i}"), question


async def test_untraced_langsmith_bookkeeping_runs_on_the_loop_and_traced_goes_to_a_thread(monkeypatch):
    from langsmith import traceable

    from bot.agent.agent import skip_untraced_thread_hops

    skip_untraced_thread_hops()
    threads: list[str] = []
    import langsmith.run_helpers as run_helpers

    setup = run_helpers._setup_run

    def recording_setup(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return setup(*args, **kwargs)

    monkeypatch.setattr(run_helpers, "_setup_run", recording_setup)

    @traceable
    async def step(x: int) -> int:
        return x + 1

    monkeypatch.delenv("LANGSMITH_TRACING", raising=False)
    monkeypatch.delenv("LANGCHAIN_TRACING_V2", raising=False)
    assert await step(1) == 2
    assert threads == [threading.current_thread().name]
    with run_helpers.tracing_context(enabled=True, client=_NoUpload()):
        assert await step(2) == 3
    assert len(threads) == 2 and threads[1] != threading.current_thread().name


class _NoUpload:
    """A LangSmith client that keeps runs to itself (tests never reach the network)."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


async def test_teams_connector_clients_are_kept_across_turns_and_closed_with_the_server():
    from microsoft_agents.hosting.core import ClaimsIdentity

    from adapters.teams.connector_clients import RetryPolicy, TeamsClientFactory

    factory = TeamsClientFactory(None, RetryPolicy())  # type: ignore[arg-type]  # anonymous: no tokens
    claims = ClaimsIdentity({})
    first = await factory.create_connector_client(None, claims, "http://127.0.0.1:9/", "aud", use_anonymous=True)
    await first.close()  # what the SDK does when a turn ends: the kept client stays open
    second = await factory.create_connector_client(None, claims, "http://127.0.0.1:9", "aud", use_anonymous=True)
    assert second is first and not first.client.closed
    other = await factory.create_connector_client(None, claims, "http://127.0.0.1:8/", "aud", use_anonymous=True)
    assert other is not first
    token_client = await factory.create_user_token_client(None, claims, use_anonymous=True)  # type: ignore[arg-type]
    assert await factory.create_user_token_client(None, claims, use_anonymous=True) is token_client  # type: ignore[arg-type]
    await factory.close()
    assert first.client.closed and other.client.closed and token_client.client.closed


async def test_slack_web_api_calls_share_one_keep_alive_connection(sample_index, load_knowledge, tmp_path):
    from adapters.slack.front_end import SlackFrontEnd

    peers: list[tuple[str, int]] = []

    async def api(request: web.Request) -> web.Response:
        peers.append(request.transport.get_extra_info("peername"))
        return web.json_response({"ok": True, "channel": "C1", "ts": "1.000001"})

    app = web.Application()
    app.router.add_post("/api/{method}", api)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    settings = sample_index.model_copy(update={"slack_api_url": f"http://127.0.0.1:{port}/api/",
                                               "slack_bot_token": "xoxb-test", "slack_signing_secret": "s"})
    service = service_for(settings, load_knowledge, tmp_path)
    front = SlackFrontEnd(service, settings, None)
    try:
        await front.open_connection_pool()
        for i in range(3):
            await front.client.chat_postMessage(channel="C1", text=f"message {i}")
        assert len(peers) == 3 and len(set(peers)) == 1  # one TCP connection for all three calls
        await front.close()
        assert front.client.session is None
    finally:
        await runner.cleanup()


def test_a_chunks_spans_are_remembered_by_content_and_handed_out_fresh():
    from bot.offline.span_scoring import _facts, chunk_spans
    from knowledge.payload import ChunkPayload

    fields = {name: field for name, field in ChunkPayload.model_fields.items() if field.is_required()}
    values = {"text": "Payment limits. A payer may send at most EUR 100,000 per day. The payee is told within "
                      "10 seconds.", "rulebook_id": "PS-04", "rulebook_title": "Aurora Rulebook",
              "section_title": "Payment limits", "page_start": 1, "page_end": 1, "chunk_index": 0}
    chunk = ChunkPayload.model_validate({**{name: values.get(name, "x") for name in fields}, **values,
                                         "tables_csv": ["Item,Limit\nPer day,\"EUR 100,000\"\n"]})
    first, again = chunk_spans("S1", chunk, 0), chunk_spans("S2", chunk, 3)
    assert [s.text for s in first] == [s.text for s in again] and len(first) >= 2
    assert all(a is not b for a, b in zip(first, again, strict=True))  # this answer's own spans
    assert {s.handle for s in again} == {"S2"} and {s.rank for s in again} == {3}
    rows = [s for s in first if s.table is not None]
    assert rows and rows[0].row == ["Per day", "EUR 100,000"]
    rows[0].row.append("changed")  # one answer's span cannot change another's
    assert next(s for s in chunk_spans("S3", chunk, 0) if s.table is not None).row == ["Per day", "EUR 100,000"]
    numbers, _ = _facts("at most EUR 100,000 per day")
    numbers.add("mine")  # the caller's own set
    assert "mine" not in _facts("at most EUR 100,000 per day")[0]
