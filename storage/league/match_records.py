"""What a match holds as stored: its fixture, challenge, at-start facts and boards.

The repository in `storage.league.matches` reads and writes them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

Source = Literal["declared", "chesscom", "director"]
"""How a challenge step was learned: a club admin declared it, the bot saw it on chess.com,
or a director set it."""


@dataclass(frozen=True)
class ChallengeRecord:
    """A match's challenge by CL-15: the issuing club, when, and the acceptance.

    Each comes with how it was learned.
    """

    issued_by: int
    issued_at: dt.datetime
    issued_source: Source
    accepted_at: dt.datetime | None = None
    accepted_source: Source | None = None


@dataclass(frozen=True)
class NewMatch:
    """A fixture to add. `key` is its id in the season file, unique in the season."""

    division_id: int
    key: str
    round: int
    home_club_id: int
    away_club_id: int
    start: dt.datetime
    finished_at: dt.datetime | None = None
    challenge: ChallengeRecord | None = None
    chesscom_match_id: int | None = None
    deadline_at: dt.datetime | None = None


@dataclass(frozen=True)
class MatchRecord:
    """A match as stored."""

    id: int
    season_id: int
    division_id: int
    key: str
    round: int
    home_club_id: int
    away_club_id: int
    start: dt.datetime
    finished_at: dt.datetime | None
    challenge: ChallengeRecord | None
    chesscom_match_id: int | None
    games_per_board: int
    """The season's games per board. By CL-14 every board's points add up to it."""
    deadline_at: dt.datetime | None = None
    """CL-15: the challenge deadline a passed reschedule motion fixed.

    None means the season's notice before the start.
    """


@dataclass(frozen=True)
class BoardRecord:
    """One board by CL-14: chess.com usernames as given, and points in integer half-points."""

    board: int
    home_player: str
    away_player: str
    home_half: int
    away_half: int


@dataclass(frozen=True)
class AtStartRecord:
    """A club's facts at a match's start by CL-5, CL-6 and CL-20. Any may be unknown."""

    club_id: int
    members: int | None = None
    avg_rating: float | None = None
    players: int | None = None
    observed_at: dt.datetime | None = None
