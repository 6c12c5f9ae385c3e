"""Seasons of one guild by CL-1, CL-7 and CL-12.

A season holds rule values frozen at creation, the round calendar, divisions and their clubs, and
the version counter every change to the season bumps.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from core.league.season import SeasonRules, exact_percent
from storage.engine.codecs import day_or_none, from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope
from storage.league.clubs import name_key

SeasonStatus = Literal["setup", "scheduled", "finished"]


RULE_FIELDS = (
    "games_per_board",
    "challenge_deadline_hours",
    "max_members",
    "max_avg_rating",
    "forfeits_to_disqualify",
    "relegated",
    "vote_deadline_hours",
    "vote_quorum",
    "min_club_admins",
    "clubs_per_division",
    "start_zone",
)
"""The rule values stored as they are, one column each. The rest are converted below."""


@dataclass(frozen=True)
class SeasonRecord:
    """A season as stored: its rule values, calendar and `version`.

    The rule values are frozen at creation, as CCT-16 requires. The calendar is the first round
    with round days, or explicit dates. Every change to the season bumps `version`.
    """

    id: int
    guild_id: int
    name: str
    status: SeasonStatus
    rules: SeasonRules
    first_round: dt.date | None
    round_days: int
    round_dates: tuple[dt.date, ...] | None
    version: int
    created_by: int | None
    created_at: dt.datetime
    closed_at: dt.datetime | None = None
    """CL-8: when its division make-up was adopted and the season closed, or None when not
    closed.
    """

    @property
    def closed(self) -> bool:
        """Closed: its make-up adopted. Older versions stored such a season as 'finished' too."""
        return self.closed_at is not None or self.status == "finished"


@dataclass(frozen=True)
class DivisionRecord:
    """A division of a season. By CL-7 `position` 1 is the top division."""

    id: int
    season_id: int
    position: int
    name: str
    min_players: int


@dataclass(frozen=True)
class Membership:
    """A club's place in a season: its division, its pairing order there, and whether it withdrew.

    By CL-8 a club may withdraw from next season.
    """

    season_id: int
    division_id: int
    club_id: int
    position: int
    withdrawn: bool


_SEASON_COLUMNS = (
    "id, guild_id, name, status, divisions_cutoff, first_round, round_days, round_dates,"
    " version, created_by, created_at, promotion_places, start_time, reminder_hours,"
    " timeout_ratio_limit_percent, closed_at, " + ", ".join(RULE_FIELDS)
)


def _season(row: Row) -> SeasonRecord:
    dates = row["round_dates"]
    return SeasonRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        status=cast(SeasonStatus, row["status"]),
        rules=SeasonRules(
            **{name: row[name] for name in RULE_FIELDS},
            promoted=row["promotion_places"],
            divisions_cutoff=day_or_none(row["divisions_cutoff"]),
            start_time=dt.time.fromisoformat(row["start_time"]),
            reminder_hours=tuple(int(h) for h in json.loads(row["reminder_hours"])),
            timeout_ratio_limit_percent=exact_percent(row["timeout_ratio_limit_percent"]),
        ),
        first_round=day_or_none(row["first_round"]),
        round_days=row["round_days"],
        round_dates=None
        if dates is None
        else tuple(dt.date.fromisoformat(d) for d in json.loads(dates)),
        version=row["version"],
        created_by=row["created_by"],
        created_at=from_text(row["created_at"]),
        closed_at=None if row["closed_at"] is None else from_text(row["closed_at"]),
    )


class SeasonReader:
    """The seasons, divisions and memberships of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, season_id: int) -> SeasonRecord | None:
        """The season with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, season_id),
        )
        return None if row is None else _season(row)

    async def by_name(self, name: str) -> SeasonRecord | None:
        """The season of this name, compared case-insensitively, or None."""
        if not name.strip():
            return None
        row = await self._scope.fetchone(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND name_key = ?",
            (self._scope.guild_id, name_key(name)),
        )
        return None if row is None else _season(row)

    async def all(self) -> list[SeasonRecord]:
        """The guild's seasons, oldest first."""
        rows = await self._scope.fetchall(
            f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY id",
            (self._scope.guild_id,),
        )
        return [_season(row) for row in rows]

    async def version(self, season_id: int) -> int | None:
        """The season's version counter from one indexed lookup, or None if there is no season."""
        row = await self._scope.fetchone(
            "SELECT version FROM seasons WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, season_id),
        )
        return None if row is None else int(row[0])

    async def divisions(self, season_id: int) -> list[DivisionRecord]:
        """The season's divisions, top first."""
        rows = await self._scope.fetchall(
            "SELECT id, season_id, position, name, min_players FROM divisions"
            " WHERE guild_id = ? AND season_id = ? ORDER BY position",
            (self._scope.guild_id, season_id),
        )
        return [DivisionRecord(*row) for row in rows]

    async def members(self, season_id: int) -> list[Membership]:
        """Every club's place in the season, by division then pairing order."""
        rows = await self._scope.fetchall(
            "SELECT m.season_id, m.division_id, m.club_id, m.position, m.withdrawn"
            " FROM division_clubs AS m JOIN divisions AS d ON d.id = m.division_id"
            " WHERE m.guild_id = ? AND m.season_id = ? ORDER BY d.position, m.position",
            (self._scope.guild_id, season_id),
        )
        return [Membership(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]


class SeasonRepository(SeasonReader):
    """The seasons of one guild, changed inside a unit of work.

    Every change to a season bumps its version in the same transaction.
    """

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def bump(self, season_id: int) -> None:
        """Marks the season changed, so its cached standings are stale. Raises LookupError if there
        is no such season.

        The version goes up once per unit of work, at its first change.
        """
        scope = self._write
        if season_id in scope.bumped_seasons:
            return
        cursor = await scope.execute(
            "UPDATE seasons SET version = version + 1 WHERE guild_id = ? AND id = ?",
            (scope.guild_id, season_id),
        )
        if cursor.rowcount == 0:
            raise LookupError(f"no season {season_id} in this guild")
        scope.bumped_seasons.add(season_id)

    async def create(
        self,
        name: str,
        rules: SeasonRules,
        *,
        first_round: dt.date | None = None,
        round_days: int = 7,
        round_dates: Sequence[dt.date] | None = None,
        created_by: int | None = None,
    ) -> SeasonRecord:
        """A new season with its rule values frozen by CCT-16. A taken name raises
        IntegrityError.
        """
        scope = self._write
        season_id = await scope.insert(
            "INSERT INTO seasons (guild_id, name, name_key, divisions_cutoff, first_round,"
            " round_days, round_dates, version, created_by, created_at, promotion_places,"
            " start_time, reminder_hours, timeout_ratio_limit_percent, "
            + ", ".join(RULE_FIELDS)
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?"
            + ", ?" * len(RULE_FIELDS)
            + ")",
            (
                scope.guild_id,
                name.strip(),
                name_key(name),
                rules.divisions_cutoff.isoformat() if rules.divisions_cutoff else None,
                first_round.isoformat() if first_round else None,
                round_days,
                None if round_dates is None else json.dumps([d.isoformat() for d in round_dates]),
                created_by,
                to_text(scope.now),
                rules.promoted,
                rules.start_time.strftime("%H:%M"),
                json.dumps(list(rules.reminder_hours)),
                float(rules.timeout_ratio_limit_percent),
                *(getattr(rules, field) for field in RULE_FIELDS),
            ),
        )
        scope.record("seasons_created", {"season": season_id, "name": name})
        gone = scope.deleted_versions.get(season_id)
        if gone is not None:  # SQLite gave a deleted season's id again: count on from its
            await scope.execute(  # versions, so (id, version) never names two seasons' facts
                "UPDATE seasons SET version = ? WHERE guild_id = ? AND id = ?",
                (gone + 1, scope.guild_id, season_id),
            )
        season = await self.get(season_id)
        assert season is not None
        return season

    async def delete(self, season_id: int) -> bool:
        """Removes a season and every fact of it, such as divisions, matches, boards and
        decisions.
        """
        scope = self._write
        row = await scope.fetchone(
            "DELETE FROM seasons WHERE guild_id = ? AND id = ? RETURNING version",
            (scope.guild_id, season_id),
        )
        if row is None:
            return False
        scope.deleted_versions[season_id] = int(row[0])
        scope.record("seasons_deleted", {"season": season_id})
        return True

    async def set_status(self, season_id: int, status: SeasonStatus) -> None:
        """Moves the season to `status`: setup, then scheduled, then finished."""
        scope = self._write
        await self.bump(season_id)
        await scope.execute(
            "UPDATE seasons SET status = ? WHERE guild_id = ? AND id = ?",
            (status, scope.guild_id, season_id),
        )
        scope.record("seasons_status", {"season": season_id, "status": status})

    async def close(self, season_id: int) -> bool:
        """CL-8: the season is closed now, with its make-up adopted. Returns False if it was
        already.
        """
        scope = self._write
        await self.bump(season_id)
        cursor = await scope.execute(
            "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND id = ? AND closed_at IS NULL",
            (to_text(scope.now), scope.guild_id, season_id),
        )
        scope.record("seasons_closed", {"season": season_id})
        return cursor.rowcount > 0

    async def set_cutoff(self, season_id: int, cutoff: dt.date | None) -> None:
        """CL-1: the season's divisions cut-off date. None means the final standings decide."""
        scope = self._write
        await self.bump(season_id)
        await scope.execute(
            "UPDATE seasons SET divisions_cutoff = ? WHERE guild_id = ? AND id = ?",
            (None if cutoff is None else cutoff.isoformat(), scope.guild_id, season_id),
        )
        scope.record("seasons_cutoff", {"season": season_id})

    async def set_calendar(
        self,
        season_id: int,
        first_round: dt.date | None,
        round_days: int = 7,
        round_dates: Sequence[dt.date] | None = None,
    ) -> None:
        """Set the round calendar: first round + round days, or explicit dates."""
        scope = self._write
        await self.bump(season_id)
        await scope.execute(
            "UPDATE seasons SET first_round = ?, round_days = ?, round_dates = ?"
            " WHERE guild_id = ? AND id = ?",
            (
                first_round.isoformat() if first_round else None,
                round_days,
                None if round_dates is None else json.dumps([d.isoformat() for d in round_dates]),
                scope.guild_id,
                season_id,
            ),
        )

    async def add_division(self, season_id: int, name: str, min_players: int) -> DivisionRecord:
        """Add a division below the season's others."""
        scope = self._write
        await self.bump(season_id)
        division_id = await scope.insert(
            "INSERT INTO divisions (guild_id, season_id, position, name, min_players)"
            " SELECT ?, ?, coalesce(max(position), 0) + 1, ?, ? FROM divisions"
            " WHERE guild_id = ? AND season_id = ?",
            (scope.guild_id, season_id, name, min_players, scope.guild_id, season_id),
        )
        scope.record("divisions_added", {"season": season_id, "division": name})
        row = await self._scope.fetchone(
            "SELECT id, season_id, position, name, min_players FROM divisions"
            " WHERE guild_id = ? AND id = ?",
            (scope.guild_id, division_id),
        )
        assert row is not None
        return DivisionRecord(*row)

    async def add_club(self, season_id: int, division_id: int, club_id: int) -> Membership:
        """Puts a club in a division, last in its pairing order.

        A club already in a division of the season raises IntegrityError.
        """
        scope = self._write
        await self.bump(season_id)
        await scope.execute(
            "INSERT INTO division_clubs (guild_id, season_id, division_id, club_id, position)"
            " SELECT ?, ?, ?, ?, coalesce(max(position), 0) + 1 FROM division_clubs"
            " WHERE guild_id = ? AND division_id = ?",
            (scope.guild_id, season_id, division_id, club_id, scope.guild_id, division_id),
        )
        scope.record("division_clubs_added", {"division": division_id, "club": club_id})
        row = await self._scope.fetchone(
            "SELECT position FROM division_clubs WHERE guild_id = ? AND season_id = ?"
            " AND club_id = ?",
            (scope.guild_id, season_id, club_id),
        )
        assert row is not None
        return Membership(season_id, division_id, club_id, int(row[0]), False)

    async def remove_club(self, season_id: int, club_id: int) -> bool:
        """Takes a club out of the season's divisions. The database refuses it while it has
        matches there.
        """
        scope = self._write
        await self.bump(season_id)
        cursor = await scope.execute(
            "DELETE FROM division_clubs WHERE guild_id = ? AND season_id = ? AND club_id = ?",
            (scope.guild_id, season_id, club_id),
        )
        scope.record("division_clubs_removed", {"season": season_id, "club": club_id})
        return cursor.rowcount > 0

    async def set_withdrawn(self, season_id: int, club_id: int, withdrawn: bool = True) -> bool:
        """CL-8: marks a club of the season as not continuing next season."""
        scope = self._write
        await self.bump(season_id)
        cursor = await scope.execute(
            "UPDATE division_clubs SET withdrawn = ? WHERE guild_id = ? AND season_id = ?"
            " AND club_id = ?",
            (int(withdrawn), scope.guild_id, season_id, club_id),
        )
        scope.record("division_clubs_withdrawn", {"club": club_id, "withdrawn": withdrawn})
        return cursor.rowcount > 0
