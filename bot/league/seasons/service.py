"""Season use cases by CL-1, CL-7 and CL-12.

They create a season with its rules frozen from the config, add divisions, and put approved clubs in
them or take them out before scheduling.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.config import ClDefaults
from bot.kernel.errors import UserError
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, shown
from bot.league.references import find_club, find_division, find_season
from core.league.lifecycle import cutoff_problem
from core.league.season import START_ZONE
from core.votes import MotionKind
from storage.guild import GuildStore, LeagueUnit
from storage.league.clubs import Club
from storage.league.seasons import (
    DivisionRecord,
    Membership,
    SeasonRecord,
)

MAX_ROUND_DAYS = 366
MAX_MIN_PLAYERS = 1000


@dataclass(frozen=True)
class SeasonCreated:
    """A new season, its frozen rules and its divisions from the config by CL-7."""

    season: SeasonRecord
    divisions: tuple[DivisionRecord, ...]


@dataclass(frozen=True)
class DivisionAdded:
    """A division added below the season's others."""

    season: SeasonRecord
    division: DivisionRecord


@dataclass(frozen=True)
class ClubPlaced:
    """A club put in or taken out of a division of a season."""

    season: SeasonRecord
    division: DivisionRecord
    club: Club
    added: bool
    clubs_in_division: int


async def create_season(
    store: GuildStore,
    actor: Actor,
    defaults: ClDefaults,
    name: str,
    first_round: dt.date | None,
    round_days: int = 7,
    *,
    zone: str = START_ZONE,
    with_divisions: bool = True,
    cutoff: dt.date | None = None,
) -> SeasonCreated:
    """CL-1 and CL-7: league HQ creates a season with a name unique in the guild.

    It takes the config's rule values and format and, unless `with_divisions` is False, its
    divisions, all frozen. `cutoff` is its CL-1 divisions cut-off date, whose standings then decide
    next season's divisions.
    """
    actor.require(Role.HQ)
    title = clean_text(name, "season name", NAME_LIMIT)
    if isinstance(round_days, bool) or not 1 <= round_days <= MAX_ROUND_DAYS:
        raise UserError(f"Rounds are 1 to {MAX_ROUND_DAYS} days apart, not {round_days}.")
    problem = None if cutoff is None else cutoff_problem(cutoff, first_round)
    if problem is not None:
        raise UserError(f"{problem}.")
    async with store.league_change(actor.user_id, "season.create", f"season:{title}") as uow:
        if await uow.seasons.by_name(title) is not None:
            raise UserError(f"A season named {shown(title)} exists already.")
        season = await uow.seasons.create(
            title,
            defaults.season_rules(zone, cutoff),
            first_round=first_round,
            round_days=round_days,
            created_by=actor.user_id,
        )
        divisions = []
        if with_divisions:
            for division in defaults.season_divisions():
                divisions.append(
                    await uow.seasons.add_division(season.id, division.name, division.min_players)
                )
        created = await uow.seasons.get(season.id)
        assert created is not None
    return SeasonCreated(created, tuple(divisions))


async def _season_id(store: GuildStore, reference: str | int) -> int:
    async with store.read() as view:
        return (await find_season(view.seasons, reference)).id


async def _setup_season(uow: LeagueUnit, season_id: int) -> SeasonRecord:
    """The season, refused once it has fixtures, since its divisions are then fixed."""
    season = await find_season(uow.seasons, season_id)
    if season.status != "setup" or await uow.matches.of_season(season.id):
        raise UserError(
            f"Season {named(season.name)} is already scheduled: its divisions are fixed."
        )
    return season


async def add_division(
    store: GuildStore, actor: Actor, season: str | int, name: str, min_players: int
) -> DivisionAdded:
    """CL-7 and CL-9..11: league HQ adds a division below the others, with its minimum players."""
    actor.require(Role.HQ)
    title = clean_text(name, "division name", NAME_LIMIT)
    if isinstance(min_players, bool) or not 1 <= min_players <= MAX_MIN_PLAYERS:
        raise UserError(f"A division's minimum players is 1 to {MAX_MIN_PLAYERS}.")
    season_id = await _season_id(store, season)
    async with store.league_change(
        actor.user_id, "season.division_add", f"season:{season_id}"
    ) as uow:
        record = await _setup_season(uow, season_id)
        existing = await uow.seasons.divisions(record.id)
        if any(d.name.casefold() == title.casefold() for d in existing):
            raise UserError(f"Season {named(record.name)} has a division {shown(title)} already.")
        division = await uow.seasons.add_division(record.id, title, min_players)
    return DivisionAdded(record, division)


async def add_club(
    store: GuildStore, actor: Actor, season: str | int, division: str | int, club: str | int
) -> ClubPlaced:
    """CL-12: league HQ puts an approved club in a division, up to the season's clubs per division.

    A club plays in one division of a season.
    """
    actor.require(Role.HQ)
    season_id = await _season_id(store, season)
    async with store.league_change(actor.user_id, "season.club_add", f"season:{season_id}") as uow:
        record = await _setup_season(uow, season_id)
        target = await find_division(uow.seasons, record, division)
        found = await find_club(uow.clubs, club)
        if found.status != "approved":
            raise UserError(
                f"Club {named(found.name)} is {found.status}: only approved clubs play."
            )
        members = await uow.seasons.members(record.id)
        if any(m.club_id == found.id for m in members):
            raise UserError(
                f"Club {named(found.name)} is already in a division of {named(record.name)}."
            )
        size = sum(1 for m in members if m.division_id == target.id)
        limit = record.rules.clubs_per_division
        if size >= limit:
            raise UserError(f"Division {named(target.name)} is full: {limit} clubs (CL-12).")
        await uow.seasons.add_club(record.id, target.id, found.id)
    return ClubPlaced(record, target, found, True, size + 1)


async def remove_club(
    store: GuildStore, actor: Actor, season: str | int, club: str | int
) -> ClubPlaced:
    """League HQ takes a club out of a season before it is scheduled."""
    actor.require(Role.HQ)
    season_id = await _season_id(store, season)
    async with store.league_change(
        actor.user_id, "season.club_remove", f"season:{season_id}"
    ) as uow:
        record = await _setup_season(uow, season_id)
        found, _, target, size = await _placed_club(uow, record, club)
        await uow.seasons.remove_club(record.id, found.id)
    return ClubPlaced(record, target, found, False, size - 1)


async def _placed_club(
    uow: LeagueUnit, record: SeasonRecord, club: str | int
) -> tuple[Club, Membership, DivisionRecord, int]:
    """The club, its place in the season, its division and how many clubs that division
    has. Refused for a club not in the season."""
    found = await find_club(uow.clubs, club)
    members = await uow.seasons.members(record.id)
    place = next((m for m in members if m.club_id == found.id), None)
    if place is None:
        raise UserError(f"Club {named(found.name)} is not in season {named(record.name)}.")
    division = await find_division(uow.seasons, record, place.division_id)
    size = sum(1 for m in members if m.division_id == place.division_id)
    return found, place, division, size


@dataclass(frozen=True)
class CutoffSet:
    """A season's divisions cut-off date changed. None means the final standings decide."""

    season: SeasonRecord
    cutoff: dt.date | None


async def _open_season(uow: LeagueUnit, season_id: int) -> SeasonRecord:
    """The season, refused once closed with its make-up adopted by CL-8."""
    record = await find_season(uow.seasons, season_id)
    if record.closed:
        raise UserError(f"Season {named(record.name)} is closed: its divisions were adopted.")
    return record


async def _first_day(uow: LeagueUnit, record: SeasonRecord) -> dt.date | None:
    """CL-1: the day of the season's first round, or None while it has neither calendar nor match.

    It is its calendar's first day, else its earliest match's start in UTC.
    """
    if record.first_round is not None:
        return record.first_round
    if record.round_dates:
        return min(record.round_dates)
    starts = [m.start for m in await uow.matches.of_season(record.id)]
    return min(starts).astimezone(dt.UTC).date() if starts else None


async def set_cutoff(
    store: GuildStore, actor: Actor, season: str | int, cutoff: dt.date | None
) -> CutoffSet:
    """CL-1: league HQ sets the season's divisions cut-off date, or clears it with None.

    It may do so until the season is closed and while no division make-up motion is open or passed,
    since such a motion was computed on the date it had.
    """
    actor.require(Role.HQ)
    season_id = await _season_id(store, season)
    async with store.league_change(actor.user_id, "season.cutoff", f"season:{season_id}") as uow:
        record = await _open_season(uow, season_id)
        for motion in await uow.motions.of_season(record.id, MotionKind.DIVISION_MAKEUP):
            if motion.status in ("open", "passed"):
                raise UserError(
                    f"Motion {motion.id} on {named(record.name)}'s divisions is {motion.status}:"
                    " the cut-off it was proposed from stays."
                )
        if record.rules.divisions_cutoff == cutoff:
            raise UserError(f"Season {named(record.name)}'s cut-off is that already.")
        problem = None if cutoff is None else cutoff_problem(cutoff, await _first_day(uow, record))
        if problem is not None:
            raise UserError(f"{problem}.")
        await uow.seasons.set_cutoff(record.id, cutoff)
        updated = await find_season(uow.seasons, record.id)
    return CutoffSet(updated, cutoff)


async def withdraw_club(
    store: GuildStore, actor: Actor, season: str | int, club: str | int
) -> ClubPlaced:
    """CL-8: league HQ records that a club of the season will not continue next season.

    Its place is freed in the promotion proposal, so more may go up and fewer down. It is refused
    for a club not in the season, one withdrawn already, or a closed season.
    """
    actor.require(Role.HQ)
    season_id = await _season_id(store, season)
    async with store.league_change(actor.user_id, "season.withdraw", f"season:{season_id}") as uow:
        record = await _open_season(uow, season_id)
        found, place, target, size = await _placed_club(uow, record, club)
        if place.withdrawn:
            raise UserError(f"Club {named(found.name)} has withdrawn already (CL-8).")
        await uow.seasons.set_withdrawn(record.id, found.id)
    return ClubPlaced(record, target, found, False, size)
