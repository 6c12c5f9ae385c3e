"""A populated league for the command-surface tests: roles set up, clubs A-E approved with two
or three admins each, a pending club, "Test season" imported with one match to play, "Spring"
created with two clubs and not yet scheduled, and a director motion open. Built once into a
file (`build_world`), then each test runs a bot on a copy (`league_bot`) and compares dumps."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import ChessComConfig, Config, DatabaseConfig
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.cl_seasons import season, unplayed
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Member, Outcome
from tests.support.motion_world import PLAYED, START, import_test_season, seat, set_up

ADMINS = {"A": (201, 202, 203), "B": (211, 212), "C": (221, 222), "D": (231, 232), "E": (251, 252)}
"""Club → its admins' user ids (A has three, so one can be removed)."""
PENDING = "Pending Club"
PENDING_ADMINS = (241, 242)
HQ_USER, DIRECTOR_USER, ARBITER_USER, MANAGER_USER, PLAYER_USER = 101, 102, 103, 104, 105
DIRECTORS = (102, 106, 107)
SPRING = "Spring"
SPRING_FIRST_ROUND = "2026-06-01"
NOBODY_CHESSCOM = "http://127.0.0.1:9/pub"
"""A chess.com base URL that nothing answers (port 9, discard): a command that reaches out
fails at once instead of touching the internet."""


OVERDUE = dt.datetime(2026, 3, 10, 18, tzinfo=dt.UTC)
"""The start of match 6 (E v A): its challenge was issued and never accepted."""

SEASON = season(
    [
        *PLAYED,
        unplayed("5", "A", "D", [], round=3, start=dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC)),
        unplayed("6", "E", "A", [], round=4, start=OVERDUE, challenge="issued"),
    ],
    {"P": ["A", "B", "C", "D", "E"]},
)
"""Division P of A-E: two rounds played; A - D to play (not challenged yet) and E - A to
play (E issued the challenge, A has not accepted)."""


@dataclass(frozen=True)
class CommandWorld:
    """The ids a test needs: the match still to play (A - D), the one A must accept (E - A),
    a played match, the open motion."""

    open_match: int
    to_accept: int
    played_match: int
    motion: int


def config_for(path: Path, base_url: str = NOBODY_CHESSCOM) -> Config:
    """The bot's config on `path`, chess.com at `base_url`, no retries (no back-off sleeps)."""
    return Config(
        database=DatabaseConfig(path=path),
        chesscom=ChessComConfig(base_url=base_url, contact="tests", max_retries=0),
    )


@asynccontextmanager
async def league_bot(
    path: Path, *, base_url: str = NOBODY_CHESSCOM, now: dt.datetime = START
) -> AsyncIterator[tuple[ArbiterBot, DiscordHarness, VirtualClock]]:
    """A bot on the database file `path` on a virtual clock at `now` (its scheduler and outbox
    on that clock too), with the harness installed before start-up."""
    clock = VirtualClock(now)
    database = await Database.open(path, clock=clock)
    bot = ArbiterBot(config_for(path, base_url), database=database, timer=clock)
    harness = DiscordHarness(bot)
    # The guild as the Server Members intent gives it: chunked, the directors seated.
    seat(harness, [harness.member("Director", user_id=u, name=f"d{u}") for u in DIRECTORS])
    async with bot:
        await bot.setup_hook()
        await clock.advance(dt.timedelta(0))  # start-up sends run before a test's first dump
        yield bot, harness, clock
    harness.check()


def members(harness: DiscordHarness) -> dict[str, Member]:
    """The cast, the same ids in every harness: one per role of the roles table of
    docs/league-in-discord.md."""
    return {
        "player": harness.member(user_id=PLAYER_USER, name="player"),
        "club admin": harness.member(user_id=ADMINS["A"][0], name="admin-a"),
        "other club's admin": harness.member(user_id=ADMINS["B"][0], name="admin-b"),
        "HQ": harness.member("HQ", user_id=HQ_USER, name="hq"),
        "director": harness.member("Director", user_id=DIRECTOR_USER, name="director"),
        "arbiter": harness.member("Arbiter", user_id=ARBITER_USER, name="arbiter"),
        "server manager": harness.member(
            permissions=harness.MANAGE_SERVER, user_id=MANAGER_USER, name="manager"
        ),
    }


def copy_world(world_file: tuple[Path, CommandWorld], tmp_path: Path) -> Path:
    """A copy of the built league (the `world_file` fixture) for one test to change."""
    path = tmp_path / "league.db"
    shutil.copy(world_file[0], path)
    return path


async def build_world(path: Path) -> CommandWorld:
    """Populate a new database file at `path` (see the module docstring)."""
    async with league_bot(path) as (bot, harness, clock):
        await set_up(harness)
        keys = await import_test_season(bot.database, SEASON)
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.change(None, "test.world", "clubs") as uow:
            for club, admins in ADMINS.items():
                for user_id in admins:
                    await uow.club_admins.add(club, user_id)
            await uow.clubs.register(PENDING, "pending-club")
            for user_id in PENDING_ADMINS:
                await uow.club_admins.add(PENDING, user_id)
        cast = members(harness)
        hq = cast["HQ"]
        await harness.command("season create", user=hq, name=SPRING, first_round=SPRING_FIRST_ROUND)
        for club in ("A", "B"):
            await harness.command(
                "season club-add", user=hq, season=SPRING, division="Premier Division", club=club
            )
        first = harness.member("Director", user_id=DIRECTORS[0])
        opened = await harness.command("vote open", user=first, kind="other", reason="A test.")
        assert "is open" in (opened.reply.content or ""), opened.reply.content
        motion = int((opened.reply.content or "").split()[1])
        await clock.advance(dt.timedelta(0))  # the outbox's due pass: nothing left to send
    return CommandWorld(keys["5"], keys["6"], keys["1"], motion)


async def invoke(
    harness: DiscordHarness, command: str, user: Member, options: dict[str, Any]
) -> Outcome:
    """`/command` as `user` with `options` given as a dict (an option may be called `user`)."""
    return await harness.run(harness.command_payload(command, user, options))


def dump(path: Path) -> list[str]:
    """The whole database file as SQL (`iterdump`), read by a connection of its own: two
    dumps are equal iff not a byte of content changed."""
    connection = sqlite3.connect(path)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


SEASON_FILE = json.dumps(SEASON).encode()
"""A small valid season file (for `/season import`)."""

BOARDS_CSV = b"board,home_player,away_player,home_points,away_points\n1,a1,d1,1.5,0.5\n"
"""A valid boards CSV of the match still to play (for `/match result`)."""
