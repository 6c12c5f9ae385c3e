"""The tour running itself (docs/tour.md, "What happens on its own"; issue 23),
through the real bot on the virtual clock with restarts between steps: the user story
tests/scripts/tour_automation/story_tour_runs_itself.jsonl is replayed once and every automatic
post counted — each round's reminder (pinging exactly its players), the games found on
chess.com (after its 503s) and lichess.org, the auto-confirmations (two at the start-up after
the bot was down, one on the re-armed timer; never the disputed report), the CCT-11 appeal
closes, the pin's edits — and each job ran exactly once (one `job.done` per job row)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from pathlib import Path

from bot.offline.discord_messages import stable_id
from bot.offline.replay import replay, validate
from bot.offline.script import parse_script
from bot.offline.transcript import StepRecord
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.paths import ROOT

SCRIPT = ROOT / "tests" / "scripts" / "tour_automation" / "story_tour_runs_itself.jsonl"
GUILD = stable_id("guild", "Tour Club")
ROUND_PLAYERS = {
    1: {"greta", "farid", "alba", "hugo", "cleo", "elena", "dario", "bruno"},
}


def _replayed(tmp_path: Path) -> tuple[Path, list[StepRecord]]:
    """The story replayed: its database and its steps' records."""
    db = tmp_path / "replay.db"
    script = parse_script(SCRIPT.read_text(encoding="utf-8"), SCRIPT.parent)
    records: list[StepRecord] = []

    async def run() -> None:
        await validate(script, db)
        await replay(script, db, records.append)

    asyncio.run(run())
    return db, records


def _posts(records: list[StepRecord], channel: str = "announcements") -> list[tuple[int, str]]:
    return [
        (r.step, post["content"] or "")
        for r in records
        for post in r.posts
        if post["channel"] == channel
    ]


def _count(records: list[StepRecord], text: str) -> list[int]:
    return [step for step, content in _posts(records) if text in content]


def _every_step_ran_without_an_error(replayed: tuple[Path, list[StepRecord]]) -> None:
    _, records = replayed
    assert [r.error for r in records if r.error] == []
    assert sum(r.title == "the bot restarted" for r in records) == 2


def _each_round_and_knockout_day_is_reminded_once_before_its_session(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    _, records = replayed
    for round_no in range(1, 8):
        assert len(_count(records, f"**Summer Open**, round {round_no} — starts")) == 1, round_no
    assert len(_count(records, "**Summer Open**, QF day 1 — starts")) == 1
    assert len(_count(records, "**Summer Open**, QF day 2 — starts")) == 1
    # at 14:00Z, an hour before the 17:00 Paris session (round_reminder_minutes 60)
    [step] = _count(records, "round 1 — starts <t:1780326000:F>")
    assert records[step - 1].title == "clock advanced"
    assert records[step - 1].at.isoformat() == "2026-06-01T14:00:00+00:00"


def _reminder_pings(db: Path) -> dict[str, set[int]]:
    """The users each reminder's outbox row may ping (its allowed mentions), by its title."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT content, ping_users FROM outbox WHERE guild_id = ? AND content LIKE ?",
            (GUILD, "%— starts%"),
        ).fetchall()
    return {str(text).split(" — ")[0]: set(json.loads(users)) for text, users in rows}


def _a_reminder_pings_exactly_the_players_still_to_play(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    db, _ = replayed
    pings = _reminder_pings(db)
    everyone = {stable_id(GUILD, "member", name) for name in ROUND_PLAYERS[1]}
    assert pings["**Summer Open**, round 1"] == everyone
    assert pings["**Summer Open**, QF day 1"] == everyone  # all 8 go on
    hq = stable_id(GUILD, "member", "hq")
    assert all(hq not in users for users in pings.values())


def _site_games_are_found_once_after_chesscom_answered_503_and_wait_for_a_player(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    _, records = replayed
    chesscom = _count(records, "Found on chess.com: **Summer Open**, R1 Alba v Hugo — 1-0")
    lichess = _count(records, "Found on lichess.org: **Summer Open**, R1 Cleo v Elena — 1-0")
    assert len(chesscom) == len(lichess) == 1  # never taken twice by the later polls
    # nothing was found (nor recorded) while chess.com answered 503
    down = [r for r in records if r.at.isoformat() < "2026-06-01T15:51:00+00:00"]
    assert not any(
        "Found on" in text for r in down for text in (p["content"] or "" for p in r.posts)
    )


async def _audit(db: Path) -> tuple[list[str], Counter[int], list[tuple[str, str, str]]]:
    database = await Database.open(db)
    try:
        async with GuildStore(database, GUILD).read() as view:
            audit = await view.audit.recent(limit=100_000)
            retries = [
                str(e.details.get("reason"))
                for e in audit
                if e.action == "job.retry" and e.details.get("kind") == "cct.poll"
            ]
            done = Counter(
                int(e.subject.removeprefix("job:")) for e in audit if e.action == "job.done"
            )
            connection = view.tour_games
            games = [
                (g.source or "", g.reported_side.value if g.reported_side else "", g.status.value)
                for g in await connection.of_event(1)
                if g.source_ref
            ]
            return retries, done, games
    finally:
        await database.close()


def _an_outage_records_nothing_and_each_job_runs_exactly_once(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    db, _ = replayed
    retries, done, games = asyncio.run(_audit(db))
    assert retries and all("503" in reason for reason in retries)
    assert set(done.values()) == {1}  # no job row ran twice
    # the two site games: the bot's reports (waiting for either player), now settled
    assert sorted(games) == [("bot", "system", "confirmed"), ("bot", "system", "confirmed")]


def _reports_are_confirmed_by_timeout_across_the_restart_and_a_dispute_stops_it(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    _, records = replayed
    confirmed = [
        (step, text.split(": ", 1)[1].split(" is ")[0])
        for step, text in _posts(records)
        if text.startswith("Confirmed automatically")
    ]
    restart = next(r.step for r in records if r.title == "the bot restarted")
    assert confirmed == [
        (restart, "R1 Alba v Hugo"),  # the site game nobody answered: due 03:55, while down
        (restart, "R1 Greta v Farid"),  # reported at 22:05 before the stop, due 10:05
        (restart + 3, "R2 Farid v Bruno"),  # due 11:30: on the timer the new bot armed
    ]
    assert not any("R1 Dario v Bruno" in name for _, name in confirmed)  # disputed


def _appeal_jobs(db: Path) -> dict[str, str]:
    """The status of each appeals-close job, by kind (`cct.appeals.day1` …)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT kind, status FROM scheduled_jobs WHERE guild_id = ? AND kind LIKE ?",
            (GUILD, "cct.appeals.%"),
        ).fetchall()
    return {str(kind): str(status) for kind, status in rows}


def _cct_11_appeals_close_once_a_session_and_a_minute_late_is_refused(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    """CCT-11: a session's appeals close once; the close is posted only on a day with an
    appeal lodged for it (day 1) or decided (day 2), never as "0 appeal(s) lodged"."""
    db, records = replayed
    for day, posts in ((1, 1), (2, 1), (3, 0), (4, 0)):
        assert len(_count(records, f"**Summer Open**, day {day} (")) == posts, day
    jobs = _appeal_jobs(db)
    assert all(jobs[f"cct.appeals.day{day}"] == "done" for day in (1, 2, 3, 4)), jobs
    [(_, first)] = [post for post in _posts(records) if "day 1 (2026-06-01), are closed" in post[1]]
    assert first.endswith("1 appeal lodged for it, 1 still open for the arbiters.")
    [(_, second)] = [
        post for post in _posts(records) if "day 2 (2026-06-02), are closed" in post[1]
    ]
    assert second.endswith("no appeal lodged for it, 1 appeal decided that day.")
    assert not any("0 appeal" in text for _, text in _posts(records))
    replies = [
        (r.at.isoformat(), reply["content"] or "")
        for r in records
        if r.title.startswith("hugo: /appeal lodge")
        for reply in r.replies
    ]
    assert replies[0][0] == "2026-06-01T21:58:00+00:00" and "recorded at" in replies[0][1]
    assert replies[1][0] == "2026-06-01T22:00:00+00:00" and "too late" in replies[1][1]


def _the_pin_follows_every_change_and_nothing_is_posted_twice_after_a_restart(
    replayed: tuple[Path, list[StepRecord]],
) -> None:
    _, records = replayed
    edits = _posts(records, "general")
    reports = [r for r in records if "/game report" in r.title or "click [" in r.title]
    assert len(edits) >= len(reports)
    last = next(r for r in reversed(records) if r.title == "the bot restarted")
    assert last.posts == []  # nothing due was left undone, nothing is done twice


def test_the_tour_runs_itself_through_the_bot_across_restarts(tmp_path: Path) -> None:
    """Every row of the automation table, on one replay of the story (one test, so the
    replay runs once whichever worker runs it): round reminders, the sites' games (CCT-7),
    auto-confirmation and its dispute, the appeal closes and a minute-late appeal (CCT-11),
    the pin, each job exactly once."""
    replayed = _replayed(tmp_path)
    _every_step_ran_without_an_error(replayed)
    _each_round_and_knockout_day_is_reminded_once_before_its_session(replayed)
    _a_reminder_pings_exactly_the_players_still_to_play(replayed)
    _site_games_are_found_once_after_chesscom_answered_503_and_wait_for_a_player(replayed)
    _an_outage_records_nothing_and_each_job_runs_exactly_once(replayed)
    _reports_are_confirmed_by_timeout_across_the_restart_and_a_dispute_stops_it(replayed)
    _cct_11_appeals_close_once_a_session_and_a_minute_late_is_refused(replayed)
    _the_pin_follows_every_change_and_nothing_is_posted_twice_after_a_restart(replayed)
