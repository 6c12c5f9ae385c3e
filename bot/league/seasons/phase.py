"""A season's phase in its life cycle, and the season a command without a `season` option means.

The phase is a `core.league.lifecycle.SeasonPhase` read from what is stored. For a club the season
meant is its running one. It is never a closed one, nor a newer one being set up while the club's
season still runs.
"""

from __future__ import annotations

import datetime as dt

from bot.league.matches.jobs import deadline_of
from bot.league.store import load_season
from core.league import LeagueReport, league_report
from core.league.lifecycle import PREFERRED, SeasonPhase, season_phase
from storage.guild import GuildView
from storage.league.seasons import SeasonRecord


async def phase_of(
    view: GuildView, record: SeasonRecord, now: dt.datetime, report: LeagueReport | None = None
) -> SeasonPhase:
    """CL-1 and CL-8: the season's phase at `now`. `report` is its league as at now, when known."""
    if record.closed:
        return SeasonPhase.CLOSED
    matches = await view.matches.of_season(record.id)
    if not matches:
        return SeasonPhase.SETUP
    if report is None:
        report = league_report(await load_season(view, record), now=now)
    hours = record.rules.challenge_deadline_hours
    return season_phase(
        scheduled=True,
        closed=False,
        deadlines=[deadline_of(m.start, hours, m.deadline_at) for m in matches],
        complete=report.complete,
        now=now,
    )


async def club_current_season(
    view: GuildView, club_id: int, now: dt.datetime
) -> tuple[SeasonRecord, SeasonPhase] | None:
    """The season a club's command without `season` is about.

    It is the club's running season, else its next to start, else the one just finished with its
    make-up not adopted, else one being set up, newest first within each. Returns None if the club
    plays in no season that is not closed.
    """
    found: list[tuple[int, int, SeasonRecord, SeasonPhase]] = []
    for record in await view.seasons.all():
        if record.closed:
            continue
        if not any(m.club_id == club_id for m in await view.seasons.members(record.id)):
            continue
        phase = await phase_of(view, record, now)
        found.append((PREFERRED.index(phase), -record.id, record, phase))
    if not found:
        return None
    _, _, record, phase = min(found, key=lambda entry: entry[:2])
    return record, phase
