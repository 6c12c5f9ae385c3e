"""The bot's door to the match life cycle (`core.league.lifecycle`): every command, job and
motion action that changes a match asks `check_step` inside its unit of work — on the facts
as stored there and the unit's now — and gets the refusal as a `UserError`, or the notes
(late, void) its reply and announcement give."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from bot.app.errors import UserError
from bot.league.references import find_season
from bot.league.store import load_season
from core.league.lifecycle import (
    Allowed,
    Door,
    MatchView,
    Step,
    StepRefused,
    allow,
    match_view,
)
from core.league.season import Season
from storage.guild import GuildView, UnitOfWork
from storage.matches import MatchRecord
from storage.seasons import SeasonRecord


@dataclass(frozen=True)
class MatchNow:
    """A match as the life cycle sees it now: its season's record and facts, and its view."""

    record: SeasonRecord
    season: Season
    view: MatchView


async def match_now(view: GuildView | UnitOfWork, match: MatchRecord, now: dt.datetime) -> MatchNow:
    """The life cycle's view of `match` at `now`, from the facts stored in `view`."""
    record = await find_season(view.seasons, match.season_id)
    facts = view.view() if isinstance(view, UnitOfWork) else view
    season = await load_season(facts, record)
    seen = replace(match_view(season, match.key, now), name=f"#{match.id} ({match.key})")
    return MatchNow(record, season, seen)


async def check_step(
    uow: UnitOfWork,
    match: MatchRecord,
    step: Step,
    door: Door,
    *,
    new_start: dt.datetime | None = None,
) -> Allowed:
    """Whether `door` may take `step` on `match` now (the unit of work's now): refused with
    the life cycle's reason as a `UserError`, else what it allows and notes."""
    current = await match_now(uow, match, uow.now)
    return allowed(current.view, step, door, new_start=new_start)


def allowed(
    view: MatchView, step: Step, door: Door, *, new_start: dt.datetime | None = None
) -> Allowed:
    """`core.league.lifecycle.allow`, its refusal as a `UserError` (a sentence)."""
    try:
        return allow(view, step, door, new_start=new_start)
    except StepRefused as refusal:
        raise UserError(f"{refusal}.") from None
