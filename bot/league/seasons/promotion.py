"""The CL-8 promotion and relegation proposal of a season.

`/season promotion` and the division make-up motion share this one read. It comes from the standings
as at the CL-1 divisions cut-off once that day is over, else as at now, and says so. The withdrawn
clubs' places are freed, and ties across a line are left to the directors by CL-17. It says whether
the make-up may be put to the vote yet, which needs the season finished or past the cut-off.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from bot.league.references import find_season
from bot.league.seasons.phase import phase_of
from bot.league.store import StandingsCache, load_season
from core.league import LeagueReport, end_of_day, league_report
from core.league.lifecycle import SeasonPhase, makeup_problem
from core.league.promotion import Proposal, promotion_proposal
from storage.guild import GuildStore, GuildView
from storage.league.seasons import SeasonRecord


@dataclass(frozen=True)
class SeasonPromotion:
    """A season, its CL-8 proposal, the date of its standings, its phase, and why the motion cannot
    open yet.

    The date is None for the standings as at now. The reason is None when the make-up motion can
    open.
    """

    season: SeasonRecord
    proposal: Proposal
    as_of: dt.date | None
    phase: SeasonPhase
    not_yet: str | None


def standings_date(record: SeasonRecord, now: dt.datetime) -> dt.date | None:
    """CL-1: the cut-off date whose standings decide, once that day is over.

    Before that or without one it returns None, meaning the standings as at now, or the final ones
    once finished.
    """
    cutoff = record.rules.divisions_cutoff
    return cutoff if cutoff is not None and end_of_day(cutoff) <= now else None


async def _withdrawn(view: GuildView, record: SeasonRecord) -> list[str]:
    clubs = {c.id: c.name for c in await view.clubs.all()}
    return [clubs[m.club_id] for m in await view.seasons.members(record.id) if m.withdrawn]


def _proposal(
    record: SeasonRecord,
    report: LeagueReport,
    withdrawn: Sequence[str],
    order: Sequence[str],
) -> Proposal:
    return promotion_proposal(
        report.divisions, record.rules.promotion_places, withdrawn=withdrawn, order=order
    )


async def promotion_in(
    view: GuildView, record: SeasonRecord, now: dt.datetime, order: Sequence[str] = ()
) -> SeasonPromotion:
    """CL-8 inside a read or unit of work, as the make-up motion's check uses it.

    The proposal comes from the deciding standings and honours withdrawals and the directors' tie
    `order`.
    """
    season = await load_season(view, record)
    as_of = standings_date(record, now)
    report = league_report(season, as_of=as_of) if as_of else league_report(season, now=now)
    current = report if as_of is None else league_report(season, now=now)
    phase = await phase_of(view, record, now, current)
    proposal = _proposal(record, report, await _withdrawn(view, record), order)
    return SeasonPromotion(
        record, proposal, as_of, phase, makeup_problem(phase, record.rules.divisions_cutoff, now)
    )


async def season_promotion(
    store: GuildStore, standings: StandingsCache, season: str | int
) -> SeasonPromotion:
    """`/season promotion`: `promotion_in` from the cached standings."""
    now = store.database.clock()
    async with store.read() as view:
        record = await find_season(view.seasons, season)
        withdrawn = await _withdrawn(view, record)
    current = await standings.report(store, record, now=now)
    async with store.read() as view:
        phase = await phase_of(view, record, now, current)
    as_of = standings_date(record, now)
    report = current if as_of is None else await standings.report(store, record, as_of=as_of)
    return SeasonPromotion(
        record,
        _proposal(record, report, withdrawn, ()),
        as_of,
        phase,
        makeup_problem(phase, record.rules.divisions_cutoff, now),
    )
