"""Roster use cases by CL-18 and CL-21.

They link a chess.com account to a Discord user, and record a club's removal of a player with its
reason. The removal is stored as pending now and verified later.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.actor import Actor, require_club_admin
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, chesscom_username, named, optional_text, positive_id
from bot.league.references import find_club, find_season
from bot.league.rosters.facts import club_season
from bot.league.rosters.removal_checks import schedule_verification
from storage.guild import GuildStore
from storage.league.clubs import Club
from storage.league.rosters import Removal, RemovalReason
from storage.league.seasons import SeasonRecord

REASONS: tuple[RemovalReason, ...] = ("multi-team", "timeouts", "other")


@dataclass(frozen=True)
class AccountLinked:
    """A chess.com username now linked to a Discord user."""

    user_id: int
    username: str
    linked_by: int | None


@dataclass(frozen=True)
class RemovalRecorded:
    """A roster removal recorded, its CL-21 verification pending."""

    removal_id: int
    season_id: int
    club_id: int
    username: str
    reason: RemovalReason
    verification: str


@dataclass(frozen=True)
class ClubRemovals:
    """A club's roster removals in a season, oldest first, with their verification."""

    club: Club
    season: SeasonRecord
    removals: tuple[Removal, ...]


async def link_account(
    store: GuildStore, actor: Actor, username: str, user_id: int | None = None
) -> AccountLinked:
    """A player links their own chess.com account, and an admin of any club may link someone else's.

    An account belongs to one user of the guild.
    """
    caller = actor.user_id
    target = caller if user_id is None else positive_id(user_id, "The user")
    if target is None:
        raise UserError("Say which user the account belongs to.")
    name = chesscom_username(username)
    async with store.league_change(caller, "roster.link", f"user:{target}") as uow:
        if target != caller and not actor.is_system:
            assert caller is not None
            if not await uow.club_admins.clubs_of(caller):
                raise UserError("Linking another member's account needs a **club admin**.")
        if not await uow.rosters.link(target, name, caller):
            raise UserError(f"The chess.com account {named(name)} is linked to another member.")
    return AccountLinked(target, name, caller)


async def record_removal(
    store: GuildStore,
    actor: Actor,
    season: str | int | None,
    club: str | int,
    username: str,
    reason: str,
    note: str | None = None,
) -> RemovalRecorded:
    """CL-21: a club admin records removing a player from their own club's roster, with the reason.

    The reason is multi-team, timeouts or other. The season is the one named, or for None the club's
    running season from `club_current_season`. Its verification is pending.
    """
    async with store.read() as view:
        named_club, named_season = await club_season(view, club, season, store.database.clock())
    season_id, club_id = named_season.id, named_club.id
    if reason not in REASONS:
        raise UserError(f"The reason is one of {', '.join(REASONS)}.")
    why: RemovalReason = reason
    name = chesscom_username(username)
    text = optional_text(note, "note", NOTE_LIMIT)
    async with store.league_change(actor.user_id, "roster.remove", f"club:{club_id}") as uow:
        record = await find_season(uow.seasons, season_id)
        found = await find_club(uow.clubs, club_id)
        await require_club_admin(uow.club_admins, actor, found.id, found.name)
        if not any(m.club_id == found.id for m in await uow.seasons.members(record.id)):
            raise UserError(
                f"Club {named(found.name)} does not play in season {named(record.name)}."
            )
        removal = await uow.rosters.record_removal(
            record.id, found.id, name, why, text, actor.user_id
        )
        await schedule_verification(uow, removal)
    return RemovalRecorded(removal, season_id, club_id, name, why, "pending")


async def club_removals(
    store: GuildStore, club: str | int, season: str | int | None
) -> ClubRemovals:
    """The removals of the club in the season named, or in the club's running season for None.

    Anyone may read them.
    """
    async with store.read() as view:
        found, record = await club_season(view, club, season, store.database.clock())
        removals = await view.rosters.removals(record.id, found.id)
    return ClubRemovals(found, record, tuple(removals))
