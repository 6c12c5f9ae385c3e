"""CL-21: verifies a recorded roster removal's stated reason.

A multi-team player is checked on the season's facts by CL-18, and timeouts on chess.com's daily
timeout ratio. When the reason cannot be verified, a `forfeit` motion is opened for the club's next
match of the season, saying why.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from bot.chesscom.models import PlayerStats
from bot.kernel.actor import Actor
from bot.kernel.errors import UserError
from bot.league.electorate import Unreadable, not_read
from bot.league.motions.lifecycle import MotionRequest, open_motion_in
from bot.league.store import load_season
from bot.rendering.common.user_text import user_text
from bot.runtime.announce import announce
from bot.runtime.polite_http import ApiError
from bot.runtime.scheduler import RetryLater
from core.league import league_report
from core.league.roster import (
    RemovalCheck,
    RemovalReason,
    RosterRemoval,
    check_removal,
    is_multi_team,
)
from core.votes import MotionKind
from storage.guild import GuildStore, LeagueUnit
from storage.league.motions import Motion
from storage.league.rosters import Removal
from storage.shared.jobs import Job

VERIFY_JOB = "roster.verify"
"""The scheduler's job kind that verifies a recorded removal.

It is scheduled with the removal, so a crash before the verification loses nothing and it runs at
the next start-up.
"""
RETRY_AFTER = dt.timedelta(minutes=10)
"""When the job tries again if the directors could not be read."""
CHESSCOM_RETRY = dt.timedelta(minutes=30)
"""CL-21: when the job reads chess.com again after it did not answer, after a 5xx or a timeout."""
CHESSCOM_TRIES = 13
"""CL-21: how often chess.com is tried for a removal's timeout ratio before the directors decide
without it.

That is the first try and 12 more, one every `CHESSCOM_RETRY`, over 6 hours. A brief outage never
opens a forfeit motion. One that lasts that long does, saying so.
"""
TRIES = "chesscom_tries"
"""The verify job's payload key counting chess.com's unanswered tries."""

_REASONS = {
    "multi-team": RemovalReason.MULTI_TEAM,
    "timeouts": RemovalReason.TIMEOUTS,
    "other": RemovalReason.OTHER,
}


class PlayerStatsSource(Protocol):
    """Where timeout ratios come from: the chess.com client, or a test's fake of it."""

    async def player_stats(self, username: str) -> PlayerStats:
        """A player's statistics."""


@dataclass(frozen=True)
class RemovalVerified:
    """What the verification found, and the forfeit motion it opened if any, or why none could be
    opened.
    """

    removal_id: int
    check: RemovalCheck
    motion: Motion | None
    no_motion: str | None
    """Why no motion was opened, as Discord markdown with user values escaped."""
    earlier: bool = False
    """True if the job or an earlier call had verified it before, so nothing changed."""
    deferred: bool = False
    """CL-21: True if nothing was recorded and the removal's pending `roster.verify` job tries again
    later.

    This happens when a motion is needed but the directors could not be read, or when chess.com did
    not answer for the timeout ratio.
    """
    unreadable: Unreadable | None = None
    """Why the directors could not be read, for a deferred check. None leaves it unsaid."""


def removal_subject(removal_id: int) -> str:
    """The subject of a removal's verification job."""
    return f"removal:{removal_id}"


async def schedule_verification(uow: LeagueUnit, removal_id: int) -> None:
    """Schedules the removal's verification, due now, in the unit of work that records it."""
    await uow.jobs.schedule(
        VERIFY_JOB, removal_subject(removal_id), uow.now, {"removal": removal_id}
    )


@dataclass(frozen=True)
class _Fetched:
    """What the verification reads outside any transaction.

    It reads the timeout ratio from chess.com, None when not needed, not given or not read. It notes
    why chess.com did not answer, None when it did or was not asked. It reads the directors, None
    when they could not be read.
    """

    timeout: float | None
    electorate: Sequence[int] | Unreadable | None
    unanswered: str | None = None


async def _timeout(stats: PlayerStatsSource, removal: Removal) -> tuple[float | None, str | None]:
    """CL-21: the player's daily timeout ratio for a removal for timeouts, and why chess.com did not
    answer.

    The ratio is None for other removals or when chess.com gives none. The reason is None when
    chess.com answered.
    """
    if removal.reason != "timeouts":
        return None, None
    try:
        return (await stats.player_stats(removal.username)).daily_timeout_percent, None
    except ApiError as error:
        return None, error.message


def waiting_for_chesscom(why: str) -> str:
    """The CL-21 clause a removal's reply gives while chess.com does not answer."""
    hours = CHESSCOM_RETRY * (CHESSCOM_TRIES - 1) / dt.timedelta(hours=1)
    return (
        f"chess.com did not answer for the timeout ratio ({why}); the bot tries again every"
        f" {CHESSCOM_RETRY // dt.timedelta(minutes=1)} minutes, {CHESSCOM_TRIES - 1} times"
        f" over {hours:g} hours, before the directors decide without it"
    )


async def verify_removal(
    store: GuildStore,
    removal_id: int,
    stats: PlayerStatsSource,
    electorate: Sequence[int] | Unreadable | None,
    timeout_limit: Fraction | None = None,
) -> RemovalVerified:
    """CL-21: checks the reason of removal `removal_id`, in one unit of work.

    A verified removal is marked so. Otherwise the bot opens a forfeit motion for the club's next
    match and the announcement says why. The motion goes to `electorate`, the directors now, with
    why they could not be read or None, and CL-23's settings are the season's. It happens once only:
    a removal verified before, by its `roster.verify` job or an earlier call, is reported as it is,
    unchanged.
    """
    async with store.read() as view:
        removal = await view.rosters.removal(removal_id)
    if removal is None:
        raise UserError(f"No removal {removal_id} on this server.")
    timeout, unanswered = (
        (None, None) if removal.verification != "pending" else await _timeout(stats, removal)
    )
    async with store.league_change(None, "roster.verify", removal_subject(removal_id)) as uow:
        verified = await verify_removal_in(
            uow, removal_id, timeout, electorate, timeout_limit, unanswered=unanswered
        )
        if verified.earlier or verified.deferred:
            uow.abandon()
    return verified


async def verify_removal_in(
    uow: LeagueUnit,
    removal_id: int,
    timeout: float | None,
    electorate: Sequence[int] | Unreadable | None,
    timeout_limit: Fraction | None = None,
    *,
    unanswered: str | None = None,
    gave_up: str | None = None,
) -> RemovalVerified:
    """`verify_removal` inside a unit of work the caller holds, with chess.com's timeout ratio read
    before.

    It records the outcome, opens the forfeit motion with its id on the removal, and announces. For
    a removal verified before it changes nothing, as `earlier` says. The removal's verification job
    is cancelled as done. CL-21: while chess.com does not answer for a timeout ratio, nothing is
    decided and the check is `deferred`, with `unanswered` saying why. Once the job stops trying,
    `gave_up` says how long it tried, and the directors decide without the ratio.
    """
    removal = await uow.rosters.removal(removal_id)
    if removal is None:
        raise UserError(f"No removal {removal_id} on this server.")
    season = await uow.seasons.get(removal.season_id)
    assert season is not None
    club = await uow.clubs.get(removal.club_id)
    assert club is not None
    view = uow.view()
    now = uow.now
    limit = season.rules.timeout_ratio_limit_percent if timeout_limit is None else timeout_limit
    multi_team: bool | None = None
    if removal.reason == "multi-team":
        report = league_report(await load_season(view, season), now=now)
        multi_team = is_multi_team(removal.username, report.multi_team_players)
    check = check_removal(
        RosterRemoval(removal.username, club.name, _REASONS[removal.reason], multi_team, timeout),
        limit,
    )
    if removal.verification != "pending":
        motion = None if removal.motion_id is None else await uow.motions.get(removal.motion_id)
        return RemovalVerified(removal_id, check, motion, None, earlier=True)
    if not check.justified and unanswered is not None and gave_up is None:
        return RemovalVerified(
            removal_id, check, None, waiting_for_chesscom(unanswered), deferred=True
        )
    if check.justified:
        await uow.jobs.cancel(VERIFY_JOB, removal_subject(removal_id))
        await uow.rosters.verify_removal(removal_id, "verified")
        await announce(uow, f"Roster removal verified (CL-21): {user_text(check.explanation)}.")
        return RemovalVerified(removal_id, check, None, None)
    matches = [
        m
        for m in await view.matches.of_season(season.id)
        if club.id in (m.home_club_id, m.away_club_id) and m.finished_at is None and m.start > now
    ]
    upcoming = min(matches, key=lambda m: m.start, default=None)
    why = check.explanation
    if gave_up is not None:
        why = f"{why} (chess.com did not answer {gave_up})"
    problem: str | None = None
    motion = None
    if upcoming is None:
        problem = f"{user_text(club.name)} has no match left in {user_text(season.name)} to forfeit"
    elif electorate is None or isinstance(electorate, Unreadable):  # the job tries again later
        return RemovalVerified(
            removal_id, check, None, not_read(electorate), deferred=True, unreadable=electorate
        )
    else:
        request = MotionRequest(
            MotionKind.FORFEIT,
            f"CL-21 removal not verified: {why}.",
            match_id=upcoming.id,
            club=club.id,
        )
        try:
            async with uow.savepoint():
                motion = await open_motion_in(uow, Actor.system(), request, electorate)
        except UserError as refusal:  # a sentence: its own full stop would double ours
            problem = refusal.markdown.rstrip(".")
    await uow.jobs.cancel(VERIFY_JOB, removal_subject(removal_id))
    if motion is not None:
        await uow.rosters.verify_removal(removal_id, "motion", motion.id)
        await announce(
            uow,
            f"Roster removal not verified (CL-21): {user_text(why)}. Motion {motion.id} puts a "
            f"forfeit of match {motion.match_id} by {user_text(club.name)} to the directors.",
        )
    else:
        await uow.rosters.verify_removal(removal_id, "refuted")
        await announce(
            uow,
            f"Roster removal not verified (CL-21): {user_text(why)}. No motion opened: {problem}.",
        )
    return RemovalVerified(removal_id, check, motion, problem)


async def resume_verifications(store: GuildStore) -> list[int]:
    """Moves the guild's `roster.verify` jobs waiting to retry to now, and returns the removals
    whose job moved.

    These jobs wait because the directors could not be read. It is called when the guild becomes
    available, since at start-up the jobs run before the gateway delivers any guild.
    """
    now = store.database.clock()
    async with store.read() as view:
        waiting = [
            removal.id
            for season in await view.seasons.all()
            for removal in await view.rosters.removals(season.id)
            if removal.verification == "pending"
            and (job := await view.jobs.pending(VERIFY_JOB, removal_subject(removal.id)))
            is not None
            and job.due_at > now
        ]
    if not waiting:
        return []
    async with store.league_change(None, "roster.verify.resume", VERIFY_JOB) as uow:
        moved = []
        for removal_id in waiting:
            job = await uow.jobs.pending(VERIFY_JOB, removal_subject(removal_id))
            if job is not None and job.due_at > uow.now:
                await uow.jobs.schedule(VERIFY_JOB, job.subject, uow.now, job.payload)
                moved.append(removal_id)
        uow.details["removals"] = moved
        if not moved:
            uow.abandon()
    return moved


Directors = Callable[[int], Awaitable[Sequence[int] | Unreadable | None]]
"""The directors of a guild now by guild id, else why they cannot be read. None leaves the reason
unsaid.
"""

TOLD = "told"
"""The verify job's payload key, set to the cause's name once the directors' channel was told.

The channel is told that the removal waits for a lasting reason. The key is kept with the job that
retries and moved in the same unit of work as the announcement, so it is said once and never lost or
repeated.
"""


async def _tell_waiting(uow: LeagueUnit, removal: Removal, cause: Unreadable) -> bool:
    """Queues a note that `removal` waits for verification and what fixes it.

    The note goes to the directors' channel, else announcements. Returns False when the guild has
    neither channel.
    """
    channel = (await uow.settings.get()).motions_channel_id
    if channel is None:
        return False
    club = await uow.clubs.get(removal.club_id)
    name = "?" if club is None else club.name
    await uow.outbox.post(
        channel,
        content=(
            f"Roster removal #{removal.id} (**{user_text(removal.username)}** from "
            f"**{user_text(name)}**) waits for verification (CL-21): the directors could not"
            f" be read: {cause.why}. The bot tries again every "
            f"{RETRY_AFTER.seconds // 60} minutes and verifies it once this is fixed."
        ),
    )
    return True


def verification_job(
    store_of: Callable[[int], GuildStore], stats: PlayerStatsSource | None, directors: Directors
) -> tuple[
    Callable[[Job], Awaitable[_Fetched]], Callable[[Job, LeagueUnit, _Fetched], Awaitable[None]]
]:
    """The `roster.verify` job's fetch and handler.

    The fetch reads chess.com's timeout ratio and the directors outside the transaction. The handler
    is `verify_removal_in` and runs once. Without the directors the job tries again later. Without
    chess.com a timeout ratio counts as not read.
    """

    async def fetch(job: Job) -> _Fetched:
        removal_id = int(job.payload["removal"])
        async with store_of(job.guild_id).read() as view:
            removal = await view.rosters.removal(removal_id)
        if removal is None or removal.verification != "pending":
            return _Fetched(None, ())
        timeout, unanswered = (None, None) if stats is None else await _timeout(stats, removal)
        return _Fetched(timeout, await directors(job.guild_id), unanswered)

    async def handle(job: Job, uow: LeagueUnit, fetched: _Fetched) -> None:
        removal = await uow.rosters.removal(int(job.payload["removal"]))
        if removal is None or removal.verification != "pending":
            uow.abandon()
            return
        electorate = fetched.electorate
        if electorate is None or isinstance(electorate, Unreadable):
            at, reason = uow.now + RETRY_AFTER, not_read(electorate)
            if electorate is None or not electorate.lasting or TOLD in job.payload:
                raise RetryLater(at, reason)
            cause = electorate

            async def tell(retry: LeagueUnit) -> None:
                if await _tell_waiting(retry, removal, cause):
                    retry.details[TOLD] = cause.name
                else:  # no channel to say it in: not said, so said once one is set up
                    await retry.jobs.schedule(job.kind, job.subject, at, job.payload)

            # Said once: the payload records it in the unit of work that queues it.
            raise RetryLater(at, reason, payload={**job.payload, TOLD: cause.name}, then=tell)
        verified = await verify_removal_in(
            uow, removal.id, fetched.timeout, electorate, unanswered=fetched.unanswered
        )
        if verified.deferred and fetched.unanswered is not None:
            tries = int(job.payload.get(TRIES, 0)) + 1
            if tries < CHESSCOM_TRIES:  # CL-21: an outage is waited out, never a motion
                payload = {**job.payload, TRIES: tries}
                raise RetryLater(uow.now + CHESSCOM_RETRY, fetched.unanswered, payload=payload)
            hours = CHESSCOM_RETRY * (tries - 1) / dt.timedelta(hours=1)
            await verify_removal_in(
                uow,
                removal.id,
                None,
                electorate,
                unanswered=fetched.unanswered,
                gave_up=f"in {tries} tries over {hours:g} hours",
            )

    return fetch, handle
