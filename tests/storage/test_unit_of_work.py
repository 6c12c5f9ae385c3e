"""One unit of work per use case: a fact, its audit row, an outbox message and a job commit
together or not at all, and the running bot hears of the jobs and messages only on commit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.engine.database import Database
from storage.engine.errors import IntegrityError
from storage.guild import Committed, GuildStore, on_commit
from storage.league.matches import BoardRecord
from storage.shared.jobs import pending_jobs
from storage.shared.outbox import pending_messages
from tests.storage.test_unit_of_work_costs import _season
from tests.support.services_world import dump

GUILD = 5
CHANNEL = 77
DUE = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)


async def approve_club(store: GuildStore, actor_id: int, club: str, *, fail: bool = False) -> None:
    """A use case in the shape later services take: a fact, an announcement and a deadline."""
    async with store.change(actor_id, "club.approve", f"club:{club}") as uow:
        await uow.club_admins.add(club, actor_id)
        await uow.outbox.post(CHANNEL, content=f"{club} approved", embeds=[{"title": club}])
        await uow.jobs.schedule("club-review", f"club:{club}", DUE, {"club": club})
        uow.details["reason"] = "meets CL-2"
        if fail:
            raise RuntimeError("the announcement could not be rendered")


async def test_a_use_case_writes_fact_audit_outbox_and_job_in_one_unit_of_work(
    database: Database,
) -> None:
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)

    await approve_club(store, 9, "arsenal-fans")

    async with store.read() as view:
        assert await view.club_admins.admins_of("arsenal-fans") == [9]
        [entry] = await view.audit.recent()
        [message] = await view.outbox.pending()
        job = await view.jobs.pending("club-review", "club:arsenal-fans")
    assert (entry.actor_id, entry.action, entry.subject) == (9, "club.approve", "club:arsenal-fans")
    assert entry.details["reason"] == "meets CL-2"
    assert entry.details["outbox"] == [{"id": message.id, "channel_id": CHANNEL, "edit_of": None}]
    assert [j["id"] for j in entry.details["jobs"]] == [job.id]
    assert (message.channel_id, message.content, message.embeds) == (
        CHANNEL,
        "arsenal-fans approved",
        ({"title": "arsenal-fans"},),
    )
    assert job is not None and (job.due_at, job.payload) == (DUE, {"club": "arsenal-fans"})
    assert heard == [Committed(GUILD, (job,), (message,))]


async def test_an_exception_inside_the_unit_of_work_leaves_none_of_it(database: Database) -> None:
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)

    with pytest.raises(RuntimeError, match="could not be rendered"):
        await approve_club(store, 9, "arsenal-fans", fail=True)

    async with store.read() as view:
        assert await view.club_admins.admins_of("arsenal-fans") == []
        assert await view.audit.recent() == []
        assert await view.jobs.pending("club-review", "club:arsenal-fans") is None
    assert await pending_messages(database) == []
    assert await pending_jobs(database) == []
    assert heard == []  # the scheduler and the sender never heard of the rolled-back work


async def test_rescheduling_a_pending_job_moves_it_instead_of_adding_another(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    heard: list[Committed] = []
    on_commit(database, heard.append)
    async with store.change(1, "match.create", "match:7") as uow:
        first = await uow.jobs.schedule("challenge-deadline", "match:7", DUE, {"round": 1})
    later = DUE + timedelta(days=2)
    async with store.change(1, "match.reschedule", "match:7") as uow:
        moved = await uow.jobs.schedule("challenge-deadline", "match:7", later, {"round": 2})

    assert moved.id == first.id
    assert [(j.id, j.due_at, j.payload) for j in await pending_jobs(database)] == [
        (first.id, later, {"round": 2})
    ]
    assert [c.jobs for c in heard] == [(first,), (moved,)]
    async with store.read() as view:
        audit = await view.audit.recent()
    assert audit[-1].details["jobs"][0]["moved_from"] == "2030-03-01T12:00:00+00:00"


async def test_the_natural_key_is_per_guild_kind_and_subject(database: Database) -> None:
    keys = [
        (GUILD, "deadline", "match:1"),
        (GUILD, "deadline", "match:2"),
        (GUILD, "reminder", "match:1"),
        (GUILD + 1, "deadline", "match:1"),
    ]
    for guild, kind, subject in keys:
        async with GuildStore(database, guild).change(1, "t", subject) as uow:
            await uow.jobs.schedule(kind, subject, DUE)
    assert sorted((j.guild_id, j.kind, j.subject) for j in await pending_jobs(database)) == sorted(
        keys
    )


async def test_the_database_refuses_a_second_pending_job_of_the_same_key(
    database: Database,
) -> None:
    # The partial unique index backs the repository: raw inserts cannot duplicate a key either.
    async with GuildStore(database, GUILD).change(1, "t", "s") as uow:
        await uow.jobs.schedule("deadline", "match:1", DUE)
    with pytest.raises(IntegrityError):
        async with database.transaction() as connection:
            await connection.execute(
                "INSERT INTO scheduled_jobs (guild_id, kind, subject, due_at, created_at)"
                " VALUES (?, 'deadline', 'match:1', '2030-01-01T00:00:00+00:00', 'x')",
                (GUILD,),
            )


async def test_a_job_done_frees_its_key_for_the_next_one(database: Database) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "s") as uow:
        first = await uow.jobs.schedule("reminder", "club:x", DUE)
    async with store.change(None, "job.run", "s") as uow:
        assert await uow.jobs.claim(first.id)
    async with store.change(1, "t", "s") as uow:
        second = await uow.jobs.schedule("reminder", "club:x", DUE + timedelta(days=7))
    assert second.id != first.id
    async with store.change(None, "job.done", "s") as uow:
        await uow.jobs.finish(first.id)
    async with store.read() as view:
        assert (await view.jobs.get(first.id)).status == "done"
        assert await view.jobs.pending("reminder", "club:x") == second


async def test_cancelling_by_key_is_heard_after_commit(database: Database) -> None:
    store = GuildStore(database, GUILD)
    heard: list[Committed] = []
    async with store.change(1, "t", "s") as uow:
        job = await uow.jobs.schedule("reminder", "club:x", DUE)
    on_commit(database, heard.append)
    async with store.change(1, "job.cancel", "club:x") as uow:
        assert await uow.jobs.cancel("reminder", "club:x")
        assert not await uow.jobs.cancel("reminder", "club:x")
    [committed] = heard
    assert [(j.id, j.status) for j in committed.jobs] == [(job.id, "cancelled")]
    assert await pending_jobs(database) == []


async def test_an_announcement_goes_to_the_channel_read_in_the_same_statement(
    database: Database,
) -> None:
    """`post_to_announcements` reads the announcements channel and queues the message in one
    statement: nothing is queued (None) while no channel is set up, and the message is queued
    to the channel set in the same unit of work, audited, and heard of on commit."""
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "no channel") as uow:
        assert await uow.outbox.post_to_announcements("nobody hears this") is None
        assert uow.outbox.posted == []
    async with store.change(1, "t", "channel") as uow:
        await uow.settings.update(announcements_channel_id=CHANNEL)
        message = await uow.outbox.post_to_announcements("Result: 15 – 19")
    assert message is not None
    assert (message.channel_id, message.content, message.ping_users) == (
        CHANNEL,
        "Result: 15 – 19",
        (),
    )
    assert [m.id for m in await pending_messages(database)] == [message.id]
    [stored] = await pending_messages(database)
    assert stored == message
    assert heard[-1].messages == (message,)
    async with store.read() as view:
        [quiet, entry] = await view.audit.recent()  # oldest first
    assert "outbox" not in quiet.details
    assert entry.details["outbox"] == [{"id": message.id, "channel_id": CHANNEL, "edit_of": None}]


async def test_an_announcement_goes_to_the_channel_set_up_and_commits_with_the_unit(
    database: Database,
) -> None:
    """`post_to_announcements` queues the text to the guild's announcements channel (stored,
    heard of on commit, audited once); without a channel nothing is queued."""
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "no channel") as uow:
        assert await uow.outbox.post_to_announcements("Result: 15 – 19") is None
    assert await pending_messages(database) == []
    async with store.change(1, "t", "channel") as uow:
        await uow.settings.update(announcements_channel_id=CHANNEL)
        posted = await uow.outbox.post_to_announcements("Result: 15 – 19")
        assert posted is not None
    [stored] = await pending_messages(database)
    assert (stored.id, stored.channel_id, stored.content) == (posted.id, CHANNEL, "Result: 15 – 19")
    assert heard[-1].messages == (stored,)
    async with store.read() as view:
        entry = (await view.audit.recent())[-1]
    assert entry.details["outbox"] == [{"id": posted.id, "channel_id": CHANNEL, "edit_of": None}]
    with pytest.raises(RuntimeError, match="refused"):
        async with store.change(1, "t", "refused") as uow:
            await uow.club_admins.add("refused", 1)
            assert await uow.outbox.post_to_announcements("never sent") is not None
            raise RuntimeError("refused after writing")
    assert [m.id for m in await pending_messages(database)] == [posted.id]
    async with store.read() as view:
        assert await view.club_admins.admins_of("refused") == []


async def test_a_job_read_pending_is_cancelled_as_cancel_cancels_it(database: Database) -> None:
    """`cancel_pending` (the job read in the unit, its UPDATE sent with the commit) leaves the
    row, the audit note and what the scheduler hears exactly as `cancel` does."""
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "jobs") as uow:
        for subject in ("match:1", "match:2"):
            await uow.jobs.schedule("cl.poll", subject, DUE, {"n": 1})
    outcomes = []
    for subject in ("match:1", "match:2"):
        async with store.change(1, "t", subject) as uow:
            if subject == "match:1":
                assert await uow.jobs.cancel("cl.poll", subject)
            else:
                job = await uow.jobs.pending("cl.poll", subject)
                assert job is not None
                await uow.jobs.cancel_pending(job)
                with pytest.raises(ValueError, match="not read pending"):
                    await uow.jobs.cancel_pending(heard[-1].jobs[0])  # the cancelled one
        async with store.read() as view:
            entry = (await view.audit.recent())[-1]
            (row,) = await view.jobs.of_subject(subject)
        (cancelled,) = heard[-1].jobs
        outcomes.append(
            (
                (cancelled.kind, cancelled.status, cancelled.payload),
                entry.details["jobs_cancelled"][0]["kind"],
                (row.status, row.id == cancelled.id),
            )
        )
        assert entry.details["jobs_cancelled"] == [
            {"id": cancelled.id, "kind": "cl.poll", "subject": subject}
        ]
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][2] == ("cancelled", True)
    assert await pending_jobs(database) == []


FINISH = datetime(2024, 3, 4, 19, 0, tzinfo=UTC)
BAD = [BoardRecord(1, "a", "b", 5, 0)]  # 5 + 0 is not 2 × 2 games: the boards' CHECK refuses
GOOD = [BoardRecord(1, "a", "b", 3, 1)]


async def _boards(database: Database, match: int) -> list[tuple[int, int, int]]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT board, home_half, away_half FROM boards WHERE match_id = ? ORDER BY board",
            (match,),
        )
    return [(row[0], row[1], row[2]) for row in rows]


async def test_a_result_unit_stores_its_boards_bumps_its_season_and_audits(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
    async with store.read() as view:
        version = await view.seasons.version(season)
    async with store.change(1, "match.result", f"match:{match}") as uow:
        await uow.matches.with_chesscom(match, 5)
        await uow.matches.replace_boards(match, GOOD)
        await uow.matches.finish(match, FINISH)
    assert await _boards(database, match) == [(1, 3, 1)]
    async with store.read() as view:
        [entry] = [e for e in await view.audit.recent() if e.action == "match.result"]
        assert (await view.seasons.version(season)) == version + 1
    assert entry.details["matches_finished"] == [{"match": match}]


async def test_many_rows_are_stored_once_and_a_replacement_leaves_its_own(
    database: Database,
) -> None:
    """`insert_rows`: 250 boards stored once each; a replacement leaves exactly its own
    rows; rows of different widths are refused before anything is sent."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    many = [BoardRecord(n, f"h{n}", f"a{n}", 4, 0) for n in range(1, 251)]
    async with store.change(1, "t", "many") as uow:
        await uow.matches.replace_boards(match, many)
    assert await _boards(database, match) == [(n, 4, 0) for n in range(1, 251)]
    async with store.change(1, "t", "fewer") as uow:
        await uow.matches.replace_boards(match, many[:3])
        with pytest.raises(ValueError, match="same columns"):
            await uow._scope.insert_rows("INSERT INTO boards (guild_id) VALUES", [(1,), (1, 2)])
    assert await _boards(database, match) == [(1, 4, 0), (2, 4, 0), (3, 4, 0)]
    async with store.change(1, "t", "twice") as uow:
        await uow.matches.replace_boards(match, many[:2])
        await uow.matches.replace_boards(match, many[:1])
        assert [(b.board, b.home_half) for b in await uow.matches.boards(match)] == [(1, 4)]
    assert await _boards(database, match) == [(1, 4, 0)]


async def test_a_failing_write_rolls_the_whole_unit_back(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.finish(match, FINISH)
            await uow.matches.replace_boards(match, BAD)
    assert await dump(database) == before  # no finish, no bump, no audit row
    async with database.writer() as connection:
        assert not connection.in_transaction
    async with store.change(1, "t", "x") as uow:  # the connection is fine afterwards
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 1, 3)])
    assert await _boards(database, match) == [(1, 1, 3)]


async def test_a_unit_that_raises_after_writing_leaves_nothing(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(RuntimeError):
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.replace_boards(match, GOOD)
            raise RuntimeError("the service refused after writing")
    assert await dump(database) == before
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=9)
    assert await _boards(database, match) == []


async def test_a_savepoint_undoes_its_own_writes_and_the_unit_goes_on(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.finish(match, FINISH)
        with pytest.raises(IntegrityError):
            async with uow.savepoint():
                await uow.matches.replace_boards(match, BAD)
        with pytest.raises(RuntimeError):
            async with uow.savepoint():
                await uow.matches.replace_boards(match, GOOD)
                raise RuntimeError("the part failed after writing")
    assert await _boards(database, match) == []
    async with store.read() as view:
        assert (await view.matches.get(match)).finished_at == FINISH  # type: ignore[union-attr]


async def test_abandon_after_writes_leaves_nothing(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, GOOD)
        uow.abandon()
    assert await dump(database) == before
