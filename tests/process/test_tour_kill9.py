"""Exactly once under kill -9, for the tour's job kinds (bot/tour/jobs.py), as
tests/process/test_kill9.py shows it for the scheduler: a real process (a fork of this one,
tests/support/tour_kill9_child.py) runs the jobs of a tour event on a real database file and
delivers their messages to a recording server; the test kills it with SIGKILL at random steps,
many times, restarting it on the same file.

The event (8 players) was drawn 20 days ago and played to its deciding game, which a player
reported 13 hours ago: its round reminders (silent: their sessions are over), the appeal
closes of its nine days (silent too: no appeal was lodged), the report's auto-confirmation,
which decides the event and schedules its wrap-up, are all due; its poll is not (the report
left no game to look for).
The players have turned their direct messages off: the child has no gateway, so no server to
check a member against, and a DM would wait for it for ever. tests/process/test_arbiter_dms.py
covers direct messages in a real `arbiter run`.
Afterwards every job due ran exactly once (one `job.done` each, none failed), every outbox row
reached the recording boundary exactly once, and each automatic post is there once.
`ARBITER_SOAK=1`: 60 rounds; `ARBITER_SEED` picks the kill points."""

from __future__ import annotations

import asyncio
import datetime as dt
import http.server
import json
import multiprocessing
import os
import random
import select
import signal
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bot.kernel.actor import Actor
from bot.kernel.notifications import Kind
from bot.runtime.clock import VirtualClock
from bot.tour.game_targets import find_target
from bot.tour.games import service as games
from bot.tour.store import load_event
from core.results import Result
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import Job
from tests.support.tour_kill9_child import run
from tests.support.tour_play import play_to_the_deciding_game
from tests.support.tour_world import player_names, tour_with_event, user_of

GUILD = 303
CHANNEL = 9_303
SOAK = os.environ.get("ARBITER_SOAK") == "1"
ROUNDS = 60 if SOAK else 12
STEP_TIMEOUT = 30.0  # seconds for one progress line; a hung child fails the test
ORDER = player_names(8)


BOT = {"id": "4243", "username": "Arbiter", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {
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


class Recorder(http.server.BaseHTTPRequestHandler):
    """Discord's REST API as the sender uses it: log-in, and a message per nonce (a repeated
    nonce returns the message it made)."""

    messages: ClassVar[dict[str, dict[str, Any]]] = {}
    posts: ClassVar[int] = 0
    lock: ClassVar[threading.Lock] = threading.Lock()

    def do_GET(self) -> None:
        if self.path.endswith("/users/@me"):
            self._json(BOT)
        elif self.path.endswith("/oauth2/applications/@me"):
            self._json(APPLICATION)
        else:
            self.send_error(404)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        channel = self.path.split("/channels/")[1].split("/")[0]
        with self.lock:
            Recorder.posts += 1
            nonce = body["nonce"]
            assert body.get("enforce_nonce") is True, body
            if nonce not in self.messages:
                self.messages[nonce] = {"id": str(700_000 + len(self.messages)), **body}
            sent = self.messages[nonce]
        self._json(
            {
                "id": sent["id"],
                "channel_id": channel,
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
                "nonce": nonce,
            }
        )

    def _json(self, data: dict[str, Any]) -> None:
        """A JSON answer as Discord sends it (content type exactly `application/json`)."""
        body = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def boundary() -> Iterator[str]:
    Recorder.messages = {}
    Recorder.posts = 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


async def _seed(path: Path, now: dt.datetime) -> None:
    """The event drawn 20 days ago, its preliminary played at its 3rd day's evening and its
    knock-out at its last day's evening (every session started) to its deciding game, which
    its White player reported (the draw that decides it) 13 hours ago."""
    start = (now - dt.timedelta(days=20)).date()
    clock = VirtualClock(dt.datetime.combine(start, dt.time(0), tzinfo=dt.UTC))
    database = await Database.open(path, clock=clock)
    try:
        await database.migrate()
        store = GuildStore(database, GUILD)
        async with store.change(None, "test.setup", "settings") as uow:
            await uow.settings.update(announcements_channel_id=CHANNEL)
            for number in range(len(ORDER)):
                for kind in Kind:
                    await uow.notifications.choose(user_of(number), kind.key, False)
        await tour_with_event(store, players=ORDER, seed="k9", start=start.isoformat())
        await clock.advance_to(clock() + dt.timedelta(days=2, hours=20))

        async def last_day() -> None:
            await clock.advance_to(clock() + dt.timedelta(days=6))

        deciding = await play_to_the_deciding_game(store, "Open", ORDER, last_day)
        await clock.advance_to(now - dt.timedelta(hours=13))
        async with store.read() as view:
            record = (await view.tour_events.by_name("Open"))[0]
            target = find_target(await load_event(view, record), deciding)
        white = Actor(user_of(ORDER.index(target.white)))
        await games.report_game(store, white, "Open", deciding, Result.DRAW)
    finally:
        await database.close()


def _run_child(path: Path, url: str, kill_after: int | None) -> bool:
    """Fork the child; SIGKILL it after `kill_after` progress lines (None: let it finish).
    Returns whether it finished (wrote DONE and exited 0)."""
    read_end, write_end = os.pipe()
    context = multiprocessing.get_context("fork")
    child = context.Process(target=run, args=(str(path), url, write_end), daemon=True)
    child.start()
    os.close(write_end)
    lines: list[str] = []
    buffer = b""
    try:
        while kill_after is None or len(lines) < kill_after:
            ready, _, _ = select.select([read_end], [], [], STEP_TIMEOUT)
            assert ready, f"the child hung after {lines[-3:]}"
            chunk = os.read(read_end, 4096)
            if not chunk:
                break
            buffer += chunk
            *complete, buffer = buffer.split(b"\n")
            lines += [line.decode() for line in complete]
    finally:
        if child.is_alive() and "DONE" not in lines:
            os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
        child.join(STEP_TIMEOUT)
        os.close(read_end)
    finished = child.exitcode == 0 and "DONE" in lines
    assert finished or child.exitcode == -signal.SIGKILL, f"child failed ({child.exitcode})"
    return finished


async def _outcome(path: Path) -> tuple[list[Job], Counter[int], list[str], list[Any]]:
    database = await Database.open(path)
    try:
        async with GuildStore(database, GUILD).read() as view:
            audit = await view.audit.recent(limit=100_000)
            assert not [e for e in audit if e.action == "job.failed"], "a job failed"
            done = Counter(
                int(e.subject.removeprefix("job:")) for e in audit if e.action == "job.done"
            )
            jobs = [job for subject in ("event:1",) for job in await view.jobs.of_subject(subject)]
            jobs += [
                job
                for game in await view.tour_games.of_event(1)
                for job in await view.jobs.of_subject(f"game:{game.id}")
            ]
            messages = await view.outbox.pending()
            assert messages == [], "a message was never delivered"
            sent = []
            for entry in audit:
                for posted in entry.details.get("outbox", []):
                    message = await view.outbox.get(posted["id"])
                    assert message is not None
                    sent.append(message)
            statuses = [game.status.value for game in await view.tour_games.of_event(1)]
            return jobs, done, statuses, sent
    finally:
        await database.close()


def test_every_tour_job_runs_exactly_once_when_killed_at_random_points(
    tmp_path: Path, boundary: str
) -> None:
    path = tmp_path / "arbiter.db"
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    asyncio.run(_seed(path, now))
    rnd = random.Random(os.environ.get("ARBITER_SEED", "23"))
    kills = 0
    finished = False
    for _ in range(ROUNDS):
        # 0: killed during start-up; otherwise after that many steps (apply/sent).
        finished = _run_child(path, boundary, kill_after=rnd.randint(0, 12))
        if finished:
            break
        kills += 1
    if not finished:
        finished = _run_child(path, boundary, kill_after=None)
    assert finished
    assert kills >= min(ROUNDS, 6), f"only {kills} kills landed before the work was done"

    jobs, done, statuses, sent = asyncio.run(_outcome(path))
    polls = [job for job in jobs if job.kind == "cct.poll"]
    assert polls and {job.status for job in polls} == {"cancelled"}  # nothing left to find
    due = [
        job
        for job in jobs
        if job.due_at <= now + dt.timedelta(minutes=1) and job.status != "cancelled"
    ]
    kinds = Counter(job.kind.rsplit(".", 1)[0] + "." for job in due)
    assert kinds["cct.round."] == 7 + 6 and kinds["cct.appeals."] == 9, kinds
    assert {"cct.confirm", "cct.wrapup"} <= {job.kind for job in due}
    for job in due:  # every job due ran, each exactly once
        assert job.status == "done", job
        assert done[job.id] == 1, job
    assert all(status in ("confirmed", "decided") for status in statuses)
    # every outbox row reached Discord exactly once (a send repeated after a kill, by nonce)
    assert len({m.id for m in sent}) == len(sent)
    assert set(Recorder.messages) == {m.nonce for m in sent}
    assert all(int(Recorder.messages[m.nonce]["id"]) == m.message_id for m in sent)
    texts = [m.content or "" for m in sent]
    for day in range(1, 10):  # no appeal lodged or decided: each close ran and posted nothing
        assert sum(f"**Open**, day {day} (" in t for t in texts) == 0, day
    assert sum(t.startswith("Confirmed automatically in **Open**") for t in texts) == 1
    titles = [e.get("title", "") for m in sent for e in m.embeds]
    assert sum(t.startswith("Open is over: placings") for t in titles) == 1
    assert Recorder.posts >= len(sent)
    print(
        f"tour kill -9: {kills} kills; {len(due)} jobs each done once; {len(sent)} messages "
        f"delivered ({Recorder.posts} posts incl. repeats after kills)"
    )
