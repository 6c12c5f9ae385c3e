"""The process tests/process/test_kill9.py kills with SIGKILL: a bot's job machinery on a real
database.

`python -m tests.support.kill9_child DATABASE URL` owns DATABASE (the OS lock a real bot takes),
starts the real scheduler (APScheduler) and the real outbox sender, recovers — running every job
that fell due while it was down — and keeps running jobs and delivering until nothing is pending,
then prints DONE and exits 0. URL is the test's recording server: "chess.com" for the fetching
kind's read and Discord's REST API under URL/api/v10 (discord.py's `Route.BASE`), which a real
`discord.Client` logs in to and the sender posts to through discord.py's public API (the
server deduplicates by nonce, as Discord does).

Every job writes a fact (its audit details), one outbox message and — for a root kind — a
follow-up job due at once; none of it is idempotent by itself. Each step prints a line
(`apply`, `fetched`, `sent` — the last as Discord's answer arrives, before the sender records
it), so the test can kill the process at a random step.
"""

from __future__ import annotations

import asyncio
import os
import sys
import traceback
from collections.abc import Awaitable
from pathlib import Path

import aiohttp
import discord

from bot.app.discord_endpoint import use_api
from bot.runtime.outbox import OutboxSender
from bot.runtime.scheduler import JobRegistry, Scheduler
from storage.engine.database import Database
from storage.guild import UnitOfWork, on_commit
from storage.shared.jobs import Job, pending_jobs, running_jobs
from storage.shared.outbox import pending_messages
from storage.shared.ownership import OwnerLock

CHANNEL = 9_000
ROOT_KINDS = ("k9-reminder", "k9-deadline", "k9-snapshot")
FETCHING_KIND = "k9-snapshot"


def follow_up(kind: str) -> str:
    """The kind of the job a root job of `kind` schedules when it runs."""
    return f"{kind}-after"


def say(line: str) -> None:
    """One progress line for the test (a point where it may kill this process)."""
    print(line, flush=True)


def _said_sent(
    session: aiohttp.ClientSession, context: object, params: aiohttp.TraceRequestEndParams
) -> Awaitable[None]:
    """Say `sent` as Discord's answer to a message post arrives (aiohttp's trace, which
    discord.py takes as `http_trace`): before the sender records it, a point to kill at."""
    if params.method == "POST" and params.url.path.endswith("/messages"):
        say(f"sent {params.response.status} {params.url.path}")
    return asyncio.sleep(0)


async def discord_client(url: str) -> discord.Client:
    """A real discord.py client logged in to the recording server (no gateway: the sender
    only uses the REST API)."""
    use_api(f"{url}/api/v10")  # as `[discord] api_base` does for `arbiter run`
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_said_sent)
    client = discord.Client(intents=discord.Intents.none(), http_trace=trace)
    await client.login("kill9-token")
    return client


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
        client = await discord_client(url)
        sender = OutboxSender(database, client)
        on_commit(database, scheduler.on_commit)
        on_commit(database, sender.on_commit)
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
        await client.close()
    await database.close()
    owner.release()
    say("DONE")
    return 0


def serve() -> int:
    """`--fork-server`: for each line `DATABASE URL` read on stdin, fork a child from this
    process, whose imports are done, to run `main` on them. The child prints `pid N` first,
    then its progress lines; once it ended, this process prints `exit CODE` (-9: killed by
    SIGKILL). A test that starts its children so pays Python's start-up once, not each time."""
    for request in sys.stdin:
        path, url = request.split()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                say(f"pid {os.getpid()}")
                code = asyncio.run(main(Path(path), url))
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        say(f"exit {os.waitstatus_to_exitcode(status)}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork-server"]:
        raise SystemExit(serve())
    raise SystemExit(asyncio.run(main(Path(sys.argv[1]), sys.argv[2])))
