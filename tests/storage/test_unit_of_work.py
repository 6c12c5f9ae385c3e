"""One unit of work per use case: a fact, its audit row, an outbox message and a job commit
together or not at all, and the running bot hears of the jobs and messages only on commit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage.database import Database
from storage.errors import IntegrityError
from storage.guild import Committed, GuildStore, on_commit
from storage.jobs import pending_jobs
from storage.outbox import pending_messages

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


async def test_after_commit_callbacks_run_only_once_the_unit_of_work_committed(
    database: Database,
) -> None:
    """`uow.after_commit`: called after COMMIT, in order; never for a unit rolled back or
    abandoned, nor for one added in a savepoint that was undone."""
    store = GuildStore(database, GUILD)
    called: list[str] = []
    async with store.change(9, "club.approve", "club:a") as uow:
        await uow.club_admins.add("a", 9)
        uow.after_commit(lambda: called.append("first"))
        with pytest.raises(RuntimeError):
            async with uow.savepoint():
                uow.after_commit(lambda: called.append("undone"))
                raise RuntimeError("the part fails")
        uow.after_commit(lambda: called.append("second"))
        assert called == []  # not yet: nothing is committed inside the block
    assert called == ["first", "second"]

    with pytest.raises(RuntimeError):
        async with store.change(9, "club.approve", "club:b") as uow:
            await uow.club_admins.add("b", 9)
            uow.after_commit(lambda: called.append("rolled back"))
            raise RuntimeError("the unit fails")
    async with store.change(9, "club.approve", "club:c") as uow:
        uow.after_commit(lambda: called.append("abandoned"))
        uow.abandon()
    assert called == ["first", "second"]


async def test_a_reserved_announcement_commits_only_with_its_text(database: Database) -> None:
    """`reserve_announcement` queues the row before its text is known; `fill` gives the text
    (stored, heard of on commit, audited once); a unit that leaves one unfilled commits
    nothing; without an announcements channel nothing is reserved."""
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "no channel") as uow:
        assert await uow.outbox.reserve_announcement() is None
    async with store.change(1, "t", "channel") as uow:
        await uow.settings.update(announcements_channel_id=CHANNEL)
        reserved = await uow.outbox.reserve_announcement()
        assert reserved is not None
        with pytest.raises(ValueError, match="needs content"):
            uow.outbox.fill(reserved, "")
        uow.outbox.fill(reserved, "Result: 15 – 19")
        with pytest.raises(ValueError, match="not a reserved announcement"):
            uow.outbox.fill(reserved, "twice")
    [stored] = await pending_messages(database)
    assert (stored.id, stored.channel_id, stored.content) == (reserved, CHANNEL, "Result: 15 – 19")
    assert heard[-1].messages == (stored,)
    async with store.read() as view:
        entry = (await view.audit.recent())[-1]
    assert entry.details["outbox"] == [{"id": reserved, "channel_id": CHANNEL, "edit_of": None}]

    with pytest.raises(RuntimeError, match="never filled"):
        async with store.change(1, "t", "forgotten") as uow:
            await uow.club_admins.add("forgotten", 1)
            assert await uow.outbox.reserve_announcement() is not None
    assert [m.id for m in await pending_messages(database)] == [reserved]
    async with store.read() as view:
        assert await view.club_admins.admins_of("forgotten") == []


async def test_a_withdrawn_announcement_leaves_nothing_and_the_unit_commits(
    database: Database,
) -> None:
    """`withdraw` takes back a reserved announcement (a refused change): no row, no audit
    note, nothing heard of; the rest of the unit commits; only a reservation is withdrawn."""
    heard: list[Committed] = []
    on_commit(database, heard.append)
    store = GuildStore(database, GUILD)
    async with store.change(1, "t", "channel") as uow:
        await uow.settings.update(announcements_channel_id=CHANNEL)
    async with store.change(1, "t", "refused") as uow:
        reserved = await uow.outbox.reserve_announcement()
        assert reserved is not None
        kept = await uow.outbox.post(CHANNEL, content="kept")
        uow.outbox.withdraw(reserved)
        with pytest.raises(ValueError, match="not a reserved announcement"):
            uow.outbox.withdraw(reserved)
        with pytest.raises(ValueError, match="not a reserved announcement"):
            uow.outbox.withdraw(kept.id)
        await uow.jobs.schedule("cl.poll", "match:1", DUE)
    assert [m.id for m in await pending_messages(database)] == [kept.id]
    assert heard[-1].messages == (kept,)
    async with store.read() as view:
        entry = (await view.audit.recent())[-1]
    assert entry.details["outbox"] == [{"id": kept.id, "channel_id": CHANNEL, "edit_of": None}]
    assert [j.subject for j in await pending_jobs(database)] == ["match:1"]


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
                uow.jobs.cancel_pending(job)
                with pytest.raises(ValueError, match="not read pending"):
                    uow.jobs.cancel_pending(heard[-1].jobs[0])  # the cancelled one
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
