"""`AutoShardedBot` with 2 and 4 shards in one process, against the Discord double: the bot
opens the number of shards `GET /gateway/bot` recommends (all at once: the double allows 16
concurrent IDENTIFYs, and the bot paces by `max_concurrency`, not by discord.py's 5 s per
shard), each session gets exactly its guilds (`(guild_id >> 22) % shards`), each guild's
interactions come and are answered over its shard's connection, and every guild's challenge
deadline, due while the bot runs, fires exactly once (one forfeit announcement each).

The bot runs in the test's process (`ArbiterBot` as `arbiter run` builds it, its setup
hook, scheduler and outbox real), so its shard state can be checked too.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.app.arbiter import ArbiterBot
from bot.formats.season_file import load_season
from bot.kernel.config import ChessComConfig, Config, DatabaseConfig, DiscordConfig
from bot.league.matches.jobs import DEADLINE, subject
from bot.league.store import import_season
from core.league.season import CHALLENGE_DEADLINE_HOURS
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.discord_double import DiscordDouble
from tests.discord_double.world import Guild, shard_of
from tests.support.arbiter_process import publish_tree
from tests.support.cl_seasons import unchallenged_pair

GUILDS = 8
DUE_IN = dt.timedelta(seconds=1.0)
"""Half the deadlines fall due this long after seeding (stored to the second), usually while
the bot runs; the other half are overdue already and fire at start-up (recovery)."""


@pytest.fixture(autouse=True)
def discord_addresses() -> Iterator[None]:
    """The bot sets discord.py's class-wide addresses; put Discord's back afterwards."""
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    yield
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    """A double allowing 16 concurrent IDENTIFYs (a large bot's limit)."""
    server = DiscordDouble(max_concurrency=16, heartbeat_interval_ms=1000)
    await server.start()
    yield server
    await server.stop()


def season(deadline: dt.datetime) -> dict[str, object]:
    """The one-match season whose deadline is `deadline` (`unchallenged_pair`)."""
    return unchallenged_pair(deadline, CHALLENGE_DEADLINE_HOURS)


async def seed(path: Path, guilds: list[Guild], now: dt.datetime) -> None:
    """Each guild: its announcements channel set and a season whose one match's challenge
    deadline job is pending: due at `now + DUE_IN` for even guilds, overdue for odd ones."""
    database = await Database.open(path)
    await database.migrate()
    for number, guild in enumerate(guilds):
        deadline = now + DUE_IN if number % 2 == 0 else now - DUE_IN
        data = season(deadline)
        async with GuildStore(database, guild.id).change(None, "test.seed", "shards") as uow:
            await uow.settings.update(announcements_channel_id=guild.channel("announcements").id)
            record = await import_season(uow, load_season(data))
            (match,) = await uow.matches.of_season(record.id)
            await uow.jobs.schedule(DEADLINE, subject(match.id), deadline, {"match": match.id})
    await database.close()


@pytest.mark.parametrize("shards", [2, 4])
async def test_each_shard_serves_its_guilds_and_every_deadline_fires_once(
    tmp_path: Path, double: DiscordDouble, shards: int
) -> None:
    double.recommended_shards = shards
    guilds = [double.add_guild(f"Guild {n}") for n in range(GUILDS)]
    managers = {g.id: double.add_member(g, "manager", manager=True) for g in guilds}
    publishing = [asyncio.create_task(publish_tree(double, g.id)) for g in guilds]
    now = dt.datetime.now(dt.UTC)
    path = tmp_path / "arbiter.db"
    await seed(path, guilds, now)
    await asyncio.gather(*publishing)
    config = Config(
        database=DatabaseConfig(path=path),
        discord=DiscordConfig(api_base=double.api_base),
        chesscom=ChessComConfig(base_url="http://127.0.0.1:9/pub", contact="tests"),
    )
    bot = ArbiterBot(config)
    async with bot:
        running = asyncio.create_task(bot.start(double.token))
        try:
            await double.wait_ready(shards, timeout=15)
            assert bot.shard_count == shards and double.gateway.refused_identifies == 0
            for shard in range(shards):
                connection = double.gateway.connected(shard)
                assert connection is not None and connection.session is not None
                ready = connection.session.backlog[0]
                assert ready["t"] == "READY" and ready["d"]["shard"] == [shard, shards]
                listed = {int(g["id"]) for g in ready["d"]["guilds"]}
                assert listed == {g.id for g in guilds if shard_of(g.id, shards) == shard}
            sent = [await double.command(managers[g.id], "setup show") for g in guilds]
            for guild, interaction in zip(guilds, sent, strict=True):
                reply = await interaction.answer()
                assert reply.ephemeral and "Arbiter set-up" in reply.text()
                carrier = interaction.interaction.sent_on
                assert carrier.session.shard_id == shard_of(guild.id, shards)
                cached = bot.get_guild(guild.id)
                assert cached is not None and cached.shard_id == shard_of(guild.id, shards)

            def forfeits(guild: Guild) -> list[str]:
                channel = guild.channel("announcements")
                return [m.content for m in double.channel_messages(channel, posted_only=True)]

            await double.wait_for(
                lambda: all(forfeits(g) for g in guilds), timeout=15, what="every deadline"
            )
            for guild in guilds:
                (text,) = forfeits(guild)
                assert text.startswith("Challenge deadline") and "both clubs forfeit" in text
        finally:
            await bot.close()
            await running
    assert {c.client_close_code for c in double.gateway.connections} == {1000}
    assert len({c.session.id for c in double.gateway.connections if c.session}) == shards
    done = await Database.open(path)
    try:
        for number, guild in enumerate(guilds):  # each job done once, and not before its time
            async with GuildStore(done, guild.id).read() as view:
                entries = [e for e in await view.audit.recent(limit=100) if e.action == "job.done"]
            assert [e.details.get("outcome") for e in entries] == ["forfeit"], entries
            if number % 2 == 0:
                assert entries[0].at >= (now + DUE_IN).replace(microsecond=0)
    finally:
        await done.close()
