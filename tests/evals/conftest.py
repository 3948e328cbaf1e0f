"""Fixtures for the e2e eval tests: the sample index (the root `sample_index` fixture), opened
once per module as an eval corpus context (the real assistant, the real knowledge facade)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from evals.e2e_golden import GoldenQuestion, load_golden
from evals.e2e_suite import CorpusContext, open_corpus

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "rulebooks"


def golden_by_id(*ids: str) -> list[GoldenQuestion]:
    by_id = {q.id: q for q in load_golden()}
    return [by_id[i] for i in ids]


@pytest_asyncio.fixture
async def sample_ctx(sample_index) -> AsyncIterator[CorpusContext]:
    async with open_corpus(sample_index, [SAMPLE]) as ctx:
        yield ctx
