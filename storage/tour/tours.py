"""Tours of one guild and their players, by CCT-2, CCT-3 and CCT-16.

A tour's rules are frozen at creation. Each player has a name, a linked member, chess.com and
lichess usernames, an Ambassador flag and an expulsion.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.names import name_key
from core.tour.rules import TourRules
from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope
from storage.tour.codecs import tour_rules_of, tour_rules_text


@dataclass(frozen=True)
class TourRecord:
    """A tour as stored, with its rules frozen at creation, as CCT-16 requires."""

    id: int
    guild_id: int
    name: str
    rules: TourRules
    created_by: int | None
    created_at: dt.datetime


@dataclass(frozen=True)
class TourPlayer:
    """A player of a tour: name, linked member, usernames, Ambassador, and expulsion by CCT-9."""

    id: int
    tour_id: int
    name: str
    user_id: int | None
    chesscom: str | None
    lichess: str | None
    ambassador: bool
    expelled: bool


_TOUR = "SELECT id, guild_id, name, rules, created_by, created_at FROM tours"
_PLAYER = (
    "SELECT id, tour_id, name, user_id, chesscom, lichess, ambassador,"
    " expelled_at IS NOT NULL FROM tour_players"
)


def _tour(row: Row) -> TourRecord:
    return TourRecord(row[0], row[1], row[2], tour_rules_of(row[3]), row[4], from_text(row[5]))


def _player(row: Row) -> TourPlayer:
    return TourPlayer(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), bool(row[7]))


class TourReader:
    """The tours and tour players of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, tour_id: int) -> TourRecord | None:
        """The tour with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"{_TOUR} WHERE guild_id = ? AND id = ?", (self._scope.guild_id, tour_id)
        )
        return None if row is None else _tour(row)

    async def by_name(self, name: str) -> TourRecord | None:
        """The tour of this name, compared case-insensitively, or None."""
        if not name.strip():
            return None
        row = await self._scope.fetchone(
            f"{_TOUR} WHERE guild_id = ? AND name_key = ?", (self._scope.guild_id, name_key(name))
        )
        return None if row is None else _tour(row)

    async def all(self) -> list[TourRecord]:
        """The guild's tours, oldest first."""
        rows = await self._scope.fetchall(
            f"{_TOUR} WHERE guild_id = ? ORDER BY id", (self._scope.guild_id,)
        )
        return [_tour(row) for row in rows]

    async def players(self, tour_id: int) -> list[TourPlayer]:
        """The tour's players, by name."""
        rows = await self._scope.fetchall(
            f"{_PLAYER} WHERE guild_id = ? AND tour_id = ? ORDER BY name_key",
            (self._scope.guild_id, tour_id),
        )
        return [_player(row) for row in rows]

    async def player(self, player_id: int) -> TourPlayer | None:
        """The tour player with this id, or None."""
        row = await self._scope.fetchone(
            f"{_PLAYER} WHERE guild_id = ? AND id = ?", (self._scope.guild_id, player_id)
        )
        return None if row is None else _player(row)

    async def player_by_name(self, tour_id: int, name: str) -> TourPlayer | None:
        """The tour's player of this name, compared case-insensitively, or None."""
        if not name.strip():
            return None
        row = await self._scope.fetchone(
            f"{_PLAYER} WHERE guild_id = ? AND tour_id = ? AND name_key = ?",
            (self._scope.guild_id, tour_id, name_key(name)),
        )
        return None if row is None else _player(row)

    async def player_of_user(self, tour_id: int, user_id: int) -> TourPlayer | None:
        """The tour's player linked to this member, or None."""
        row = await self._scope.fetchone(
            f"{_PLAYER} WHERE guild_id = ? AND tour_id = ? AND user_id = ?",
            (self._scope.guild_id, tour_id, user_id),
        )
        return None if row is None else _player(row)


class TourRepository(TourReader):
    """The tours and tour players of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def create(
        self, name: str, rules: TourRules, *, created_by: int | None = None
    ) -> TourRecord:
        """A new tour with its rules frozen by CCT-16. A taken name raises IntegrityError."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tours (guild_id, name, name_key, rules, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                name.strip(),
                name_key(name),
                tour_rules_text(rules),
                created_by,
                to_text(scope.now),
            ),
        )
        scope.record("tours_created", {"tour": new_id, "name": name.strip()})
        tour = await self.get(new_id)
        assert tour is not None
        return tour

    async def delete(self, tour_id: int) -> bool:
        """Removes a tour and every fact of it, such as events, players and games."""
        scope = self._write
        cursor = await scope.execute(
            "DELETE FROM tours WHERE guild_id = ? AND id = ?", (scope.guild_id, tour_id)
        )
        scope.record("tours_deleted", {"tour": tour_id})
        return cursor.rowcount > 0

    async def add_player(
        self,
        tour_id: int,
        name: str,
        *,
        user_id: int | None = None,
        chesscom: str | None = None,
        lichess: str | None = None,
        ambassador: bool = False,
    ) -> TourPlayer:
        """A new player of the tour. A taken name or linked member raises IntegrityError."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_players (guild_id, tour_id, name, name_key, user_id, chesscom,"
            " lichess, ambassador, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                tour_id,
                name.strip(),
                name_key(name),
                user_id,
                None if chesscom is None else chesscom.lower(),
                None if lichess is None else lichess.lower(),
                int(ambassador),
                to_text(scope.now),
            ),
        )
        scope.record("tour_players_added", {"player": new_id, "name": name.strip()})
        player = await self.player(new_id)
        assert player is not None
        return player

    async def link(self, player_id: int, user_id: int | None) -> None:
        """Links the player to a member, or unlinks for None.

        A member linked to another player of the tour raises IntegrityError.
        """
        scope = self._write
        await scope.execute(
            "UPDATE tour_players SET user_id = ? WHERE guild_id = ? AND id = ?",
            (user_id, scope.guild_id, player_id),
        )
        scope.record("tour_players_linked", {"player": player_id, "user": user_id})

    async def set_usernames(
        self, player_id: int, chesscom: str | None, lichess: str | None
    ) -> None:
        """Sets the player's chess.com and lichess usernames. None means none."""
        scope = self._write
        await scope.execute(
            "UPDATE tour_players SET chesscom = ?, lichess = ? WHERE guild_id = ? AND id = ?",
            (
                None if chesscom is None else chesscom.lower(),
                None if lichess is None else lichess.lower(),
                scope.guild_id,
                player_id,
            ),
        )

    async def set_ambassador(self, player_id: int, ambassador: bool) -> None:
        """Makes the player a Tour Ambassador or not, by CCT-3 and CCT-5."""
        scope = self._write
        await scope.execute(
            "UPDATE tour_players SET ambassador = ? WHERE guild_id = ? AND id = ?",
            (int(ambassador), scope.guild_id, player_id),
        )
        scope.record("tour_ambassadors", {"player": player_id, "ambassador": ambassador})

    async def expel(self, player_id: int) -> None:
        """CCT-9: the player is expelled and by CCT-5 gets no prize."""
        scope = self._write
        await scope.execute(
            "UPDATE tour_players SET expelled_at = coalesce(expelled_at, ?)"
            " WHERE guild_id = ? AND id = ?",
            (to_text(scope.now), scope.guild_id, player_id),
        )
        scope.record("tour_players_expelled", {"player": player_id})
