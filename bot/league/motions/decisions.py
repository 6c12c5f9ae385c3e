"""Director decisions (CL-23) recorded on their own: forfeits, disqualifications, result
corrections, exclusions and division make-up as facts of a season, by the system or by a
director naming the passed motion (no role bypasses the vote). A motion that passes records
its decision in its own closing unit of work (`motions._apply`, `clubs.exclude_club_in`),
after its subject was checked when it opened; this is the door for anything else."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.app.actor import Actor, Role
from bot.app.errors import UserError
from bot.app.inputs import NOTE_LIMIT, clean_text, named, optional_text, positive_id
from bot.league.references import find_club, find_match, find_season
from bot.rendering import announcements
from bot.runtime.announce import announce
from storage.decisions import DecisionKind, NewDecision
from storage.guild import GuildStore
from storage.motions import Motion, MotionKind, MotionReader

KINDS: tuple[DecisionKind, ...] = (
    "forfeit",
    "disqualification",
    "result-correction",
    "exclusion",
    "division-makeup",
)
RULES = ("CL-4", "CL-8", "CL-14", "CL-15", "CL-18", "CL-20", "CL-21", "CL-23", "CL-DQ")


@dataclass(frozen=True)
class DecisionRecorded:
    """A director decision stored."""

    decision_id: int
    season_id: int
    kind: DecisionKind
    rule: str
    match_id: int | None
    club_id: int | None
    motion_id: int | None


MOTION_KINDS: dict[DecisionKind, MotionKind] = {
    "forfeit": "forfeit",
    "disqualification": "disqualify",
    "result-correction": "correct-result",
    "exclusion": "exclude-club",
    "division-makeup": "division-makeup",
}
"""The motion kind that decides each kind of director decision (CL-23)."""


async def passed_motion(motions: MotionReader, motion_id: int, kind: DecisionKind) -> Motion:
    """CL-23: the passed motion `motion_id` of this guild that decides a `kind` decision;
    refused if there is none, it did not pass, or it is of another kind."""
    found = await motions.get(motion_id)
    if found is None:
        raise UserError(f"No motion {motion_id} on this server.")
    if found.status != "passed":
        raise UserError(f"Motion {motion_id} is {found.status}: only a passed motion decides.")
    wanted = MOTION_KINDS[kind]
    if found.kind != wanted:
        raise UserError(
            f"Motion {motion_id} is a {found.kind} motion: a {kind} needs a {wanted} motion."
        )
    return found


async def record_decision(
    store: GuildStore,
    actor: Actor,
    season: str | int,
    kind: str,
    rule: str,
    *,
    match_id: int | None = None,
    club: str | int | None = None,
    motion_id: int | None = None,
    decided_at: dt.datetime | None = None,
    note: str | None = None,
) -> DecisionRecorded:
    """CL-23: record a director decision of a season: the system, or a director with the
    motion that passed it. A forfeit names a match and a club playing it; a disqualification
    or exclusion a club; a result correction a match (of this season)."""
    actor.require(Role.DIRECTOR)
    if not actor.is_system and motion_id is None:
        raise UserError("A director decision needs the passed motion that decided it (CL-23).")
    motion = None if motion_id is None else positive_id(motion_id, "The motion")
    if kind not in KINDS:
        raise UserError(f"The kind is one of {', '.join(KINDS)}.")
    decision_kind: DecisionKind = kind
    rule_id = clean_text(rule, "rule", 20).upper()
    if rule_id not in RULES:
        raise UserError(f"The rule is one of {', '.join(RULES)}.")
    text = optional_text(note, "note", NOTE_LIMIT)
    if decided_at is not None and decided_at.tzinfo is None:
        raise UserError("The decision instant needs a time zone.")
    if kind == "forfeit" and (match_id is None or club is None):
        raise UserError("A forfeit names the match and the club.")
    if kind in ("disqualification", "exclusion") and club is None:
        raise UserError(f"A {kind} names the club.")
    if kind == "result-correction" and match_id is None:
        raise UserError("A result correction names the match.")
    async with store.read() as view:
        season_id = (await find_season(view.seasons, season)).id
    async with store.change(actor.user_id, f"decision.{kind}", f"season:{season_id}") as uow:
        record = await find_season(uow.seasons, season_id)
        if motion is not None:
            await passed_motion(uow.motions, motion, decision_kind)
        match = None if match_id is None else await find_match(uow.matches, match_id, record)
        club_id = None if club is None else (await find_club(uow.clubs, club)).id
        if match is not None and club_id is not None:
            if club_id not in (match.home_club_id, match.away_club_id):
                raise UserError(f"That club does not play match {match.id}.")
        elif club_id is not None and not any(
            m.club_id == club_id for m in await uow.seasons.members(record.id)
        ):
            raise UserError(f"That club does not play in season {named(record.name)}.")
        decision = NewDecision(
            decision_kind,
            rule_id,
            match_id=None if match is None else match.id,
            club_id=club_id,
            decided_at=decided_at,
            motion_id=motion,
            note=text,
        )
        decision_id = await uow.decisions.record(record.id, decision)
        subject = f"match {match.id}" if match else (f"club {club_id}" if club_id else record.name)
        await announce(uow, announcements.decision_recorded(kind, subject, rule_id, motion))
    return DecisionRecorded(
        decision_id,
        season_id,
        decision_kind,
        rule_id,
        decision.match_id,
        club_id,
        motion,
    )
