"""Shard processes' storage (issue 25 item 4): which guilds' work a process reads (`Shards`,
the same filter on both engines), the advisory locks that give each shard one process and
free it when that process's session ends, and the commit notices (LISTEN/NOTIFY) that tell
the other processes on a PostgreSQL database of a unit of work's jobs and messages."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from storage.engine.database import Database, SqliteDatabase
from storage.engine.postgresql import PostgresDatabase
from storage.engine.shards import Shards, shard_condition
from storage.guild import GuildStore
from storage.shared.jobs import next_due, overdue_jobs, pending_jobs, running_jobs
from storage.shared.outbox import pending_messages
from storage.shared.ownership import DatabaseOwned, own

COUNT = 4
DUE = datetime(2026, 3, 1, 12, tzinfo=UTC)


def guild_on(shard: int, nth: int = 0) -> int:
    """A guild id Discord puts on `shard` of COUNT (its timestamp bits pick the shard)."""
    return ((shard + COUNT * nth + 1000 * COUNT) << 22) | 77


def test_shards_parse_ranges_lists_and_refuse_nonsense() -> None:
    assert Shards.parse("0-3", 8) == Shards((0, 1, 2, 3), 8)
    assert Shards.parse("5", 8).ids == (5,)
    assert Shards.parse("0-1, 6", 8).ids == (0, 1, 6)
    assert str(Shards.parse("0-1,3,5-7", 8)) == "shard(s) 0-1,3,5-7 of 8"
    for text, count, message in [
        ("", 8, "expected shard ids"),
        ("a-b", 8, "expected shard ids"),
        ("3-1", 8, "runs backwards"),
        ("0-8", 8, "from 0 to 7"),
        ("-1", 8, "expected shard ids"),
        ("0", 0, "between 1 and"),
        ("0-99999999", 8, "at most"),
        ("0-" + "9" * 5000, 8, "expected shard ids"),
        ("0\x00", 8, "expected shard ids"),
        ("\u0663", 8, "expected shard ids"),  # an Arabic-Indic three
        ("1_0", 8, "expected shard ids"),
        ("+1", 8, "expected shard ids"),
    ]:
        with pytest.raises(ValueError, match=message):
            Shards.parse(text, count)


def test_a_guild_belongs_to_the_shard_discord_puts_it_on() -> None:
    shards = Shards((1, 2), COUNT)
    assert [shards.of(guild_on(s)) for s in range(COUNT)] == [0, 1, 2, 3]
    assert [shards.owns(guild_on(s, 5)) for s in range(COUNT)] == [False, True, True, False]
    assert shard_condition(None) == ("", ())


async def _work_in_every_shard(database: Database) -> dict[int, int]:
    """One pending job (overdue), one later job and one message in a guild of each shard."""
    guilds = {shard: guild_on(shard) for shard in range(COUNT)}
    for shard, guild in guilds.items():
        async with GuildStore(database, guild).change(None, "test.work", "x") as uow:
            await uow.jobs.schedule("test.job", f"s:{shard}", DUE - timedelta(hours=1))
            await uow.jobs.schedule("test.later", f"s:{shard}", DUE + timedelta(hours=shard))
            await uow.outbox.post(900 + shard, content=f"shard {shard}")
    return guilds


async def test_the_scheduler_and_sender_reads_keep_only_their_shards_guilds(
    database: Database,
) -> None:
    guilds = await _work_in_every_shard(database)
    mine, theirs = Shards((0, 2), COUNT), Shards((1, 3), COUNT)

    def shard_set(rows: list[object]) -> set[int]:
        return {mine.of(row.guild_id) for row in rows}  # type: ignore[attr-defined]

    assert shard_set(await pending_jobs(database, shards=mine)) == {0, 2}
    assert shard_set(await pending_jobs(database, shards=theirs)) == {1, 3}
    assert len(await pending_jobs(database)) == 2 * COUNT  # a lone bot: every guild's
    assert shard_set(await overdue_jobs(database, DUE, shards=mine)) == {0, 2}
    assert shard_set(await pending_messages(database, shards=theirs)) == {1, 3}
    assert len(await pending_messages(database)) == COUNT
    assert await next_due(database, DUE, shards=theirs) == DUE + timedelta(hours=1)
    assert await next_due(database, DUE, shards=Shards((3,), COUNT)) == DUE + timedelta(hours=3)
    [job] = await pending_jobs(database, guild_id=guilds[3], due_before=DUE)
    assert (job.guild_id, job.kind) == (guilds[3], "test.job")
    async with GuildStore(database, guilds[1]).change(None, "test.claim", "x") as uow:
        claimed = await uow.jobs.pending("test.job", "s:1")
        assert claimed is not None and await uow.jobs.claim(claimed.id)
    assert [j.guild_id for j in await running_jobs(database, shards=theirs)] == [guilds[1]]
    assert await running_jobs(database, shards=mine) == []


async def test_each_shard_has_one_process_and_is_freed_when_its_session_ends(
    database: Database,
) -> None:
    if isinstance(database, SqliteDatabase):  # SQLite: one bot per file, shards refused
        with pytest.raises(DatabaseOwned, match="shard processes need PostgreSQL"):
            await own(database, shards=Shards((0,), COUNT))
        return
    assert isinstance(database, PostgresDatabase)
    others = [await PostgresDatabase.connect(database.url) for _ in range(3)]
    try:
        first = await own(database, shards=Shards((0, 1), COUNT))
        with pytest.raises(DatabaseOwned, match="shard 1 is already run by another Arbiter"):
            await own(others[0], shards=Shards((1, 2), COUNT))
        second = await own(others[0], shards=Shards((2, 3), COUNT))  # nothing of 2 was kept
        with pytest.raises(DatabaseOwned, match="--shard-count 4"):
            await own(others[1], shards=Shards((5,), 8))
        with pytest.raises(DatabaseOwned, match="as shards"):
            await own(others[1])  # a lone bot beside shard processes
        await first.release()  # the process died: the server dropped its session
        replacement = await own(others[2], shards=Shards((0, 1), COUNT))
        await replacement.release()
        await second.release()
        alone = await own(others[1])  # no shard process left: a lone bot may run
        await alone.release()
    finally:
        for other in others:
            await other.close()


async def _heard_within(heard: list[int], count: int) -> list[int]:
    for _ in range(200):
        if len(heard) >= count:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # and nothing more
    return heard


async def test_another_processes_commit_with_jobs_or_messages_is_heard(
    database: Database,
) -> None:
    if isinstance(database, SqliteDatabase):  # one bot per file: its own listeners hear it
        owned = await own(database)
        heard: list[int] = []
        await owned.listen(heard.append)
        await _work_in_every_shard(database)
        await owned.release()
        assert heard == []
        return
    assert isinstance(database, PostgresDatabase)
    other = await PostgresDatabase.connect(database.url)
    owned = await own(database, shards=Shards((0, 1, 2, 3), COUNT))
    heard = []
    try:
        await owned.listen(heard.append)
        guild = guild_on(2)
        async with GuildStore(database, guild).change(None, "test.own", "x") as uow:
            await uow.jobs.schedule("test.job", "mine", DUE)  # this process's own commit
        async with GuildStore(other, guild).change(None, "test.nothing", "x") as uow:
            await uow.settings.get()  # no job, no message: nothing to wake
        async with GuildStore(other, guild).change(None, "test.abandoned", "x") as uow:
            await uow.jobs.schedule("test.job", "gone", DUE)
            uow.abandon()
        with pytest.raises(RuntimeError):
            async with GuildStore(other, guild).change(None, "test.failed", "x") as uow:
                await uow.outbox.post(1, content="never")
                raise RuntimeError("rolled back")
        assert await _heard_within(heard, 1) == []
        async with GuildStore(other, guild).change(None, "test.job", "x") as uow:
            await uow.jobs.schedule("test.job", "theirs", DUE)
        async with GuildStore(other, guild_on(3)).change(None, "test.post", "x") as uow:
            await uow.outbox.post(5, content="hello")
        assert await _heard_within(heard, 2) == [guild, guild_on(3)]
    finally:
        await owned.release()
        await other.close()
