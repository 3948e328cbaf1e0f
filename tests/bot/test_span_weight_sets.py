"""The offline model scores an element question's spans with the element weight set, every other
question's with the main set (bot.offline.span_ranker, span_scoring.element_question)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.offline.span_ranker import ELEMENT_WEIGHTS, WEIGHTS, load_weights, weighted
from bot.offline.span_scoring import SpanScorer
from knowledge.payload import ChunkPayload

RECORD = ("3.2.1 CancellationDetails\n\nCancellationDetails <CxlDtls> Presence: [0..1] Definition: Provides "
          "details on the cancellation request.")
SENTENCE = "The ResolutionOfInvestigation message is sent by a case assignee to a case creator or case assigner."


def chunk(text: str, index: int = 0) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"camt029:{index}", rulebook_id="camt029", rulebook_title="Message guide",
                        page_start=40 + index, page_end=40 + index, section_path=["3", "3.2"], section_key="3.2",
                        section_title="ResolutionOfInvestigation", chunk_index=index, text=text,
                        tables_csv=[], content_hash=f"h{index}")


def test_the_committed_file_holds_an_element_set_apart_from_the_main_set():
    assert set(ELEMENT_WEIGHTS) == set(WEIGHTS)
    assert dict(ELEMENT_WEIGHTS) != dict(WEIGHTS)


@pytest.mark.parametrize(("question", "element"), [
    ("Is CancellationDetails mandatory in a ResolutionOfInvestigation message?", True),
    ("When must CancellationDetails be present in camt.029?", True),
    ("Who sends a ResolutionOfInvestigation message?", False),
    ("What is the maximum amount of an instant payment?", False),
])
def test_each_span_is_scored_with_the_set_of_its_question_kind(question: str, element: bool):
    spans = SpanScorer(None, None).score(question, [("S1", chunk(RECORD)), ("S2", chunk(SENTENCE, 1))], set())
    assert spans
    chosen = ELEMENT_WEIGHTS if element else WEIGHTS
    for span in spans:
        assert span.weights is chosen
        clues = {k: v for k, v in span.signals.items() if k not in ("lexical", "dense_gain")}
        assert span.score == pytest.approx(span.lexical * 0.5 + weighted(clues, chosen))
        span.dense, span.dense_full = 0.8, 0.82  # measured: dense plus the set's weighted signals
        assert span.score == pytest.approx(0.8 + chosen["lexical"] * span.lexical + chosen["dense_gain"] * 0.02
                                           + weighted(clues, chosen))


def test_a_weights_file_without_an_element_set_gives_the_main_set_for_both(tmp_path: Path):
    path = tmp_path / "span_weights.json"
    path.write_text(json.dumps({"weights": {"lexical": 0.2, "condition": 0.3}}), encoding="utf-8")
    assert load_weights(path, key="element_weights") == load_weights(path)
    assert load_weights(path)["condition"] == 0.3 and load_weights(path)["identifier"] == 0.0
    path.write_text(json.dumps({"weights": {"lexical": 0.2}, "element_weights": {"condition": 0.4}}), encoding="utf-8")
    assert load_weights(path, key="element_weights")["condition"] == 0.4
    assert load_weights(path)["condition"] == 0.0
    path.write_text(json.dumps({"weights": {"lexical": 0.2}, "element_weights": {"made_up": 1.0}}), encoding="utf-8")
    with pytest.raises(ValueError, match="made_up"):
        load_weights(path, key="element_weights")
