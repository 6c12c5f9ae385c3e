"""CL-15 at the challenge deadline, judged from the facts as they stood then.

Core derives the forfeits and none is stored. CL-DQ is checked through the league report. The
forfeits, the disqualifications and the ranks that moved are announced, and a disqualified club's
matches are void for everyone. This all happens in one unit of work with the job's completion, so
exactly once.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import OrderedDict

from bot.league.automation.judgement import (
    Reports,
    disqualification_lines,
    judge_at,
    rank_changes,
    reports_at,
)
from bot.league.automation.match_facts import match_facts, match_id_of, same_instant
from bot.league.store import load_season
from bot.rendering.league import announcements
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from core.league.season import Season
from storage.guild import LeagueUnit
from storage.shared.jobs import Job

log = logging.getLogger(__name__)

LATE = 60
"""Seconds after the deadline from which a judgement says it was made at start-up."""


JUDGED_KEPT = 8
"""How many judgements a handler keeps for the next jobs, keyed by season version and deadline."""

_Key = tuple[int, int, int, dt.datetime]


def deadline_handler() -> JobHandler:
    """The handler of `cl.deadline` jobs, run in the job's unit of work.

    The matches of a round share their deadline, and judging one writes nothing to the season. The
    season and its two reports are thus computed once per season version and deadline, and reused.
    """
    kept: OrderedDict[_Key, tuple[Season, Reports]] = OrderedDict()

    async def judge(job: Job, uow: LeagueUnit) -> None:
        facts = await match_facts(uow, match_id_of(job.payload))
        if facts is None or not same_instant(job.due_at, facts.deadline):
            uow.abandon()  # gone, or rescheduled: its moved job judges it
            return
        # the version read before this unit of work changes anything: the committed facts'
        key = (uow.guild_id, facts.season.id, facts.season.version, facts.deadline)
        if key in kept:
            kept.move_to_end(key)
            season, reports = kept[key]
        else:
            season = await load_season(uow.view(), facts.season)
            reports = reports_at(season, facts.deadline)
            kept[key] = (season, reports)
            while len(kept) > JUDGED_KEPT:
                kept.popitem(last=False)
        judged = judge_at(season, facts.match.key, facts.deadline, reports)
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
        # The table changed without a fact written. The season's version moves, so its pins
        # are edited and cached standings recomputed. The judgement cached for the round's
        # other matches stays valid because the facts did not change, so it moves with it.
        await uow.seasons.bump(facts.season.id)
        kept.pop(key, None)
        guild, season_id, version, instant = key
        kept[(guild, season_id, version + 1, instant)] = (season, reports)
        late = (uow.now - facts.deadline).total_seconds() > LATE
        lines = [
            announcements.deadline_forfeits(
                facts.home.name, facts.away.name, losers, facts.deadline, late
            ),
            *disqualification_lines(judged, season),
            *rank_changes(judged, {facts.home.name, facts.away.name}),
        ]
        uow.details["outcome"] = "forfeit"
        await announce(uow, "\n".join(lines))

    return judge
