"""Refusal by exclusion: a caller for whom some rulebooks do not exist (evals.exclusion)."""

from __future__ import annotations

from bot.offline.offline_model import OfflineRulebookModel
from evals.exclusion import HiddenRulebooks
from tests.bot.conftest import collect, final_of


def test_hidden_rulebooks_are_never_fetched_and_read_like_missing_ones(knowledge):
    view = HiddenRulebooks(knowledge, ["PS-04"])
    assert any(h.payload.rulebook_id == "PS-04" for h in knowledge.search("Can I pay with my fridge?"))
    assert all(h.payload.rulebook_id != "PS-04" for h in view.search("Can I pay with my fridge?"))
    assert view.search("fridge", rulebook_ids=["PS-04"]) == []
    assert "PS-04" not in {r.rulebook_id for r in view.list_rulebooks()}
    hidden, missing = view.section("PS-04", "1"), view.section("PS-99", "1")
    assert not hidden.rulebook_found and not missing.rulebook_found
    assert hidden.other_rulebooks == missing.other_rulebooks and "PS-04" not in hidden.other_rulebooks
    assert view.chunk("PS-04:0") is None and view.source_uri("PS-04") is None


async def test_the_fridge_question_is_refused_when_the_rulebooks_that_answer_it_are_hidden(make_service, knowledge):
    model = OfflineRulebookModel(encoder=knowledge.searcher.encoder)
    # PS-09 (disputes) and the merchant rulebooks PS-05-FR/-NL also speak of a connected refrigerator
    # paying: with PS-04 alone hidden the question may be answered from them — "answered elsewhere"
    # cases; with all of them hidden, nothing is left
    alone = final_of(await collect(make_service(model=model, knowledge=HiddenRulebooks(knowledge, ["PS-04"])),
                                   "Can I pay with my fridge?")).answer
    assert not any(c.rulebook_id == "PS-04" for c in alone.citations)
    both = final_of(await collect(make_service(model=model, knowledge=HiddenRulebooks(knowledge, ["PS-04", "PS-09", "PS-05-FR", "PS-05-NL"])),
                                  "Can I pay with my fridge?")).answer
    assert both.outcome == "refused", both.text
