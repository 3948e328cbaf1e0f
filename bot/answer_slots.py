"""A bounded queue of concurrent answers: past it, an immediate polite "busy" instead of a timeout.

`AnswerSlots(concurrent, waiting, wait_seconds)`: at most `concurrent` questions are answered at
once; up to `waiting` more wait (first come, first served) for a turn, each at most
`wait_seconds`; a question that finds the waiting room full, or waits too long, is told at once
that the bot is busy (`busy_text`, in the question's language) and costs nothing further.

Why: answering is CPU-bound (embedding, scoring, the gate) on a small machine; admitting every
question at once makes every answer slow and lets a chat platform's own timeout fail them all,
where a bounded queue keeps most answers fast and says honestly when to try again.

Safe across tasks of one event loop (all state changes happen on the loop, never across an
await); it holds no futures of a finished loop, so a service reused by successive
`asyncio.run` calls (the CLI, tests) works. It is not meant to be shared between threads.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator

_BUSY = {
    "en": "I am answering many questions right now; please try again in a moment.",
    "nl": "Ik beantwoord op dit moment veel vragen; probeer het over een ogenblik opnieuw.",
    "fr": "Je réponds à beaucoup de questions en ce moment ; veuillez réessayer dans un instant.",
    "de": "Ich beantworte gerade sehr viele Fragen; bitte versuchen Sie es gleich noch einmal.",
}


_QUEUED = {
    "en": "Many questions right now: yours is in line and will be answered shortly…",
    "nl": "Veel vragen op dit moment: de uwe staat in de rij en wordt zo beantwoord…",
    "fr": "Beaucoup de questions en ce moment : la vôtre est en file et sera traitée sous peu…",
    "de": "Gerade viele Fragen: Ihre ist in der Warteschlange und wird gleich beantwortet…",
}


def busy_text(language: str) -> str:
    return _BUSY.get((language or "en")[:2], _BUSY["en"])


def queued_text(language: str) -> str:
    """The status shown at once while a question waits for a slot (so the user sees it was heard)."""
    return _QUEUED.get((language or "en")[:2], _QUEUED["en"])


class Busy(Exception):
    """No turn for this question: the waiting room is full or the wait was too long."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AnswerSlots:
    def __init__(self, concurrent: int, waiting: int, wait_seconds: float) -> None:
        self.concurrent = max(1, concurrent)
        self.waiting_limit = max(0, waiting)
        self.wait_seconds = max(0.0, wait_seconds)
        self.active = 0
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()

    @property
    def free(self) -> bool:
        """A question arriving now would start at once."""
        return self.active < self.concurrent and not self.waiting

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiters if not w.done())

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold one answer slot for the block; raises `Busy` when none comes in time."""
        await self.acquire()
        try:
            yield
        finally:
            self.release()

    async def acquire(self) -> None:
        """Wait for a slot (release it with `release()`); raises `Busy` when none comes in time."""
        if self.active < self.concurrent and not self.waiting:
            self.active += 1
            return
        if self.waiting >= self.waiting_limit:
            raise Busy(f"busy: {self.active} answers in progress, {self.waiting} waiting")
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(asyncio.shield(waiter), self.wait_seconds)
        except TimeoutError:
            if waiter.done() and not waiter.cancelled():  # granted just as the wait ran out: keep it
                return
            waiter.cancel()
            raise Busy(f"busy: waited {self.wait_seconds:g} s for one of {self.concurrent} answer slots") from None
        except BaseException:  # the asker went away: pass a slot already granted on
            if waiter.done() and not waiter.cancelled():
                self.release()
            else:
                waiter.cancel()
            raise
        # the slot was handed over by release() (active was not decremented for us)

    def release(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # hand this slot straight to the next in line
                return
        self.active -= 1
