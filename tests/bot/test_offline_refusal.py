"""What the offline model says when the rulebooks do not cover a question, and what it reports to
an eval's observer."""

from __future__ import annotations

from bot.offline.offline_model import Decision, OfflineRulebookModel
from tests.bot.conftest import collect, final_of


async def test_a_refusal_names_the_rulebooks_it_searched_in_the_questions_language(make_service, knowledge):
    answer = final_of(await collect(make_service(), "What does Visa charge for a refund?")).answer
    assert answer.outcome == "refused"
    # the user sees the gate's own refusal (never the model's words): it names what was searched
    assert "Searched:" in answer.text
    assert all(r.rulebook_id in answer.text for r in knowledge.list_rulebooks())
    french = final_of(await collect(make_service(), "Combien Visa facture-t-il pour un remboursement ?")).answer
    assert french.outcome == "refused" and "Searched:" not in french.text
    assert "PS-04" in french.text


async def test_the_observer_sees_each_answer_or_refuse_decision(make_service, knowledge):
    seen: list[Decision] = []
    model = OfflineRulebookModel(encoder=knowledge.searcher.encoder, observer=seen.append)
    answer = final_of(await collect(make_service(model=model), "Can I pay with my fridge?")).answer
    assert answer.outcome == "answered"
    assert len(seen) == 1 and seen[0].answered and seen[0].absent == []
    assert seen[0].max_dense is not None and seen[0].max_dense > 0.5
    seen.clear()
    answer = final_of(await collect(make_service(model=model), "What does Visa charge for a refund?")).answer
    assert answer.outcome == "refused" and seen[0].absent == ["Visa"] and not seen[0].answered
