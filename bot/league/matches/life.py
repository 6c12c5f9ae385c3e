"""The bot's door to the match life cycle in `core.league.lifecycle`.

Every command, job and motion action that changes a match asks `check_step` inside its unit of work,
on the facts as stored there and the unit's now. It gets the refusal as a `UserError`, or the notes
that its reply and announcement give, such as late or void.
"""

from __future__ import annotations

import datetime as dt
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.app.errors import UserError
from bot.league.references import find_season
from bot.league.store import SeasonFacts, load_season_facts, with_match_changed
from core.league.forfeits import SeasonJudging
from core.league.lifecycle import (
    Allowed,
    Door,
    MatchView,
    Step,
    StepRefused,
    allow,
    match_view,
    void_clubs,
)
from core.league.season import Season
from storage.guild import GuildView, UnitOfWork
from storage.matches import MatchRecord
from storage.seasons import SeasonRecord


@dataclass(frozen=True)
class MatchNow:
    """A match as the life cycle sees it now.

    It holds its season's record and facts, the clubs out of the season by then by CL-DQ with when,
    its view and the season's judging. The judging is kept with the facts, so judging again at
    another instant or after one match changed is cheap.
    """

    record: SeasonRecord
    season: Season
    view: MatchView
    out: Mapping[str, dt.datetime]
    facts: SeasonFacts
    judging: SeasonJudging
    version: int | None
    """The committed season version the facts are of (None: read with a unit of work's
    changes not yet committed)."""


@dataclass(frozen=True)
class Judged:
    """A season's facts and their judging, as kept by committed version."""

    facts: SeasonFacts
    judging: SeasonJudging


_KEPT = 16
"""Seasons kept per connection (the newest read)."""
_FACTS: weakref.WeakKeyDictionary[object, OrderedDict[tuple[int, int, int, bool], Judged]] = (
    weakref.WeakKeyDictionary()
)
"""The committed facts of recently judged seasons, by what they were read through and (guild,
season, version, full): a season that has not changed since costs one version lookup. A unit
of work that changed the season reads it afresh (its changes are not committed yet), or
makes the one match's change it made in them (`after_match_change`), kept once it commits."""


def _keep(reads: object, key: tuple[int, int, int, bool], judged: Judged) -> None:
    """Keep `judged` under `key` for what reads through `reads` (the newest `_KEPT`)."""
    kept = _FACTS.setdefault(reads, OrderedDict())
    kept[key] = judged
    kept.move_to_end(key)
    while len(kept) > _KEPT:
        kept.popitem(last=False)


async def _judged(
    view: GuildView | UnitOfWork, record: SeasonRecord, full: bool
) -> tuple[Judged, int | None]:
    """The season's facts as `load_season` reads them and their judging, kept by committed
    version (`record`'s, read in `view`), and that version (None: not committed yet)."""
    reader = view.view() if isinstance(view, UnitOfWork) else view
    if isinstance(view, UnitOfWork) and record.id in view.bumped_seasons:
        facts = await load_season_facts(reader, record, for_judging=not full)
        return Judged(facts, SeasonJudging(facts.season)), None
    key = (record.guild_id, record.id, record.version, full)
    kept = _FACTS.get(view.reads)
    judged = None if kept is None else kept.get(key)
    if judged is None:
        facts = await load_season_facts(reader, record, for_judging=not full)
        judged = Judged(facts, SeasonJudging(facts.season))
    _keep(view.reads, key, judged)
    return judged, record.version


async def match_now(
    view: GuildView | UnitOfWork,
    match: MatchRecord,
    now: dt.datetime,
    *,
    full: bool = False,
    record: SeasonRecord | None = None,
) -> MatchNow:
    """The life cycle's view of `match` at `now`, from the facts stored in `view`.

    The facts are read as judging needs them, with no board row, or in `full` when the caller also
    scores the season from them. Its `season` then serves a league report. `record` is the match's
    season as just read in `view`, when the caller has it.
    """
    if record is None:
        record = await find_season(view.seasons, match.season_id)
    judged, version = await _judged(view, record, full)
    return _now_of(record, judged, version, match, now)


def _now_of(
    record: SeasonRecord, judged: Judged, version: int | None, match: MatchRecord, now: dt.datetime
) -> MatchNow:
    """`match` as the life cycle sees it at `now` in the judged facts of `version`."""
    season = judged.facts.season
    out = void_clubs(judged.judging, now)
    shown = replace(match_view(season, match.key, now, out), name=f"#{match.id} ({match.key})")
    return MatchNow(record, season, shown, out, judged.facts, judged.judging, version)


def after_match_change(
    uow: UnitOfWork,
    before: MatchNow,
    match: MatchRecord,
    *,
    boards: int,
    fielded: Mapping[int, int] | None = None,
) -> Judged:
    """The match's season as this unit of work leaves it, when the unit changed `match`'s own
    rows alone since `before` was read in it — its finish (`match`), its `boards` and the
    players its clubs fielded (`fielded`, club id → players); no other match, decision, club
    or closed account: `before`'s judging facts with that change made (nothing read again,
    `with_match_changed`) and that match judged again by itself — not the whole season. When
    `before` was of a committed version, they are kept, once the unit commits, for the next
    one (the unit bumps it once, and units of one guild run one after the other:
    `Database.serialising`) — unless the unit changed the season again after this
    (`UnitOfWork.season_changes`)."""
    if before.record.id not in uow.bumped_seasons:
        raise ValueError("after_match_change follows a change to the match")
    facts = with_match_changed(before.facts, match, boards, fielded or {})
    judged = Judged(facts, before.judging.with_match(facts.season, match.key))
    if before.version is not None:
        season_id = before.record.id
        key = (before.record.guild_id, season_id, before.version + 1, False)
        reads, changes = uow.reads, uow.season_changes(season_id)

        def keep() -> None:  # unless the unit changed the season again after this
            if uow.season_changes(season_id) == changes:
                _keep(reads, key, judged)

        uow.after_commit(keep)
    return judged


async def check_step(
    uow: UnitOfWork,
    match: MatchRecord,
    step: Step,
    door: Door,
    *,
    new_start: dt.datetime | None = None,
) -> Allowed:
    """Whether `door` may take `step` on `match` at the unit of work's now.

    A refusal raises the life cycle's reason as a `UserError`. Otherwise it returns what the life
    cycle allows and notes.
    """
    current = await match_now(uow, match, uow.now)
    return allowed(current.view, step, door, new_start=new_start)


def allowed(
    view: MatchView, step: Step, door: Door, *, new_start: dt.datetime | None = None
) -> Allowed:
    """`core.league.lifecycle.allow`, with its refusal raised as a `UserError` sentence."""
    try:
        return allow(view, step, door, new_start=new_start)
    except StepRefused as refusal:
        raise UserError(f"{refusal}.") from None
