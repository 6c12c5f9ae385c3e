"""The background task shared by the outbox sender and the standings pin refresher.

It sleeps until woken and runs one pass. It says whether a pass is due or running, so tests can wait
on it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from storage.engine.database import Database
from storage.engine.shards import Shards

if TYPE_CHECKING:  # the scheduler imports the outbox sender, a WakeLoop
    from bot.runtime.scheduler import Timer


class WakeLoop:
    """Runs `_background_pass` each time `_wait` returns, in one task from `_spawn` to `stop`.

    With a timer, as on a virtual clock, the passes go on the timer instead of a task.
    """

    def __init__(self, database: Database, timer: Timer | None, shards: Shards | None) -> None:
        self.database = database
        self.timer = timer
        self.shards = shards
        """The shards whose guilds this process serves, or None for every guild."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = False

    def serves(self, guild_id: int) -> bool:
        """Whether the guild is one of this process's shards."""
        return self.shards is None or self.shards.owns(guild_id)

    def _spawn(self, name: str) -> None:
        """Starts the task inside the running loop. A second call does nothing."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=name)

    async def stop(self) -> None:
        """Stops the background task. Work left undone is picked up again at the next start."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def drained(self) -> None:
        """Waits until no pass is due or running, as tests do after a wake."""
        while self._task is not None and (self._wake.is_set() or self._busy):
            await asyncio.sleep(0)

    async def _run(self) -> None:
        while True:
            await self._wait()
            self._busy = True
            try:
                await self._background_pass()
            finally:
                self._busy = False

    async def _wait(self) -> None:
        """Until woken."""
        await self._wake.wait()
        self._wake.clear()

    async def _background_pass(self) -> None:
        """One pass of the work. Each subclass says which."""
        raise NotImplementedError
