"""Exactly once under kill -9: a real process (tests/support/kill9_child.py) runs due jobs on a real
database file and delivers their messages to a recording server; the test kills it with
SIGKILL at random steps, many times, restarting it on the same file (each child is forked from
one process whose imports are done, so Python's start-up is paid once). Afterwards every job ran
exactly once (one fact, one outbox row, one follow-up), in due order per subject, and every
outbox row reached the recording boundary exactly once. `ARBITER_SOAK=1`: 200 rounds, 5 ×
the jobs; `ARBITER_SEED` picks the kill points."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import Job
from tests.support.kill9_child import CHANNEL, ROOT_KINDS, follow_up
from tests.support.paths import ROOT

GUILDS = (101, 202)
SOAK = os.environ.get("ARBITER_SOAK") == "1"
SUBJECTS = tuple(f"match:{n}" for n in range(30 if SOAK else 6))
ROUNDS = 200 if SOAK else 20
STEP_TIMEOUT = 30.0  # seconds for one progress line; a hung child fails the test


BOT = {"id": "4242", "username": "Arbiter", "discriminator": "0", "avatar": None, "bot": True}


@dataclass
class Boundary:
    """The far side of the wire: Discord's REST API (log-in, and messages deduplicated by
    nonce) and chess.com."""

    messages: dict[str, dict[str, Any]] = field(default_factory=dict)  # nonce → message
    posts: int = 0
    reads: int = 0

    async def post(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.posts += 1
        nonce = body["nonce"]
        assert body.get("enforce_nonce") is True, body
        if nonce not in self.messages:  # Discord: a known nonce returns the message it made
            self.messages[nonce] = {
                "id": str(500_000 + len(self.messages)),
                "channel_id": request.match_info["channel"],
                **body,
            }
        return _json(_message_payload(self.messages[nonce]))

    async def me(self, request: web.Request) -> web.Response:
        return _json(BOT)

    async def application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": BOT["id"],
                "name": "Arbiter",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": BOT,
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def club(self, request: web.Request) -> web.Response:
        self.reads += 1
        return web.json_response({"club": request.match_info["name"], "members_count": 42})


def _json(data: dict[str, Any]) -> web.Response:
    """A JSON answer as Discord sends it: content type exactly `application/json` (discord.py
    reads a body as JSON only then)."""
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


def _message_payload(sent: dict[str, Any]) -> dict[str, Any]:
    """A message the bot posted, as Discord returns it."""
    return {
        "id": sent["id"],
        "channel_id": sent["channel_id"],
        "author": BOT,
        "content": sent.get("content") or "",
        "timestamp": "2030-01-01T12:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": sent.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "nonce": sent["nonce"],
    }


@pytest.fixture
async def boundary() -> AsyncIterator[tuple[Boundary, str]]:
    recorder = Boundary()
    app = web.Application()
    app.router.add_post("/api/v10/channels/{channel}/messages", recorder.post)
    app.router.add_get("/api/v10/users/@me", recorder.me)
    app.router.add_get("/api/v10/oauth2/applications/@me", recorder.application)
    app.router.add_get("/club/{name}", recorder.club)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield recorder, f"http://127.0.0.1:{port}"
    await runner.cleanup()


async def _seed(path: Path) -> list[Job]:
    """Three root jobs per subject, all overdue (reminder, then deadline, then snapshot)."""
    database = await Database.open(path)
    await database.migrate()
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
    jobs = []
    for guild in GUILDS:
        async with GuildStore(database, guild).change(None, "test.seed", "jobs") as uow:
            for n, subject in enumerate(SUBJECTS):
                for k, kind in enumerate(ROOT_KINDS):
                    due = base + timedelta(minutes=10 * n + k)
                    jobs.append(await uow.jobs.schedule(kind, subject, due))
    await database.close()
    return jobs


@dataclass
class ForkServer:
    """tests/support/kill9_child.py's `--fork-server`: each child a process forked from one
    whose imports are done, killed by its pid (what it writes to stderr is kept)."""

    process: asyncio.subprocess.Process
    errors: bytearray = field(default_factory=bytearray)
    child: int | None = None
    """The pid of the child whose exit is not reported yet."""

    async def line(self) -> str:
        """The next line the server or its child printed; fails after STEP_TIMEOUT."""
        assert self.process.stdout is not None
        raw = await asyncio.wait_for(self.process.stdout.readline(), STEP_TIMEOUT)
        assert raw, f"the fork server ended:\n{self.errors.decode()}"
        return raw.decode().strip()


@contextlib.asynccontextmanager
async def fork_server() -> AsyncIterator[ForkServer]:
    """The fork server, running; at the end a child still running is killed and the server
    stopped."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.kill9_child",
        "--fork-server",
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    server = ForkServer(process)
    assert process.stdin is not None and process.stderr is not None
    errors = process.stderr

    async def drain() -> None:  # read meanwhile: never a full pipe
        while chunk := await errors.read(65536):
            server.errors.extend(chunk)

    draining = asyncio.create_task(drain())
    try:
        yield server
    finally:
        if server.child is not None:  # a failed test leaves no child running
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.child, signal.SIGKILL)
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), STEP_TIMEOUT)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            await draining


async def _run_child(
    server: ForkServer, path: Path, url: str, kill_after: int | None
) -> tuple[bool, list[str]]:
    """Start a child; kill -9 it after `kill_after` progress lines (None: let it finish).
    Returns whether it finished (printed DONE, exit 0) and the lines it printed."""
    assert server.process.stdin is not None
    server.process.stdin.write(f"{path} {url}\n".encode())
    await server.process.stdin.drain()
    first = await server.line()
    assert first.startswith("pid "), first
    pid = server.child = int(first.split()[1])
    lines: list[str] = []
    code: int | None = None
    while kill_after is None or len(lines) < kill_after:
        line = await server.line()
        if line.startswith("exit "):
            code = int(line.split()[1])
            break
        lines.append(line)
    if code is None:
        if "DONE" not in lines:
            with contextlib.suppress(ProcessLookupError):  # it may have ended meanwhile
                os.kill(pid, signal.SIGKILL)  # no clean-up, no flush, no atexit
        while not (line := await server.line()).startswith("exit "):
            lines.append(line)  # printed before the kill landed
        code = int(line.split()[1])
    server.child = None
    finished = code == 0 and "DONE" in lines
    assert finished or code == -9, f"child failed (exit {code}):\n{server.errors.decode()}"
    return finished, lines


async def test_every_job_runs_exactly_once_when_killed_at_random_points(
    tmp_path: Path, boundary: tuple[Boundary, str]
) -> None:
    recorder, url = boundary
    path = tmp_path / "arbiter.db"
    roots = await _seed(path)
    rnd = random.Random(os.environ.get("ARBITER_SEED", "11"))
    kills = 0
    finished = False
    async with fork_server() as server:
        for _ in range(ROUNDS):
            # 0: killed during start-up; otherwise after that many steps (apply/fetched/sent).
            finished, _lines = await _run_child(server, path, url, kill_after=rnd.randint(0, 10))
            if finished:
                break
            kills += 1
        if not finished:
            finished, _lines = await _run_child(server, path, url, kill_after=None)
    assert finished
    assert kills >= min(ROUNDS, 10), f"only {kills} kills landed before the work was done"

    database = await Database.open(path)
    outbox_ids: list[int] = []
    for guild in GUILDS:
        async with GuildStore(database, guild).read() as view:
            audit = await view.audit.recent(limit=100_000)
            done = [entry for entry in audit if entry.action == "job.done"]
            assert not [entry for entry in audit if entry.action == "job.failed"]
            for subject in SUBJECTS:
                jobs = await view.jobs.of_subject(subject)
                # One job per kind: a root that ran twice would add a second follow-up.
                kinds = Counter(job.kind for job in jobs)
                expected = {kind: 1 for kind in ROOT_KINDS} | {
                    follow_up(kind): 1 for kind in ROOT_KINDS
                }
                assert kinds == expected, (guild, subject, kinds)
                assert {job.status for job in jobs} == {"done"}
                # One fact per job, and the facts of one subject in due order.
                facts = [e for e in done if e.details["subject"] == subject]
                assert sorted(e.details["fact"]["job"] for e in facts) == sorted(
                    job.id for job in jobs
                )
                by_id = {job.id: job for job in jobs}
                ran = [by_id[e.details["fact"]["job"]] for e in facts]
                assert [(j.due_at, j.id) for j in ran] == sorted((j.due_at, j.id) for j in ran)
                snapshot = next(
                    e for e in facts if by_id[e.details["fact"]["job"]].kind == "k9-snapshot"
                )
                assert '"members_count": 42' in snapshot.details["fact"]["observed"]
            for entry in done:  # exactly one outbox row per run, each sent once
                (posted,) = entry.details["outbox"]
                message = await view.outbox.get(posted["id"])
                assert message is not None and message.status == "sent"
                assert message.content is not None
                assert message.content.startswith(f"job {entry.details['fact']['job']} ")
                sent = recorder.messages[message.nonce]
                assert int(sent["id"]) == message.message_id
                assert sent["content"] == message.content and sent["channel_id"] == str(CHANNEL)
                outbox_ids.append(message.id)
    await database.close()

    total = len(GUILDS) * len(SUBJECTS) * 2 * len(ROOT_KINDS)
    assert len(roots) * 2 == total
    assert len(outbox_ids) == len(set(outbox_ids)) == total  # no outbox row lost or doubled
    assert len(recorder.messages) == total  # no message posted twice, none missing
    assert set(recorder.messages) == {f"outbox-{n}" for n in outbox_ids}
    assert recorder.posts >= total
    print(
        f"kill -9: {kills} kills; {total} jobs each done once; {total} messages delivered "
        f"({recorder.posts} posts incl. repeats after kills, {recorder.reads} fetches)"
    )
