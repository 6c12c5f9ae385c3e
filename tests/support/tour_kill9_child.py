"""The process tests/runtime/test_tour_kill9.py kills with SIGKILL: the bot's job machinery with
the tour's real job kinds (bot/tour/jobs.py) on a real database file.

`run(path, url, fd)` — the body of a forked child (the test process has everything imported:
a fork costs milliseconds, a new interpreter a second) — owns the database (the OS lock a real
bot takes), starts the real scheduler (APScheduler) and outbox sender, recovers (running every
job that fell due while it was down) and keeps running jobs and delivering until no job due by
now is pending or running and no message waits, then writes DONE. Messages go to the test's
recording server (deduplicated by nonce, as Discord does). Each step writes a line to `fd`
(`apply <job>` before a tour job's handler, `sent <nonce>` after a delivery), so the test can
kill the process at a random step. The sites are not configured: a poll finds them unreadable
and retries later, recording nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from bot.runtime.outbox import OutboxSender
from bot.runtime.scheduler import JobHandler, JobRegistry, Scheduler
from bot.tour.automation.context import TourAutomation
from bot.tour.jobs import register_tour_jobs
from storage.database import Database
from storage.guild import UnitOfWork
from storage.jobs import Job, pending_jobs, running_jobs
from storage.outbox import pending_messages
from storage.ownership import OwnerLock


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


class RecordingHttp:
    """The slice of discord.py's HTTPClient the outbox sender uses, posting every message (its
    content and embeds, with its nonce) to the test's recording server."""

    def __init__(
        self, session: aiohttp.ClientSession, url: str, say: Callable[[str], None]
    ) -> None:
        self.session = session
        self.url = url
        self.say = say

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        body = {"channel_id": channel_id, **params.payload}
        async with self.session.post(f"{self.url}/messages", json=body) as response:
            response.raise_for_status()
            data: dict[str, Any] = await response.json()
        self.say(f"sent {body['nonce']}")
        return data


async def _main(path: str, url: str, say: Callable[[str], None]) -> None:
    owner = OwnerLock.acquire(Path(path))
    database = await Database.open(path)
    await database.migrate()
    async with aiohttp.ClientSession() as session:
        registry = SayingRegistry(say)
        register_tour_jobs(registry, TourAutomation(database, None, None))
        scheduler = Scheduler(database, registry)
        sender = OutboxSender(database, RecordingHttp(session, url, say))  # type: ignore[arg-type]
        database.on_commit(scheduler.on_commit)
        database.on_commit(sender.on_commit)
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
    await database.close()
    owner.release()
    say("DONE")


def run(path: str, url: str, fd: int) -> None:
    """The forked child's body: run the jobs due, writing each step to `fd`; exit 0."""

    def say(line: str) -> None:
        os.write(fd, (line + "\n").encode())

    asyncio.run(_main(path, url, say))
    os._exit(0)  # no clean-up of the parent's state that the fork copied
