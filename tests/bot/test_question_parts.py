"""Questions that ask two things, or of two documents: each part is searched and quoted on its own
(bot.offline.question_parts, OfflineRulebookModel.plan); a question that merely contains "and" is
not split; a name no passage mentions gets one search of its own and is still refused when the
corpus does not hold it."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from bot.offline.offline_model import Decision, OfflineRulebookModel
from bot.offline.question_parts import question_parts
from tests.bot.conftest import collect, final_of


@pytest.mark.parametrize(("question", "language", "parts"), [
    ("How can you tell a QR-IBAN from a normal IBAN, and how long is the IBAN on a QR-bill?", "en",
     ["How can you tell a QR-IBAN from a normal IBAN?", "How long is the IBAN on a QR-bill?"]),
    # the noun the second part leaves out, and the context a lead-in gives, go with each part
    ("Compare the character sets: which encoding does the ABN AMRO addendum require, and which does the "
     "QR-bill guide require?", "en",
     ["The character sets: Which encoding does the ABN AMRO addendum require?",
      "The character sets: Which encoding does the QR-bill guide require?"]),
    # a pronoun standing for the first part's subject is replaced by it
    ("Which priority codes exist in Priority2Code, and does ABN AMRO treat them differently?", "en",
     ["Which priority codes exist in Priority2Code?", "Does ABN AMRO treat priority codes differently?"]),
    # a statement before the question is context for every part
    ("A biller uses an RF reference. What length rules apply, and what kind of account does an RF reference "
     "need?", "en",
     ["A biller uses an RF reference. What length rules apply?",
      "A biller uses an RF reference. What kind of account does an RF reference need?"]),
    ("Wie lang ist eine QR-IBAN, und welcher Nummernbereich ist für QR-IIDs reserviert?", "de",
     ["Wie lang ist eine QR-IBAN?", "Welcher Nummernbereich ist für QR-IIDs reserviert?"]),
    ("Quelle est la durée d'un mandat et quels frais s'appliquent à un arbitrage ?", "fr",
     ["Quelle est la durée d'un mandat?", "Quels frais s'appliquent à un arbitrage ?"]),
    ("Hoe lang is een QR-IBAN en welke nummers zijn gereserveerd voor QR-IID's?", "nl",
     ["Hoe lang is een QR-IBAN?", "Welke nummers zijn gereserveerd voor QR-IID's?"]),
    ("Compare the fees of SCT and SDD", "en", ["The fees of SCT?", "The fees of SDD?"]),
    ("What do the ABN AMRO addendum and the QR-bill guide say about the character set?", "en",
     ["What do the ABN AMRO addendum say about the character set?",
      "What do the QR-bill guide say about the character set?"]),
])
def test_a_question_asking_two_things_is_cut_into_questions_of_their_own(question, language, parts):
    assert question_parts(question, language) == parts


@pytest.mark.parametrize(("question", "language"), [
    ("What are the terms and conditions for returning a credit transfer?", "en"),
    ("How many digits and fraction digits may an ActiveCurrencyAndAmount have?", "en"),
    # a clause with little of its own is a detail of the same evidence, not a part
    ("Which element of a CaseStatusReport carries the status code, and how often must it occur?", "en"),
    ("What type is DebitAuthorisation in camt.036 and is it mandatory?", "en"),
    ("Who sends camt.028 AdditionalPaymentInformation and to whom?", "en"),
    # a pronoun for a subject the first part does not name leaves the second part nothing to search
    ("Which element carries the rejection reason in camt.031 and what code list does it use?", "en"),
    ("Welche Gebühren und Entgelte gelten für Händler?", "de"),
    ("Quels sont les droits et obligations du commerçant ?", "fr"),
    ("Wat zijn de rechten en plichten van een handelaar?", "nl"),
    # question words joined before one predicate ask one question ("When?" alone asks nothing)
    ("When and by whom were the message definitions approved?", "en"),
    ("Wann und von wem wurde die Richtlinie genehmigt?", "de"),
    ("Quand et par qui le guide a-t-il été approuvé ?", "fr"),
])
def test_a_question_that_only_contains_and_is_one_part(question, language):
    assert question_parts(question, language) == [question]


def _searches(calls: list[dict]) -> list[dict]:
    return [c["args"] for c in calls if c["name"] == "search_rulebooks"]


@pytest.fixture
def recorded(knowledge, monkeypatch):
    """The product's offline model (load_chat_model), its every tool call and decision recorded."""
    from bot.agent.chat_models import load_chat_model

    calls: list[dict] = []
    decisions: list[Decision] = []
    plan = OfflineRulebookModel.plan

    def recording(self, messages):
        step = plan(self, messages)
        if step.tool:
            calls.append({"name": step.tool, "args": step.args})
        return step

    monkeypatch.setattr(OfflineRulebookModel, "plan", recording)
    model = load_chat_model("offline", knowledge)
    model.observer = decisions.append
    return model, calls, decisions


async def test_a_two_part_question_is_searched_per_part_and_cites_each_part(make_service, recorded):
    model, calls, _ = recorded
    question = "When does a direct debit mandate expire, and what is the filing fee for an arbitration case?"
    answer = final_of(await collect(make_service(model=model), question)).answer
    searched = [args["query"] for args in _searches(calls)]
    assert searched == [question, "When does a direct debit mandate expire?",
                        "What is the filing fee for an arbitration case?"]
    assert answer.outcome == "answered", answer.text
    cited = {c.rulebook_id for c in answer.citations}
    assert {"PS-03", "PS-09"} <= cited, (cited, answer.text)
    # each part's key fact is quoted: the mandate's lifetime and the arbitration fee
    assert "36 months" in answer.text and "EUR 500" in answer.text, answer.text
    assert answer.text.count("Here is what the rulebooks say") == 1


async def test_a_question_with_and_inside_one_part_is_searched_once(make_service, recorded):
    model, calls, _ = recorded
    answer = final_of(await collect(make_service(model=model), "What are the terms and conditions for a "
                                    "cardholder to dispute a card payment?")).answer
    assert len(_searches(calls)) == 1, calls
    assert answer.outcome in ("answered", "refused")


async def test_an_absent_name_is_searched_for_once_and_still_refused(make_service, recorded):
    model, calls, decisions = recorded
    answer = final_of(await collect(make_service(model=model), "What does Visa charge for a refund?")).answer
    searched = [args["query"] for args in _searches(calls)]
    assert len(searched) == 2 and "Visa" in searched[1] and searched[1] != searched[0], searched
    assert answer.outcome == "refused"
    assert decisions and all("Visa" in d.absent for d in decisions)


async def test_a_part_about_a_name_the_corpus_lacks_refuses_the_whole_question(make_service, recorded):
    model, _, _ = recorded
    question = "When does a direct debit mandate expire, and what does Visa charge for a refund?"
    answer = final_of(await collect(make_service(model=model), question)).answer
    # half an answer would read as a whole one: the covered part is not answered on its own
    assert answer.outcome == "refused", answer.text


def test_the_parts_answers_share_one_frame_and_no_repeated_quote():
    from bot.offline.offline_model import _joined_answers

    frame = "Here is what the rulebooks say:"
    first = f"{frame}\n\n- A mandate expires after 36 months [S1].\n- It is renewed [S2]."
    second = f"{frame}\n\n- It is renewed [S2].\n- The filing fee is EUR 500 [S3].\n\nFrom the table in the rulebook [S4]:\n\n| a |\n| --- |\n| 1 |"
    third = f"{frame} \n\nFrom the table in the rulebook [S4]:\n\n| a |\n| --- |\n| 1 |"
    joined = _joined_answers([first, second, third], frame)
    assert joined.count(frame) == 1
    assert joined.count("It is renewed [S2].") == 1 and joined.count("| 1 |") == 1
    assert joined.index("36 months") < joined.index("EUR 500")


def test_plan_counts_a_part_search_once(knowledge):
    """The plan asks each part once, whatever the search returned (no loop on an empty result)."""
    from langchain_core.messages import HumanMessage, ToolMessage

    model = OfflineRulebookModel(encoder=None).bind_tools([])
    model = model.model_copy(update={"tool_names": ("search_rulebooks",)})
    question = "When does a direct debit mandate expire, and what is the filing fee for an arbitration case?"
    messages: list = [HumanMessage(question)]
    asked: list[str] = []
    for step in range(6):
        plan = model.plan(messages)
        if not plan.tool:
            break
        asked.append(plan.args["query"])
        call_id = f"c{step}"
        messages += [AIMessage("", tool_calls=[{"name": plan.tool, "args": plan.args, "id": call_id}]),
                     ToolMessage("No passages found.", tool_call_id=call_id, name=plan.tool, artifact=[])]
    assert asked[:3] == [question, "When does a direct debit mandate expire?",
                         "What is the filing fee for an arbitration case?"]
    assert len(asked) == len(set(asked)) <= 4


async def test_a_name_its_own_search_finds_only_in_passing_is_still_refused(make_service, recorded):
    """PS-08 says in passing that "Instant payments, if introduced, will carry their own fee": found by
    the name's own search, it does not make quotes about other credit transfers an answer."""
    model, calls, _ = recorded
    question = "Which reason code signals a timeout at the beneficiary PSP for an Aurora Instant Credit Transfer?"
    answer = final_of(await collect(make_service(model=model), question)).answer
    searched = [args["query"] for args in _searches(calls)]
    assert len(searched) == 2 and "Instant" in searched[1], searched
    assert answer.outcome == "refused", answer.text


def _chunk(chunk_id: str, rulebook_id: str, text: str):
    from knowledge.payload import ChunkPayload

    return ChunkPayload(chunk_id=chunk_id, rulebook_id=rulebook_id, rulebook_title=f"{rulebook_id} rulebook",
                        page_start=1, page_end=1, section_path=["1"], section_key="1", section_title="Rules",
                        chunk_index=int(chunk_id.rsplit(":", 1)[1]), text=text, tables_csv=[], content_hash=chunk_id)


def _answer_with(shown: dict[str, list]) -> tuple[list[str], str]:
    """The plan of a model without an encoder, each search returning the chunks `shown` lists for
    its query (by first word match), until it answers: (queries searched, answer text)."""
    from langchain_core.messages import HumanMessage, ToolMessage

    model = OfflineRulebookModel(encoder=None).model_copy(update={"tool_names": ("search_rulebooks",)})
    question = "How fast must the beneficiary PSP credit a Zephyr transfer?"
    messages: list = [HumanMessage(question)]
    asked: list[str] = []
    handles: dict[str, str] = {}
    for step in range(5):
        plan = model.plan(messages)
        if not plan.tool:
            return asked, plan.text
        query = plan.args["query"]
        asked.append(query)
        chunks = shown["name"] if len(asked) > 1 else shown["first"]
        artifact = [{"handle": handles.setdefault(c.chunk_id, f"S{len(handles) + 1}"), **c.model_dump(mode="json")}
                    for c in chunks]
        call_id = f"c{step}"
        messages += [AIMessage("", tool_calls=[{"name": plan.tool, "args": plan.args, "id": call_id}]),
                     ToolMessage("results", tool_call_id=call_id, name=plan.tool, artifact=artifact)]
    raise AssertionError("no answer")


def test_a_name_found_by_its_own_search_counts_when_the_answer_quotes_its_document():
    rule = _chunk("PS-20:0", "PS-20", "The beneficiary PSP must credit the transfer within ten seconds of receipt.")
    named = _chunk("PS-20:1", "PS-20", "This rulebook sets the rules of the Zephyr transfer scheme.")
    asked, text = _answer_with({"first": [rule], "name": [named, rule]})
    assert len(asked) == 2 and "Zephyr" in asked[1]
    assert not text.startswith("[not covered]") and "ten seconds" in text, text
    # the same quote, but only another document names Zephyr (in passing): still not covered
    elsewhere = _chunk("PS-21:0", "PS-21", "Zephyr transfers, if introduced, will carry their own fee.")
    asked, text = _answer_with({"first": [rule], "name": [elsewhere, rule]})
    assert text.startswith("[not covered]") and "Zephyr" in text, text
