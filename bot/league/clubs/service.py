"""Club use cases by CL-2..4.

They register a chess.com club, record HQ's approval or rejection, and exclude a club when a passed
exclude-club motion applies `motions.actions.ExcludeClub`. They also manage the club's admins and
its reminder channel. Each is one unit of work, and a refusal raises `UserError` before anything is
written.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from bot.chesscom.models import ClubProfile
from bot.kernel.actor import Actor, Role, require_club_admin
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, clean_text, named, positive_id, shown
from bot.league.references import find_club
from bot.league.store import load_season
from bot.rendering.league import announcements
from bot.runtime.announce import announce
from bot.runtime.polite_http import ApiError, ApiNotFound
from core.league import LeagueReport, league_report
from core.league.registration import MIN_ADMINS
from storage.guild import GuildStore, LeagueUnit
from storage.league.clubs import Club, ClubStatus
from storage.league.decisions import DecisionKind, NewDecision
from storage.league.seasons import SeasonRecord

_URL_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,99}")
_CLUB_URL = re.compile(
    r"(?:https?://)?(?:www\.|api\.)?chess\.com/(?:pub/)?club/([^/?#\s]+)/?(?:[?#].*)?",
    re.IGNORECASE,
)
MAX_ADMINS = 3
"""`/club register` links the caller and up to two more admins."""


@dataclass(frozen=True)
class ClubRegistered:
    """A new pending club and its admins."""

    club: Club
    admins: tuple[int, ...]


@dataclass(frozen=True)
class ClubDecided:
    """A club's status changed to approved or rejected."""

    club: Club
    status: ClubStatus
    reason: str | None


@dataclass(frozen=True)
class AdminsChanged:
    """A club's admins after an admin was added or removed."""

    club: Club
    user_id: int
    added: bool
    admins: tuple[int, ...]


@dataclass(frozen=True)
class ReminderChannelSet:
    """Where a club's reminders go now. None means the announcements channel."""

    club: Club
    channel_id: int | None


async def _club_id(store: GuildStore, reference: str | int) -> int:
    """The id of the club a user named. It is looked up again inside the unit of work."""
    async with store.read() as view:
        return (await find_club(view.clubs, reference)).id


@asynccontextmanager
async def _as_club_admin(
    store: GuildStore, actor: Actor, club: str | int, action: str
) -> AsyncIterator[tuple[LeagueUnit, Club]]:
    """A unit of work on a club the actor is an admin of, by CL-3."""
    club_id = await _club_id(store, club)
    async with store.league_change(actor.user_id, action, f"club:{club_id}") as uow:
        found = await find_club(uow.clubs, club_id)
        await require_club_admin(uow.club_admins, actor, found.id, found.name)
        yield uow, found


def club_url_id(reference: str) -> str:
    """The chess.com url-id of a club given as a url-id or a chess.com club URL."""
    text = clean_text(reference, "chess.com club", 200)
    found = _CLUB_URL.fullmatch(text)
    if found:
        text = found.group(1)
    elif "/" in text or "." in text:
        raise UserError(f"{shown(text)} is not a chess.com club URL or url-id.")
    url_id = text.lower()
    if not _URL_ID.fullmatch(url_id):
        raise UserError(f"{shown(text)} is not a chess.com club url-id (e.g. team-romania).")
    return url_id


async def read_club_profile(client: ChessComClient, url_id: str) -> ClubProfile:
    """CL-2: the club's chess.com profile, which must exist and be a club.

    Call it before any unit of work opens, since there is no network inside a transaction.
    """
    try:
        profile = await client.club(url_id)
    except ApiNotFound:
        raise UserError(f"No such chess.com club: {shown(url_id)}.") from None
    except ApiError as error:
        raise UserError(
            f"chess.com could not be read just now ({error.message}); try again."
        ) from None
    if profile.club_id is None or (profile.url_id or "").lower() != url_id:
        raise UserError(f"{shown(url_id)} is not a chess.com club.")
    return profile


def _admins(actor: Actor, others: Sequence[int], min_admins: int) -> tuple[int, ...]:
    """CL-3: the caller first, then the others, distinct and at least `min_admins` of them."""
    given = [actor.require_user(), *(positive_id(a, "An admin") for a in others)]
    if len(given) > MAX_ADMINS:
        raise UserError(f"A registration links at most {MAX_ADMINS} admins.")
    if len(set(given)) != len(given):
        raise UserError("The admins must be different people (CL-3).")
    if len(given) < min_admins:
        raise UserError(f"A club needs at least {min_admins} different admins (CL-3).")
    return tuple(given)


def _may_register(earlier: Club | None, url_id: str) -> None:
    """CL-2..4: a chess.com club registers once per guild — again only after a rejection."""
    if earlier is not None and earlier.status != "rejected":
        raise UserError(
            f"The chess.com club {named(url_id)} is already registered here ({earlier.status})."
        )


async def register_club(
    store: GuildStore,
    client: ChessComClient,
    actor: Actor,
    chesscom_club: str,
    admins: Sequence[int],
    *,
    min_admins: int = MIN_ADMINS,
) -> ClubRegistered:
    """CL-2..4: registers a chess.com club, pending until HQ decides.

    The caller and `admins` become its admins. One chess.com club is registered once per guild, or
    again after a rejection. A display name another club has is told apart by the url-id.
    """
    url_id = club_url_id(chesscom_club)
    linked = _admins(actor, admins, min_admins)
    async with store.read() as view:
        _may_register(await view.clubs.by_chesscom(url_id), url_id)
    profile = await read_club_profile(client, url_id)
    name = clean_text(profile.name or url_id, "club name")
    async with store.league_change(actor.user_id, "club.register", f"chesscom:{url_id}") as uow:
        earlier = await uow.clubs.by_chesscom(url_id)
        _may_register(earlier, url_id)
        taken = await uow.clubs.by_name(name)
        if taken is not None and (earlier is None or taken.id != earlier.id):
            # Two chess.com clubs may share a display name: this one is told apart by its
            # url-id (names are unique in a guild).
            name = clean_text(f"{name} ({url_id})", "club name")
            if await uow.clubs.by_name(name) is not None:
                raise UserError(f"A club named {shown(name)} is already registered here.")
        if earlier is None:
            club = await uow.clubs.register(name, url_id, registered_by=actor.user_id)
        else:  # a rejected club registers again (CL-2..4): pending, with its new admins
            reopened = await uow.clubs.reopen(earlier.id, name, actor.user_id)
            assert reopened is not None
            club = reopened
            for user_id in await uow.club_admins.admins_of(club.id):
                await uow.club_admins.remove(club.id, user_id)
        for user_id in linked:
            await uow.club_admins.add(club.id, user_id)
        await announce(uow, announcements.club_registered(club.name, url_id, linked))
    return ClubRegistered(club, linked)


async def _decide(
    store: GuildStore,
    actor: Actor,
    reference: str | int,
    status: ClubStatus,
    allowed: tuple[ClubStatus, ...],
    reason: str | None,
    action: str,
    min_admins: int = MIN_ADMINS,
) -> ClubDecided:
    club_id = await _club_id(store, reference)
    async with store.league_change(actor.user_id, action, f"club:{club_id}") as uow:
        club = await find_club(uow.clubs, club_id)
        if club.status not in allowed:
            raise UserError(f"Club {named(club.name)} is {club.status}: it cannot be {status} now.")
        if status == "approved" and len(await uow.club_admins.admins_of(club.id)) < min_admins:
            raise UserError(f"Club {named(club.name)} needs at least {min_admins} admins (CL-3).")
        decided = await uow.clubs.decide(club.id, status, actor.user_id, reason)
        assert decided is not None
        await announce(uow, announcements.club_decided(decided.name, status, reason))
    return ClubDecided(decided, status, reason)


async def approve_club(
    store: GuildStore, actor: Actor, club: str | int, *, min_admins: int = MIN_ADMINS
) -> ClubDecided:
    """CL-3: league HQ approves a pending club that has its admins."""
    actor.require(Role.HQ)
    return await _decide(
        store, actor, club, "approved", ("pending",), None, "club.approve", min_admins
    )


async def reject_club(store: GuildStore, actor: Actor, club: str | int, reason: str) -> ClubDecided:
    """CL-2..4: league HQ rejects a pending club, with a reason."""
    actor.require(Role.HQ)
    why = clean_text(reason, "reason", NOTE_LIMIT)
    return await _decide(store, actor, club, "rejected", ("pending",), why, "club.reject")


@dataclass(frozen=True)
class SeasonExclusion:
    """A season the excluded club played in, with its league report before and after."""

    season: SeasonRecord
    before: LeagueReport
    after: LeagueReport


@dataclass(frozen=True)
class ClubExcluded:
    """A club excluded by a passed motion, and the seasons not closed it was taken out of."""

    club: Club
    reason: str
    seasons: tuple[SeasonExclusion, ...]


EXCLUSION_DECISIONS: tuple[tuple[DecisionKind, str], ...] = (
    ("exclusion", "CL-4"),
    ("disqualification", "CL-23"),
)
"""What an exclusion records in each season the club plays that is not closed.

It records the exclusion itself and, by CL-23 and CL-DQ, the disqualification that takes its matches
out.
"""


async def exclude_club_in(
    uow: LeagueUnit, club_id: int, motion_id: int, reason: str, decided_by: int | None
) -> ClubExcluded:
    """CL-4 and CL-23: excludes a club inside `uow` by the passed motion `motion_id`.

    Its status becomes excluded. Each season it plays that is not closed records the exclusion and a
    disqualification, so none of its matches count. It is refused if the club is not pending or
    approved.
    """
    found = await find_club(uow.clubs, club_id)
    if found.status not in ("pending", "approved"):
        raise UserError(f"Club {named(found.name)} is {found.status}: it cannot be excluded.")
    decided = await uow.clubs.decide(found.id, "excluded", decided_by, reason)
    assert decided is not None
    seasons = []
    for season in await uow.seasons.all():
        if season.closed:
            continue
        if not any(m.club_id == found.id for m in await uow.seasons.members(season.id)):
            continue
        before = league_report(await load_season(uow.view(), season), now=uow.now)
        for kind, rule in EXCLUSION_DECISIONS:
            await uow.decisions.record(
                season.id,
                NewDecision(
                    kind,
                    rule,
                    club_id=found.id,
                    decided_at=uow.now,
                    motion_id=motion_id,
                    note=reason,
                ),
            )
        after = league_report(await load_season(uow.view(), season), now=uow.now)
        seasons.append(SeasonExclusion(season, before, after))
    uow.details["motion"] = motion_id
    return ClubExcluded(decided, reason, tuple(seasons))


async def add_admin(
    store: GuildStore, actor: Actor, club: str | int, user_id: int
) -> AdminsChanged:
    """CL-3: a club admin links another admin to their own club."""
    user = positive_id(user_id, "The user")
    async with _as_club_admin(store, actor, club, "club.admin_add") as (uow, found):
        if found.status not in ("pending", "approved"):
            raise UserError(
                f"Club {named(found.name)} is {found.status}: its admins cannot change."
            )
        if not await uow.club_admins.add(found.id, user):
            raise UserError(f"<@{user}> is already an admin of {named(found.name)}.")
        admins = tuple(await uow.club_admins.admins_of(found.id))
    return AdminsChanged(found, user, True, admins)


async def remove_admin(
    store: GuildStore, actor: Actor, club: str | int, user_id: int, *, min_admins: int = MIN_ADMINS
) -> AdminsChanged:
    """CL-3: a club admin unlinks an admin of their own club. The club keeps `min_admins`."""
    user = positive_id(user_id, "The user")
    async with _as_club_admin(store, actor, club, "club.admin_remove") as (uow, found):
        current = await uow.club_admins.admins_of(found.id)
        if user not in current:
            raise UserError(f"<@{user}> is not an admin of {named(found.name)}.")
        if len(current) - 1 < min_admins:
            raise UserError(
                f"Club {named(found.name)} must keep at least {min_admins} admins (CL-3)."
            )
        await uow.club_admins.remove(found.id, user)
        admins = tuple(await uow.club_admins.admins_of(found.id))
    return AdminsChanged(found, user, False, admins)


async def set_reminder_channel(
    store: GuildStore, actor: Actor, club: str | int, channel_id: int | None
) -> ReminderChannelSet:
    """Where a club admin wants their club's reminders. None means the announcements channel."""
    channel = None if channel_id is None else positive_id(channel_id, "The channel")
    async with _as_club_admin(store, actor, club, "club.channel") as (uow, found):
        await uow.clubs.set_reminder_channel(found.id, channel)
    return ReminderChannelSet(found, channel)
