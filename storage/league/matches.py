"""Matches of one guild's seasons by CL-12..15 and CL-20.

They hold fixtures, challenges and how each step was learned, at-start facts per club, and boards in
integer half-points by CL-14.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import cast

from storage.engine.codecs import from_text, instant_or_none, instant_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope
from storage.league.match_records import (
    AtStartRecord,
    BoardRecord,
    ChallengeRecord,
    MatchRecord,
    NewMatch,
    Source,
)
from storage.league.seasons import SeasonRepository

__all__ = [
    "AtStartRecord",
    "BoardRecord",
    "ChallengeRecord",
    "MatchReader",
    "MatchRecord",
    "MatchRepository",
    "NewMatch",
    "Source",
]

_MATCH_COLUMNS = (
    "id, season_id, division_id, key, round, home_club_id, away_club_id, start, finished_at,"
    " issued_by_club_id, issued_at, issued_source, accepted_at, accepted_source,"
    " chesscom_match_id, games_per_board, deadline_at"
)


def _in_division(alias: str, division_id: int | None) -> tuple[str, tuple[int, ...]]:
    """The filter on the division of the matches aliased `alias`, and its argument, when
    `division_id` is given."""
    if division_id is None:
        return "", ()
    return f" AND {alias}division_id = ?", (division_id,)


def _match(row: Row) -> MatchRecord:
    """A row of `_MATCH_COLUMNS`, read by position: a season's matches are read often."""
    (
        match_id,
        season_id,
        division_id,
        key,
        round_number,
        home_club_id,
        away_club_id,
        start,
        finished_at,
        issued_by,
        issued_at,
        issued_source,
        accepted_at,
        accepted_source,
        chesscom_match_id,
        games_per_board,
        deadline_at,
    ) = row
    challenge = None
    if issued_by is not None:
        challenge = ChallengeRecord(
            issued_by=issued_by,
            issued_at=from_text(issued_at),
            issued_source=cast("Source", issued_source),
            accepted_at=instant_or_none(accepted_at),
            accepted_source=cast("Source | None", accepted_source),
        )
    return MatchRecord(
        id=match_id,
        season_id=season_id,
        division_id=division_id,
        key=key,
        round=round_number,
        home_club_id=home_club_id,
        away_club_id=away_club_id,
        start=from_text(start),
        finished_at=instant_or_none(finished_at),
        challenge=challenge,
        chesscom_match_id=chesscom_match_id,
        games_per_board=games_per_board,
        deadline_at=instant_or_none(deadline_at),
    )


class MatchReader:
    """The matches, boards and at-start facts of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, match_id: int) -> MatchRecord | None:
        """The match with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, match_id),
        )
        return None if row is None else _match(row)

    async def by_key(self, season_id: int, key: str) -> MatchRecord | None:
        """The match of a season by its season-file id."""
        row = await self._scope.fetchone(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? AND season_id = ?"
            " AND key = ?",
            (self._scope.guild_id, season_id, key),
        )
        return None if row is None else _match(row)

    async def with_key(self, key: str) -> list[MatchRecord]:
        """The guild's matches whose season-file id is `key`, oldest season first.

        Keys are compared case-insensitively, and there is at most one per season.
        """
        rows = await self._scope.fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? AND upper(key) = upper(?)"
            " ORDER BY season_id",
            (self._scope.guild_id, key),
        )
        return [_match(row) for row in rows]

    async def with_chesscom(
        self, match_id: int, chesscom_match_id: int
    ) -> tuple[MatchRecord | None, MatchRecord | None]:
        """The match with this id and the fixture linked to that chess.com team match, in one query.

        The linked fixture is the same one, another, or None.
        """
        rows = await self._scope.fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ?"
            " AND (id = ? OR chesscom_match_id = ?)",
            (self._scope.guild_id, match_id, chesscom_match_id),
        )
        found = [_match(row) for row in rows]
        match = next((m for m in found if m.id == match_id), None)
        linked = next((m for m in found if m.chesscom_match_id == chesscom_match_id), None)
        return match, linked

    async def by_chesscom(self, chesscom_match_id: int) -> MatchRecord | None:
        """The fixture a chess.com team match was linked to."""
        row = await self._scope.fetchone(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? AND chesscom_match_id = ?",
            (self._scope.guild_id, chesscom_match_id),
        )
        return None if row is None else _match(row)

    async def of_season(self, season_id: int, division_id: int | None = None) -> list[MatchRecord]:
        """The season's matches by start, then id, only those of `division_id` when it is given."""
        where, extra = _in_division("", division_id)
        rows = await self._scope.fetchall(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? AND season_id = ?{where}"
            " ORDER BY start, id",
            (self._scope.guild_id, season_id, *extra),
        )
        return [_match(row) for row in rows]

    async def boards(self, match_id: int) -> list[BoardRecord]:
        """The match's boards by number."""
        rows = await self._scope.fetchall(
            "SELECT board, home_player, away_player, home_half, away_half FROM boards"
            " WHERE guild_id = ? AND match_id = ? ORDER BY board",
            (self._scope.guild_id, match_id),
        )
        return [BoardRecord(*row) for row in rows]

    async def plays_elsewhere(
        self, season_id: int, match_id: int, seats: Sequence[tuple[str, int]]
    ) -> bool:
        """CL-18: whether a player of `seats` plays for another club in another match of the season.

        `seats` pairs a chess.com username with the club they play for here. Names are compared
        case-insensitively.
        """
        if not seats:
            return False
        values = ", ".join("(?, CAST(? AS BIGINT))" for _ in seats)  # typed for PostgreSQL
        flat = [item for name, club in seats for item in (name.lower(), club)]
        guild = self._scope.guild_id
        side = (  # CROSS JOIN: SQLite keeps this order (by player, the boards_*_player indexes)
            " SELECT 1 FROM here CROSS JOIN boards AS b CROSS JOIN matches AS m"
            " WHERE lower(b.{0}_player) = here.name AND b.guild_id = ? AND m.id = b.match_id"
            " AND m.guild_id = b.guild_id AND m.season_id = ? AND m.id <> ?"
            " AND m.{0}_club_id <> here.club"
        )
        row = await self._scope.fetchone(
            f"WITH here (name, club) AS (VALUES {values})"
            + side.format("home")
            + " UNION ALL"
            + side.format("away")
            + " LIMIT 1",
            (*flat, guild, season_id, match_id, guild, season_id, match_id),
        )
        return row is not None

    async def board_counts(self, season_id: int, division_id: int | None = None) -> dict[int, int]:
        """How many boards each match of the season has, by match id, only in `division_id` when
        it is given.

        One query answers without reading any board row. Judging CL-20 by the boards needs this.
        """
        where, extra = _in_division("m.", division_id)
        rows = await self._scope.fetchall(
            "SELECT b.match_id, count(*) FROM matches AS m JOIN boards AS b ON b.match_id = m.id"
            f" WHERE m.guild_id = ? AND m.season_id = ? AND b.guild_id = m.guild_id{where}"
            " GROUP BY b.match_id",
            (self._scope.guild_id, season_id, *extra),
        )
        return {int(row[0]): int(row[1]) for row in rows}

    async def boards_of_season(self, season_id: int) -> dict[int, list[BoardRecord]]:
        """Every board of the season by match id, read in one query for the standings."""
        rows = await self._scope.fetchall(
            "SELECT b.match_id, b.board, b.home_player, b.away_player, b.home_half, b.away_half"
            " FROM matches AS m JOIN boards AS b ON b.match_id = m.id"
            " WHERE m.guild_id = ? AND m.season_id = ? AND b.guild_id = m.guild_id"
            " ORDER BY b.match_id, b.board",
            (self._scope.guild_id, season_id),
        )
        found: dict[int, list[BoardRecord]] = {}
        for row in rows:
            found.setdefault(row[0], []).append(BoardRecord(*row[1:]))
        return found

    async def at_start(self, match_id: int) -> list[AtStartRecord]:
        """The match's at-start facts, one per club that has them."""
        rows = await self._scope.fetchall(
            "SELECT club_id, members, avg_rating, players, observed_at FROM match_at_start"
            " WHERE guild_id = ? AND match_id = ? ORDER BY club_id",
            (self._scope.guild_id, match_id),
        )
        return [AtStartRecord(r[0], r[1], r[2], r[3], instant_or_none(r[4])) for r in rows]

    async def at_start_of_season(
        self, season_id: int, division_id: int | None = None
    ) -> dict[int, list[AtStartRecord]]:
        """Every at-start fact of the season by match id, only in `division_id` when it is given."""
        where, extra = _in_division("m.", division_id)
        rows = await self._scope.fetchall(
            "SELECT a.match_id, a.club_id, a.members, a.avg_rating, a.players, a.observed_at"
            " FROM matches AS m JOIN match_at_start AS a ON a.match_id = m.id"
            f" WHERE m.guild_id = ? AND m.season_id = ? AND a.guild_id = m.guild_id{where}"
            " ORDER BY a.match_id, a.club_id",
            (self._scope.guild_id, season_id, *extra),
        )
        found: dict[int, list[AtStartRecord]] = {}
        for r in rows:
            found.setdefault(r[0], []).append(
                AtStartRecord(r[1], r[2], r[3], r[4], instant_or_none(r[5]))
            )
        return found

    async def with_facts(self, season_id: int) -> list[int]:
        """The season's matches holding any fact beyond the fixture, by id.

        Such a fact is a challenge, a chess.com link, a finish, boards, at-start facts or a director
        decision.
        """
        rows = await self._scope.fetchall(
            "SELECT m.id FROM matches AS m WHERE m.guild_id = ? AND m.season_id = ? AND ("
            " m.issued_at IS NOT NULL OR m.chesscom_match_id IS NOT NULL"
            " OR m.finished_at IS NOT NULL"
            " OR EXISTS (SELECT 1 FROM boards AS b WHERE b.match_id = m.id)"
            " OR EXISTS (SELECT 1 FROM match_at_start AS a WHERE a.match_id = m.id)"
            " OR EXISTS (SELECT 1 FROM director_decisions AS d WHERE d.match_id = m.id))"
            " ORDER BY m.id",
            (self._scope.guild_id, season_id),
        )
        return [int(row[0]) for row in rows]


class MatchRepository(MatchReader):
    """The matches of one guild, changed inside a unit of work.

    Every change bumps the version of the match's season.
    """

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self._seasons = SeasonRepository(scope)

    async def _season_of(self, match_id: int) -> int:
        """The match's season, bumped. Raises LookupError if the guild has no such match."""
        row = await self._scope.fetchone(
            "SELECT season_id FROM matches WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, match_id),
        )
        if row is None:
            raise LookupError(f"no match {match_id} in this guild")
        season_id = int(row[0])
        await self._seasons.bump(season_id)
        return season_id

    async def _games_per_board(self, season_id: int) -> int:
        row = await self._scope.fetchone(
            "SELECT games_per_board FROM seasons WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, season_id),
        )
        if row is None:
            raise LookupError(f"no season {season_id} in this guild")
        return int(row[0])

    async def add_many(self, season_id: int, matches: Sequence[NewMatch]) -> list[int]:
        """Adds fixtures to a season and returns their ids in the same order.

        Both clubs must be in the match's division.
        """
        scope = self._write
        games = await self._games_per_board(season_id)
        await self._seasons.bump(season_id)
        ids = []
        for m in matches:
            c = m.challenge
            new_id = await scope.insert(
                "INSERT INTO matches (guild_id, season_id, division_id, key, round,"
                " home_club_id, away_club_id, start, games_per_board, chesscom_match_id,"
                " issued_by_club_id, issued_at, issued_source, accepted_at, accepted_source,"
                " finished_at, deadline_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    scope.guild_id,
                    season_id,
                    m.division_id,
                    m.key,
                    m.round,
                    m.home_club_id,
                    m.away_club_id,
                    instant_text(m.start),
                    games,
                    m.chesscom_match_id,
                    c.issued_by if c else None,
                    instant_text(c.issued_at) if c else None,
                    c.issued_source if c else None,
                    instant_text(c.accepted_at) if c and c.accepted_at else None,
                    c.accepted_source if c and c.accepted_at else None,
                    instant_text(m.finished_at) if m.finished_at else None,
                    instant_text(m.deadline_at) if m.deadline_at else None,
                ),
            )
            ids.append(new_id)
        scope.record("matches_added", {"season": season_id, "count": len(ids)})
        return ids

    async def add(self, season_id: int, match: NewMatch) -> MatchRecord:
        """Add one fixture to a season."""
        (match_id,) = await self.add_many(season_id, [match])
        record = await self.get(match_id)
        assert record is not None
        return record

    async def delete_of_season(self, season_id: int) -> list[int]:
        """Removes every fixture of the season and returns the ids removed.

        This is for a schedule made again before any fact.
        """
        scope = self._write
        await self._seasons.bump(season_id)
        rows = await self._scope.fetchall(
            "SELECT id FROM matches WHERE guild_id = ? AND season_id = ? ORDER BY id",
            (scope.guild_id, season_id),
        )
        await scope.execute(
            "DELETE FROM matches WHERE guild_id = ? AND season_id = ?", (scope.guild_id, season_id)
        )
        ids = [int(row[0]) for row in rows]
        scope.record("matches_deleted", {"season": season_id, "count": len(ids)})
        return ids

    async def reschedule(
        self, match_id: int, start: dt.datetime, deadline: dt.datetime | None = None
    ) -> None:
        """Moves a match's start and with it its CL-15 deadline.

        `deadline` is the match's own, fixed by a passed reschedule motion. None means the season's
        notice before the start.
        """
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "UPDATE matches SET start = ?, deadline_at = ? WHERE guild_id = ? AND id = ?",
            (
                instant_text(start),
                None if deadline is None else instant_text(deadline),
                scope.guild_id,
                match_id,
            ),
        )
        scope.record("matches_rescheduled", {"match": match_id, "start": instant_text(start)})

    async def link_chesscom(self, match_id: int, chesscom_match_id: int | None) -> None:
        """Links the fixture to a chess.com team match. Each chess.com match has one fixture."""
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "UPDATE matches SET chesscom_match_id = ? WHERE guild_id = ? AND id = ?",
            (chesscom_match_id, scope.guild_id, match_id),
        )
        scope.record("matches_linked", {"match": match_id, "chesscom": chesscom_match_id})

    async def issue_challenge(
        self, match_id: int, club_id: int, at: dt.datetime, source: Source
    ) -> None:
        """Records that `club_id` issued the challenge at `at`. This clears an acceptance."""
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "UPDATE matches SET issued_by_club_id = ?, issued_at = ?, issued_source = ?,"
            " accepted_at = NULL, accepted_source = NULL WHERE guild_id = ? AND id = ?",
            (club_id, instant_text(at), source, scope.guild_id, match_id),
        )
        scope.record("challenges_issued", {"match": match_id, "club": club_id, "source": source})

    async def correct_issuer(self, match_id: int, club_id: int) -> None:
        """An arbiter's correction of which club issued the challenge: its instants and its
        acceptance stay as recorded."""
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "UPDATE matches SET issued_by_club_id = ? WHERE guild_id = ? AND id = ?"
            " AND issued_at IS NOT NULL",
            (club_id, scope.guild_id, match_id),
        )
        scope.record("challenges_corrected", {"match": match_id, "club": club_id})

    async def accept_challenge(self, match_id: int, at: dt.datetime, source: Source) -> None:
        """Records the challenge's acceptance. The database refuses it before an issue."""
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "UPDATE matches SET accepted_at = ?, accepted_source = ? WHERE guild_id = ? AND id = ?",
            (instant_text(at), source, scope.guild_id, match_id),
        )
        scope.record("challenges_accepted", {"match": match_id, "source": source})

    async def finish(
        self, match_id: int, at: dt.datetime | None, *, link_chesscom: int | None = None
    ) -> None:
        """Records when the match finished, or None when it has not.

        When `link_chesscom` is given, the same statement links the match to that chess.com team
        match.
        """
        scope = self._write
        await self._season_of(match_id)
        finished = instant_text(at) if at else None
        if link_chesscom is None:
            await scope.execute(
                "UPDATE matches SET finished_at = ? WHERE guild_id = ? AND id = ?",
                (finished, scope.guild_id, match_id),
            )
        else:
            await scope.execute(
                "UPDATE matches SET finished_at = ?, chesscom_match_id = ?"
                " WHERE guild_id = ? AND id = ?",
                (finished, link_chesscom, scope.guild_id, match_id),
            )
            scope.record("matches_linked", {"match": match_id, "chesscom": link_chesscom})
        scope.record("matches_finished", {"match": match_id})

    async def replace_boards(self, match_id: int, boards: Sequence[BoardRecord]) -> None:
        """Sets the match's boards to exactly `boards`, as an import replacing an earlier one
        does.
        """
        scope = self._write
        season_id = await self._season_of(match_id)
        await scope.execute(
            "DELETE FROM boards WHERE guild_id = ? AND match_id = ?", (scope.guild_id, match_id)
        )
        await self._insert_boards([(match_id, b) for b in boards], season_id)
        scope.record("boards_replaced", {"match": match_id, "count": len(boards)})

    async def add_boards_many(
        self, season_id: int, boards: Sequence[tuple[int, BoardRecord]]
    ) -> None:
        """Adds boards to many matches of one season at once, for a season import."""
        await self._seasons.bump(season_id)
        await self._insert_boards(boards, season_id)
        self._write.record("boards_added", {"season": season_id, "count": len(boards)})

    async def _insert_boards(
        self, boards: Sequence[tuple[int, BoardRecord]], season_id: int
    ) -> None:
        """The boards in multi-row statements. Their games per board is the season's, checked by the
        foreign key."""
        scope = self._write
        if not boards:
            return
        games = await self._games_per_board(season_id)
        await scope.insert_rows(
            "INSERT INTO boards (guild_id, match_id, board, home_player, away_player,"
            " home_half, away_half, games_per_board) VALUES",
            [
                (
                    scope.guild_id,
                    match_id,
                    b.board,
                    b.home_player,
                    b.away_player,
                    b.home_half,
                    b.away_half,
                    games,
                )
                for match_id, b in boards
            ],
        )

    async def set_at_start(self, match_id: int, facts: AtStartRecord) -> None:
        """Records or replaces one club's facts at the match's start."""
        scope = self._write
        await self._season_of(match_id)
        await scope.execute(
            "INSERT INTO match_at_start (guild_id, match_id, club_id, members, avg_rating,"
            " players, observed_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (match_id, club_id) DO UPDATE SET members = excluded.members,"
            " avg_rating = excluded.avg_rating, players = excluded.players,"
            " observed_at = excluded.observed_at",
            (
                scope.guild_id,
                match_id,
                facts.club_id,
                facts.members,
                facts.avg_rating,
                facts.players,
                instant_text(facts.observed_at) if facts.observed_at else None,
            ),
        )
        scope.record("at_start_recorded", {"match": match_id, "club": facts.club_id})

    async def set_fielded(self, match_id: int, players: Mapping[int, int]) -> None:
        """CL-20: records how many players each club fielded, in one statement for every club.

        `players` maps club id to players. The other at-start facts already recorded are kept.
        """
        scope = self._write
        if not players:
            return
        await self._season_of(match_id)
        await scope.insert_rows(
            "INSERT INTO match_at_start (guild_id, match_id, club_id, players) VALUES",
            [(scope.guild_id, match_id, club_id, count) for club_id, count in players.items()],
            "ON CONFLICT (match_id, club_id) DO UPDATE SET players = excluded.players",
        )
        for club_id in players:
            scope.record("at_start_recorded", {"match": match_id, "club": club_id})
