"""The process tests/process/test_tour_kill9.py kills with SIGKILL: the bot's job machinery with
the tour's real job kinds (bot/tour/jobs.py) on a real database file.

`run(path, url, fd)` — the body of a forked child (the test process has everything imported:
a fork costs milliseconds, a new interpreter a second) — owns the database (the OS lock a real
bot takes), starts the real scheduler (APScheduler) and outbox sender, recovers (running every
job that fell due while it was down) and keeps running jobs and delivering until no job due by
now is pending or running and no message waits, then writes DONE. Messages go through a real
discord.py client to the test's recording server — Discord's REST API under URL/api/v10 —,
which deduplicates them by nonce, as Discord does. Each step writes a line to `fd`
(`apply <job>` before a tour job's handler, `sent …` as Discord's answer to a post arrives,
before the sender records it), so the test can
kill the process at a random step. No site is configured: a poll has nothing to read and
schedules its next.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.app.discord_endpoint import use_api
from bot.runtime.outbox import OutboxSender
from bot.runtime.scheduler import JobHandler, JobRegistry, Scheduler
from bot.tour.automation.context import TourAutomation
from bot.tour.jobs import register_tour_jobs
from storage.engine.database import Database
from storage.guild import UnitOfWork, on_commit
from storage.shared.jobs import Job, pending_jobs, running_jobs
from storage.shared.outbox import pending_messages
from storage.shared.ownership import OwnerLock


class SayingRegistry(JobRegistry):
    """The job registry, each handler saying `apply <job id>` before it runs (a kill point)."""

    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__()
        self.say = say

    def _wrap(self, handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        async def saying(job: Job, uow: UnitOfWork, *rest: Any) -> None:
            self.say(f"apply {job.id}")
            await handler(job, uow, *rest)

        return saying

    def register(self, kind: str, handler: JobHandler) -> None:
        super().register(kind, self._wrap(handler))

    def register_family(self, prefix: str, handler: JobHandler) -> None:
        super().register_family(prefix, self._wrap(handler))

    def register_fetching(self, kind: str, fetch: Any, handler: Any) -> None:
        super().register_fetching(kind, fetch, self._wrap(handler))


def _sent_tracer(say: Callable[[str], None]) -> aiohttp.TraceConfig:
    """Say `sent` as Discord's answer to a message post arrives (aiohttp's trace, which
    discord.py takes as `http_trace`): before the sender records it, a point to kill at."""

    async def said(
        session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestEndParams
    ) -> None:
        if params.method == "POST" and params.url.path.endswith("/messages"):
            say(f"sent {params.response.status} {params.url.path}")

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(said)
    return trace


async def discord_client(url: str, say: Callable[[str], None]) -> discord.Client:
    """A real discord.py client logged in to the recording server's REST API (no gateway:
    the sender only posts)."""
    use_api(f"{url}/api/v10")  # as `[discord] api_base` does for `arbiter run`
    client = discord.Client(intents=discord.Intents.none(), http_trace=_sent_tracer(say))
    await client.login("tour-kill9-token")
    return client


async def _main(path: str, url: str, say: Callable[[str], None]) -> None:
    """The child's work (see the module)."""
    owner = OwnerLock.acquire(Path(path))
    database = await Database.open(path)
    await database.migrate()
    registry = SayingRegistry(say)
    register_tour_jobs(registry, TourAutomation(database, None, None))
    scheduler = Scheduler(database, registry)
    client = await discord_client(url, say)
    try:
        sender = OutboxSender(database, client)
        on_commit(database, scheduler.on_commit)
        on_commit(database, sender.on_commit)
        sender.start()
        scheduler.start()
        say("recovering")
        await scheduler.recover()
        say("recovered")
        while True:
            now = database.clock() + dt.timedelta(seconds=1)
            if not (
                await pending_jobs(database, due_before=now)
                or await running_jobs(database)
                or await pending_messages(database)
            ):
                break
            await asyncio.sleep(0.01)
        await scheduler.shutdown()
        await sender.stop()
    finally:
        await client.close()
    await database.close()
    owner.release()
    say("DONE")


def run(path: str, url: str, fd: int) -> None:
    """The forked child's body: run the jobs due, writing each step to `fd`; exit 0."""

    def say(line: str) -> None:
        os.write(fd, (line + "\n").encode())

    asyncio.run(_main(path, url, say))
    os._exit(0)  # no clean-up of the parent's state that the fork copied
