"""Season and schedule services (CL-1, CL-7, CL-12, CL-13) on a real SQLite file: rules
frozen from the config, division sizes, Berger fixtures at 11:00 America/Los_Angeles with
their jobs, preview without writes, idempotent scheduling, refusals writing nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.kernel.config import ClDefaults
from bot.kernel.errors import UserError
from bot.league.matches.jobs import KINDS
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.seasons.calendar import season_calendar_of
from bot.league.seasons.promotion import season_promotion
from bot.league.store import StandingsCache, import_season, load_season
from storage.engine.database import Database, SqliteDatabase
from storage.guild import GuildStore
from tests.support.services_world import DIRECTOR, HQ, HQ_USER, audited, dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD = 10
DEFAULTS = ClDefaults(games_per_board=3, clubs_per_division=4, challenge_deadline_hours=100)
FIRST = dt.date(2024, 3, 1)


async def clubs_of(store: GuildStore, *names: str, status: str = "approved") -> dict[str, int]:
    """Clubs registered directly (test set-up), approved unless said otherwise."""
    async with store.change(None, "test.clubs", "clubs") as uow:
        return {
            n: (await uow.clubs.register(n, n.lower(), status=status)).id  # type: ignore[arg-type]
            for n in names
        }


async def season_with(store: GuildStore, clubs: list[str]) -> int:
    """A season whose Premier Division holds `clubs` (created through the services)."""
    created = await seasons.create_season(store, HQ, DEFAULTS, "Spring", FIRST)
    for club in clubs:
        await seasons.add_club(store, HQ, "Spring", "Premier Division", club)
    return created.season.id


async def test_create_freezes_the_configs_rules_and_divisions(database: Database) -> None:
    """CL-1, CL-7, CCT-16: HQ creates a season; rules, clubs per division (CL-12) and start
    time (CL-13) come from the config and stay as they were."""
    store = GuildStore(database, GUILD)
    event = await audited(
        database,
        seasons.create_season(store, HQ, DEFAULTS, "  Spring 2024 ", FIRST),
        HQ_USER,
        "season.create",
    )
    season = event.season
    assert season.name == "Spring 2024"
    assert season.rules.games_per_board == 3 and season.rules.challenge_deadline_hours == 100
    assert season.rules.clubs_per_division == 4
    assert season.rules.start_time == dt.time(11, 0)
    assert season.rules == DEFAULTS.season_rules()  # every [rules.cl] value, frozen
    assert [d.name for d in event.divisions] == list(DEFAULTS.divisions)
    assert [d.min_players for d in event.divisions] == list(DEFAULTS.min_players)


async def test_create_refusals_write_nothing(database: Database) -> None:
    """Only HQ (a director is not HQ); a taken name (any case); hostile names; absurd round
    days: refused, nothing written."""
    store = GuildStore(database, GUILD)
    await seasons.create_season(store, HQ, DEFAULTS, "Spring", FIRST)
    await refused(database, seasons.create_season(store, DIRECTOR, DEFAULTS, "X", FIRST), "HQ")
    await refused(database, seasons.create_season(store, HQ, DEFAULTS, "SPRING", FIRST), "exists")
    for name in ("", "a" * 10_000, "bad\x1b[31m", "\u202eevil"):
        await refused(database, seasons.create_season(store, HQ, DEFAULTS, name, FIRST))
    await refused(database, seasons.create_season(store, HQ, DEFAULTS, "Y", FIRST, 0), "days")


async def test_divisions_take_approved_clubs_up_to_the_seasons_size(database: Database) -> None:
    """CL-12: only approved clubs, one division per club per season, at most the season's
    clubs per division (4 here); another guild's clubs are not found."""
    store = GuildStore(database, GUILD)
    ids = await clubs_of(store, "A", "B", "C", "D", "E")
    pending = await clubs_of(store, "P", status="pending")
    foreign = await clubs_of(GuildStore(database, 20), "Z")
    await seasons.create_season(store, HQ, DEFAULTS, "Spring", FIRST)
    placed = await audited(
        database,
        seasons.add_club(store, HQ, "Spring", "Premier Division", "A"),
        HQ_USER,
        "season.club_add",
    )
    assert placed.clubs_in_division == 1
    for club in "BCD":
        await seasons.add_club(store, HQ, "Spring", "Premier Division", ids[club])
    await refused(database, seasons.add_club(store, HQ, "Spring", "Premier Division", "E"), "full")
    await refused(database, seasons.add_club(store, HQ, "Spring", "Division One", "A"), "already")
    await refused(
        database, seasons.add_club(store, HQ, "Spring", "Division One", pending["P"]), "pending"
    )
    await refused(
        database, seasons.add_club(store, HQ, "Spring", "Division One", foreign["Z"]), "no club"
    )
    await refused(database, seasons.add_club(store, HQ, "Spring", "Nowhere", "E"), "no division")
    await refused(database, seasons.add_club(store, DIRECTOR, "Spring", "Division One", "E"))
    await refused(database, seasons.add_division(store, HQ, "Spring", "division one", 3), "already")
    await refused(database, seasons.add_division(store, HQ, "Spring", "Four", 0))
    added = await audited(
        database,
        seasons.add_division(store, HQ, "Spring", "Division Three", 3),
        HQ_USER,
        "season.division_add",
    )
    assert added.division.position == 4
    removed = await audited(
        database, seasons.remove_club(store, HQ, "Spring", "D"), HQ_USER, "season.club_remove"
    )
    assert removed.clubs_in_division == 3
    await refused(database, seasons.remove_club(store, HQ, "Spring", "D"), "not in season")


async def test_schedule_preview_writes_nothing_and_confirm_stores_fixtures_and_jobs(
    database: Database,
) -> None:
    """CL-12, CL-13, CL-15: a 4-club division gets 3 Berger rounds a week apart at 11:00
    America/Los_Angeles (19:00 UTC in March before US DST, 18:00 after), each match with its
    reminder, deadline, at-start and poll jobs; the preview writes nothing."""
    store = GuildStore(database, GUILD)
    await clubs_of(store, "A", "B", "C", "D")
    await season_with(store, ["A", "B", "C", "D"])
    before = await dump(database)
    preview = await schedule.schedule_season(store, HQ, "Spring", confirm=False)
    assert await dump(database) == before
    assert not preview.stored and len(preview.matches) == 6
    stored = await audited(
        database,
        schedule.schedule_season(store, HQ, "Spring", confirm=True),
        HQ_USER,
        "season.schedule",
    )
    assert stored.stored and not stored.unchanged
    assert [m.fixture for m in stored.matches] == [m.fixture for m in preview.matches]
    async with store.read() as view:
        matches = await view.matches.of_season(stored.season.id)
        starts = sorted({m.start for m in matches})
        assert starts == [
            dt.datetime(2024, 3, 1, 19, tzinfo=dt.UTC),
            dt.datetime(2024, 3, 8, 19, tzinfo=dt.UTC),
            dt.datetime(2024, 3, 15, 18, tzinfo=dt.UTC),
        ]
        pairs = {frozenset((m.home_club_id, m.away_club_id)) for m in matches}
        assert len(pairs) == 6  # CL-12: every pair once
        for match in matches:
            for kind in KINDS:
                job = await view.jobs.pending(kind, f"match:{match.id}")
                assert job is not None and job.payload == {"match": match.id}
            deadline = await view.jobs.pending("cl.deadline", f"match:{match.id}")
            assert deadline is not None
            assert deadline.due_at == match.start - dt.timedelta(hours=100)
            reminder = await view.jobs.pending("cl.reminder.48h", f"match:{match.id}")
            assert reminder is not None
            assert reminder.due_at == deadline.due_at - dt.timedelta(hours=48)
        assert (await view.seasons.get(stored.season.id)).status == "scheduled"  # type: ignore[union-attr]


async def test_cl_15_reminders_come_at_the_seasons_frozen_offsets(database: Database) -> None:
    """CL-15, CCT-16: a season created with reminders at − 72 h and − 6 h schedules those
    (not the default − 48 h / − 12 h), whatever the config says by the time it is scheduled."""
    store = GuildStore(database, GUILD)
    await clubs_of(store, "A", "B")
    created = await seasons.create_season(
        store, HQ, DEFAULTS.model_copy(update={"reminder_hours": [72, 6]}), "Autumn", FIRST
    )
    assert created.season.rules.reminder_hours == (72, 6)
    for club in ("A", "B"):
        await seasons.add_club(store, HQ, "Autumn", "Premier Division", club)
    await schedule.schedule_season(store, HQ, "Autumn", confirm=True)
    async with store.read() as view:
        [match] = await view.matches.of_season(created.season.id)
        subject = f"match:{match.id}"
        deadline = match.start - dt.timedelta(hours=100)
        for hours in (72, 6):
            job = await view.jobs.pending(f"cl.reminder.{hours}h", subject)
            assert job is not None and job.due_at == deadline - dt.timedelta(hours=hours)
        for hours in (48, 12):
            assert await view.jobs.pending(f"cl.reminder.{hours}h", subject) is None


async def test_schedule_again_is_idempotent_and_refused_once_facts_exist(
    database: Database,
) -> None:
    """CL-12: scheduling again writes nothing (not even an audit row); once a match holds a
    fact (a challenge) the schedule is refused; clubs cannot be moved once scheduled."""
    store = GuildStore(database, GUILD)
    ids = await clubs_of(store, "A", "B", "C")
    season_id = await season_with(store, ["A", "B", "C"])
    await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    before = await dump(database)
    again = await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    assert again.unchanged and await dump(database) == before
    await refused(database, seasons.remove_club(store, HQ, "Spring", "A"), "already scheduled")
    await refused(database, schedule.schedule_season(store, DIRECTOR, "Spring", confirm=True), "HQ")
    async with store.change(None, "test.fact", "m") as uow:
        match = (await uow.matches.of_season(season_id))[0]
        await uow.matches.issue_challenge(match.id, match.home_club_id, uow.now, "declared")
        # a different plan: the calendar moves a week
        await uow.seasons.set_calendar(season_id, FIRST + dt.timedelta(days=7))
    await refused(database, schedule.schedule_season(store, HQ, "Spring", confirm=True), "facts")
    assert ids


async def test_schedule_refuses_what_cannot_be_paired(database: Database) -> None:
    """A season without clubs, or with a one-club division, or another guild's season."""
    store = GuildStore(database, GUILD)
    await clubs_of(store, "A")
    await seasons.create_season(store, HQ, DEFAULTS, "Spring", FIRST)
    await refused(database, schedule.schedule_season(store, HQ, "Spring", confirm=True), "no div")
    await seasons.add_club(store, HQ, "Spring", "Premier Division", "A")
    await refused(database, schedule.schedule_season(store, HQ, "Spring", confirm=True), "one club")
    with pytest.raises(UserError, match="No season"):
        await schedule.schedule_season(GuildStore(database, 20), HQ, "Spring", confirm=False)


async def test_schedule_calendar_and_promotion_are_read_use_cases(database: Database) -> None:
    """CL-8, CL-12, CL-13, CL-15: the preview groups the fixtures by round with each round's
    first start; the calendar lists a season's (or one club's) matches by start with their
    challenge deadlines and the coming ones; the CL-8 proposal comes from the standings."""
    store = GuildStore(database, GUILD)
    await clubs_of(store, "Ajax", "Bern", "Cork", "Deva")
    await season_with(store, ["Ajax", "Bern", "Cork", "Deva"])
    preview = await schedule.schedule_season(store, HQ, "Spring", confirm=False)
    assert [r.number for r in preview.rounds] == [1, 2, 3]
    assert all(len(r.fixtures) == 2 for r in preview.rounds)
    assert all(r.start == min(f.start for f in r.fixtures) for r in preview.rounds)
    assert preview.rounds[0].start.date() == FIRST
    await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    before = dt.datetime(2024, 2, 1, tzinfo=dt.UTC)
    found = await season_calendar_of(store, "Spring", None, before)
    assert len(found.matches) == 6 and found.coming == found.matches
    assert [m.start for m in found.matches] == sorted(m.start for m in found.matches)
    hours = dt.timedelta(hours=DEFAULTS.challenge_deadline_hours)
    assert all(m.deadline == m.start - hours for m in found.matches)
    ajax = await season_calendar_of(store, "Spring", "ajax", before)
    assert len(ajax.matches) == 3 and all("Ajax" in (m.home, m.away) for m in ajax.matches)
    # CL-15, CL-DQ: with no challenge ever issued, every club failed its third deadline by
    # the last round's start: all are out, so that round is void and comes no more.
    last = found.matches[-1].start
    late = await season_calendar_of(store, "Spring", None, last)
    assert late.coming == ()
    assert late.void == {m.key for m in found.matches}
    promotion = await season_promotion(store, StandingsCache(), "Spring")
    assert promotion.season.name == "Spring" and promotion.proposal.moves == ()


async def test_replacing_a_scheduled_season_cancels_its_matches_jobs(database: Database) -> None:
    """CL-15: an import that replaces a scheduled season (`--replace`) deletes its matches, so
    their reminders, deadline, snapshot and polling are cancelled with them: SQLite gives a
    deleted match's id to the next match stored, which a job left pending would act on."""
    store = GuildStore(database, GUILD)
    await clubs_of(store, "A", "B")
    season_id = await season_with(store, ["A", "B"])
    await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    async with store.read() as view:
        record = await view.seasons.get(season_id)
        assert record is not None
        facts = await load_season(view, record)
        [old] = await view.matches.of_season(season_id)
        assert {job.kind for job in await view.jobs.of_subject(f"match:{old.id}")} == set(KINDS)
    async with store.change(None, "test.import", "season:Spring") as uow:
        replaced = await import_season(uow, facts, replace=True)
    async with store.read() as view:
        [new] = await view.matches.of_season(replaced.id)
        jobs = await view.jobs.of_subject(f"match:{old.id}")
    if isinstance(database, SqliteDatabase):  # PostgreSQL's identity never gives an id again
        assert new.id == old.id  # reused: a pending job would now act on the new match
    assert {job.kind for job in jobs} == set(KINDS)
    assert [job for job in jobs if job.status == "pending"] == []
