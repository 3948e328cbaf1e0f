"""The built-in offline model driving the same agent loop over the indexed sample corpus."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from bot.answer import StatusEvent, TokenEvent
from bot.offline_model import OfflineRulebookModel
from tests.bot.conftest import collect, final_of


async def test_the_fridge_question_is_answered_from_the_payment_devices_page(make_service):
    service = make_service()
    events = await collect(service, "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert answer.outcome == "answered", answer.reason
    assert any(c.rulebook_id == "PS-04" and c.page == 4 for c in answer.citations)
    assert "[1]" in answer.text
    assert answer.citations[0].uri.endswith("/sources/PS-04?page=4#page=4")
    assert any("refrigerator" in c.quote for c in answer.citations)
    tokens = [e for e in events if isinstance(e, TokenEvent)]
    assert len(tokens) >= 2  # released sentence by sentence, not in one piece
    assert isinstance(events[0], StatusEvent) and events[0].text == "Searching the rulebooks…"
    assert "".join(t.text for t in tokens).strip() == answer.text


async def test_a_question_about_another_scheme_is_refused(make_service):
    answer = final_of(await collect(make_service(), "What does Visa charge for a refund?")).answer
    assert answer.outcome == "refused"
    assert answer.citations == [] and "Visa" in answer.text


async def test_a_french_question_is_answered_in_french_from_a_dutch_source(make_service):
    answer = final_of(await collect(make_service(), "Quelle est la limite par transaction pour Aurora QR ?")).answer
    assert answer.outcome == "answered", answer.reason
    assert answer.language == "fr"
    assert answer.text.startswith("Voici ce que disent les règlements (citation en néerlandais)")
    dutch = [c for c in answer.citations if c.language == "nl"]
    assert dutch and dutch[0].rulebook_id == "PS-05-NL" and "EUR 500" in dutch[0].quote
    assert "néerlandais" in dutch[0].translation_note and "traduction" in dutch[0].translation_note


async def test_the_offline_model_streams_its_reply_in_pieces():
    model = OfflineRulebookModel()  # no tools bound, nothing retrieved: it says so, streaming
    pieces = [chunk.text async for chunk in model.astream([HumanMessage("Can I pay with my fridge?")])]
    assert len(pieces) > 3
    assert "".join(pieces).startswith("[not covered]")


def test_the_offline_model_asks_for_a_search_first():
    model = OfflineRulebookModel().bind_tools([])
    model = model.model_copy(update={"tool_names": ("search_rulebooks", "retrieve_rulebook_sections")})
    message = model.invoke([HumanMessage("Can I pay with my fridge?")])
    assert message.tool_calls[0]["name"] == "search_rulebooks"
    assert message.tool_calls[0]["args"] == {"query": "Can I pay with my fridge?"}
