"""What autocomplete offers while a member types: a guild's clubs, seasons, divisions,
matches and players whose names hold the typed text, each one indexed query, bounded."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from storage.engine.codecs import CANDIDATES, like_pattern, name_filter, to_text
from storage.engine.scope import ReadScope


@dataclass(frozen=True)
class ClubCandidate:
    """A club that matches the typed text. `mine` is set if the member administers it."""

    id: int
    name: str
    status: str
    mine: bool


@dataclass(frozen=True)
class SeasonCandidate:
    """A season that matches the typed text."""

    id: int
    name: str
    status: str


@dataclass(frozen=True)
class MatchCandidate:
    """A match that matches the typed text by its key, season or a club's name."""

    id: int
    season: str
    key: str
    round: int
    home: str
    away: str
    start: dt.datetime
    finished: bool
    mine: bool


class LookupReader:
    """Autocomplete lookups in exactly one guild's data."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def clubs(self, text: str, user_id: int) -> list[ClubCandidate]:
        """Clubs whose name or chess.com url-id holds `text`."""
        rows = await self._scope.fetchall(
            "SELECT c.id, c.name, c.status, EXISTS (SELECT 1 FROM club_admins AS a"
            " WHERE a.guild_id = c.guild_id AND a.club_id = c.id AND a.user_id = ?)"
            " FROM clubs AS c WHERE c.guild_id = ?"
            " AND (c.name_key LIKE ? ESCAPE '\\' OR c.chesscom_id LIKE ? ESCAPE '\\')"
            " ORDER BY c.name_key LIMIT ?",
            (user_id, self._scope.guild_id, like_pattern(text), like_pattern(text), CANDIDATES),
        )
        return [ClubCandidate(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def seasons(self, text: str) -> list[SeasonCandidate]:
        """Seasons whose name holds `text`, newest first."""
        rows = await self._scope.fetchall(
            "SELECT id, name, status FROM seasons WHERE guild_id = ? AND name_key LIKE ?"
            " ESCAPE '\\' ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, like_pattern(text), CANDIDATES),
        )
        return [SeasonCandidate(r[0], r[1], r[2]) for r in rows]

    async def divisions(self, text: str, season: str | None) -> list[str]:
        """Division names holding `text`, of the season named `season`, else of any season newest
        first.
        """
        season_filter, season_key = name_filter("s.name_key", season)
        rows = await self._scope.fetchall(
            "SELECT d.name FROM divisions AS d JOIN seasons AS s ON s.id = d.season_id"
            " WHERE d.guild_id = ? AND lower(d.name) LIKE ? ESCAPE '\\'"
            f"{season_filter} GROUP BY d.name ORDER BY max(s.id) DESC, min(d.position) LIMIT ?",
            (self._scope.guild_id, like_pattern(text), *season_key, CANDIDATES),
        )
        return [str(r[0]) for r in rows]

    async def matches(
        self, text: str, user_id: int, now: dt.datetime, season: str | None = None
    ) -> list[MatchCandidate]:
        """Matches whose key or clubs hold `text`, of the season named `season` if given.

        The member's clubs' matches come first, then unplayed ones from the next start on.
        """
        season_filter, season_key = name_filter("s.name_key", season)
        like = like_pattern(text)
        rows = await self._scope.fetchall(
            "SELECT m.id, s.name, m.key, m.round, h.name, a.name, m.start,"
            " m.finished_at IS NOT NULL, EXISTS (SELECT 1 FROM club_admins AS ad"
            " WHERE ad.guild_id = m.guild_id AND ad.user_id = ?"
            " AND ad.club_id IN (m.home_club_id, m.away_club_id)) AS mine"
            " FROM matches AS m JOIN seasons AS s ON s.id = m.season_id"
            " JOIN clubs AS h ON h.id = m.home_club_id JOIN clubs AS a ON a.id = m.away_club_id"
            " WHERE m.guild_id = ? AND (lower(m.key) LIKE ? ESCAPE '\\'"
            " OR CAST(m.id AS TEXT) LIKE ? ESCAPE '\\'"
            " OR h.name_key LIKE ? ESCAPE '\\' OR a.name_key LIKE ? ESCAPE '\\'"
            f" OR s.name_key LIKE ? ESCAPE '\\'){season_filter}"
            " ORDER BY mine DESC, m.finished_at IS NOT NULL, m.start < ?, m.start, m.id LIMIT ?",
            (user_id, self._scope.guild_id, *[like] * 5, *season_key, to_text(now), CANDIDATES),
        )
        return [
            MatchCandidate(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                dt.datetime.fromisoformat(r[6]),
                bool(r[7]),
                bool(r[8]),
            )
            for r in rows
        ]

    async def players(self, text: str, club: str | None = None) -> list[str]:
        """chess.com usernames holding `text` that played a board for `club`, if given, or are
        linked to a member."""
        like = like_pattern(text)
        club_filter, club_key = name_filter("c.name_key", club)
        rows = await self._scope.fetchall(
            "SELECT min(player) FROM ("
            " SELECT CASE WHEN c.id = m.home_club_id THEN b.home_player ELSE b.away_player END"
            " AS player FROM boards AS b JOIN matches AS m ON m.id = b.match_id"
            " JOIN clubs AS c ON c.id IN (m.home_club_id, m.away_club_id)"
            " WHERE b.guild_id = ? AND lower(CASE WHEN c.id = m.home_club_id"
            " THEN b.home_player ELSE b.away_player END) LIKE ? ESCAPE '\\'"
            f"{club_filter}"
            " UNION SELECT username FROM roster_links WHERE guild_id = ? AND username_key LIKE ?"
            " ESCAPE '\\') GROUP BY lower(player) ORDER BY lower(player) LIMIT ?",
            (self._scope.guild_id, like, *club_key, self._scope.guild_id, like, CANDIDATES),
        )
        return [str(r[0]) for r in rows]
