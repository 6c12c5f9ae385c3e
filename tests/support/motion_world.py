"""Helpers of the motion tests: a bot on a virtual clock whose scheduler runs on that clock,
directors seated in the guild's member cache (as the Server Members intent gives them), a
season imported from a season file, and the season exported and judged by `arbiter league`."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app.arbiter import ArbiterBot
from bot.cli import main
from bot.formats.season_file import dump_season, load_season
from bot.kernel.config import Config
from bot.league.store import import_season
from bot.league.store import load_season as load_stored
from bot.offline.discord_members import role_payload
from bot.runtime.clock import VirtualClock
from bot.runtime.scheduler import Scheduler
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore, on_commit
from storage.league.motions import MotionKind, MotionStatus, NewMotion
from tests.support.backends import database_config
from tests.support.cl_seasons import match, season, unplayed
from tests.support.discord_harness import (
    DEFAULT_GUILD_ID,
    DiscordHarness,
    Member,
    Outcome,
    Post,
    Upload,
)

START = dt.datetime(2026, 3, 2, 12, tzinfo=dt.UTC)
"""The clock when a test starts: after the test season's played rounds, before its last."""

PLAYED = [
    match("1", "A", "B", [("a1", "b1", 2), ("a2", "b2", 1.5)], round=1),
    match("2", "C", "D", [("c1", "d1", 1)], round=1),
    match("3", "A", "C", [("a1", "c1", 2)], round=2),
    match("4", "B", "D", [("b1", "d1", 0)], round=2),
]
"""Two rounds of division P played: A beats B and C, C and D draw, D beats B."""

SEASON = season(
    [
        *PLAYED,
        unplayed("5", "A", "D", round=3, start=dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC)),
    ]
)
"""Division P of A-D: two rounds played (A leads), a third round (A - D) still to come."""


@asynccontextmanager
async def running_bot(
    path: Path | str,
    clock: VirtualClock,
    previous: DiscordHarness | None = None,
    members: list[Member] | None = None,
) -> AsyncIterator[tuple[ArbiterBot, DiscordHarness]]:
    """A bot on the database at `path` (a SQLite file, or a PostgreSQL URL) whose clock and
    scheduler are `clock`, with the Discord harness (installed before start-up, so nothing
    can reach the network). With `previous`, Discord is the same as that harness saw it:
    guilds, roles, channels and the messages the bot posted, and `members` seated."""
    database = await open_database(path, clock=clock)
    bot = ArbiterBot(Config(database=database_config(path)), database=database)
    harness = DiscordHarness(bot)
    if previous is not None:
        same_discord(harness, previous)
        if members is not None:  # in the member cache before start-up (its jobs see them)
            seat(harness, members)
    async with bot:
        await bot.setup_hook()  # recovers the jobs missed while down, on `clock`'s now
        assert bot.scheduler is not None
        await bot.scheduler.shutdown()  # then the scheduler runs on the virtual clock
        bot.scheduler = Scheduler(bot.database, bot.jobs, timer=clock)
        on_commit(database, bot.scheduler.on_commit)
        await bot.scheduler.rebuild()
        yield bot, harness
    harness.check()


def same_discord(harness: DiscordHarness, previous: DiscordHarness) -> None:
    """Make `harness` answer as Discord would after a restart: the same guilds, role and
    channel ids, and the messages sent before."""
    harness.roles = {g: dict(r) for g, r in previous.roles.items()}
    harness.channels = {g: dict(c) for g, c in previous.channels.items()}
    harness.sent.update(previous.sent)
    for guild_id in harness.roles:
        harness.bot._connection._add_guild_from_data(
            {
                "id": str(guild_id),
                "name": f"Guild {guild_id}",
                "owner_id": "1",
                "roles": [
                    role_payload(role_id, name, position)
                    for position, (name, role_id) in enumerate(harness.roles[guild_id].items())
                ],
                "channels": [
                    {
                        "id": str(channel_id),
                        "type": 0,
                        "name": name,
                        "position": position,
                        "permission_overwrites": [],
                        "guild_id": str(guild_id),
                    }
                    for position, (name, channel_id) in enumerate(
                        harness.channels[guild_id].items()
                    )
                ],
                "members": [],
                "emojis": [],
                "stickers": [],
                "features": [],
                "member_count": 0,
                "unavailable": False,
            }
        )


def seat(harness: DiscordHarness, members: list[Member], guild_id: int = DEFAULT_GUILD_ID) -> None:
    """Put `members` (and the bot) into the guild's member cache, the guild fully chunked, as
    the Server Members intent gives it."""
    bot = harness.bot
    guild = bot.get_guild(guild_id)
    assert guild is not None
    state = bot._connection
    for member in members:
        guild._add_member(discord.Member(data=member.payload(), guild=guild, state=state))  # type: ignore[arg-type]
    assert bot.user is not None
    guild._add_member(discord.Member._from_client_user(user=bot.user, guild=guild, state=state))
    guild._member_count = len(guild._members)


def directors(harness: DiscordHarness, count: int) -> list[Member]:
    """`count` members holding the Director role, seated in the guild."""
    found = [harness.member("Director", name=f"director{i}") for i in range(count)]
    seat(harness, found)
    return found


async def club_admin(bot: ArbiterBot, harness: DiscordHarness, club: str) -> Member:
    """A new member (`admin-<club>`) made an admin of `club` directly in the database."""
    admin = harness.member(name=f"admin-{club}")
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "test", "admin") as uow:
        await uow.club_admins.add(club, admin.id)
    return admin


async def set_up(harness: DiscordHarness) -> Member:
    """`/setup set` the roles, the announcements and the directors' channel; the admin."""
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    await harness.set_up(admin, announcements="announcements", directors_channel="general")
    return admin


CORRECTED = b"board,home_player,away_player,home_points,away_points\n1,a1,c1,0,2\n"
"""A result correction's boards: board 1 of match 3 (A – C) won by C 2-0."""


async def open_correction(
    harness: DiscordHarness, director: Member, match_id: int, boards: bytes = CORRECTED
) -> Outcome:
    """`/vote open` a correct-result motion on `match_id` by `director` with `boards` as its
    CSV; the reply."""
    return await harness.command(
        "vote open",
        user=director,
        kind="correct-result",
        match=match_id,
        boards=Upload("boards.csv", boards),
        reason="Board 1 was reported the wrong way round",
    )


def ballot(harness: DiscordHarness, motion: int) -> Post:
    """The post carrying the vote buttons of motion `motion`."""
    [post] = [
        p
        for p in harness.sent.values()
        if any(f"motion:{motion}:yes" in str(r) for r in p.payload.get("components", []))
    ]
    return post


async def league_ready(bot: ArbiterBot, harness: DiscordHarness) -> tuple[Member, dict[str, int]]:
    """`set_up` the guild, then import the test season: the admin, and match key → match id."""
    admin = await set_up(harness)
    return admin, await import_test_season(bot.database)


async def import_test_season(database: Database, data: dict[str, Any] = SEASON) -> dict[str, int]:
    """Import the season file `data` into the default guild; match key → match id."""
    store = GuildStore(database, DEFAULT_GUILD_ID)
    async with store.change(None, "test.import", "season") as uow:
        record = await import_season(uow, load_season(data))
        matches = await uow.matches.of_season(record.id)
    return {m.key: m.id for m in matches}


async def league_json(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str], as_of: str
) -> Any:
    """`arbiter league --json --as-of DATE` on the season exported from the database through
    the season-file adapter, decoded."""
    store = GuildStore(database, DEFAULT_GUILD_ID)
    async with store.read() as view:
        record = await view.seasons.by_name("Test season")
        assert record is not None
        data = dump_season(await load_stored(view, record))
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["league", str(path), "--json", "--as-of", as_of]) == 0
    return json.loads(capsys.readouterr().out)


def table(report: Any, division: str = "P") -> dict[str, tuple[int | None, float, bool]]:
    """Club → (rank, match points, disqualified) of a `arbiter league --json` division."""
    for entry in report["divisions"]:
        if entry["name"] == division:
            return {
                s["club"]: (s["rank"], s["match_points"], s["disqualified"])
                for s in entry["standings"]
            }
    raise KeyError(division)


async def stored_motion(
    store: GuildStore,
    kind: MotionKind,
    status: MotionStatus | None = "passed",
    **subject: Any,
) -> int:
    """A real motion of `kind` stored in the guild (opened by three directors' electorate)
    and closed with `status` (None: left open) without applying its action — as a passed
    motion whose action a director then applies; its id."""
    async with store.change(None, "test.motion", f"motion:{kind}") as uow:
        motion_id = await uow.motions.open(
            NewMotion(kind, "test", (1, 2, 3), uow.now + dt.timedelta(hours=72), 3, 1, **subject)
        )
        if status is not None:
            await uow.motions.close(motion_id, status, "Not applied: test")
    return motion_id
