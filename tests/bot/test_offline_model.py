"""The built-in offline model driving the same agent loop over the indexed sample corpus."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from bot.answer import StatusEvent, TokenEvent
from bot.offline.offline_model import OfflineRulebookModel
from tests.bot.conftest import collect, final_of


async def test_the_fridge_question_is_answered_from_the_payment_devices_page(make_service):
    service = make_service()
    events = await collect(service, "Can I pay with my fridge?")
    answer = final_of(events).answer
    assert answer.outcome == "answered", answer.reason
    assert any(c.rulebook_id == "PS-04" and c.page == 4 for c in answer.citations)
    assert "[1]" in answer.text
    assert "/sources/PS-04/view?page=4&cite=" in answer.citations[0].uri
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
    # the Dutch scheme rules and a French sentence of the French merchant rules: partly quoted in Dutch
    assert answer.text.startswith("Voici ce que disent les règlements (citations en partie en néerlandais)")
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


# -- what the offline model refuses ------------------------------------------------------------
async def test_advice_requests_are_refused_plainly_in_each_language_without_a_search(make_service):
    service = make_service()
    for question, language, says in [
        ("Should I invest my savings in the Aurora Kapitaalbescherming 2030 bond?", "en", "cannot give advice"),
        ("Est-ce que je devrais conseiller à mon client d'acheter le produit BE6493028177 ?", "fr",
         "ne peux pas donner de conseil"),
        ("Welk spaarproduct raadt u mij aan voor mijn pensioen?", "nl", "geen advies"),
        ("Sollte ich das Zertifikat für meine Altersvorsorge kaufen?", "de", "keine Beratung"),
    ]:
        events = await collect(service, question, conversation_id=f"advice-{language}")
        answer = final_of(events).answer
        assert answer.outcome == "refused", (question, answer.text)
        assert says in answer.text and answer.citations == []
        assert not [e for e in events if isinstance(e, StatusEvent)]  # nothing was searched


async def test_a_place_named_in_another_language_does_not_make_the_question_uncovered(make_service):
    service = make_service()
    answer = final_of(await collect(service, "Quel numéro les commerçants établis aux Pays-Bas doivent-ils "
                                             "indiquer lors de leur affiliation ?")).answer
    assert answer.outcome == "answered", answer.text
    assert "KvK" in answer.text and any(c.rulebook_id == "PS-05-NL" for c in answer.citations)
    answer = final_of(await collect(service, "Om hoe laat worden handelaars in Luxemburg uiterlijk uitbetaald?",
                                    conversation_id="lux")).answer
    assert answer.outcome == "answered" and "08h00" in answer.text
    # a scheme's name is not a place: still refused
    answer = final_of(await collect(service, "Wat rekent PayPal aan voor een terugbetaling?", conversation_id="pp")).answer
    assert answer.outcome == "refused" and "PayPal" in answer.text


# -- what the offline model quotes --------------------------------------------------------------
async def test_the_sentence_holding_the_fact_is_quoted_not_a_heading_or_a_title(make_service):
    service = make_service()
    answer = final_of(await collect(service, "What are the limits for a payment file?")).answer
    assert "100,000 transactions" in answer.text and "50 MB" in answer.text
    assert "5.2 File limits" not in answer.text
    answer = final_of(await collect(service, "Quel est le taux de base du Compte d'épargne Aurora Plus ?",
                                    conversation_id="kid")).answer
    assert "1,25 %" in answer.text
    assert "- Fiche produit - Compte d'épargne Aurora Plus" not in answer.text
    answer = final_of(await collect(service, "What is the cut-off time for submitting credit transfers to the CSM?",
                                    conversation_id="cutoff")).answer
    assert "15:30 CET" in answer.text  # a sentence the PDF broke over two paragraphs is quoted whole


async def test_an_exact_identifier_in_the_question_picks_its_row(make_service):
    answer = final_of(await collect(make_service(), "What does reject reason code AC01 mean?")).answer
    assert "Account identifier incorrect" in answer.text
    assert answer.citations[0].rulebook_id == "PS-02"


async def test_a_cross_reference_is_followed_to_the_section_it_names(make_service):
    answer = final_of(await collect(make_service(), "The credit transfer rulebook says the beneficiary PSP may charge "
                                                    "a recall fee set in the fee schedule. How much is that recall "
                                                    "fee?")).answer
    assert answer.outcome == "answered"
    assert "EUR 2.50" in answer.text and any(c.rulebook_id == "PS-08" for c in answer.citations)


async def test_a_question_about_a_whole_section_reads_it_and_quotes_its_opening(make_service):
    events = await collect(make_service(), "What does section 4.3 'Change management cycle' of the Aurora Payment "
                                           "Scheme Rulebook say?")
    answer = final_of(events).answer
    assert "Reading section 4.3 of PS-01…" in [e.text for e in events if isinstance(e, StatusEvent)]
    assert "yearly cycle" in answer.text
    assert all(c.rulebook_id == "PS-01" and c.section_path[-1] == "4.3" for c in answer.citations)
