"""The real agent loop through the real langchain-openai client, against a loopback stand-in that
streams scripted tool calls and text, and records every request it got."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from bot.answer import NO_GROUNDED_ANSWER, StatusEvent, TokenEvent, User
from bot.memory.history import InMemoryHistoryStore
from bot.memory.review_queue import JsonlReviewQueue
from knowledge.citation_ledger import ToolResultLedger
from knowledge.payload import ChunkPayload
from tests.bot.conftest import collect, final_of
from tests.bot.openai_standin import OpenAIStandIn, Reply, ToolCall

FRIDGE_SENTENCE = re.compile(r"[^.\n]*connected refrigerator[^.\n]*\.")


def tool_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in OpenAIStandIn.tool_messages(body)]


def search_then(query: str, answer: Callable[[list[str]], Reply]) -> Callable[[dict[str, Any]], Reply]:
    """A model script: search the rulebooks for `query`, then answer from the tool results."""
    def script(body: dict[str, Any]) -> Reply:
        results = tool_texts(body)
        if not results:
            return Reply(tool_calls=[ToolCall("search_rulebooks", {"query": query})])
        return answer(results)

    return script


def quote_with_handle(tool_text: str, pattern: re.Pattern[str]) -> str:
    """A sentence of a tool result, verbatim, cited with the handle of the passage it is in."""
    for block in re.split(r"\n\n(?=\[S\d+\])", tool_text):
        handle = re.match(r"\[(S\d+)\]", block)
        found = pattern.search(" ".join(block.split()))
        if handle and found:
            sentence = found.group(0).strip()
            return f"{sentence[:-1]} [{handle.group(1)}]."
    raise AssertionError(f"no passage matches {pattern.pattern}")


async def test_tools_are_called_and_their_results_reach_the_model(standin, make_service):
    def reply(results: list[str]) -> Reply:
        return Reply(text="Here is what the rulebook says:\n\n- " + quote_with_handle(results[0], FRIDGE_SENTENCE))

    script = search_then("pay with a connected refrigerator", reply)

    server, model = await standin(script)
    service = make_service(model)
    events = await collect(service, "Can I pay with my fridge?")
    answer = final_of(events).answer

    assert len(server.requests) == 2
    first, second = server.requests
    assert first["messages"][0]["role"] == "system" and "[not covered]" in first["messages"][0]["content"]
    assert {t["function"]["name"] for t in first["tools"]} == {
        "search_rulebooks", "retrieve_rulebook_sections", "retrieve_full_rulebook", "list_available_rulebooks",
        "list_rulebook_changes"}
    assert any("connected refrigerator" in text for text in tool_texts(second))
    assert StatusEvent("Searching the rulebooks…") in events
    assert answer.outcome == "answered", answer.reason
    assert answer.citations[0].rulebook_id == "PS-04" and answer.citations[0].page == 4
    assert "[1]" in answer.text
    streamed = "".join(e.text for e in events if isinstance(e, TokenEvent))
    assert streamed.strip() == answer.text
    kinds = [e.kind for e in service.events.events]
    assert kinds[0] == "question" and "tool_call" in kinds and "gate" in kinds and kinds[-1] == "answer"
    tool_event = service.events.of_kind("tool_call")[0]
    assert tool_event.data["name"] == "search_rulebooks" and tool_event.data["result_chars"] > 100


async def test_a_wrong_section_comes_back_with_the_available_ones_and_the_model_retries(standin, make_service):
    def script(body: dict[str, Any]) -> Reply:
        results = tool_texts(body)
        if not results:
            return Reply(tool_calls=[ToolCall("retrieve_rulebook_sections", {"rulebook_id": "PS-04", "section_path": "9.7"})])
        if len(results) == 1:
            return Reply(tool_calls=[ToolCall("retrieve_rulebook_sections", {"rulebook_id": "PS-04", "section_path": "3.1"})])
        return Reply(text=quote_with_handle(results[1], FRIDGE_SENTENCE))

    server, model = await standin(script)
    events = await collect(make_service(model), "Which devices are accepted?")
    guardrail = tool_texts(server.requests[1])[0]
    assert "not found" in guardrail and "3.1" in guardrail
    assert StatusEvent("Reading section 9.7 of PS-04…") in events
    assert final_of(events).answer.outcome == "answered"


async def test_a_rulebook_too_long_to_read_whole_returns_its_sections(standin, make_service, knowledge, sample_index):
    from knowledge.knowledge_base import KnowledgeBase

    small = KnowledgeBase(knowledge.store, knowledge.searcher.encoder, full_rulebook_token_limit=50)

    def script(body: dict[str, Any]) -> Reply:
        if not tool_texts(body):
            return Reply(tool_calls=[ToolCall("retrieve_full_rulebook", {"rulebook_id": "PS-04"})])
        return Reply(text="[not covered] The rulebook is too long to read whole.")

    server, model = await standin(script)
    events = await collect(make_service(model, knowledge=small), "Summarise PS-04.")
    warning = tool_texts(server.requests[1])[0]
    assert "too long" in warning and "3.1" in warning
    assert final_of(events).answer.outcome == "refused"


async def test_the_tool_call_cap_holds(standin, make_service):
    def script(body: dict[str, Any]) -> Reply:  # a model that never stops searching
        n = len(tool_texts(body))
        return Reply(tool_calls=[ToolCall("search_rulebooks", {"query": f"fridge attempt {n}"})])

    server, model = await standin(script)
    service = make_service(model, settings={"max_tool_calls": 3})
    events = await collect(service, "Can I pay with my fridge?")
    assert len(service.events.of_kind("tool_call")) == 3
    assert max(len(tool_texts(r)) for r in server.requests) == 3
    capped = [r for r in server.requests if len(tool_texts(r)) == 3]
    assert capped and not capped[0].get("tools")  # at the cap the model is offered no tools
    assert "Tool call limit reached" in capped[0]["messages"][0]["content"]
    reminded = [r for r in server.requests if len(tool_texts(r)) >= 5]
    assert not reminded
    answer = final_of(events).answer
    assert answer.outcome == "blocked" and answer.tool_calls == 3


async def test_the_fifth_call_brings_the_reminder(standin, make_service):
    def script(body: dict[str, Any]) -> Reply:
        n = len(tool_texts(body))
        if n < 6:
            return Reply(tool_calls=[ToolCall("search_rulebooks", {"query": f"fridge attempt {n}"})])
        return Reply(text="[not covered] Nothing new to fetch.")

    server, model = await standin(script)
    await collect(make_service(model), "Can I pay with my fridge?")
    systems = {len(tool_texts(r)): r["messages"][0]["content"] for r in server.requests}
    assert "Tool calls so far" not in systems[4]
    assert "Tool calls so far: 5" in systems[5]


async def test_the_history_window_keeps_twenty_messages(standin, make_service):
    history = InMemoryHistoryStore()
    await history.append("conv-h", [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"}
                                    for i in range(30)])
    server, model = await standin(lambda body: Reply(text="[not covered] Not in the rulebooks."))
    service = make_service(model, history=history)
    await collect(service, "and for cross-border?", conversation_id="conv-h")
    sent = server.requests[0]["messages"]
    assert [m["role"] for m in sent[:2]] == ["system", "user"]
    assert len(sent) == 1 + 20 + 1
    assert sent[1]["content"] == "message 10" and sent[20]["content"] == "message 29"
    assert sent[-1]["content"] == "and for cross-border?"
    stored = await history.get("conv-h")
    assert stored[-2] == {"role": "user", "content": "and for cross-border?"}
    assert stored[-1]["role"] == "assistant"  # the refusal as the user read it: ours, not the model's words
    assert stored[-1]["content"].startswith("The rulebooks I can consult do not cover this question. Searched: ")


async def test_a_follow_up_sees_the_previous_answer(standin, make_service):
    def reply(results: list[str]) -> Reply:
        return Reply(text=quote_with_handle(results[0], FRIDGE_SENTENCE))

    script = search_then("connected refrigerator", reply)

    server, model = await standin(script)
    service = make_service(model)
    await collect(service, "Can I pay with my fridge?", conversation_id="conv-f")
    await collect(service, "and with cufflinks?", conversation_id="conv-f")
    follow_up = server.requests[2]["messages"]
    assert follow_up[1] == {"role": "user", "content": "Can I pay with my fridge?"}
    assert "(source: PS-04" in follow_up[2]["content"] and "[1]" not in follow_up[2]["content"]


async def test_the_gate_drops_an_unsupported_sentence(standin, make_service):
    def reply(results: list[str]) -> Reply:
        good = quote_with_handle(results[0], FRIDGE_SENTENCE)
        handle = re.search(r"\[(S\d+)\]", good).group(1)
        return Reply(text=f"{good} Visa charges EUR 3.10 for every fridge payment [{handle}].")

    script = search_then("connected refrigerator", reply)

    _, model = await standin(script)
    service = make_service(model)
    events = await collect(service, "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert answer.outcome == "answered"
    assert "Visa" not in answer.text and "3.10" not in "".join(e.text for e in events if isinstance(e, TokenEvent))
    assert answer.reason == "1 unsupported sentence(s) removed"


async def test_the_gate_blocks_an_uncited_answer_and_queues_it(standin, make_service, tmp_path):
    def reply(results: list[str]) -> Reply:
        return Reply(text="Yes, you can pay with your fridge up to EUR 150.")

    script = search_then("fridge", reply)

    _, model = await standin(script)
    queue = JsonlReviewQueue(tmp_path / "review.jsonl")
    events = await collect(make_service(model, review=queue), "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert (answer.outcome, answer.text, answer.reason) == ("blocked", NO_GROUNDED_ANSWER, "the draft cited no source")
    assert not [e for e in events if isinstance(e, TokenEvent)]
    (item,) = queue.read()
    assert item.question == "Can I pay with my fridge?" and "EUR 150" in item.draft
    assert item.reason == "the draft cited no source"


async def test_the_gate_blocks_an_answer_citing_a_draft(standin, make_service, tmp_path):
    draft = ChunkPayload.model_construct(
        chunk_id="PS-11:4", rulebook_id="PS-11", rulebook_title="Aurora Instant Payments Rulebook", status="draft",
        language="en", page_start=4, page_end=4, section_path=["3", "3.1"], section_title="Maximum amount",
        chunk_index=4, text="The proposed maximum amount per Aurora Instant Credit Transfer is EUR 100,000.",
        tables_csv=[], has_table=False, content_hash="x")

    def ledger_with_a_draft() -> ToolResultLedger:  # as if a draft had slipped into the index
        ledger = ToolResultLedger()
        assert ledger.record(draft) == "S1"
        return ledger

    def reply(results: list[str]) -> Reply:
        return Reply(text="The proposed maximum amount per Aurora Instant Credit Transfer is EUR 100,000 [S1].")

    script = search_then("instant payment maximum amount", reply)

    _, model = await standin(script)
    queue = JsonlReviewQueue(tmp_path / "review.jsonl")
    events = await collect(make_service(model, review=queue, ledger_factory=ledger_with_a_draft),
                           "What is the maximum instant payment?")
    answer = final_of(events).answer
    assert answer.outcome == "blocked" and answer.text == NO_GROUNDED_ANSWER
    assert "not vetted" in answer.reason and "100,000" not in "".join(
        e.text for e in events if isinstance(e, TokenEvent))
    (item,) = queue.read()
    assert "not vetted" in item.reason and item.decisions


async def test_an_unreachable_model_ends_in_a_clear_final_event(make_service):
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="gpt-4o", base_url="http://127.0.0.1:9/v1", api_key="x", max_retries=0, timeout=5)
    service = make_service(model)
    events = await collect(service, "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert answer.outcome == "blocked" and "language model is not reachable" in answer.text
    assert answer.reason.startswith("chat model error")
    assert service.events.of_kind("error")


async def test_an_unreachable_index_ends_in_a_clear_final_event(standin, make_service, knowledge):
    from knowledge.knowledge_base import KnowledgeBase

    class DownStore:  # stands for a Qdrant server that does not answer
        def __getattr__(self, name: str) -> Any:
            def fail(*args: Any, **kwargs: Any) -> Any:
                raise ConnectionError("Qdrant at qdrant.internal:6333 refused the connection")
            return fail

    down = KnowledgeBase(DownStore(), knowledge.searcher.encoder)  # type: ignore[arg-type]
    _, model = await standin(lambda body: Reply(tool_calls=[ToolCall("search_rulebooks", {"query": "fridge"})]))
    events = await collect(make_service(model, knowledge=down), "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert answer.outcome == "blocked" and "index is not reachable" in answer.text
    assert "refused the connection" in answer.reason


async def test_roles_are_bound_into_the_tools(standin, make_service):
    def script(body: dict[str, Any]) -> Reply:
        if not tool_texts(body):
            return Reply(tool_calls=[ToolCall("list_available_rulebooks", {})])
        return Reply(text="[not covered] Done.")

    server, model = await standin(script)
    service = make_service(model)
    await collect(service, "Which rulebooks exist?", user=User(id="u", roles=()))
    await collect(service, "Which rulebooks exist?", user=User(id="u", roles=("risk-officer",)),
                  conversation_id="conv-2")
    public, risk = (tool_texts(r)[0] for r in server.requests if tool_texts(r))
    assert "PS-07" not in public and "PS-07" in risk
    assert json.dumps(server.requests[0]["tools"]).count("roles") == 0  # roles are never a tool argument
