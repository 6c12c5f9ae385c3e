"""Match use cases by CL-13..15, CL-5, CL-6 and CL-20.

They record a challenge issued and accepted with how each was learned, the clubs' facts at the
start, and a director's reschedule, which moves the match's jobs.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role, require_club_admin
from bot.kernel.errors import UserError
from bot.kernel.inputs import clean_text, shown
from bot.league import notices
from bot.league.matches.jobs import deadline_of, schedule_jobs
from bot.league.matches.life import allowed, check_step, match_now
from bot.league.matches.starts import parse_local_instant, start_in_window
from bot.league.references import find_club, find_match, find_season
from bot.rendering.league import announcements
from bot.runtime.announce import announce
from core.league.lifecycle import CORRECTION_NOTE, Allowed, Party, Step, moved_deadline
from storage.guild import GuildStore, LeagueUnit
from storage.league.matches import AtStartRecord, MatchRecord, Source

_MATCH_URL = re.compile(
    r"(?:https?://)?(?:www\.|api\.)?chess\.com/(?:pub/)?(?:club/)?match(?:es)?/(?:live/)?(\d+)"
    r"/?(?:[?#].*)?",
    re.IGNORECASE,
)
MAX_MATCH_ID = 10**12
MAX_MEMBERS = 10**7
MAX_RATING = 4000.0


@dataclass(frozen=True)
class ChallengeRecorded:
    """A challenge step recorded.

    It holds the issuing club's id, how it was learned, whether it is now accepted, and what the
    life cycle notes of it. Late means after the deadline, so CL-15's judgement stands. Void means
    the match counts for nobody.
    """

    match: MatchRecord
    club_id: int
    source: Source
    accepted: bool
    late: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class AtStartRecorded:
    """A club's facts at the match start."""

    match: MatchRecord
    facts: AtStartRecord


@dataclass(frozen=True)
class MatchRescheduled:
    """A match moved, with its new CL-15 deadline and the zone its season's starts are stated in.

    The zone follows CL-13 and CL-22.
    """

    match: MatchRecord
    old_start: dt.datetime
    deadline: dt.datetime
    zone: str = "UTC"


def _party(source: Source) -> Party:
    """The life cycle's party for how a challenge step was learned."""
    return {"declared": Party.CLUB, "chesscom": Party.BOT, "director": Party.DIRECTOR}[source]


def chesscom_match_id(reference: str | int) -> int:
    """A chess.com team match id given as digits or a chess.com match URL."""
    if isinstance(reference, int) and not isinstance(reference, bool):
        number = reference
    else:
        text = clean_text(str(reference), "chess.com match", 200)
        found = _MATCH_URL.fullmatch(text)
        digits = found.group(1) if found else text
        if not digits.isascii() or not digits.isdigit():
            raise UserError(f"{shown(text)} is not a chess.com match id or URL.")
        number = int(digits)
    if not 0 < number < MAX_MATCH_ID:
        raise UserError(f"{number} is not a chess.com match id.")
    return number


async def _match_id(store: GuildStore, match_id: int | str) -> int:
    async with store.read() as view:
        return (await find_match(view.matches, match_id)).id


async def _authorise_source(
    uow: LeagueUnit, actor: Actor, source: Source, club_id: int, club_name: str
) -> None:
    """declared is an admin of the club, chesscom the bot, and director the director role."""
    if source == "declared":
        await require_club_admin(uow.club_admins, actor, club_id, club_name)
    elif source == "chesscom":
        if not actor.is_system:
            raise UserError("Only the bot records what it saw on chess.com.")
    else:
        actor.require(Role.DIRECTOR)


async def _club_name(uow: LeagueUnit, club_id: int) -> str:
    club = await uow.clubs.get(club_id)
    return club.name if club else str(club_id)


async def _recorded(
    uow: LeagueUnit, match_id: int, club: int, source: Source, step: Allowed, *, accepted: bool
) -> ChallengeRecorded:
    """A challenge step as recorded, with whether it was late kept for the audit row."""
    uow.details["late"] = step.late
    updated = await find_match(uow.matches, match_id)
    return ChallengeRecorded(updated, club, source, accepted, step.late, step.notes)


async def _link_chesscom(uow: LeagueUnit, match: MatchRecord, chesscom: int) -> None:
    """Links the chess.com match to `match`, unless it is linked to another match already."""
    linked = await uow.matches.by_chesscom(chesscom)
    if linked is not None and linked.id != match.id:
        raise UserError(f"chess.com match {chesscom} is linked to match {linked.id} already.")
    await uow.matches.link_chesscom(match.id, chesscom)


async def _acting_club(uow: LeagueUnit, actor: Actor, match: MatchRecord, club: int | None) -> int:
    """The club of the match the caller acts for.

    It is `club` if given, else the one they administer. It is refused when they administer neither
    or both.
    """
    sides = (match.home_club_id, match.away_club_id)
    if club is not None:
        if club not in sides:
            raise UserError(f"That club does not play match {match.id}.")
        return club
    if actor.user_id is not None:
        mine = [c for c in sides if await uow.club_admins.is_admin(c, actor.user_id)]
        if len(mine) == 1:
            return mine[0]
        if len(mine) == 2:
            raise UserError("You administer both clubs: say which club acts.")
    raise UserError(f"This needs a **club admin** of a club of match {match.id}.")


async def record_challenge_issued(
    store: GuildStore,
    actor: Actor,
    match_id: int | str,
    chesscom_match: str | int,
    *,
    club: int | None = None,
    source: Source = "declared",
    at: dt.datetime | None = None,
) -> ChallengeRecorded:
    """CL-15: records the chess.com challenge as issued and links the chess.com match.

    The caller's club declared it, or the bot saw it with `at` as the first sighting, or a director
    set it. The other club's admins who want it are told by direct message to accept it.
    """
    chesscom = chesscom_match_id(chesscom_match)
    target = await _match_id(store, match_id)
    async with store.league_change(actor.user_id, "match.challenge", f"match:{target}") as uow:
        issued = await issue_challenge_in(
            uow, actor, target, chesscom, club=club, source=source, at=at
        )
        if not issued.late:  # CL-15: the other club must accept it before the deadline
            await notices.challenge_issued(uow, issued.match, issued.club_id)
        return issued


async def issue_challenge_in(
    uow: LeagueUnit,
    actor: Actor,
    match_id: int,
    chesscom: int,
    *,
    club: int | None = None,
    source: Source = "declared",
    at: dt.datetime | None = None,
) -> ChallengeRecorded:
    """`record_challenge_issued` inside a unit of work the caller holds.

    A scheduler job uses it to record the step with other changes, all or nothing.
    """
    match = await find_match(uow.matches, match_id)
    issuer = await _acting_club(uow, actor, match, club)
    await _authorise_source(uow, actor, source, issuer, await _club_name(uow, issuer))
    step = await check_step(uow, match, Step.ISSUE, _party(source))
    await _link_chesscom(uow, match, chesscom)
    await uow.matches.issue_challenge(match.id, issuer, step.recorded_at(at or uow.now), source)
    return await _recorded(uow, match.id, issuer, source, step, accepted=False)


async def correct_challenge(
    store: GuildStore,
    actor: Actor,
    match_id: int | str,
    chesscom_match: str | int,
    issued_by: str | None = None,
) -> ChallengeRecorded:
    """CL-15: an arbiter corrects a recorded challenge, audited and announced.

    The correction may change its chess.com match and, if named, the club that issued it. When it
    was issued and accepted stays as recorded, by the life cycle's `CORRECT_CHALLENGE`, so CL-15's
    judgement stands.
    """
    actor.require(Role.ARBITER)
    chesscom = chesscom_match_id(chesscom_match)
    target = await _match_id(store, match_id)
    async with store.league_change(
        actor.user_id, "match.challenge.correct", f"match:{target}"
    ) as uow:
        match = await find_match(uow.matches, target)
        step = await check_step(uow, match, Step.CORRECT_CHALLENGE, Party.ARBITER)
        assert match.challenge is not None  # the life cycle refused a match without one
        issuer = match.challenge.issued_by
        if issued_by is not None:
            club = await find_club(uow.clubs, issued_by)
            issuer = await _acting_club(uow, actor, match, club.id)
        if chesscom == match.chesscom_match_id and issuer == match.challenge.issued_by:
            raise UserError(f"Match {match.id}'s challenge is recorded so already.")
        await _link_chesscom(uow, match, chesscom)
        await uow.matches.correct_issuer(match.id, issuer)
        uow.details.update(chesscom=chesscom, was=match.chesscom_match_id, issuer=issuer)
        home, away = (
            await _club_name(uow, match.home_club_id),
            await _club_name(uow, match.away_club_id),
        )
        await announce(
            uow,
            announcements.challenge_corrected(
                home, away, chesscom, await _club_name(uow, issuer), CORRECTION_NOTE
            ),
        )
        updated = await find_match(uow.matches, match.id)
        accepted = updated.challenge is not None and updated.challenge.accepted_at is not None
        return ChallengeRecorded(updated, issuer, "declared", accepted, False, step.notes)


async def record_challenge_accepted(
    store: GuildStore,
    actor: Actor,
    match_id: int | str,
    *,
    source: Source = "declared",
    at: dt.datetime | None = None,
) -> ChallengeRecorded:
    """CL-15: the other club, not the issuer, accepted the challenge."""
    target = await _match_id(store, match_id)
    async with store.league_change(actor.user_id, "match.accept", f"match:{target}") as uow:
        return await accept_challenge_in(uow, actor, target, source=source, at=at)


async def accept_challenge_in(
    uow: LeagueUnit,
    actor: Actor,
    match_id: int,
    *,
    source: Source = "declared",
    at: dt.datetime | None = None,
) -> ChallengeRecorded:
    """`record_challenge_accepted` inside a unit of work the caller holds."""
    match = await find_match(uow.matches, match_id)
    step = await check_step(uow, match, Step.ACCEPT, _party(source))
    assert match.challenge is not None  # the life cycle refuses an acceptance before an issue
    other = (
        match.away_club_id
        if match.challenge.issued_by == match.home_club_id
        else match.home_club_id
    )
    await _authorise_source(uow, actor, source, other, await _club_name(uow, other))
    await uow.matches.accept_challenge(match.id, step.recorded_at(at or uow.now), source)
    return await _recorded(uow, match.id, other, source, step, accepted=True)


async def record_at_start(
    store: GuildStore,
    actor: Actor,
    match_id: int | str,
    club_id: int,
    *,
    members: int | None,
    avg_rating: float | None,
    players: int | None,
    observed_at: dt.datetime,
) -> AtStartRecorded:
    """CL-5, CL-6 and CL-20: a club's members, daily average and players fielded at the start.

    It records when they were observed, by the bot's snapshot or an arbiter.
    """
    target = await _match_id(store, match_id)
    facts = AtStartRecord(club_id, members, avg_rating, players, observed_at)
    _check_at_start(actor, facts)
    async with store.league_change(actor.user_id, "match.at_start", f"match:{target}") as uow:
        return await record_at_start_in(uow, actor, target, facts)


def _check_at_start(actor: Actor, facts: AtStartRecord) -> None:
    actor.require(Role.ARBITER)
    if facts.observed_at is None or facts.observed_at.tzinfo is None:
        raise UserError("The observation instant needs a time zone.")
    for value, what, top in (
        (facts.members, "members", MAX_MEMBERS),
        (facts.players, "players", 10_000),
    ):
        if value is not None and (isinstance(value, bool) or not 0 <= value <= top):
            raise UserError(f"{what} must be between 0 and {top}.")
    if facts.avg_rating is not None and not 0 <= facts.avg_rating <= MAX_RATING:
        raise UserError(f"The average rating must be between 0 and {MAX_RATING:g}.")


async def record_at_start_in(
    uow: LeagueUnit, actor: Actor, match_id: int, facts: AtStartRecord, *, checked: bool = False
) -> AtStartRecorded:
    """`record_at_start` inside a unit of work the caller holds.

    The at-start job records both clubs and its announcement together. `checked` says it asked the
    life cycle already.
    """
    _check_at_start(actor, facts)
    match = await find_match(uow.matches, match_id)
    if facts.club_id not in (match.home_club_id, match.away_club_id):
        raise UserError(f"That club does not play match {match.id}.")
    if not checked:
        party = Party.BOT if actor.is_system else Party.ARBITER  # an arbiter's is a correction
        await check_step(uow, match, Step.AT_START, party)
    await uow.matches.set_at_start(match.id, facts)
    updated = await find_match(uow.matches, match.id)
    return AtStartRecorded(updated, facts)


async def reschedule_match(
    store: GuildStore, actor: Actor, match_id: int | str, start: dt.datetime | str
) -> MatchRescheduled:
    """CL-13 and CL-15: a director moves a match not yet played.

    The move must come before its challenge deadline and to a start the notice still fits.
    Otherwise, the life cycle says, only a passed `reschedule` motion may move it. Its deadline,
    reminders, snapshot and polling move with it in the same unit of work. `start` as typed is read
    in the season's zone by `parse_local_instant`.
    """
    actor.require(Role.DIRECTOR)
    async with store.read() as view:
        match = await find_match(view.matches, match_id)
        zone = (await find_season(view.seasons, match.season_id)).rules.start_zone
    instant = parse_local_instant(start, "new start", zone) if isinstance(start, str) else start
    if instant.tzinfo is None:
        raise UserError("The new start needs a time zone.")
    async with store.league_change(actor.user_id, "match.reschedule", f"match:{match.id}") as uow:
        current = await find_match(uow.matches, match.id)
        return await reschedule_in(uow, current, instant, Party.DIRECTOR)


async def reschedule_in(
    uow: LeagueUnit, match: MatchRecord, start: dt.datetime, party: Party
) -> MatchRescheduled:
    """`reschedule_match` inside a unit of work the caller holds, by `party` (a director, or
    a passed motion: then also after the deadline, keeping the judged deadline, or to a start
    closer than the notice, the deadline then being the new start — `moved_deadline`)."""
    start = start.astimezone(dt.UTC)
    start_in_window(start, "new start", uow.now)
    current = await match_now(uow, match, uow.now)
    allowed(current.view, Step.RESCHEDULE, party, new_start=start)
    fixed = moved_deadline(current.view, start)
    rules = current.record.rules
    await uow.matches.reschedule(match.id, start, fixed)
    await schedule_jobs(uow, match.id, start, rules, fixed)
    deadline = deadline_of(start, rules.challenge_deadline_hours, fixed)
    home, away = (
        await _club_name(uow, match.home_club_id),
        await _club_name(uow, match.away_club_id),
    )
    await announce(uow, announcements.match_rescheduled(home, away, start, deadline))
    updated = await find_match(uow.matches, match.id)
    return MatchRescheduled(updated, match.start, deadline, rules.start_zone)
