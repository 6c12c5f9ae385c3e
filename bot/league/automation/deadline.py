"""CL-15 at the challenge deadline, judged from the facts as they stood then.

Core derives the forfeits and none is stored. CL-DQ is checked through the league report. The
forfeits, the disqualifications and the ranks that moved are announced, and a disqualified club's
matches are void for everyone. The admins of the clubs concerned who want it are told by direct
message. This all happens in one unit of work with the job's completion, so
exactly once.
"""

from __future__ import annotations

import logging

from bot.league.automation.judgement import (
    disqualification_lines,
    judge_at,
    rank_changes,
    reports_at,
    tell_judged,
)
from bot.league.automation.match_facts import match_facts, match_id_of, same_instant
from bot.league.matches.life import match_now
from bot.league.notices import ClubAdmins
from bot.league.store import load_season
from bot.rendering.league import announcements, notices
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from storage.guild import LeagueUnit
from storage.shared.jobs import Job

log = logging.getLogger(__name__)

LATE = 60
"""Seconds after the deadline from which a judgement says it was made at start-up."""


def deadline_handler() -> JobHandler:
    """The handler of `cl.deadline` jobs, run in the job's unit of work.

    The match is judged on its division's judging alone. Standings are computed only for a
    forfeit, to say which ranks moved.
    """

    async def judge(job: Job, uow: LeagueUnit) -> None:
        facts = await match_facts(uow, match_id_of(job.payload))
        if facts is None or not same_instant(job.due_at, facts.deadline):
            uow.abandon()  # gone, or rescheduled: its moved job judges it
            return
        current = await match_now(uow, facts.match, uow.now, record=facts.season)
        judged = judge_at(current.judging, facts.match.key, facts.deadline)
        losers = judged.losers()
        uow.details["judged_at"] = facts.deadline.isoformat()
        uow.details["forfeits"] = [(b.club, b.rule) for b in judged.forfeits]
        uow.details["disqualified"] = [q.club for q in judged.disqualified]
        if judged.void:
            uow.details["outcome"] = "void: a club was disqualified before the deadline"
            return
        if not losers:
            uow.details["outcome"] = "challenge accepted in time"
            return
        reports = reports_at(await load_season(uow.view(), facts.season), facts.deadline)
        # The table changed without a fact written. The season's version moves, so its pins
        # are edited and cached standings recomputed.
        await uow.seasons.bump(facts.season.id)
        late = (uow.now - facts.deadline).total_seconds() > LATE
        lines = [
            announcements.deadline_forfeits(
                facts.home.name, facts.away.name, losers, facts.deadline, late
            ),
            *disqualification_lines(judged, current.season),
            *rank_changes(reports, {facts.home.name, facts.away.name}),
        ]
        uow.details["outcome"] = "forfeit"
        await announce(uow, "\n".join(lines))
        home, away, match = facts.home, facts.away, facts.match

        def forfeit_text(club: str, rules: list[str]) -> str:
            return notices.deadline_forfeit(club, home.name, away.name, match.id, facts.deadline)

        clubs = {home.name: home.id, away.name: away.id}
        await tell_judged(uow, ClubAdmins(uow), judged, clubs, forfeit_text)

    return judge
