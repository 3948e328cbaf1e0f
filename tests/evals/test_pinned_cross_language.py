"""Pinned regression: a French question answered from a Dutch-only passage keeps its top cited
chunk. It fails when the embedding space, the tokeniser or the chunking shifts that chunk."""

from __future__ import annotations

import json
from pathlib import Path

from bot.answer import User
from evals.citation_check import contains
from evals.e2e_runner import ask_once

PIN = json.loads((Path(__file__).parent / "data" / "pinned_cross_language.json").read_text(encoding="utf-8"))


async def test_french_question_keeps_its_dutch_top_citation(sample_ctx):
    user = User(id="eval-pinned", roles=tuple(PIN["roles"]), platform="eval")
    run = await ask_once(sample_ctx.service, PIN["question"], user, "eval-pinned-fr-nl")
    answer = run.answer
    assert answer is not None and answer.outcome == "answered", run.error or answer
    top = answer.citations[0]
    want = PIN["top_citation"]
    assert (top.chunk_id, top.rulebook_id, top.section_path, top.page, top.language) == (
        want["chunk_id"], want["rulebook_id"], want["section_path"], want["page"], want["language"])
    assert contains(answer.text, PIN["must_contain"])
    # the Dutch source of a French answer is marked as such
    assert top.translation_note


def test_retrieval_keeps_the_same_top_chunk(sample_ctx):
    hybrid = sample_ctx.knowledge.search(PIN["question"], roles=tuple(PIN["roles"]), k=10)
    dense = sample_ctx.knowledge.search(PIN["question"], roles=tuple(PIN["roles"]), k=10, mode="dense")
    assert hybrid[0].payload.chunk_id == PIN["top_hybrid_hit"]
    assert dense[0].payload.chunk_id == PIN["top_dense_hit"]
