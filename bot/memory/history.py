"""Conversation history: what was said before, so that follow-ups ("and for cross-border?") work.

The contract for every store (in memory here; Table Storage in `bot.memory.history_table_storage`):
- a message is a plain dict `{"role": "user" | "assistant", "content": str}` — JSON-serialisable,
  platform-free, and exactly what the service turns into LangChain messages;
- `get(conversation_id)` returns the conversation's messages oldest first ([] for an unknown one);
  a store may keep only the most recent messages, but never fewer than the service's window
  (`settings.history_messages`, 20), which the service applies itself;
- `append(conversation_id, messages)` adds messages at the end, in order.
Only the question and the gated answer text are stored: never tool results, never the draft.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from typing import Literal, Protocol, TypedDict

from cachetools import LRUCache
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage


class HistoryMessage(TypedDict):
    role: Literal["user", "assistant"]
    content: str


class HistoryStore(Protocol):
    async def get(self, conversation_id: str) -> list[HistoryMessage]: ...

    async def append(self, conversation_id: str, messages: Sequence[HistoryMessage]) -> None: ...


class InMemoryHistoryStore:
    """One process's history; `keep` bounds memory per conversation (older messages fall off),
    `conversations` the number of conversations kept (the least recently used falls off), so a
    long-running server under many users holds a bounded amount. Shared by every question's task:
    an asyncio lock serialises reads and writes (no thread touches it)."""

    def __init__(self, keep: int = 200, conversations: int = 10_000) -> None:
        self._keep = keep
        self._conversations: LRUCache[str, deque[HistoryMessage]] = LRUCache(maxsize=conversations)
        self._lock = asyncio.Lock()

    async def get(self, conversation_id: str) -> list[HistoryMessage]:
        async with self._lock:
            return list(self._conversations.get(conversation_id, ()))

    async def append(self, conversation_id: str, messages: Sequence[HistoryMessage]) -> None:
        async with self._lock:
            kept = self._conversations.get(conversation_id)
            if kept is None:
                kept = self._conversations[conversation_id] = deque(maxlen=self._keep)
            kept.extend(
                HistoryMessage(role=m["role"], content=m["content"]) for m in messages
            )


def window(messages: Sequence[HistoryMessage], size: int) -> list[HistoryMessage]:
    """The last `size` messages; never starts with an assistant message cut from its question."""
    recent = list(messages[-size:]) if size > 0 else []
    while recent and recent[0]["role"] != "user" and len(messages) > size:
        recent.pop(0)
    return recent


def to_langchain(messages: Sequence[HistoryMessage]) -> list[BaseMessage]:
    return [HumanMessage(m["content"]) if m["role"] == "user" else AIMessage(m["content"])
            for m in messages]
