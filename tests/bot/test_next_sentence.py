"""The sentence after one of the best quotes is quoted with it (`offline_model._with_neighbours`,
`NEXT_SENTENCE_QUOTES`): it often carries what the quote leads up to, the class after what the risk
indicator assumes, the text shown after what the display does meanwhile. Only the best quotes bring
theirs, and a heading is no such sentence."""

from __future__ import annotations

from bot.offline.offline_model import NEXT_SENTENCE_QUOTES, _with_neighbours
from bot.offline.span_scoring import Span
from knowledge.payload import ChunkPayload
from tests.bot.conftest import collect, final_of


def _chunk(chunk_id: str) -> ChunkPayload:
    return ChunkPayload.model_validate({
        "chunk_id": chunk_id, "rulebook_id": "IG", "rulebook_title": "Implementation guide", "page_start": 3,
        "page_end": 3, "chunk_index": int(chunk_id.rsplit(":", 1)[1]), "content_hash": chunk_id,
        "section_path": ["2"], "section_title": "Display", "text": "x"})


def _sentences(chunk: ChunkPayload, texts: list[str]) -> list[Span]:
    return [Span(f"S{chunk.chunk_index}", chunk, chunk.chunk_index, text, position=i) for i, text in enumerate(texts)]


def test_the_best_quotes_bring_the_sentence_after_them_and_the_others_do_not():
    texts = ["During the transfer a status line is shown on the display.",
             "The transfer ends with the text 'Transfer successful'.",
             "The device then waits for the next request."]
    first, second, third = (_sentences(_chunk(f"IG:{n}"), texts) for n in range(3))
    spans = [*first, *second, *third]
    quoted = _with_neighbours([first[0], second[0], third[0]], spans)
    assert NEXT_SENTENCE_QUOTES == 2
    # each of the two best quotes is followed by its next sentence; the third quote comes alone
    assert quoted == [first[0], first[1], second[0], second[1], third[0]]


def test_a_heading_after_the_best_quote_is_not_quoted_as_its_next_sentence():
    chunk = _chunk("IG:5")
    spans = _sentences(chunk, ["During the transfer a status line is shown on the display.", "3.2 Check digits"])
    assert _with_neighbours([spans[0]], spans) == [spans[0]]


async def test_the_risk_class_after_what_the_indicator_assumes_is_quoted(make_service):
    """The KID's first sentence under the risk indicator says what it assumes; the class is the next one."""
    answer = final_of(await collect(make_service(), "Wat is de risico-indicator van Aurora Kapitaalbescherming "
                                                    "2030?")).answer
    assert answer.outcome == "answered", answer.text
    assert "klasse 2 uit 7" in answer.text, answer.text
    assert {c.rulebook_id for c in answer.citations} == {"KID-01-NL"}, answer.citations
