"""Where the bot reaches Discord, and how fast it may open gateway sessions.

The REST root comes from the configuration's `discord.api_base`. The gateway's address is never
written down here. It is asked of that API with `GET /gateway/bot`, as Discord asks bots to, and
also becomes the address discord.py dials after an invalid session. Nothing here knows whether the
other end is Discord or a test's stand-in.

Discord limits IDENTIFY to `session_start_limit.max_concurrency` per 5 seconds, in buckets of
`shard_id % max_concurrency`. `IdentifyPacer` waits exactly as long as that needs. discord.py's
default hook sleeps 5 s before every IDENTIFY but the first, whatever the limit and however long ago
the bucket's last one was.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route

IDENTIFY_WINDOW = 5.0
"""Seconds over which Discord counts a bucket's IDENTIFYs."""
IDENTIFY_MARGIN = 0.5
"""Added to the window: Discord counts from when an IDENTIFY reaches it, the bot from just
before sending one, and the first may be slower on the way than the next."""


def use_api(base: str) -> None:
    """Sends every REST call to `base`, webhooks and interaction replies included.

    discord.py builds each URL from the class attribute `Route.BASE`. Setting it is the one switch
    it has for this, and its `_set_api_version` sets the same attribute.
    """
    Route.BASE = base.rstrip("/")


@dataclass(frozen=True)
class Gateway:
    """What `GET /gateway/bot` said: the recommended shards, the address, the IDENTIFY limit."""

    shards: int
    url: str
    max_concurrency: int


async def ask_gateway(http: HTTPClient) -> Gateway:
    """Asks the API for the gateway and makes its address the one discord.py falls back to, instead
    of Discord's own.

    That fallback is the class attribute `DiscordWebSocket.DEFAULT_GATEWAY`, dialled after an
    invalid session or for a fixed shard count.
    """
    shards, url, limits = await http.get_bot_gateway()
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    return Gateway(shards, url, max(1, int(limits.get("max_concurrency", 1))))


class IdentifyPacer:
    """Spaces IDENTIFYs as Discord allows.

    It allows one per bucket, `shard_id % max_concurrency`, every `window` seconds, which is
    Discord's 5 plus a margin. The first of each bucket goes at once.
    """

    def __init__(
        self,
        max_concurrency: int = 1,
        *,
        window: float = IDENTIFY_WINDOW + IDENTIFY_MARGIN,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self._last: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def wait(self, shard_id: int) -> None:
        """Returns when shard `shard_id` may IDENTIFY, and counts that IDENTIFY."""
        bucket = shard_id % self.max_concurrency
        lock = self._locks.setdefault(bucket, asyncio.Lock())
        async with lock:
            last = self._last.get(bucket)
            if last is not None:
                delay = last + self.window - self.clock()
                if delay > 0:
                    await self.sleep(delay)
            self._last[bucket] = self.clock()
