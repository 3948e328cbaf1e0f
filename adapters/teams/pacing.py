"""Spacing of updates to one Teams message: Teams throttles a bot that updates faster than ~1/s."""

from __future__ import annotations

import asyncio
import contextlib
import time

# The part of an interval an interim update waits for the final answer before it takes a turn;
# when the final answer comes within it, it goes out in the update's place instead of waiting a
# whole interval behind it (see `answer_relay`; Slack's edits do the same). Measured at 25 users:
# the final answer waited ~1 s behind the last update shown, and every step line shown in the last
# second of an answer put it a whole second later (finals at 2.1-2.3 s or at 3.2-3.4 s, nothing
# between). New text settles a quarter interval (0.25 s at Teams' 1 s: a streaming model's text
# shows almost at once, the offline model's text and final answer come milliseconds apart). A new
# step line is shown once it has stood a whole interval: a step that lasts is still shown, one
# the answer follows within a second is not (the user sees "Searching the rulebooks…", then the
# answer a second sooner).
TEXT_SETTLE = 0.25
STATUS_SETTLE = 1.0


class UpdatePacer:
    """Lets a caller through at most once per `interval` seconds; the first call passes at once.

    A turn counts only when it is taken: a caller that gives up waiting (`until` was set first,
    e.g. the final answer arrived) leaves the clock where the last real update put it, so the
    final message is not held back by an update that was never sent."""

    def __init__(self, interval: float) -> None:
        self.interval = max(0.0, interval)
        self._last: float | None = None

    async def wait_turn(self, until: asyncio.Event | None = None) -> bool:
        """Wait for the next turn and take it (True); False, without taking it, if `until` is set
        before the turn comes."""
        if until is not None and until.is_set():
            return False
        if self._last is not None:
            delay = self._last + self.interval - time.monotonic()
            if delay > 0:
                if until is None:
                    await asyncio.sleep(delay)
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(until.wait(), delay)
                        return False
        self._last = time.monotonic()
        return True
