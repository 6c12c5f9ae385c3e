"""A director motion's life by CL-23, the same for every kind.

A motion is opened after its kind's action is checked, and refused with fewer than the quorum of
directors. Its electors who want it are told by direct message when it opens, and those who have
not voted again when it closes soon. Votes are cast and changed. It closes at its deadline through
the `vote.close` job, or as soon as every elector voted. A passed motion's action from `actions.py`
is applied in the closing unit of work, audited with the motion's id and announced with its effect
on the standings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.config import Config
from bot.kernel.errors import UserError
from bot.kernel.inputs import NOTE_LIMIT, clean_text
from bot.kernel.notifications import Kind
from bot.league.motions.actions import action_of
from bot.league.motions.subjects import MotionRequest, NotApplied
from bot.rendering.league import motions as render
from bot.rendering.league import notices
from bot.runtime.announce import announce
from bot.runtime.notify import notify
from core.votes import (
    MINIMUM_VOTERS,
    VOTE_HOURS,
    MotionState,
    can_open,
    motion_deadline,
    motion_status,
)
from storage.guild import GuildStore, LeagueUnit
from storage.league.motions import Motion, MotionStatus, NewMotion
from storage.league.seasons import SeasonRecord
from storage.shared.jobs import Job

__all__ = [
    "CLOSE_JOB",
    "CLOSING_JOB",
    "MotionRequest",
    "VoteCast",
    "VoteRules",
    "cast_vote",
    "close_motion",
    "close_motion_in",
    "open_motion",
    "open_motion_in",
    "run_close_job",
    "run_closing_job",
    "season_vote_rules",
    "vote_rules",
]

CLOSE_JOB = "vote.close"
"""The scheduler's job kind that closes a motion at its deadline."""
CLOSING_JOB = "vote.closing"
"""The scheduler's job kind that reminds the electors who have not voted that a motion closes
soon."""
CLOSING_LEAD = dt.timedelta(hours=12)
"""How long before a motion's deadline the electors who have not voted are reminded."""
_STATUS: dict[MotionState, MotionStatus] = {
    MotionState.PASSED: "passed",
    MotionState.REJECTED: "rejected",
    MotionState.NO_DECISION: "no-decision",
}


@dataclass(frozen=True)
class VoteRules:
    """CL-23's values for a motion: hours until its deadline and the votes a decision needs.

    They are a season's frozen settings, or the config's `[rules.cl]` for a motion of no season.
    """

    hours: int = VOTE_HOURS
    quorum: int = MINIMUM_VOTERS


def vote_rules(config: Config) -> VoteRules:
    """CL-23's values from the config's `[rules.cl]`: vote_deadline_hours and vote_quorum."""
    rules = config.rules.cl.season_rules()
    return VoteRules(rules.vote_deadline_hours, rules.vote_quorum)


def season_vote_rules(season: SeasonRecord) -> VoteRules:
    """CL-23's values frozen in a season's rules when it was created."""
    return VoteRules(season.rules.vote_deadline_hours, season.rules.vote_quorum)


@dataclass(frozen=True)
class VoteCast:
    """A vote recorded and the motion after it.

    `changed` is False for the same vote again, with nothing written. The motion is closed if that
    vote was the last elector's.
    """

    motion: Motion
    changed: bool
    closed: bool


def _subject_of(motion_id: int) -> str:
    return f"motion:{motion_id}"


async def open_motion(
    store: GuildStore,
    actor: Actor,
    request: MotionRequest,
    electorate: Sequence[int],
    no_season: VoteRules = VoteRules(),
) -> Motion:
    """CL-23: a director, or the bot for a CL-21 removal, opens a motion put to `electorate`.

    The electorate is the members holding the director role now, frozen. Its deadline and quorum are
    those frozen in its season, read in the opening unit of work, else the config's `no_season`. The
    motion message with its Yes and No buttons goes to the directors' channel, else the
    announcements channel. The closing job is scheduled in the same unit of work.
    """
    kind = action_of(request.kind).kind
    async with store.league_change(actor.user_id, "motion.open", f"motion:{kind.value}") as uow:
        return await open_motion_in(uow, actor, request, electorate, no_season)


async def open_motion_in(
    uow: LeagueUnit,
    actor: Actor,
    request: MotionRequest,
    electorate: Sequence[int],
    no_season: VoteRules = VoteRules(),
) -> Motion:
    """`open_motion` inside a unit of work the caller holds.

    A CL-21 removal's verification opens its forfeit motion in the unit of work that records it.
    """
    actor.require(Role.DIRECTOR)
    voters = sorted(set(electorate))
    action = action_of(request.kind)
    reason = clean_text(request.reason, "reason", NOTE_LIMIT)
    settings = await uow.settings.get()
    channel = settings.motions_channel_id
    if channel is None:
        raise UserError(
            "No channel for motions: set one with `/setup set directors_channel` "
            "(or the announcements channel)."
        )
    subject = await action.check(uow, request)
    rules = no_season if subject.governing is None else season_vote_rules(subject.governing)
    if not can_open([str(v) for v in voters], rules.quorum):
        raise UserError(
            f"CL-23: a motion needs at least {rules.quorum} directors; the director role "
            f"has {len(voters)} member{'s' if len(voters) != 1 else ''}."
        )
    motion_id = await uow.motions.open(
        NewMotion(
            action.kind,
            reason,
            tuple(voters),
            motion_deadline(uow.now, rules.hours),
            rules.quorum,
            actor.user_id,
            subject.season_id,
            subject.match_id,
            subject.club_id,
            subject.rule,
            subject.stored(),
        )
    )
    motion = await uow.motions.get(motion_id)
    assert motion is not None
    message = await uow.outbox.post(
        channel,
        content=f"Motion {motion_id} is open: directors, vote below.",
        embeds=[render.motion_embed(motion)],
        components=render.vote_buttons(motion_id),
    )
    await uow.motions.set_message(motion_id, channel, message.id)
    await uow.jobs.schedule(
        CLOSE_JOB, _subject_of(motion_id), motion.deadline, {"motion": motion_id}
    )
    closing = motion.deadline - CLOSING_LEAD
    if closing > uow.now:
        await uow.jobs.schedule(CLOSING_JOB, _subject_of(motion_id), closing, {"motion": motion_id})
    await notify(
        uow,
        Kind.VOTE,
        motion.electorate,
        channel_id=channel,
        content=notices.vote_opened(motion),
        components=render.dm_vote_buttons(uow.guild_id, motion_id),
    )
    uow.details["motion"] = motion_id
    opened = await uow.motions.get(motion_id)
    assert opened is not None
    return opened


async def _find(uow: LeagueUnit, motion_id: int) -> Motion:
    found = await uow.motions.get(motion_id) if motion_id > 0 else None
    if found is None:
        raise UserError(f"No motion {motion_id} on this server.")
    return found


async def cast_vote(store: GuildStore, user_id: int, motion_id: int, yes: bool) -> VoteCast:
    """CL-23: an elector of the motion votes yes or no, or changes their vote, while it is open.

    The same vote again changes nothing. When every elector has voted the motion closes in the same
    unit of work.
    """
    async with store.league_change(user_id, "motion.vote", _subject_of(motion_id)) as uow:
        motion = await _find(uow, motion_id)
        if motion.status != "open":
            raise UserError(
                f"Motion {motion.id} is closed ({render.STATUS_LABEL[motion.status]}): "
                "votes are no longer taken."
            )
        if user_id not in motion.electorate:
            raise UserError(
                f"Only the directors who held the director role when motion {motion.id} "
                "opened may vote on it."
            )
        if uow.now >= motion.deadline:
            raise UserError(f"Motion {motion.id} has reached its deadline: it is closing.")
        if not await uow.motions.vote(motion.id, user_id, yes):
            uow.abandon()
            return VoteCast(motion, False, False)
        uow.details["motion"] = motion.id
        voted = await _find(uow, motion.id)
        closed = await _close(uow, voted, at_deadline=False)
        if closed is None:
            await _edit_message(uow, voted)
            return VoteCast(voted, True, False)
    return VoteCast(closed, True, True)


async def close_motion(store: GuildStore, motion_id: int) -> Motion | None:
    """CL-23: closes a motion whose deadline has come, once, whichever door closes it first.

    Returns None if it was closed already or is not due.
    """
    async with store.league_change(None, "motion.close", _subject_of(motion_id)) as uow:
        return await close_motion_in(uow, motion_id)


async def close_motion_in(uow: LeagueUnit, motion_id: int) -> Motion | None:
    """`close_motion` inside a unit of work the caller holds, the `vote.close` job's.

    It abandons the unit when there is nothing to close.
    """
    motion = await uow.motions.get(motion_id)
    if motion is None or motion.status != "open":
        uow.abandon()
        return None
    closed = await _close(uow, motion, at_deadline=True)
    if closed is None:
        uow.abandon()
    return closed


async def _close(uow: LeagueUnit, motion: Motion, *, at_deadline: bool) -> Motion | None:
    """Closes the motion if CL-23 says it is closed now, and returns None if it stays open.

    A motion closes at its deadline, once every elector voted, or on a split that can only end with
    no decision. A passed motion's action is applied, its message edited and the outcome announced.
    """
    at = max(uow.now, motion.deadline) if at_deadline else uow.now
    status = motion_status(
        [str(u) for u in motion.electorate],
        {str(u): v for u, v in motion.votes.items()},
        at,
        motion.deadline,
        motion.quorum,
    )
    if status.state is MotionState.OPEN and not status.can_close_early:
        return None
    # CL-23: a split motion (yes and no votes) can only end with no decision: it closes early.
    outcome = _STATUS[status.outcome]
    applied = ""
    if outcome == "passed":
        applied = await _apply_or_say_why(uow, motion)
    await uow.motions.close(motion.id, outcome, applied)
    await uow.jobs.cancel(CLOSE_JOB, _subject_of(motion.id))
    await uow.jobs.cancel(CLOSING_JOB, _subject_of(motion.id))
    uow.details.update(motion=motion.id, outcome=outcome)
    closed = await uow.motions.get(motion.id)
    assert closed is not None
    await _edit_message(uow, closed)
    await announce(uow, render.closing_announcement(closed))
    return closed


async def _apply_or_say_why(uow: LeagueUnit, motion: Motion) -> str:
    """Applies a passed motion's action. If it fails, only the action's writes are undone and the
    reason is given.

    A savepoint undoes the action, so the closing still ends the motion and a crash loses no vote.
    """
    try:
        async with uow.savepoint():
            return (await action_of(motion.kind).apply(uow, motion)).text
    except NotApplied as why:
        return f"Not applied: {why}"
    except Exception as error:  # any failure of the action must still close the motion
        uow.details["not_applied"] = f"{type(error).__name__}: {error}"
        return f"Not applied: the action failed ({type(error).__name__}: {error})."


async def _edit_message(uow: LeagueUnit, motion: Motion) -> None:
    """Shows the motion's current state on its message through the outbox.

    While open it shows the tally. Once closed it shows the outcome with the buttons disabled. A
    message not delivered yet is followed by a new one.
    """
    if motion.channel_id is None or motion.outbox_id is None:
        return
    posted = await uow.outbox.get(motion.outbox_id)
    message_id = None if posted is None else posted.message_id
    closed = motion.status != "open"
    if message_id is None and not closed:
        return
    await uow.outbox.post(
        motion.channel_id,
        content=f"Motion {motion.id} is {render.STATUS_LABEL[motion.status]}."
        if closed
        else f"Motion {motion.id} is open: directors, vote below.",
        embeds=[render.motion_embed(motion)],
        edit_of=message_id,
        components=render.vote_buttons(motion.id, disabled=True) if closed else None,
    )


async def run_close_job(job: Job, uow: LeagueUnit) -> None:
    """The `vote.close` job closes its motion at the deadline, in its unit of work.

    The closing and the job's end commit together, so it happens once. A motion closed meanwhile by
    its last vote is left alone.
    """
    await close_motion_in(uow, int(job.payload["motion"]))


async def run_closing_job(job: Job, uow: LeagueUnit) -> None:
    """The `vote.closing` job tells the electors who have not voted that the motion closes soon.

    Each who wants it gets a direct message with the Yes and No buttons. A motion closed
    meanwhile, or one every elector voted on, says nothing.
    """
    motion = await uow.motions.get(int(job.payload["motion"]))
    if motion is None or motion.status != "open" or uow.now >= motion.deadline:
        uow.abandon()
        return
    waiting = [user for user in motion.electorate if user not in motion.votes]
    told = await notify(
        uow,
        Kind.VOTE_CLOSING,
        waiting,
        channel_id=motion.channel_id or 0,
        content=notices.vote_closing(motion),
        components=render.dm_vote_buttons(uow.guild_id, motion.id),
    )
    if not told:
        uow.abandon()
        return
    uow.details.update(motion=motion.id, told=told)
