"""What each kind of director motion does by CL-23, one class per kind.

`check` reads what the motion is about when it opens and returns its typed subject. It refuses when
the action could not be applied. `apply` carries a passed motion out in the closing unit of work, as
director decision facts naming the motion, and returns what was done with the standings' change.
Adding a kind is one class here and its `MotionKind`.
"""

from __future__ import annotations

import datetime as dt
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

from bot.kernel.errors import UserError
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, shown
from bot.kernel.notifications import Kind
from bot.league.clubs.service import exclude_club_in
from bot.league.matches.boards import board_records
from bot.league.matches.life import allowed, check_step, match_now
from bot.league.matches.service import reschedule_in
from bot.league.matches.starts import parse_local_instant, start_in_window
from bot.league.motions.subjects import (
    Correction,
    Makeup,
    MotionRequest,
    NextDivision,
    NotApplied,
    Outcome,
    Subject,
)
from bot.league.notices import ClubAdmins, tell_admins
from bot.league.references import find_club, find_match, find_season
from bot.league.seasons.promotion import promotion_in
from bot.league.store import load_season
from bot.rendering.league import motions as render
from bot.rendering.league import notices
from core.league import LeagueReport, league_report
from core.league.lifecycle import Party, Step, moved_deadline
from core.league.promotion import TIE_STANDS
from core.votes import MotionKind
from storage.guild import LeagueUnit
from storage.league.decisions import DecisionKind, NewDecision
from storage.league.matches import MatchRecord
from storage.league.motions import Motion
from storage.league.seasons import SeasonRecord

DISQUALIFY_RULES = ("CL-15", "CL-18", "CL-20", "CL-21", "CL-23", "CL-DQ")
"""The rules a director disqualification may name, which are those the season file can carry."""
FORFEIT_RULE = "CL-21"
"""CL-FF: a CL-21 director forfeit can be added to any match, and it counts towards CL-21's
counter.
"""


async def report_now(
    uow: LeagueUnit, season: SeasonRecord, as_of: dt.date | None = None
) -> LeagueReport:
    """The season's league as at `as_of`, else as at the unit of work's now."""
    loaded = await load_season(uow.view(), season)
    if as_of is not None:
        return league_report(loaded, as_of=as_of)
    return league_report(loaded, now=uow.now)


async def disqualified(uow: LeagueUnit, season: SeasonRecord, club: str) -> bool:
    """CL-DQ: whether `club` is out of `season` now."""
    report = await report_now(uow, season)
    return any(d.club == club for d in report.disqualified)


async def _refuse_disqualified(uow: LeagueUnit, season: SeasonRecord, club: str) -> None:
    """Refuses a motion about a club that is out of the season already by CL-DQ."""
    if await disqualified(uow, season, club):
        raise UserError(f"{named(club)} is already disqualified in {named(season.name)}.")


async def _changed(
    uow: LeagueUnit, season: SeasonRecord, before: LeagueReport, done: str
) -> Outcome:
    """What a passed motion did, followed by how the season's standings changed."""
    after = await report_now(uow, season)
    return Outcome(f"{done} {render.standings_change(before, after)}")


async def _season(uow: LeagueUnit, season_id: int | None) -> SeasonRecord:
    season = None if season_id is None else await uow.seasons.get(season_id)
    if season is None:
        raise NotApplied("its season no longer exists")
    return season


async def _club_still_in(uow: LeagueUnit, season: SeasonRecord, motion: Motion) -> str:
    """The name of the motion's club, which must not have been disqualified since the motion
    opened."""
    assert motion.club_id is not None
    club = await uow.clubs.get(motion.club_id)
    assert club is not None
    if await disqualified(uow, season, club.name):
        raise NotApplied(f"{club.name} is disqualified already")
    return club.name


async def _decide(
    uow: LeagueUnit,
    season: SeasonRecord,
    motion: Motion,
    kind: DecisionKind,
    rule: str,
    match_id: int | None = None,
) -> None:
    """Record the passed motion's decision about its club, effective now: CL-DQ judges
    decisions in time order, from when they were made."""
    decision = NewDecision(
        kind,
        rule,
        match_id=match_id,
        club_id=motion.club_id,
        decided_at=uow.now,
        motion_id=motion.id,
        note=motion.reason,
    )
    await uow.decisions.record(season.id, decision)


async def _names(uow: LeagueUnit, match: MatchRecord) -> tuple[str, str]:
    """The names of the match's home and away clubs."""
    home, away = await uow.clubs.pair(match.home_club_id, match.away_club_id)
    return (
        str(match.home_club_id) if home is None else home.name,
        str(match.away_club_id) if away is None else away.name,
    )


class MotionAction(ABC):
    """One kind of motion: what it checks when it opens and what it does once passed."""

    kind: ClassVar[MotionKind]

    @abstractmethod
    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """CL-23: what the motion is about.

        Raises `UserError` if its action could not be applied now.
        """

    @abstractmethod
    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """Carries the passed motion out in its closing unit of work. `NotApplied` says why not."""


async def _match_subject(
    uow: LeagueUnit, request: MotionRequest
) -> tuple[Any, SeasonRecord, dict[int, str], str]:
    """The match a motion names, its season, the guild's club names and its title."""
    if request.match_id is None:
        raise UserError(f"A {MotionKind(request.kind).value} motion names the match.")
    match = await find_match(uow.matches, request.match_id)
    season = await find_season(uow.seasons, match.season_id)
    clubs = {c.id: c.name for c in await uow.clubs.all()}
    home, away = clubs[match.home_club_id], clubs[match.away_club_id]
    title = f"match {match.id} ({home} – {away}, round {match.round}, {season.name})"
    return match, season, clubs, title


class Forfeit(MotionAction):
    """CL-21 and CL-FF: a club forfeits a match. A director forfeit counts towards CL-21's
    counter.
    """

    kind = MotionKind.FORFEIT

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The match and the club forfeiting it, which is a club of the match not disqualified."""
        match, season, _, title = await _match_subject(uow, request)
        if request.club is None:
            raise UserError("A forfeit motion names the club that forfeits.")
        club = await find_club(uow.clubs, request.club)
        if club.id not in (match.home_club_id, match.away_club_id):
            raise UserError(f"{named(club.name)} does not play match {match.id}.")
        await _refuse_disqualified(uow, season, club.name)
        await check_step(uow, match, Step.DIRECTOR_FORFEIT, Party.MOTION)  # not on a void match
        return Subject(
            f"{title}, {club.name}",
            f"{club.name} forfeits the match.",
            season.id,
            match.id,
            club.id,
            FORFEIT_RULE,
            season,
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """The forfeit recorded as a director decision with the motion's id."""
        season = await _season(uow, motion.season_id)
        before = await report_now(uow, season)
        club = await _club_still_in(uow, season, motion)
        assert motion.match_id is not None
        match = await uow.matches.get(motion.match_id)
        if match is None:
            raise NotApplied(f"match {motion.match_id} no longer exists")
        try:  # CL-DQ: a match void since the motion opened takes no director forfeit
            await check_step(uow, match, Step.DIRECTOR_FORFEIT, Party.MOTION)
        except UserError as refusal:
            raise NotApplied(refusal.message.rstrip(".")) from None
        rule = motion.rule or FORFEIT_RULE
        await _decide(uow, season, motion, "forfeit", rule, motion.match_id)
        home, away = await _names(uow, match)
        text = notices.director_forfeit(club, home, away, match.id, rule, motion.id)
        await tell_admins(uow, ClubAdmins(uow), Kind.FORFEIT, [motion.club_id or club], text)
        done = f"{club} forfeits match {motion.match_id}."
        return await _changed(uow, season, before, done)


class Disqualify(MotionAction):
    """CL-DQ, CL-18 and CL-23: a club is disqualified from a season, and none of its matches
    count.
    """

    kind = MotionKind.DISQUALIFY

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The season, the club and the rule. The club plays in the season and is not yet out."""
        if request.club is None:
            raise UserError("A disqualify motion names the club.")
        club = await find_club(uow.clubs, request.club)
        if request.season is None:
            raise UserError("A disqualify motion names the season.")
        season = await find_season(uow.seasons, request.season)
        rule = clean_text(request.rule or "", "rule", 20).upper()
        if rule not in DISQUALIFY_RULES:
            raise UserError(f"The rule is one of {', '.join(DISQUALIFY_RULES)}.")
        if not any(m.club_id == club.id for m in await uow.seasons.members(season.id)):
            raise UserError(f"{named(club.name)} does not play in season {named(season.name)}.")
        await _refuse_disqualified(uow, season, club.name)
        return Subject(
            f"{club.name} in {season.name} ({rule})",
            f"{club.name} is disqualified from {season.name}: none of its matches count (CL-DQ).",
            season.id,
            None,
            club.id,
            rule,
            season,
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """The disqualification recorded, effective now, with the motion's id."""
        season = await _season(uow, motion.season_id)
        before = await report_now(uow, season)
        club = await _club_still_in(uow, season, motion)
        rule = motion.rule or "CL-23"
        await _decide(uow, season, motion, "disqualification", rule)
        text = notices.disqualified(club, rule, motion.id)
        await tell_admins(uow, ClubAdmins(uow), Kind.FORFEIT, [motion.club_id or club], text)
        done = f"{club} is disqualified from {season.name}."
        return await _changed(uow, season, before, done)


class CorrectResult(MotionAction):
    """CL-14: a match's boards are replaced by the corrected ones."""

    kind = MotionKind.CORRECT_RESULT

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The match and its corrected boards, passed through the one board validator's checks."""
        match, season, _, title = await _match_subject(uow, request)
        boards = board_records(
            request.boards,
            season.rules.games_per_board,
            empty="A result correction needs the corrected boards (a boards CSV).",
        )
        shown_boards = ", ".join(
            f"{b.board}. {b.home_player}–{b.away_player} {b.home_half / 2:g}:{b.away_half / 2:g}"
            for b in boards[:10]
        )
        return Correction(
            title, f"Boards: {shown_boards}", season.id, match.id, None, "CL-14", season, boards
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """The boards replaced and the correction recorded with the motion's id.

        The match is finished now if it was not.
        """
        season = await _season(uow, motion.season_id)
        before = await report_now(uow, season)
        assert motion.match_id is not None
        match = await uow.matches.get(motion.match_id)
        if match is None:
            raise NotApplied(f"match {motion.match_id} no longer exists")
        boards = Correction.boards_of(motion)
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
        home, away = await _names(uow, match)
        text = notices.result_counted(
            home,
            away,
            match.id,
            sum(b.home_half for b in boards),
            sum(b.away_half for b in boards),
            f"corrected by motion {motion.id}",
        )
        clubs = [match.home_club_id, match.away_club_id]
        await tell_admins(uow, ClubAdmins(uow), Kind.MATCH_RESULT, clubs, text)
        done = f"The result of match {match.id} is corrected ({len(boards)} boards)."
        return await _changed(uow, season, before, done)


async def _playing_season(uow: LeagueUnit, club_id: int) -> SeasonRecord | None:
    """The newest season not closed that the club plays in, if any.

    Its exclusion acts there, and its CL-23 settings govern an exclude-club vote.
    """
    playing = [
        season
        for season in await uow.seasons.all()
        if not season.closed
        and any(m.club_id == club_id for m in await uow.seasons.members(season.id))
    ]
    return max(playing, key=lambda season: season.id, default=None)


class ExcludeClub(MotionAction):
    """CL-4: a club is excluded from the league and disqualified where it plays."""

    kind = MotionKind.EXCLUDE_CLUB

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The club, pending or approved."""
        if request.club is None:
            raise UserError("An exclude-club motion names the club.")
        club = await find_club(uow.clubs, request.club)
        if club.status not in ("pending", "approved"):
            raise UserError(f"Club {named(club.name)} is {club.status}: it cannot be excluded.")
        return Subject(
            club.name,
            f"{club.name} is excluded from the league.",
            None,
            None,
            club.id,
            "CL-4",
            await _playing_season(uow, club.id),
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """The one exclusion use case, `clubs.exclude_club_in`.

        The club is excluded, and in every season it plays that is not closed the exclusion and a
        disqualification are recorded.
        """
        assert motion.club_id is not None
        club = await uow.clubs.get(motion.club_id)
        if club is None or club.status not in ("pending", "approved"):
            raise NotApplied("the club cannot be excluded any more")
        excluded = await exclude_club_in(uow, club.id, motion.id, motion.reason, None)
        if excluded.seasons:  # disqualified where it plays (CL-DQ)
            text = notices.disqualified(club.name, "CL-23", motion.id)
            await tell_admins(uow, ClubAdmins(uow), Kind.FORFEIT, [club.id], text)
        changes = [
            f"{s.season.name}: {render.standings_change(s.before, s.after)}"
            for s in excluded.seasons
        ]
        return Outcome(" ".join([f"{club.name} is excluded.", *changes]))


def next_name(name: str) -> str:
    """A default name for next season: the last number in the name plus one, else `… (next)`."""
    found = list(re.finditer(r"\d+", name))
    if not found:
        return f"{name} (next)"[:NAME_LIMIT]
    last = found[-1]
    return (name[: last.start()] + str(int(last.group()) + 1) + name[last.end() :])[:NAME_LIMIT]


class DivisionMakeup(MotionAction):
    """CL-8: next season is created with the divisions proposed from this season's standings,
    and this season is closed."""

    kind = MotionKind.DIVISION_MAKEUP

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The proposal from the standings as at the cut-off once past, else now.

        It is made once per season and only when the season is finished or past its cut-off. Every
        tie across a line is decided by `tie_order` by CL-17. Next season's name must be free in the
        guild.
        """
        if request.season is None:
            raise UserError("A division make-up motion names the season it follows.")
        season = await find_season(uow.seasons, request.season)
        for earlier in await uow.motions.of_season(season.id, self.kind):
            if earlier.status in ("open", "passed"):
                raise UserError(
                    f"Season {named(season.name)}'s division make-up is motion {earlier.id}"
                    f" ({earlier.status}): it is put to the vote once."
                )
        name = clean_text(request.next_season or next_name(season.name), "season name", NAME_LIMIT)
        if await uow.seasons.by_name(name) is not None:
            raise UserError(f"A season named {shown(name)} exists already: name next season.")
        order = [clean_text(club, "club", NAME_LIMIT) for club in request.tie_order]
        found = await promotion_in(uow.view(), season, uow.now, order)
        if found.not_yet is not None:
            raise UserError(f"Season {named(season.name)} {found.not_yet} (CL-1, CL-8).")
        proposal = found.proposal
        if proposal.ties:
            tie = proposal.ties[0]
            clubs = ", ".join(named(c) for c in tie.clubs)
            raise UserError(
                f"CL-17: {clubs} share rank {tie.rank} of {named(tie.division)} across a"
                f" {'/'.join(tie.destinations)} line — {TIE_STANDS}: name their order, best"
                " first, in `tie_order`."
            )
        minimum = {d.name: d.min_players for d in await uow.seasons.divisions(season.id)}
        moves = "; ".join(f"{m.club} {m.from_division} → {m.to_division}" for m in proposal.moves)
        as_of = found.as_of
        details = (
            f"Creates season {name} with these divisions and closes {season.name}."
            f" Moves: {moves or 'none'}."
            + (f" Withdrawn: {', '.join(proposal.withdrawn)}." if proposal.withdrawn else "")
            + (
                f" Disqualified (CL-DQ), in no division: {', '.join(proposal.disqualified)}."
                " The directors decide their places."
                if proposal.disqualified
                else ""
            )
            + (f" Standings as at {as_of.isoformat()}." if as_of else " Final standings.")
            + (f" Ties decided by the directors: {', '.join(order)}." if order else "")
        )
        return Makeup(
            f"divisions of {name} (from {season.name})",
            details,
            season.id,
            None,
            None,
            "CL-8",
            season,
            name,
            tuple(NextDivision(n, tuple(c), minimum[n]) for n, c in proposal.divisions),
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """Next season created with the adopted divisions, holding the clubs still in the league.

        Its rules are copied from the season it follows.
        """
        previous = await _season(uow, motion.season_id)
        name, divisions = Makeup.of(motion)
        if previous.closed:
            raise NotApplied(f"{previous.name} is closed already")
        if await uow.seasons.by_name(name) is not None:
            raise NotApplied(f"a season named {name} exists already")
        season = await uow.seasons.create(name, previous.rules, created_by=None)
        placed = 0
        for division in divisions:
            row = await uow.seasons.add_division(season.id, division.name, division.min_players)
            for club_name in division.clubs:
                club = await uow.clubs.by_name(club_name)
                if club is None or club.status != "approved":
                    continue
                await uow.seasons.add_club(season.id, row.id, club.id)
                placed += 1
        await uow.decisions.record(
            previous.id,
            NewDecision("division-makeup", "CL-8", decided_at=uow.now, motion_id=motion.id),
        )
        await uow.seasons.close(previous.id)
        return Outcome(
            f"Season {name} is created with {placed} clubs in the adopted divisions;"
            f" {previous.name} is closed."
        )


@dataclass(frozen=True)
class Move(Subject):
    """CL-13, CL-15: a reschedule's subject: the match's new start."""

    start: dt.datetime | None = None

    def stored(self) -> dict[str, Any]:
        """The title, details and the new start in ISO 8601 UTC."""
        assert self.start is not None
        return {**super().stored(), "start": self.start.astimezone(dt.UTC).isoformat()}

    @staticmethod
    def start_of(motion: Motion) -> dt.datetime:
        """The new start a stored motion holds."""
        return dt.datetime.fromisoformat(str(motion.subject["start"]))


class Reschedule(MotionAction):
    """CL-13 and CL-15: a match moves after its challenge deadline, or to a start closer than the
    deadline's notice.

    A director alone may not do this, see `matches.service`. A judged deadline is kept, so the
    judgement stands. A notice that no longer fits leaves the clubs until the new start, as
    `core.league.lifecycle.moved_deadline` says.
    """

    kind = MotionKind.RESCHEDULE

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The match and its new start, a move the life cycle allows a passed motion.

        A typed start is read in the season's zone.
        """
        match, season, _, title = await _match_subject(uow, request)
        if request.start is None:
            raise UserError("A reschedule motion names the new start.")
        start = request.start
        if isinstance(start, str):
            start = parse_local_instant(start, "new start", season.rules.start_zone)
        if start.tzinfo is None:
            raise UserError("The new start needs a time zone.")
        start_in_window(start, "new start", uow.now)
        current = await match_now(uow, match, uow.now)
        allowed(current.view, Step.RESCHEDULE, Party.MOTION, new_start=start)
        fixed = moved_deadline(current.view, start)
        if fixed is None:
            deadline = "its challenge deadline moves with it (CL-15)"
        elif fixed == current.view.deadline:
            deadline = "its challenge deadline, already judged, stays as it was (CL-15)"
        else:
            deadline = "the challenge must then be issued and accepted before the new start"
        local = start.astimezone(ZoneInfo(season.rules.start_zone))
        return Move(
            title,
            f"Match {match.id} moves to {local:%Y-%m-%d %H:%M} {season.rules.start_zone}"
            f" ({start.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC); {deadline}.",
            season.id,
            match.id,
            None,
            "CL-13",
            season,
            start.astimezone(dt.UTC),
        )

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """The match moved with its jobs (`matches.service.reschedule_in`, party: a motion)."""
        season = await _season(uow, motion.season_id)
        assert motion.match_id is not None
        match = await uow.matches.get(motion.match_id)
        if match is None:
            raise NotApplied(f"match {motion.match_id} no longer exists")
        before = await report_now(uow, season)
        try:
            moved = await reschedule_in(uow, match, Move.start_of(motion), Party.MOTION)
        except UserError as refusal:
            raise NotApplied(refusal.message.rstrip(".")) from None
        done = (
            f"Match {match.id} now starts {moved.match.start:%Y-%m-%d %H:%M} UTC; challenge"
            f" deadline {moved.deadline:%Y-%m-%d %H:%M} UTC."
        )
        return await _changed(uow, season, before, done)


class Other(MotionAction):
    """Any other discretionary decision: recorded by its passing, nothing applied."""

    kind = MotionKind.OTHER

    async def check(self, uow: LeagueUnit, request: MotionRequest) -> Subject:
        """The reason is the subject."""
        return Subject(request.reason[:80])

    async def apply(self, uow: LeagueUnit, motion: Motion) -> Outcome:
        """Nothing to apply."""
        return Outcome("Decision recorded; nothing to apply.")


ACTIONS: Mapping[MotionKind, MotionAction] = {
    action.kind: action
    for action in (
        Forfeit(),
        Disqualify(),
        CorrectResult(),
        ExcludeClub(),
        DivisionMakeup(),
        Reschedule(),
        Other(),
    )
}
"""Every kind's action by kind, by CL-23."""


def action_of(kind: MotionKind | str) -> MotionAction:
    """The action of a kind given as its value, as in `/vote open kind:…`. An unknown kind is
    refused.
    """
    try:
        return ACTIONS[MotionKind(kind)]
    except ValueError:
        raise UserError(f"The kind is one of {', '.join(k.value for k in ACTIONS)}.") from None
