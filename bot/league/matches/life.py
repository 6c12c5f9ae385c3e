"""The bot's door to the match life cycle in `core.league.lifecycle`.

Every command, job and motion action that changes a match asks `check_step` inside its unit of work,
on the facts as stored there and the unit's now. It gets the refusal as a `UserError`, or the notes
that its reply and announcement give, such as late or void.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.kernel.errors import UserError
from bot.league.references import find_season
from bot.league.store import load_division_facts
from core.league.forfeits import SeasonJudging
from core.league.lifecycle import (
    Allowed,
    MatchView,
    Party,
    Step,
    StepRefused,
    allow,
    match_view,
    void_clubs,
)
from core.league.season import Season
from storage.guild import GuildView, LeagueUnit
from storage.league.matches import MatchRecord
from storage.league.seasons import SeasonRecord


@dataclass(frozen=True)
class MatchNow:
    """A match as the life cycle sees it now: its season's record, its division's facts, the
    clubs of its division out by then (CL-DQ, with when), its view, and its division's
    judging."""

    record: SeasonRecord
    season: Season
    view: MatchView
    out: Mapping[str, dt.datetime]
    judging: SeasonJudging


async def match_now(
    view: GuildView | LeagueUnit,
    match: MatchRecord,
    now: dt.datetime,
    *,
    record: SeasonRecord | None = None,
) -> MatchNow:
    """The life cycle's view of `match` at `now`, from the facts stored in `view`.

    Only the match's division is read, without board rows, since CL-FF and CL-DQ judge its
    matches on that division's facts alone (`core.league.forfeits.division_facts`). `record`
    is the match's season as just read in `view`, when the caller has it.
    """
    if record is None:
        record = await find_season(view.seasons, match.season_id)
    reader = view.view() if isinstance(view, LeagueUnit) else view
    season = await load_division_facts(reader, record, match.division_id)
    judging = SeasonJudging(season)
    out = void_clubs(judging, now)
    shown = replace(match_view(season, match.key, now, out), name=f"#{match.id} ({match.key})")
    return MatchNow(record, season, shown, out, judging)


async def check_step(
    uow: LeagueUnit,
    match: MatchRecord,
    step: Step,
    party: Party,
    *,
    new_start: dt.datetime | None = None,
) -> Allowed:
    """Whether `party` may take `step` on `match` now (the unit of work's now): refused with
    the life cycle's reason as a `UserError`, else what it allows and notes."""
    current = await match_now(uow, match, uow.now)
    return allowed(current.view, step, party, new_start=new_start)


def allowed(
    view: MatchView, step: Step, party: Party, *, new_start: dt.datetime | None = None
) -> Allowed:
    """`core.league.lifecycle.allow`, with its refusal raised as a `UserError` sentence."""
    try:
        return allow(view, step, party, new_start=new_start)
    except StepRefused as refusal:
        raise UserError(f"{refusal}.") from None
