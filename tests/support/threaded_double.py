"""The Discord double in a thread of its own, with its own event loop, for synchronous tests
that run a CLI command in-process (`main(["run", ...])` calls `asyncio.run`, so the double
cannot share the test's loop). `call` runs a function in the double's loop and returns its
result: the world is only touched from there."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from tests.discord_double import DiscordDouble

T = TypeVar("T")


class ThreadedDouble:
    """A started double and the loop it runs in."""

    def __init__(self, double: DiscordDouble, loop: asyncio.AbstractEventLoop) -> None:
        self.double = double
        self.loop = loop

    def call(self, function: Callable[[], T]) -> T:
        """Run `function()` in the double's loop; its result."""

        async def run() -> T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)


@contextmanager
def running_double(**options: Any) -> Iterator[ThreadedDouble]:
    """A `DiscordDouble(**options)` listening on 127.0.0.1 in a thread, for the block."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    made: list[DiscordDouble] = []

    def serve() -> None:
        asyncio.set_event_loop(loop)
        double = DiscordDouble(**options)  # made in its loop's thread
        loop.run_until_complete(double.start())
        made.append(double)
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, name="discord double", daemon=True)
    thread.start()
    assert started.wait(10), "the Discord double did not start"
    try:
        yield ThreadedDouble(made[0], loop)
    finally:
        asyncio.run_coroutine_threadsafe(made[0].stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
