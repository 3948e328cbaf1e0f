"""Many users at once: 20 questions asked concurrently through the real `AssistantService` get
exactly the answers the same questions get one at a time (no timing is asserted)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.answer import User
from tests.conftest import REPO_ROOT
from tests.load.conftest import service_for

GOLDEN = REPO_ROOT / "evals" / "golden" / "e2e_sample.jsonl"


def _questions(n: int) -> list[str]:
    rows = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]
    # spread over the languages and categories of the set, deterministically
    return [row["question"] for row in rows[:: max(1, len(rows) // n)]][:n]


async def _answer(service: Any, question: str, conversation: str) -> tuple:
    final = None
    tokens: list[str] = []
    async for event in service.ask(question, User(id=f"user-{conversation}", roles=("risk-officer",)),
                                   conversation):
        if event.kind == "token":
            tokens.append(event.text)
        elif event.kind == "final":
            final = event.answer
    assert final is not None
    return (final.outcome, final.text, "".join(tokens),
            [(c.n, c.rulebook_id, c.page, c.chunk_id, c.quote) for c in final.citations],
            [(t.columns, t.rows) for t in final.tables])


async def test_twenty_concurrent_answers_equal_the_serial_answers(sample_index, load_knowledge, tmp_path):
    questions = _questions(20)
    assert len(questions) == 20
    service = service_for(sample_index, load_knowledge, tmp_path, max_concurrent_answers=20,
                          max_waiting_answers=0)
    serial = [await _answer(service, q, f"serial-{i}") for i, q in enumerate(questions)]
    assert sum(1 for s in serial if s[0] == "answered") >= 10, "the sample set should mostly be answered"
    for round_ in range(2):  # twice: a race shows up only sometimes
        concurrent = await asyncio.gather(*(_answer(service, q, f"c{round_}-{i}")
                                            for i, q in enumerate(questions)))
        for question, alone, together in zip(questions, serial, concurrent, strict=True):
            assert together == alone, question
    assert service.slots.active == 0


async def test_more_questions_than_slots_wait_their_turn_and_all_get_answered(sample_index, load_knowledge,
                                                                              tmp_path):
    questions = _questions(6)
    service = service_for(sample_index, load_knowledge, tmp_path, max_concurrent_answers=2,
                          max_waiting_answers=10, answer_wait_seconds=600)
    serial = [await _answer(service, q, f"s{i}") for i, q in enumerate(questions)]
    together = await asyncio.gather(*(_answer(service, q, f"c{i}") for i, q in enumerate(questions)))
    assert together == serial
    assert service.slots.active == 0 and service.slots.waiting == 0
