"""What tour autocomplete offers while a member types: a guild's tours, events and players
whose names hold the typed text, each one indexed query, bounded."""

from __future__ import annotations

from dataclasses import dataclass

from storage.engine.codecs import CANDIDATES, like_pattern, name_filter
from storage.engine.scope import ReadScope


@dataclass(frozen=True)
class EventCandidate:
    """An event that matches the typed text, with its tour. `mine` is set if the member plays in
    it.
    """

    id: int
    tour: str
    name: str
    type: str
    mine: bool


class TourLookupReader:
    """Tour autocomplete lookups in exactly one guild's data."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def tours(self, text: str) -> list[str]:
        """Tour names holding `text`, newest first."""
        rows = await self._scope.fetchall(
            "SELECT name FROM tours WHERE guild_id = ? AND name_key LIKE ? ESCAPE '\\'"
            " ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, like_pattern(text), CANDIDATES),
        )
        return [str(r[0]) for r in rows]

    async def events(
        self, text: str, user_id: int, tour: str | None = None
    ) -> list[EventCandidate]:
        """Events whose name or tour's name holds `text`, of `tour` if given, the member's own
        first, then newest first."""
        like = like_pattern(text)
        tour_filter, tour_key = name_filter("t.name_key", tour)
        rows = await self._scope.fetchall(
            "SELECT e.id, t.name, e.name, e.type, EXISTS (SELECT 1 FROM event_players AS ep"
            " JOIN tour_players AS p ON p.id = ep.player_id WHERE ep.event_id = e.id"
            " AND p.user_id = ?) AS mine FROM tour_events AS e JOIN tours AS t ON t.id = e.tour_id"
            " WHERE e.guild_id = ? AND (e.name_key LIKE ? ESCAPE '\\'"
            f" OR t.name_key LIKE ? ESCAPE '\\'){tour_filter}"
            " ORDER BY mine DESC, e.id DESC LIMIT ?",
            (user_id, self._scope.guild_id, like, like, *tour_key, CANDIDATES),
        )
        return [EventCandidate(r[0], r[1], r[2], r[3], bool(r[4])) for r in rows]

    async def players(self, text: str, tour: str | None = None) -> list[str]:
        """Tour player names holding `text`, of the tour named `tour` if given."""
        tour_filter, tour_key = name_filter("t.name_key", tour)
        rows = await self._scope.fetchall(
            "SELECT min(p.name) FROM tour_players AS p JOIN tours AS t ON t.id = p.tour_id"
            f" WHERE p.guild_id = ? AND p.name_key LIKE ? ESCAPE '\\'{tour_filter}"
            " GROUP BY p.name_key ORDER BY p.name_key LIMIT ?",
            (self._scope.guild_id, like_pattern(text), *tour_key, CANDIDATES),
        )
        return [str(r[0]) for r in rows]

    async def event_players(self, text: str, event_id: int) -> list[str]:
        """Names of the event's players holding `text`."""
        rows = await self._scope.fetchall(
            "SELECT p.name FROM event_players AS e JOIN tour_players AS p ON p.id = e.player_id"
            " WHERE e.guild_id = ? AND e.event_id = ? AND p.name_key LIKE ? ESCAPE '\\'"
            " ORDER BY coalesce(e.pairing_no, e.entry_no) LIMIT ?",
            (self._scope.guild_id, event_id, like_pattern(text), CANDIDATES),
        )
        return [str(r[0]) for r in rows]
