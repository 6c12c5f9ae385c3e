"""CL-21 verification waiting for the directors (CL-23's electorate): /roster remove's "Not
verified yet" names the real cause (no director role set, role deleted, Server Members intent
off) and its fix; the `roster.verify` job retrying for a lasting cause tells the directors'
channel once (the same unit of work as the retry), never again for later retries of that
removal, and verifies at the first retry after the fix. Real bot, real file, virtual clock."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from bot.league.rosters.removal_checks import RETRY_AFTER, TOLD, VERIFY_JOB, removal_subject
from bot.runtime.clock import VirtualClock
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.motion_world import (
    START,
    club_admin,
    directors,
    league_ready,
    running_bot,
)

RECORDED = "Removal of **a9** from **A** recorded (other)."
WAITS = "waits for verification (CL-21)"
NO_ROLE = (
    "the directors could not be read: no director role is set (someone with Manage Server can"
    " set it with `/setup set director_role`); the bot tries again later"
)
INTENT_OFF = (
    "the directors could not be read: the **Server Members intent** is off (the bot's operator"
    " must enable it in the Discord Developer Portal and restart Arbiter); the bot tries again"
    " later"
)


def _outbox(path: Path) -> list[tuple[int, str]]:
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute("SELECT channel_id, content FROM outbox ORDER BY id")
        return [(int(r[0]), str(r[1])) for r in rows]
    finally:
        connection.close()


def _no_director_role(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            connection.execute("UPDATE guild_settings SET director_role_id = NULL")
    finally:
        connection.close()


@pytest.mark.parametrize("cause", ["no role", "intent off"])
async def test_cl_21_remove_not_verified_yet_names_the_real_cause(
    tmp_path: Path, cause: str
) -> None:
    """CL-21, CL-23: the directors cannot be read because no director role is set, or the
    Server Members intent is off: "Not verified yet" says which and how to fix it, not a
    guess about the intent. (A deleted role: test_roster_remove_replies.)"""
    path = tmp_path / "a.db"
    async with running_bot(path, VirtualClock(START)) as (bot, harness):
        await league_ready(bot, harness)
        directors(harness, 3)
        admin = await club_admin(bot, harness, "A")
        if cause == "no role":
            _no_director_role(path)
        else:
            bot._connection._intents.members = False
        outcome = await harness.command(
            "roster remove", user=admin, club="A", player="a9", reason="other"
        )
    expected = NO_ROLE if cause == "no role" else INTENT_OFF
    assert outcome.replies[-1].content == f"{RECORDED}\nNot verified yet: {expected}."


async def test_cl_21_verify_job_tells_the_directors_once_then_verifies_after_the_fix(
    tmp_path: Path,
) -> None:
    """CL-21, CL-23: no director role set: the `roster.verify` job retries every RETRY_AFTER;
    three retries queue ONE message to the directors' channel naming removal #N and the fix
    (recorded in the job's payload with that retry); after `/setup set director_role` the
    next retry verifies it: one forfeit motion, no further waiting message."""
    path = tmp_path / "a.db"
    clock = VirtualClock(START)
    async with running_bot(path, clock) as (bot, harness):
        manager, _ = await league_ready(bot, harness)
        seated = directors(harness, 3)
        admin = await club_admin(bot, harness, "A")
        _no_director_role(path)
        await harness.command("roster remove", user=admin, club="A", player="a9", reason="other")
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        subject = removal_subject(1)
        await clock.advance(dt.timedelta(0))  # the job due now: first retry
        for _ in range(2):  # second and third retries
            await clock.advance(RETRY_AFTER)
        async with store.read() as view:
            job = await view.jobs.pending(VERIFY_JOB, subject)
            history = await view.jobs.of_subject(subject)
            removal = await view.rosters.removal(1)
        waits = [(c, text) for c, text in _outbox(path) if WAITS in text]
        assert job is not None and job.payload == {"removal": 1, TOLD: "NO_ROLE"}
        assert job.due_at == START + 3 * RETRY_AFTER and len(history) == 1  # one job, moved
        assert removal is not None and removal.verification == "pending"
        assert waits == [
            (
                harness.channel("general"),
                "Roster removal #1 (**a9** from **A**) waits for verification (CL-21): the"
                " directors could not be read: no director role is set (someone with Manage"
                " Server can set it with `/setup set director_role`). The bot tries again every"
                " 10 minutes and verifies it once this is fixed.",
            )
        ]

        await harness.command("setup set", user=manager, director_role=harness.role("Director"))
        await clock.advance(RETRY_AFTER)
        async with store.read() as view:
            removal = await view.rosters.removal(1)
            motions = await view.motions.recent()
            job = await view.jobs.pending(VERIFY_JOB, subject)
        await clock.advance(RETRY_AFTER * 3)
        assert [text for _, text in _outbox(path) if WAITS in text] == [waits[0][1]]
    [motion] = motions
    assert removal is not None and removal.verification == "motion"
    assert removal.motion_id == motion.id and job is None
    assert sorted(motion.electorate) == sorted(m.id for m in seated)


async def test_cl_21_verify_job_without_a_channel_tells_once_one_is_set_up(
    tmp_path: Path,
) -> None:
    """CL-21: no director role and no channel to say it in: the retries queue nothing and
    mark nothing (not said); once the announcements channel is set, the next retry says it
    there, once."""
    path = tmp_path / "a.db"
    clock = VirtualClock(START)
    async with running_bot(path, clock) as (bot, harness):
        manager, _ = await league_ready(bot, harness)
        directors(harness, 3)
        admin = await club_admin(bot, harness, "A")
        _no_director_role(path)
        connection = sqlite3.connect(path)
        with connection:
            connection.execute(
                "UPDATE guild_settings SET announcements_channel_id = NULL,"
                " directors_channel_id = NULL"
            )
        connection.close()
        await harness.command("roster remove", user=admin, club="A", player="a9", reason="other")
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        await clock.advance(dt.timedelta(0))
        await clock.advance(RETRY_AFTER)
        async with store.read() as view:
            job = await view.jobs.pending(VERIFY_JOB, removal_subject(1))
        assert job is not None and job.payload == {"removal": 1}
        assert job.due_at == START + 2 * RETRY_AFTER
        assert [text for _, text in _outbox(path) if WAITS in text] == []

        await harness.command(
            "setup set", user=manager, announcements=harness.channel("announcements")
        )
        for _ in range(3):
            await clock.advance(RETRY_AFTER)
        async with store.read() as view:
            job = await view.jobs.pending(VERIFY_JOB, removal_subject(1))
    waits = [(c, text) for c, text in _outbox(path) if WAITS in text]
    assert [c for c, _ in waits] == [harness.channel("announcements")]
    assert job is not None and job.payload == {"removal": 1, TOLD: "NO_ROLE"}
