"""The answers delivered to Slack, for the buttons and reactions that refer back to them.

Slack sends a reaction with only the message's channel and ts, and an ephemeral message's button
click without the message itself, so "Share in channel", "Copy" and feedback need to find the
answer again. The map lives in the shared store (`bot.memory.message_records`: Table Storage when
configured, SQLite otherwise), so it survives a restart and is the same on every replica, for 7
days. A small in-process cache in front saves the store a read for the clicks of the last minutes.

A store that is down costs nothing but the lookup: remembering is logged and skipped, a lookup
reads as "not found" (sharing then asks the user to ask again; feedback is still logged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from cachetools import TTLCache

from bot.answer import Answer, AnswerTable, Citation
from bot.memory.message_records import MessageRecords

log = logging.getLogger("rulebook.slack")

ANSWER = "slack-answer"  # key: message id -> the answer and where it was shown
MESSAGE = "slack-message"  # key: "channel:ts" -> message id
FEEDBACK = "slack-feedback"  # key: "message id:user hash" -> the user's current feedback
REQUEST = "slack-request"  # key: an event id or trigger id -> seen (redeliveries and replays)
RECORD_THREADS = 4  # SQLite serialises behind its lock anyway; Table Storage calls overlap


@dataclass
class DeliveredAnswer:
    answer: Answer
    conversation_id: str
    messages: list[tuple[str, str]] = field(default_factory=list)  # (channel, ts) of each part
    roles: tuple[str, ...] = ()  # those the answer was made with: the place's where it was first shown

    def to_record(self) -> dict[str, Any]:
        return {"answer": asdict(self.answer), "conversation_id": self.conversation_id,
                "messages": [list(m) for m in self.messages], "roles": list(self.roles)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> DeliveredAnswer:
        data = dict(record["answer"])
        data["citations"] = [Citation(**c) for c in data.get("citations") or []]
        data["tables"] = [AnswerTable(**t) for t in data.get("tables") or []]
        return cls(answer=Answer(**data), conversation_id=record.get("conversation_id", ""),
                   messages=[(str(c), str(t)) for c, t in record.get("messages") or []],
                   roles=tuple(record.get("roles") or ()))


class DeliveredAnswers:
    def __init__(self, records: MessageRecords, cache_size: int = 500, cache_seconds: float = 600) -> None:
        self.records = records
        self._cache: TTLCache[str, DeliveredAnswer] = TTLCache(cache_size, cache_seconds)
        # Threads of their own: in the loop's default executor a record (one before Slack's ack,
        # three after each answer) queued behind the offline model's planning under load.
        self._threads = ThreadPoolExecutor(max_workers=RECORD_THREADS, thread_name_prefix="slack-records")

    async def _store(self, call: Any, *args: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, call, *args)
        except Exception:
            log.warning("the message record store failed (%s)", getattr(call, "__name__", call), exc_info=True)
            return None

    async def remember(self, answer: Answer, conversation_id: str, messages: list[tuple[str, str]],
                       roles: tuple[str, ...] = ()) -> DeliveredAnswer:
        entry = self._cache.get(answer.message_id)
        if entry is None:
            # cached before the first await: a click right after the post must find it
            entry = DeliveredAnswer(answer, conversation_id, roles=roles)
            self._cache[answer.message_id] = entry
            record = await self._store(self.records.get, ANSWER, answer.message_id)
            if record:  # shown before, by another replica or before a restart
                with contextlib.suppress(KeyError, TypeError, ValueError):
                    known = DeliveredAnswer.from_record(record)
                    entry.roles = known.roles
                    entry.messages[:0] = [m for m in known.messages if m not in entry.messages]
        for key in messages:
            if key not in entry.messages:
                entry.messages.append(key)
        self._cache[answer.message_id] = entry
        await self._store(self.records.put, ANSWER, answer.message_id, entry.to_record())
        for channel, ts in messages:
            await self._store(self.records.put, MESSAGE, f"{channel}:{ts}", {"m": answer.message_id})
        return entry

    async def by_message_id(self, message_id: str) -> DeliveredAnswer | None:
        if not message_id:
            return None
        cached = self._cache.get(message_id)
        if cached is not None:
            return cached
        record = await self._store(self.records.get, ANSWER, message_id)
        if record is None:
            return None
        try:
            entry = DeliveredAnswer.from_record(record)
        except (KeyError, TypeError):
            log.warning("an unreadable answer record for message %s", message_id)
            return None
        self._cache[message_id] = entry
        return entry

    async def by_ts(self, channel: str, ts: str) -> DeliveredAnswer | None:
        for entry in list(self._cache.values()):
            if (channel, ts) in entry.messages:
                return entry
        record = await self._store(self.records.get, MESSAGE, f"{channel}:{ts}")
        return await self.by_message_id(record.get("m", "")) if record else None

    async def feedback_of(self, message_id: str, user_hash: str) -> str | None:
        record = await self._store(self.records.get, FEEDBACK, f"{message_id}:{user_hash}")
        return record.get("value") if record else None

    async def set_feedback(self, message_id: str, user_hash: str, value: str | None) -> None:
        key = f"{message_id}:{user_hash}"
        if value is None:
            await self._store(self.records.delete, FEEDBACK, key)
        else:
            await self._store(self.records.put, FEEDBACK, key, {"value": value})

    async def first_sight(self, request_key: str) -> bool:
        """True the first time any replica asks about this request (an event id or a trigger id);
        a store that is down says True: answering twice beats not answering. Two replicas asking
        in the same instant may both hear True (the check and the mark are two calls)."""
        if await self._store(self.records.get, REQUEST, request_key):
            return False
        await self._store(self.records.put, REQUEST, request_key, {"seen": True})
        return True

    def forget_cache(self) -> None:
        """Drop the in-process cache (as a restart would); the store keeps everything."""
        self._cache.clear()
