"""Schedules a season by CL-12, CL-13 and CL-22.

Berger pairings per division go on the calendar dates at the season's local start time, and are
stored with every match's jobs in one unit of work. A preview stores nothing and the cog shows it
with Confirm and Cancel. Confirming stores it. Scheduling again gives the same fixtures and writes
nothing. It is refused once any match holds a fact, such as a challenge, a result or a decision.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.league.matches.jobs import cancel_jobs, job_kinds, schedule_jobs
from bot.league.references import find_season
from bot.rendering.league import announcements
from bot.runtime.announce import announce
from core.berger import berger_table
from core.league.schedule import division_schedule
from core.league.season import Match
from storage.guild import GuildStore, GuildView, LeagueUnit
from storage.league.matches import NewMatch
from storage.league.seasons import SeasonRecord

MAX_CALENDAR_DAYS = 3 * 366
"""A schedule longer than this is a typo in the calendar."""


@dataclass(frozen=True)
class PlannedMatch:
    """One fixture of the plan: its division and clubs by id, and the fixture itself."""

    division_id: int
    home_club_id: int
    away_club_id: int
    fixture: Match


@dataclass(frozen=True)
class ScheduledRound:
    """One round of a schedule: its number, its first start, its fixtures and its idle clubs.

    The fixtures are those of all divisions. By CL-12 an odd division has a club without a match
    that round.
    """

    number: int
    start: dt.datetime
    fixtures: tuple[Match, ...]
    idle: tuple[str, ...] = ()


@dataclass(frozen=True)
class Schedule:
    """The season's fixtures.

    `stored` is set once confirmed. `unchanged` is set when they were stored already exactly so, and
    nothing was written.
    """

    season: SeasonRecord
    matches: tuple[PlannedMatch, ...]
    stored: bool
    unchanged: bool
    idle: tuple[tuple[int, str], ...] = ()
    """CL-12: the (round, club) pairs for each club without a match in a round."""

    @property
    def rounds(self) -> tuple[ScheduledRound, ...]:
        """The fixtures by round number for the preview, each round with its earliest start."""
        by_round: dict[int, list[Match]] = {}
        for planned in self.matches:
            by_round.setdefault(planned.fixture.round, []).append(planned.fixture)
        return tuple(
            ScheduledRound(
                n,
                min(f.start for f in by_round[n]),
                tuple(by_round[n]),
                tuple(club for number, club in self.idle if number == n),
            )
            for n in sorted(by_round)
        )


def _calendar(season: SeasonRecord, rounds: int) -> list[dt.date]:
    """CL-13: the dates of rounds 1..`rounds`: the season's explicit dates, else the first
    round every `round_days` days."""
    if season.round_dates is not None:
        return list(season.round_dates)
    if season.first_round is None:
        raise UserError(f"Season {named(season.name)} has no first round date: set it first.")
    if (rounds - 1) * season.round_days > MAX_CALENDAR_DAYS:
        raise UserError(f"Season {named(season.name)}'s calendar would run for years: check it.")
    return [season.first_round + dt.timedelta(days=season.round_days * k) for k in range(rounds)]


def _prefixes(names: list[str]) -> list[str]:
    """A distinct match-id prefix per division: its initials, with its position if two
    divisions share them."""
    initials = ["".join(w[0] for w in n.split() if w).upper() or "D" for n in names]
    return [p if initials.count(p) == 1 else f"{p}{i + 1}" for i, p in enumerate(initials)]


async def _plan(
    view: GuildView | LeagueUnit, season: SeasonRecord
) -> tuple[list[PlannedMatch], list[tuple[int, str]]]:
    """CL-12: Berger pairings of every division with clubs, on the season's calendar.

    It also gives each round's club without a match, in a division with an odd number of clubs.
    """
    divisions = await view.seasons.divisions(season.id)
    members = await view.seasons.members(season.id)
    names: dict[int, str] = {}
    for m in members:
        club = await view.clubs.get(m.club_id)
        assert club is not None
        names[m.club_id] = club.name
    ids = {name: club_id for club_id, name in names.items()}
    plan: list[PlannedMatch] = []
    idle: list[tuple[int, str]] = []
    for division, prefix in zip(divisions, _prefixes([d.name for d in divisions]), strict=True):
        clubs = [names[m.club_id] for m in members if m.division_id == division.id]
        if not clubs:
            continue
        if len(clubs) < 2:
            raise UserError(f"Division {named(division.name)} has one club: it needs at least two.")
        calendar = _calendar(season, len(berger_table(len(clubs)).rounds))
        try:
            schedule = division_schedule(
                division.name,
                clubs,
                calendar,
                id_prefix=prefix,
                at=season.rules.start_time,
                zone=season.rules.start_zone,
                max_clubs=season.rules.clubs_per_division,
            )
        except ValueError as error:
            raise UserError(f"Season {named(season.name)} cannot be scheduled: {error}.") from None
        plan += [PlannedMatch(division.id, ids[f.home], ids[f.away], f) for f in schedule.fixtures]
        idle += [(n, club) for n, club in enumerate(schedule.idle, start=1) if club is not None]
    if not plan:
        raise UserError(f"Season {named(season.name)} has no division with clubs to schedule.")
    return plan, idle


Row = tuple[str, int, int, int, dt.datetime]


def _same(plan: list[PlannedMatch], stored: list[Row]) -> bool:
    wanted = sorted(
        (p.fixture.id, p.fixture.round, p.home_club_id, p.away_club_id, p.fixture.start)
        for p in plan
    )
    return wanted == sorted(stored)


async def schedule_season(
    store: GuildStore, actor: Actor, season: str | int, *, confirm: bool
) -> Schedule:
    """CL-12 and CL-13: league HQ schedules a season.

    With `confirm` False it gives a preview and stores nothing. With `confirm` True it stores the
    fixtures with their jobs.
    """
    actor.require(Role.HQ)
    async with store.read() as view:
        season_id = (await find_season(view.seasons, season)).id
    if not confirm:
        async with store.read() as view:
            record = await find_season(view.seasons, season_id)
            plan, idle = await _plan(view, record)
            unchanged = await _unchanged(view, record, plan)
        return Schedule(record, tuple(plan), False, unchanged, tuple(idle))
    async with store.league_change(actor.user_id, "season.schedule", f"season:{season_id}") as uow:
        record = await find_season(uow.seasons, season_id)
        plan, idle = await _plan(uow, record)
        if await _unchanged(uow, record, plan):
            uow.abandon()
            return Schedule(record, tuple(plan), True, True, tuple(idle))
        await _store(uow, record, plan)
    return Schedule(record, tuple(plan), True, False, tuple(idle))


async def _unchanged(
    view: GuildView | LeagueUnit, season: SeasonRecord, plan: list[PlannedMatch]
) -> bool:
    """Whether the season's stored fixtures are this plan. It is refused once any match has
    facts.
    """
    stored = await view.matches.of_season(season.id)
    if not stored:
        return False
    with_facts = await view.matches.with_facts(season.id)
    rows: list[Row] = [(m.key, m.round, m.home_club_id, m.away_club_id, m.start) for m in stored]
    if _same(plan, rows):
        return True
    if with_facts:
        raise UserError(
            f"Season {named(season.name)} cannot be scheduled again: {len(with_facts)} match(es)"
            " already hold facts (challenges, results or decisions)."
        )
    return False


async def _store(uow: LeagueUnit, season: SeasonRecord, plan: list[PlannedMatch]) -> None:
    for old in await uow.matches.delete_of_season(season.id):
        await cancel_jobs(uow, old, job_kinds(season.rules))
    ids = await uow.matches.add_many(
        season.id,
        [
            NewMatch(
                p.division_id,
                p.fixture.id,
                p.fixture.round,
                p.home_club_id,
                p.away_club_id,
                p.fixture.start,
            )
            for p in plan
        ],
    )
    for match_id, planned in zip(ids, plan, strict=True):
        await schedule_jobs(uow, match_id, planned.fixture.start, season.rules)
    await uow.seasons.set_status(season.id, "scheduled")
    first = min(p.fixture.start for p in plan)
    await announce(uow, announcements.season_scheduled(season.name, len(plan), first))
