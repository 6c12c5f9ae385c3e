"""The league automation's test world: four clubs in one division of a scheduled season on a
real database file, a virtual clock, the 127.0.0.1 fake chess.com, and a bot that can be
restarted (a new ArbiterBot on the same file) between steps, its sends recorded."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app.arbiter import ArbiterBot
from bot.kernel.actor import Actor, Role
from bot.kernel.config import ChessComConfig, ClDefaults, Config
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore
from storage.league.matches import MatchRecord
from tests.support.backends import database_config
from tests.support.chesscom_fake import FakeChessCom
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Post
from tests.support.migrated import place_migrated

GUILD = DEFAULT_GUILD_ID
ANNOUNCEMENTS = 600_000_000_000_000_001
ROMANIA_CHANNEL = 600_000_000_000_000_002
HQ = Actor(101, frozenset({Role.HQ}))
DIRECTOR = Actor(102, frozenset({Role.DIRECTOR}))
T0 = dt.datetime(2030, 1, 1, 12, tzinfo=dt.UTC)
FIRST_ROUND = dt.date(2030, 1, 20)  # 11:00 Los Angeles = 19:00 UTC
CLUBS = {
    "Team Romania": ("team-romania", (201, 202)),
    "Team USA - Southwest": ("team-usa-southwest", (211, 212)),
    "Club C": ("club-c", (221, 222)),
    "Club D": ("club-d", (231, 232)),
}
EMPTY_MATCH_LIST = {"finished": [], "in_progress": [], "registered": []}


def admin(club: str) -> Actor:
    """The first admin of a club."""
    return Actor(CLUBS[club][1][0])


@dataclass
class AutomationWorld:
    """The file, the fake chess.com, and every send of every bot started on the file."""

    location: Path | str
    """The database: a SQLite file's path or a PostgreSQL URL (`database_location`)."""
    fake: FakeChessCom
    clubs: dict[str, int] = field(default_factory=dict)
    season: int = 0
    sends: list[tuple[int, str]] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    """Every post as Discord received it (payloads with `allowed_mentions`)."""
    harness: DiscordHarness | None = None
    """The offline Discord of the bot running now (to make it answer an error)."""

    def config(self) -> Config:
        return Config(
            database=database_config(self.location),
            chesscom=ChessComConfig(
                base_url=self.fake.base_url, contact="tests@example.org", max_retries=0
            ),
        )

    @asynccontextmanager
    async def bot(self, clock: VirtualClock) -> AsyncIterator[ArbiterBot]:
        """A new bot on the same database file, started (missed jobs run), then closed."""
        database = await open_database(self.location, clock=clock)
        bot = ArbiterBot(self.config(), database=database, timer=clock)
        harness = DiscordHarness(bot)
        self.harness = harness
        harness.channels[GUILD]["announcements"] = ANNOUNCEMENTS
        harness.channels[GUILD]["romania"] = ROMANIA_CHANNEL
        async with bot:
            await bot.setup_hook()
            try:
                yield bot
            finally:
                assert bot.outbox is not None
                await clock.advance_to(clock())  # the sender's pass due now (virtual clock)
                await bot.outbox.drained()
                self.sends += [(p.channel_id, p.payload.get("content", "")) for p in harness.posts]
                self.posts += harness.posts
                harness.check()

    async def matches(self, database: Database) -> list[MatchRecord]:
        async with GuildStore(database, GUILD).read() as view:
            return await view.matches.of_season(self.season)

    async def match(self, database: Database, home: str, away: str) -> MatchRecord:
        ids = {self.clubs[home], self.clubs[away]}
        found = [m for m in await self.matches(database) if {m.home_club_id, m.away_club_id} == ids]
        assert len(found) == 1
        return found[0]


def serve_clubs(fake: FakeChessCom, members: int = 120, average: float = 1500.0) -> None:
    """Every club's chess.com profile (within CL-5/6) and an empty match list."""
    for name, (url_id, _) in CLUBS.items():
        fake.serve(
            f"club/{url_id}",
            {
                "@id": f"https://api.chess.com/pub/club/{url_id}",
                "name": name,
                "members_count": members,
                "average_daily_rating": average,
                "admin": [],
            },
        )
        fake.serve(f"club/{url_id}/matches", EMPTY_MATCH_LIST)


async def build_world(location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    """Four approved clubs with two admins each, an announcements channel, Team Romania's
    own reminder channel, and the season scheduled (3 rounds, 2 matches each)."""
    world = AutomationWorld(location, fake)
    serve_clubs(fake)
    if isinstance(location, Path):
        await place_migrated(location)
    database = await open_database(location, clock=lambda: T0)
    await database.migrate()
    store = GuildStore(database, GUILD)
    async with store.change(None, "test.world", "world") as uow:
        await uow.settings.update(announcements_channel_id=ANNOUNCEMENTS)
        for name, (url_id, admins) in CLUBS.items():
            club = await uow.clubs.register(name, url_id, status="approved")
            world.clubs[name] = club.id
            for user in admins:
                await uow.club_admins.add(club.id, user)
        await uow.clubs.set_reminder_channel(world.clubs["Team Romania"], ROMANIA_CHANNEL)
    defaults = ClDefaults(clubs_per_division=4)
    await seasons.create_season(store, HQ, defaults, "Spring", FIRST_ROUND)
    for name in CLUBS:
        await seasons.add_club(store, HQ, "Spring", "Premier Division", name)
    scheduled = await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    world.season = scheduled.season.id
    await database.close()
    return world


async def outbox(database: Database) -> list[tuple[int, str]]:
    """Every channel post of the outbox (channel, content), oldest first: the public record,
    without the direct messages (`direct_messages`)."""
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT channel_id, content FROM outbox WHERE dm_user_id IS NULL ORDER BY id"
        )
        return [(row[0], row[1]) for row in await cursor.fetchall()]


async def direct_messages(database: Database) -> list[tuple[int, str, Any]]:
    """Every direct message of the outbox (member, content, components), oldest first."""
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT dm_user_id, content, components FROM outbox"
            " WHERE dm_user_id IS NOT NULL ORDER BY id"
        )
        rows = await cursor.fetchall()
    return [(int(r[0]), str(r[1]), json.loads(r[2]) if r[2] else None) for r in rows]


def team_match(fixtures_dir: Path, **changes: Any) -> dict[str, Any]:
    """The recorded finished daily match 12803 (Team Romania vs Team USA - Southwest)."""
    path = fixtures_dir / "chesscom" / "team_match_daily_finished_12803.json"
    payload: dict[str, Any] = json.loads(path.read_text())
    payload.update(changes)
    return payload
