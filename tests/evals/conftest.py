"""Fixtures for the e2e eval tests: the sample index (the root `sample_index` fixture), opened
once per module as an eval corpus context (the real assistant, the real knowledge facade)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from config.settings import reset_settings
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


@pytest.fixture
def cli_env(sample_index, monkeypatch):
    """`rulebook` commands run in-process against the sample index, offline, no judge model."""
    monkeypatch.setenv("RULEBOOK_DATA_DIR", str(sample_index.data_dir))
    monkeypatch.setenv("RULEBOOK_CHAT_MODEL", "offline")
    monkeypatch.delenv("RULEBOOK_JUDGE_MODEL", raising=False)
    reset_settings()
    yield
    reset_settings()
