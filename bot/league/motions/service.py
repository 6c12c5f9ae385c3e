"""Directors' discretion (CL-23) as motions that execute: open one (refused when its action
could not be applied or fewer than the quorum of directors exist), cast and change votes,
and close it — at its deadline (the `vote.close` job) or as soon as every elector voted —
applying a passed motion's action in the same unit of work as the closing, audited with the
motion's id, announced with its effect on the standings."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.app.actor import Actor, Role
from bot.app.config import Config
from bot.app.errors import UserError
from bot.app.inputs import NAME_LIMIT, NOTE_LIMIT, clean_text, named, shown
from bot.formats.boards_csv import BoardRow
from bot.league.clubs.service import exclude_club_in
from bot.league.references import find_club, find_match, find_season
from bot.league.store import load_season
from bot.rendering import motions as render
from bot.runtime.announce import announce
from core.league import LeagueReport, league_report
from core.league.promotion import promotion_proposal
from core.votes import (
    MINIMUM_VOTERS,
    VOTE_HOURS,
    MotionState,
    can_open,
    motion_deadline,
    motion_status,
)
from storage.decisions import NewDecision
from storage.guild import GuildStore, UnitOfWork
from storage.jobs import Job
from storage.matches import BoardRecord
from storage.motions import Motion, MotionKind, MotionStatus, NewMotion
from storage.seasons import SeasonRecord

CLOSE_JOB = "vote.close"
"""The scheduler's job kind that closes a motion at its deadline."""
KINDS: tuple[MotionKind, ...] = (
    "forfeit",
    "disqualify",
    "correct-result",
    "exclude-club",
    "division-makeup",
    "other",
)
DISQUALIFY_RULES = ("CL-15", "CL-18", "CL-20", "CL-21", "CL-23", "CL-DQ")
"""The rules a director disqualification may name (those the season file can carry)."""
FORFEIT_RULE = "CL-21"
"""CL-FF: a director forfeit (CL-21) can be added to any match; it counts towards CL-21's."""
_STATUS: dict[MotionState, MotionStatus] = {
    MotionState.PASSED: "passed",
    MotionState.REJECTED: "rejected",
    MotionState.NO_DECISION: "no-decision",
}


@dataclass(frozen=True)
class VoteRules:
    """CL-23's values for a motion: hours until its deadline, and the votes a decision needs
    (a season's frozen settings, or the config's `[rules.cl]` for a motion of no season)."""

    hours: int = VOTE_HOURS
    quorum: int = MINIMUM_VOTERS


def vote_rules(config: Config) -> VoteRules:
    """CL-23's values from the config's `[rules.cl]` (vote_deadline_hours, vote_quorum)."""
    cl = config.rules.cl
    return VoteRules(cl.vote_deadline_hours, cl.vote_quorum)


def season_vote_rules(season: SeasonRecord) -> VoteRules:
    """CL-23's values frozen in a season's rules when it was created."""
    return VoteRules(season.rules.vote_deadline_hours, season.rules.vote_quorum)


@dataclass(frozen=True)
class MotionRequest:
    """What a director puts to the vote: the kind and the subject its action needs."""

    kind: str
    reason: str
    season: str | int | None = None
    match_id: int | None = None
    club: str | int | None = None
    rule: str | None = None
    boards: Sequence[BoardRow] = ()
    next_season: str | None = None


@dataclass(frozen=True)
class VoteCast:
    """A vote recorded (`changed` False: the same vote again, nothing written) and the
    motion after it (closed if that vote was the last elector's)."""

    motion: Motion
    changed: bool
    closed: bool


@dataclass
class _Subject:
    season_id: int | None = None
    match_id: int | None = None
    club_id: int | None = None
    rule: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    rules_of: SeasonRecord | None = None
    """The season whose frozen CL-23 settings govern the vote (None: the config's)."""


class _NotApplied(Exception):
    """A passed motion whose action can no longer be applied (said in its outcome)."""


def _subject_of(motion_id: int) -> str:
    return f"motion:{motion_id}"


async def _report(uow: UnitOfWork, season: SeasonRecord, as_of: dt.date | None = None) -> Any:
    loaded = await load_season(uow.view(), season)
    if as_of is not None:
        return league_report(loaded, as_of=as_of)
    return league_report(loaded, now=uow.now)


async def _disqualified(uow: UnitOfWork, season: SeasonRecord, club: str) -> bool:
    report: LeagueReport = await _report(uow, season)
    return any(d.club == club for d in report.disqualified)


def _next_name(name: str) -> str:
    """A default name for next season: the last number in the name plus one, else `… (next)`."""
    found = list(re.finditer(r"\d+", name))
    if not found:
        return f"{name} (next)"[:NAME_LIMIT]
    last = found[-1]
    return (name[: last.start()] + str(int(last.group()) + 1) + name[last.end() :])[:NAME_LIMIT]


async def _subject(uow: UnitOfWork, request: MotionRequest) -> _Subject:
    """Check that the kind's action could be applied now, and what it needs (CL-23)."""
    kind = request.kind
    if kind in ("forfeit", "correct-result"):
        if request.match_id is None:
            raise UserError(f"A {kind} motion names the match.")
        match = await find_match(uow.matches, request.match_id)
        season = await find_season(uow.seasons, match.season_id)
        clubs = {c.id: c.name for c in await uow.clubs.all()}
        home, away = clubs[match.home_club_id], clubs[match.away_club_id]
        title = f"match {match.id} ({home} – {away}, round {match.round}, {season.name})"
        if kind == "forfeit":
            if request.club is None:
                raise UserError("A forfeit motion names the club that forfeits.")
            club = await find_club(uow.clubs, request.club)
            if club.id not in (match.home_club_id, match.away_club_id):
                raise UserError(f"{named(club.name)} does not play match {match.id}.")
            if await _disqualified(uow, season, club.name):
                raise UserError(
                    f"{named(club.name)} is already disqualified in {named(season.name)}."
                )
            return _Subject(
                season.id,
                match.id,
                club.id,
                FORFEIT_RULE,
                {"title": f"{title}, {club.name}", "details": f"{club.name} forfeits the match."},
                season,
            )
        rows = _boards(request.boards, season.rules.games_per_board)
        shown_boards = ", ".join(
            f"{b[0]}. {b[1]}–{b[2]} {b[3] / 2:g}:{b[4] / 2:g}" for b in rows[:10]
        )
        return _Subject(
            season.id,
            match.id,
            None,
            "CL-14",
            {"title": title, "boards": rows, "details": f"Boards: {shown_boards}"},
            season,
        )
    if kind in ("disqualify", "exclude-club"):
        if request.club is None:
            raise UserError(f"A {kind} motion names the club.")
        club = await find_club(uow.clubs, request.club)
        if kind == "exclude-club":
            if club.status not in ("pending", "approved"):
                raise UserError(f"Club {named(club.name)} is {club.status}: it cannot be excluded.")
            return _Subject(
                None,
                None,
                club.id,
                "CL-4",
                {"title": club.name, "details": f"{club.name} is excluded from the league."},
                await _playing_season(uow, club.id),
            )
        if request.season is None:
            raise UserError("A disqualify motion names the season.")
        season = await find_season(uow.seasons, request.season)
        rule = clean_text(request.rule or "", "rule", 20).upper()
        if rule not in DISQUALIFY_RULES:
            raise UserError(f"The rule is one of {', '.join(DISQUALIFY_RULES)}.")
        if not any(m.club_id == club.id for m in await uow.seasons.members(season.id)):
            raise UserError(f"{named(club.name)} does not play in season {named(season.name)}.")
        if await _disqualified(uow, season, club.name):
            raise UserError(f"{named(club.name)} is already disqualified in {named(season.name)}.")
        return _Subject(
            season.id,
            None,
            club.id,
            rule,
            {
                "title": f"{club.name} in {season.name} ({rule})",
                "details": f"{club.name} is disqualified from {season.name}: none of its "
                "matches count (CL-DQ).",
            },
            season,
        )
    if kind == "division-makeup":
        if request.season is None:
            raise UserError("A division make-up motion names the season it follows.")
        return await _makeup(uow, await find_season(uow.seasons, request.season), request)
    if kind == "other":
        return _Subject(data={"title": request.reason[:80]})
    raise UserError(f"The kind is one of {', '.join(KINDS)}.")


async def _playing_season(uow: UnitOfWork, club_id: int) -> SeasonRecord | None:
    """The newest season not finished that the club plays in (its exclusion acts there), if
    any: its CL-23 settings govern an exclude-club vote."""
    playing = [
        season
        for season in await uow.seasons.all()
        if season.status != "finished"
        and any(m.club_id == club_id for m in await uow.seasons.members(season.id))
    ]
    return max(playing, key=lambda season: season.id, default=None)


def _boards(rows: Sequence[BoardRow], games: int) -> list[list[Any]]:
    """CL-14: the corrected boards, each adding up to the season's games per board."""
    if not rows:
        raise UserError("A result correction needs the corrected boards (a boards CSV).")
    boards: list[list[Any]] = []
    for row in rows:
        home, away = row.home_points * 2, row.away_points * 2
        if home.denominator != 1 or away.denominator != 1 or home < 0 or away < 0:
            raise UserError(f"Board {row.board}: points are whole or half points.")
        if home + away != 2 * games:
            raise UserError(
                f"Board {row.board}: the points must add up to {games} (the games per board)."
            )
        boards.append([row.board, row.home_player, row.away_player, int(home), int(away)])
    if len({b[0] for b in boards}) != len(boards):
        raise UserError("A board number is given twice.")
    return boards


async def _makeup(uow: UnitOfWork, season: SeasonRecord, request: MotionRequest) -> _Subject:
    """CL-8: the proposal from the standings as at the cut-off (else now), and next season's
    name (free in the guild)."""
    name = clean_text(request.next_season or _next_name(season.name), "season name", NAME_LIMIT)
    if await uow.seasons.by_name(name) is not None:
        raise UserError(f"A season named {shown(name)} exists already: name next season.")
    cutoff = season.rules.divisions_cutoff
    report: LeagueReport = await _report(uow, season, cutoff)
    clubs = {c.id: c.name for c in await uow.clubs.all()}
    withdrawn = [clubs[m.club_id] for m in await uow.seasons.members(season.id) if m.withdrawn]
    proposal = promotion_proposal(
        report.divisions, season.rules.promotion_places, withdrawn=withdrawn
    )
    divisions = {d.name: d.min_players for d in await uow.seasons.divisions(season.id)}
    moves = "; ".join(f"{m.club} {m.from_division} → {m.to_division}" for m in proposal.moves)
    return _Subject(
        season.id,
        None,
        None,
        "CL-8",
        {
            "title": f"divisions of {name} (from {season.name})",
            "next_season": name,
            "divisions": [[n, list(c), divisions[n]] for n, c in proposal.divisions],
            "details": (
                f"Creates season {name} with these divisions. Moves: {moves or 'none'}."
                + (f" Withdrawn: {', '.join(proposal.withdrawn)}." if proposal.withdrawn else "")
                + (f" Standings as at {cutoff.isoformat()}." if cutoff else "")
            ),
        },
        season,
    )


async def open_motion(
    store: GuildStore,
    actor: Actor,
    request: MotionRequest,
    electorate: Sequence[int],
    no_season: VoteRules = VoteRules(),
) -> Motion:
    """CL-23: a director (or the bot, for a CL-21 removal) opens a motion put to `electorate`
    — the members holding the director role now, frozen. Its deadline and quorum are those
    frozen in its season (read in the opening unit of work), else `no_season` (the config's).
    The motion message with its Yes / No buttons goes to the directors' channel (else the
    announcements channel), and the closing job is scheduled, in one unit of work."""
    async with store.change(actor.user_id, "motion.open", f"motion:{request.kind}") as uow:
        return await open_motion_in(uow, actor, request, electorate, no_season)


async def open_motion_in(
    uow: UnitOfWork,
    actor: Actor,
    request: MotionRequest,
    electorate: Sequence[int],
    no_season: VoteRules = VoteRules(),
) -> Motion:
    """`open_motion` inside a unit of work the caller holds (a CL-21 removal's verification
    opens its forfeit motion in the unit of work that records it)."""
    actor.require(Role.DIRECTOR)
    voters = sorted(set(electorate))
    if request.kind not in KINDS:
        raise UserError(f"The kind is one of {', '.join(KINDS)}.")
    reason = clean_text(request.reason, "reason", NOTE_LIMIT)
    settings = await uow.settings.get()
    channel = settings.motions_channel_id
    if channel is None:
        raise UserError(
            "No channel for motions: set one with `/setup set directors_channel` "
            "(or the announcements channel)."
        )
    subject = await _subject(uow, request)
    rules = no_season if subject.rules_of is None else season_vote_rules(subject.rules_of)
    if not can_open([str(v) for v in voters], rules.quorum):
        raise UserError(
            f"CL-23: a motion needs at least {rules.quorum} directors; the director role "
            f"has {len(voters)} member{'s' if len(voters) != 1 else ''}."
        )
    motion_id = await uow.motions.open(
        NewMotion(
            request.kind,
            reason,
            tuple(voters),
            motion_deadline(uow.now, rules.hours),
            rules.quorum,
            actor.user_id,
            subject.season_id,
            subject.match_id,
            subject.club_id,
            subject.rule,
            subject.data,
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
    uow.details["motion"] = motion_id
    opened = await uow.motions.get(motion_id)
    assert opened is not None
    return opened


async def _find(uow: UnitOfWork, motion_id: int) -> Motion:
    found = await uow.motions.get(motion_id) if motion_id > 0 else None
    if found is None:
        raise UserError(f"No motion {motion_id} on this server.")
    return found


async def cast_vote(store: GuildStore, user_id: int, motion_id: int, yes: bool) -> VoteCast:
    """CL-23: an elector of the motion votes yes or no (or changes their vote) while it is
    open; the same vote again changes nothing. When every elector has voted the motion closes
    in the same unit of work."""
    async with store.change(user_id, "motion.vote", _subject_of(motion_id)) as uow:
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
    """CL-23: close a motion whose deadline has come (once, whichever door closes it first).
    None if it was closed already or is not due."""
    async with store.change(None, "motion.close", _subject_of(motion_id)) as uow:
        return await close_motion_in(uow, motion_id)


async def close_motion_in(uow: UnitOfWork, motion_id: int) -> Motion | None:
    """`close_motion` inside a unit of work the caller holds (the `vote.close` job's);
    abandons it when there is nothing to close."""
    motion = await uow.motions.get(motion_id)
    if motion is None or motion.status != "open":
        uow.abandon()
        return None
    closed = await _close(uow, motion, at_deadline=True)
    if closed is None:
        uow.abandon()
    return closed


async def _close(uow: UnitOfWork, motion: Motion, *, at_deadline: bool) -> Motion | None:
    """Close the motion if CL-23 says it is closed now (deadline, every elector voted, or a
    split that can only end with no decision): apply a passed motion's action, edit its
    message, announce. None if it stays open."""
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
    uow.details.update(motion=motion.id, outcome=outcome)
    closed = await uow.motions.get(motion.id)
    assert closed is not None
    await _edit_message(uow, closed)
    await announce(uow, render.closing_announcement(closed))
    return closed


async def _apply_or_say_why(uow: UnitOfWork, motion: Motion) -> str:
    """Apply a passed motion's action; if it fails, undo only the action's writes (a
    savepoint) and say why, so the closing still ends the motion (a crash loses no vote)."""
    try:
        async with uow.savepoint():
            return await _apply(uow, motion)
    except _NotApplied as why:
        return f"Not applied: {why}"
    except Exception as error:  # any failure of the action must still close the motion
        uow.details["not_applied"] = f"{type(error).__name__}: {error}"
        return f"Not applied: the action failed ({type(error).__name__}: {error})."


async def _edit_message(uow: UnitOfWork, motion: Motion) -> None:
    """Show the motion's current state on its message (through the outbox): the tally while
    open; the outcome with the buttons disabled once closed. A message not delivered yet is
    followed by a new one."""
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


async def _season(uow: UnitOfWork, season_id: int | None) -> SeasonRecord:
    if season_id is None:
        raise _NotApplied("its season no longer exists")
    season = await uow.seasons.get(season_id)
    if season is None:
        raise _NotApplied("its season no longer exists")
    return season


async def _apply(uow: UnitOfWork, motion: Motion) -> str:
    """Apply a passed motion's action in the closing unit of work: a director decision fact
    with the motion's id (CL-23); returns what was done, with the standings' change."""
    if motion.kind == "other":
        return "Decision recorded; nothing to apply."
    if motion.kind == "exclude-club":
        return await _exclude(uow, motion)
    if motion.kind == "division-makeup":
        return await _create_next_season(uow, motion)
    season = await _season(uow, motion.season_id)
    before: LeagueReport = await _report(uow, season)
    clubs = {c.id: c.name for c in await uow.clubs.all()}
    if motion.kind == "forfeit":
        assert motion.match_id is not None and motion.club_id is not None
        if await _disqualified(uow, season, clubs[motion.club_id]):
            raise _NotApplied(f"{clubs[motion.club_id]} is disqualified already")
        await uow.decisions.record(
            season.id,
            NewDecision(
                "forfeit",
                motion.rule or FORFEIT_RULE,
                match_id=motion.match_id,
                club_id=motion.club_id,
                motion_id=motion.id,
                note=motion.reason,
            ),
        )
        done = f"{clubs[motion.club_id]} forfeits match {motion.match_id}."
    elif motion.kind == "disqualify":
        assert motion.club_id is not None
        if await _disqualified(uow, season, clubs[motion.club_id]):
            raise _NotApplied(f"{clubs[motion.club_id]} is disqualified already")
        await uow.decisions.record(
            season.id,
            NewDecision(
                "disqualification",
                motion.rule or "CL-23",
                club_id=motion.club_id,
                decided_at=uow.now,
                motion_id=motion.id,
                note=motion.reason,
            ),
        )
        done = f"{clubs[motion.club_id]} is disqualified from {season.name}."
    else:  # correct-result
        assert motion.match_id is not None
        match = await uow.matches.get(motion.match_id)
        if match is None:
            raise _NotApplied(f"match {motion.match_id} no longer exists")
        boards = [
            BoardRecord(int(b[0]), b[1], b[2], int(b[3]), int(b[4]))
            for b in motion.subject["boards"]
        ]
        await uow.matches.replace_boards(match.id, boards)
        if match.finished_at is None:
            await uow.matches.finish(match.id, uow.now)
        await uow.decisions.record(
            season.id,
            NewDecision(
                "result-correction",
                "CL-14",
                match_id=match.id,
                decided_at=uow.now,
                motion_id=motion.id,
                note=motion.reason,
            ),
        )
        done = f"The result of match {match.id} is corrected ({len(boards)} boards)."
    after: LeagueReport = await _report(uow, season)
    return f"{done} {render.standings_change(before, after)}"


async def _exclude(uow: UnitOfWork, motion: Motion) -> str:
    """CL-4: the club is excluded by the one exclusion use case (`clubs.exclude_club_in`):
    in every season it plays that is not finished, the exclusion and a disqualification are
    recorded (none of its matches count); returns what changed in each season's standings."""
    assert motion.club_id is not None
    club = await uow.clubs.get(motion.club_id)
    if club is None or club.status not in ("pending", "approved"):
        raise _NotApplied("the club cannot be excluded any more")
    excluded = await exclude_club_in(uow, club.id, motion.id, motion.reason, None)
    changes = [
        f"{s.season.name}: {render.standings_change(s.before, s.after)}" for s in excluded.seasons
    ]
    return " ".join([f"{club.name} is excluded.", *changes])


async def _create_next_season(uow: UnitOfWork, motion: Motion) -> str:
    """CL-8: next season is created with the adopted divisions (the clubs still in the
    league), its rules copied from the season it follows."""
    previous = await _season(uow, motion.season_id)
    name = str(motion.subject["next_season"])
    if await uow.seasons.by_name(name) is not None:
        raise _NotApplied(f"a season named {name} exists already")
    season = await uow.seasons.create(name, previous.rules, created_by=None)
    placed = 0
    for division_name, clubs, min_players in motion.subject["divisions"]:
        division = await uow.seasons.add_division(season.id, division_name, int(min_players))
        for club_name in clubs:
            club = await uow.clubs.by_name(club_name)
            if club is None or club.status != "approved":
                continue
            await uow.seasons.add_club(season.id, division.id, club.id)
            placed += 1
    await uow.decisions.record(
        previous.id,
        NewDecision("division-makeup", "CL-8", decided_at=uow.now, motion_id=motion.id),
    )
    return f"Season {name} is created with {placed} clubs in the adopted divisions."


async def run_close_job(job: Job, uow: UnitOfWork) -> None:
    """The `vote.close` job, in its unit of work: close its motion at the deadline (the
    closing and the job's end commit together, so once; a motion closed meanwhile by its
    last vote is left alone)."""
    await close_motion_in(uow, int(job.payload["motion"]))
