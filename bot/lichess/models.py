"""Pydantic models of lichess.org's game export at `/api/games/user/{user}`.

The export has one JSON object per line of NDJSON, as the published API documentation describes it
under the schema `GameJson`. Every model tolerates missing keys and ignores unknown ones. The
timestamps `createdAt` and `lastMoveAt` are milliseconds since the epoch. `clock` is absent for
correspondence games. A player is a user, with `user.name` and `user.id`, or the computer, with
`aiLevel` and no user.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field


class _Payload(BaseModel):
    """Base of payload models: immutable, unknown keys ignored, camelCase keys by alias."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


def from_millis(value: int) -> datetime:
    """A lichess timestamp, in milliseconds since the epoch, as an aware UTC instant."""
    return datetime.fromtimestamp(value / 1000, tz=UTC)


class LichessUser(_Payload):
    """The account of a player: display name and lowercase id."""

    name: str = ""
    id: str = ""


class LichessPlayer(_Payload):
    """One side of a game: a user with a rating, or the computer at `ai_level`."""

    user: LichessUser | None = None
    rating: int | None = None
    ai_level: int | None = Field(None, alias="aiLevel")

    @property
    def username(self) -> str:
        """The player's username, or "" for the computer or an anonymous player."""
        return self.user.name if self.user is not None else ""


class LichessPlayers(_Payload):
    """Both sides of a game."""

    white: LichessPlayer = Field(default_factory=LichessPlayer)
    black: LichessPlayer = Field(default_factory=LichessPlayer)


class LichessClock(_Payload):
    """A real-time game's clock in seconds. `totalTime` is the initial time plus 40 × increment."""

    initial: int
    increment: int
    total_time: int | None = Field(None, alias="totalTime")


class LichessGame(_Payload):
    """One exported game: id, variant, speed, timestamps, status, players, winner, clock and PGN.

    The winner's colour is absent for a draw or an unfinished game. The PGN comes with `pgnInJson`.
    """

    id: str
    rated: bool | None = None
    variant: str = "standard"
    speed: str | None = None
    perf: str | None = None
    created_at: int = Field(alias="createdAt")
    last_move_at: int | None = Field(None, alias="lastMoveAt")
    status: str = ""
    players: LichessPlayers = Field(default_factory=LichessPlayers)
    winner: str | None = None
    initial_fen: str | None = Field(None, alias="initialFen")
    moves: str | None = None
    pgn: str | None = None
    clock: LichessClock | None = None
    days_per_turn: int | None = Field(None, alias="daysPerTurn")

    @property
    def ended_at(self) -> datetime:
        """When the game's last move was played, or its creation if it has no move."""
        return from_millis(self.last_move_at if self.last_move_at is not None else self.created_at)
