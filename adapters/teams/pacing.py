"""Spacing of updates to one Teams message: Teams throttles a bot that updates faster than ~1/s."""

from __future__ import annotations

import asyncio
import time


class UpdatePacer:
    """Lets a caller through at most once per `interval` seconds; the first call passes at once."""

    def __init__(self, interval: float) -> None:
        self.interval = max(0.0, interval)
        self._last: float | None = None

    async def wait_turn(self) -> None:
        if self._last is not None:
            delay = self._last + self.interval - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
        self._last = time.monotonic()
