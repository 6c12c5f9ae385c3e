"""A virtual clock: the time of a test or an offline replay, moved by hand.

It is the database's clock, called for "now", and the scheduler's timer with `add` and `remove`.
`advance_to(instant)` moves time forward and runs every timer due on the way in due order, with ties
in the order they were added. The clock is set to each timer's due time as it runs. Nothing waits
for real time.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta

Callback = Callable[[], Coroutine[object, object, object]]


class VirtualClock:
    """Now, and the timers due later, under the caller's control."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("the virtual clock needs a timezone-aware start")
        self._now = start
        self._queue: list[tuple[datetime, int, str]] = []
        self._timers: dict[str, tuple[datetime, int, Callback]] = {}
        self._order = itertools.count()

    def __call__(self) -> datetime:
        """The current virtual instant."""
        return self._now

    def add(self, key: str, run_at: datetime, callback: Callback) -> None:
        """Runs `callback()` when the clock reaches `run_at`, replacing a timer of the same key."""
        order = next(self._order)
        self._timers[key] = (run_at, order, callback)
        heapq.heappush(self._queue, (run_at, order, key))

    def remove(self, key: str) -> None:
        """Drop the timer `key`, if any."""
        self._timers.pop(key, None)

    def due(self) -> list[tuple[datetime, str]]:
        """Every timer still waiting, by due time, as pairs of due time and key."""
        return sorted((run_at, key) for key, (run_at, _, _) in self._timers.items())

    def _next(self, limit: datetime) -> tuple[str, Callback] | None:
        while self._queue and self._queue[0][0] <= limit:
            run_at, order, key = heapq.heappop(self._queue)
            timer = self._timers.get(key)
            if timer is None or timer[1] != order:
                continue  # removed, or replaced by a later add
            del self._timers[key]
            self._now = max(self._now, run_at)
            return key, timer[2]
        return None

    async def advance_to(self, instant: datetime) -> list[str]:
        """Moves to `instant`, running each timer due by then in due order, and returns their keys.

        Timers run one at a time to the end, so a timer that a callback adds within the window runs
        too.
        """
        if instant < self._now:
            raise ValueError("the virtual clock does not go backwards")
        ran = []
        while (timer := self._next(instant)) is not None:
            key, callback = timer
            await callback()
            ran.append(key)
        self._now = instant
        return ran

    async def advance(self, delta: timedelta) -> list[str]:
        """Calls `advance_to(now + delta)`."""
        return await self.advance_to(self._now + delta)
