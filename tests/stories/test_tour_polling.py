"""Polling grows with games, not with hours (issue 31): a whole 8-player Regular played
through the real bot on the virtual clock — the demo tour's first event (its preliminary,
the chess.com game the bot finds, the knock-out to its Final), with the sites polled every
10 minutes at most and the bot down from the first evening to the second — schedules at most
3 poll jobs a session and far fewer than 3 per game, each within its session's window (its
start to its CCT-11 appeal close); the poll due while the bot was down runs at its start-up;
the event's last game cancels the polling in its own unit of work; every game keeps the
result the script gave it."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bot.offline.demo.tour_script import local, tour_script
from bot.offline.demo.tour_world import Report, generate, result_text
from bot.offline.discord_messages import stable_id
from bot.offline.replay import replay, validate
from bot.offline.script import parse_script
from bot.offline.transcript import StepRecord
from bot.tour.planning.kinds import POLL
from bot.tour.planning.plan import POLLS_PER_SESSION, session_window
from bot.tour.store import load_event
from core.tour.calendar import EVENT_DAYS
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import Job

Entry = tuple[str, str, dt.datetime, dict[str, Any]]

GUILD = stable_id("guild", "Tour Club")
POLL_MINUTES = 10
"""The config's least time between two polls: with one poll job every 10 minutes the old
polling made well over a thousand jobs for this event."""


def _one_event_script() -> tuple[str, dt.datetime, list[Report]]:
    """The demo tour's first event as a script (polling every 10 minutes at most, the bot
    restarted at its second evening instead of the clock advanced), the restart's instant
    and every game the script enters or the bot finds, with its result."""
    world = generate(1)
    plan = world.events[0]
    script = tour_script(world)
    lines = script.text().splitlines()
    header = next(i for i, line in enumerate(lines) if not line.startswith("//"))
    second = next(s for s, name in script.stages.items() if name.startswith(world.events[1].name))
    lines = lines[: header + second]
    settings = json.loads(lines[header])
    settings["config"]["chesscom"]["poll_minutes"] = POLL_MINUTES
    lines[header] = json.dumps(settings)
    restart = local(plan.start + dt.timedelta(days=1), 20, 30)
    evening = json.dumps({"at": restart.strftime("%Y-%m-%dT%H:%M:%SZ")})
    lines[lines.index(evening)] = json.dumps({"restart": {"at": json.loads(evening)["at"]}})
    rounds = max(p.round for p in plan.pairings)
    games = [r for n in range(1, rounds + 1) for r in plan.prelim_reports(n)]
    games += [i for items in plan.series.values() for i in items if isinstance(i, Report)]
    return "\n".join(lines) + "\n", restart, games


Window = tuple[dt.datetime, dt.datetime]


async def _read(db: Path) -> tuple[list[Job], dict[str, str], dict[int, Window], list[Entry]]:
    """The event's poll jobs, each game's result by name, each day's session window (its
    start, its appeal close) and the audit, newest first (action, subject, instant,
    details)."""
    database = await Database.open(db)
    try:
        async with GuildStore(database, GUILD).read() as view:
            record = await view.tour_events.get(1)
            assert record is not None
            tour = await view.tours.get(record.tour_id)
            assert tour is not None
            loaded = await load_event(view, record)
            results = {
                loaded.game_name(g): result_text(g.result)
                for g in loaded.games
                if g.result is not None
            }
            jobs = [j for j in await view.jobs.of_subject("event:1") if j.kind == POLL]
            windows = {
                day: session_window(record, tour.rules, day) for day in range(1, EVENT_DAYS + 1)
            }
            audit = [
                (e.action, e.subject, e.at, e.details)
                for e in await view.audit.recent(limit=100_000)
            ]
    finally:
        await database.close()
    return jobs, results, windows, audit


def test_polling_grows_with_games_not_hours_over_a_whole_event(tmp_path: Path) -> None:
    """CCT-11, CCT-8d: the whole event through the bot; its poll jobs (every one ever
    scheduled) are at most 3 a session and at most 3 per game, each due inside its session's
    window; the restart runs the poll that fell due while the bot was down; the Final's last
    game cancels the polling in its own unit of work; every result is as the script gave."""
    text, restart, planned = _one_event_script()
    db = tmp_path / "event.db"
    script = parse_script(text, tmp_path)
    records: list[StepRecord] = []

    async def run() -> None:
        await validate(script, db)
        await replay(script, db, records.append)

    asyncio.run(run())
    assert [r.error for r in records if r.error] == []
    posts = [json.dumps(p, ensure_ascii=False) for r in records for p in r.posts]
    assert sum("Found on chess.com: **Spring Regular**" in p for p in posts) == 1
    assert sum("Spring Regular is over" in p for p in posts) == 1  # the wrap-up

    jobs, results, windows, audit = asyncio.run(_read(db))
    # every result as the script entered it (or as the bot found it on chess.com)
    assert {r.game: r.result for r in planned} == results
    # at most 3 poll jobs per game over the whole event, and at most 3 a session
    assert 0 < len(jobs) <= POLLS_PER_SESSION * len(results)
    by_day = Counter(int(j.payload["day"]) for j in jobs)
    assert max(by_day.values()) <= POLLS_PER_SESSION and set(by_day) <= set(range(1, 10))
    assert len(jobs) <= POLLS_PER_SESSION * EVENT_DAYS  # the old hourly polling: > 1,000
    # each due inside its session's window: from its start to its appeal close (CCT-11)
    for job in jobs:
        start, close = windows[int(job.payload["day"])]
        assert start <= job.due_at <= close, job
    # a restart loses no poll that is due: the one due while the bot was down ran at start-up
    ran_at_restart = {
        subject
        for action, subject, at, details in audit
        if action == "job.done" and at == restart and "poll" in details
    }
    missed = [j for j in jobs if j.due_at < restart and f"job:{j.id}" in ran_at_restart]
    assert missed and all(j.status == "done" for j in missed)
    # the event's last game ends the polling in its own unit of work
    ended = [
        action
        for action, _, _, details in audit
        if any(c.get("kind") == POLL for c in details.get("jobs_cancelled", []))
    ]
    assert ended and ended[0].startswith("game.")  # newest first: the last cancel
    assert [j.status for j in jobs if j.status == "pending"] == []
