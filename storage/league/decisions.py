"""Director decisions of one guild's seasons by CL-23, each with the motion that passed it.

They are forfeits, disqualifications, result corrections, exclusions and division make-up.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal, cast

from storage.engine.codecs import from_text, instant_text, to_text
from storage.engine.scope import ReadScope, WriteScope
from storage.league.seasons import SeasonRepository

DecisionKind = Literal[
    "forfeit", "disqualification", "result-correction", "exclusion", "division-makeup"
]


@dataclass(frozen=True)
class NewDecision:
    """A decision to record. A `decided_at` of None means it takes effect at the match start."""

    kind: DecisionKind
    rule: str
    match_id: int | None = None
    club_id: int | None = None
    decided_at: dt.datetime | None = None
    motion_id: int | None = None
    note: str | None = None


@dataclass(frozen=True)
class Decision:
    """A recorded director decision."""

    id: int
    season_id: int
    kind: DecisionKind
    rule: str
    match_id: int | None
    club_id: int | None
    decided_at: dt.datetime | None
    motion_id: int | None
    note: str | None
    recorded_at: dt.datetime


class DecisionReader:
    """The director decisions of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def of_season(self, season_id: int, kind: DecisionKind | None = None) -> list[Decision]:
        """The season's decisions in the order recorded, only those of `kind` when it is given."""
        where, extra = "", cast(tuple[Any, ...], ())
        if kind is not None:
            where, extra = " AND kind = ?", (kind,)
        rows = await self._scope.fetchall(
            "SELECT id, season_id, kind, rule, match_id, club_id, decided_at, motion_id, note,"
            f" recorded_at FROM director_decisions WHERE guild_id = ? AND season_id = ?{where}"
            " ORDER BY id",
            (self._scope.guild_id, season_id, *extra),
        )
        return [
            Decision(
                r[0],
                r[1],
                cast(DecisionKind, r[2]),
                r[3],
                r[4],
                r[5],
                from_text(r[6]) if r[6] else None,
                r[7],
                r[8],
                from_text(r[9]),
            )
            for r in rows
        ]


class DecisionRepository(DecisionReader):
    """The director decisions of one guild, recorded inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self._seasons = SeasonRepository(scope)

    async def record(self, season_id: int, decision: NewDecision) -> int:
        """Records a decision of the season and returns its id. A forfeit's club must play its
        match.
        """
        scope = self._write
        await self._seasons.bump(season_id)
        new_id = await scope.insert(
            "INSERT INTO director_decisions (guild_id, season_id, kind, match_id, club_id, rule,"
            " decided_at, motion_id, note, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                season_id,
                decision.kind,
                decision.match_id,
                decision.club_id,
                decision.rule,
                instant_text(decision.decided_at) if decision.decided_at else None,
                decision.motion_id,
                decision.note,
                to_text(scope.now),
            ),
        )
        scope.record(
            "decisions", {"season": season_id, "kind": decision.kind, "rule": decision.rule}
        )
        return new_id
