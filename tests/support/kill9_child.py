"""The process tests/runtime/test_kill9.py kills with SIGKILL: a bot's job machinery on a real
database.

`python -m tests.support.kill9_child DATABASE URL` owns DATABASE (the OS lock a real bot takes),
starts the real scheduler (APScheduler) and the real outbox sender, recovers — running every job
that fell due while it was down — and keeps running jobs and delivering until nothing is pending,
then prints DONE and exits 0. URL is the test's recording server: "chess.com" for the fetching
kind's read and "Discord" for the sender's posts (deduplicated by nonce, as Discord does).

Every job writes a fact (its audit details), one outbox message and — for a root kind — a
follow-up job due at once; none of it is idempotent by itself. Each step prints a line
(`apply`, `fetched`, `sent`), so the test can kill the process at a random step.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import aiohttp

from bot.runtime.outbox import OutboxSender
from bot.runtime.scheduler import JobRegistry, Scheduler
from storage.database import Database
from storage.guild import UnitOfWork
from storage.jobs import Job, pending_jobs, running_jobs
from storage.outbox import pending_messages
from storage.ownership import OwnerLock

CHANNEL = 9_000
ROOT_KINDS = ("k9-reminder", "k9-deadline", "k9-snapshot")
FETCHING_KIND = "k9-snapshot"


def follow_up(kind: str) -> str:
    """The kind of the job a root job of `kind` schedules when it runs."""
    return f"{kind}-after"


def say(line: str) -> None:
    """One progress line for the test (a point where it may kill this process)."""
    print(line, flush=True)


class RecordingHttp:
    """The slice of discord.py's HTTPClient the outbox sender uses, posting to the test's
    recording server (which answers a repeated nonce with the message it created)."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session = session
        self.url = url

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        body = {"channel_id": channel_id, **params.payload}
        async with self.session.post(f"{self.url}/messages", json=body) as response:
            response.raise_for_status()
            data: dict[str, Any] = await response.json()
        say(f"sent {body['nonce']}")
        return data


async def main(path: Path, url: str) -> int:
    owner = OwnerLock.acquire(path)
    database = await Database.open(path)
    await database.migrate()
    async with aiohttp.ClientSession() as session:

        async def write(job: Job, uow: UnitOfWork, observed: str | None = None) -> None:
            say(f"apply {job.id}")
            uow.details["fact"] = {"job": job.id, "observed": observed}
            await uow.outbox.post(CHANNEL, content=f"job {job.id} {job.kind} {job.subject}")
            if job.kind in ROOT_KINDS:
                await uow.jobs.schedule(follow_up(job.kind), job.subject, uow.now, {"of": job.id})

        async def fetch(job: Job) -> str:
            async with session.get(f"{url}/club/{job.subject}") as response:
                response.raise_for_status()
                text = await response.text()
            say(f"fetched {job.id}")
            return text

        registry = JobRegistry()
        for kind in ROOT_KINDS:
            if kind == FETCHING_KIND:
                registry.register_fetching(kind, fetch, write)
            else:
                registry.register(kind, write)
            registry.register(follow_up(kind), write)
        scheduler = Scheduler(database, registry)
        sender = OutboxSender(database, RecordingHttp(session, url))  # type: ignore[arg-type]
        database.on_commit(scheduler.on_commit)
        database.on_commit(sender.on_commit)
        sender.start()
        scheduler.start()
        say("recovering")
        await scheduler.recover()
        say("recovered")
        while (
            await pending_jobs(database)
            or await running_jobs(database)
            or await pending_messages(database)
        ):
            await asyncio.sleep(0.01)
        await scheduler.shutdown()
        await sender.stop()
    await database.close()
    owner.release()
    say("DONE")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(Path(sys.argv[1]), sys.argv[2])))
